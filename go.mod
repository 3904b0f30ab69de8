module github.com/gputco/gputco

go 1.26.8

require (
	github.com/google/go-cmp v0.7.0
	github.com/shopspring/decimal v1.6.0
	gonum.org/v1/gonum v0.17.0
	pgregory.net/rapid v1.3.0
)
