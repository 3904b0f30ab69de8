module github.com/gputco/gputco

go 1.26.8

require (
	github.com/google/go-cmp v0.7.0 // indirect
	github.com/shopspring/decimal v1.6.0 // indirect
	gonum.org/v1/gonum v0.17.0 // indirect
	pgregory.net/rapid v1.3.0 // indirect
)
