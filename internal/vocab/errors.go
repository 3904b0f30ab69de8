package vocab

import "errors"

// Sentinel errors that the provider and workload packages share, so that a
// problem of one kind is one error value whichever package reports it (and
// tco passes both on): provider.ErrMissing is workload.ErrMissing, and so
// on. Their texts carry no package prefix; the errors wrapping them do.
var (
	// ErrMissing reports a required value that is empty or zero.
	ErrMissing = errors.New("required value missing")
	// ErrNotFinite reports a NaN or infinite number.
	ErrNotFinite = errors.New("not a finite number")
	// ErrNegative reports a negative quantity, duration or amount where only
	// zero or more is meaningful.
	ErrNegative = errors.New("negative value")
	// ErrOutOfRange reports a value outside its documented range.
	ErrOutOfRange = errors.New("value out of range")
	// ErrMalformed reports input that does not parse: JSON or CSV that is not
	// well formed, has unknown fields or values of the wrong type.
	ErrMalformed = errors.New("malformed value")
	// ErrTooManyProblems ends a list of problems cut at a package's
	// MaxProblems.
	ErrTooManyProblems = errors.New("too many problems")
)
