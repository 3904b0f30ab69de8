package lp

import "errors"

// Sentinel errors of the package. Test for them with errors.Is.
var (
	// ErrInvalid reports a Problem, Options or Basis whose shape or values
	// make it unsolvable as given (see Problem.Validate).
	ErrInvalid = errors.New("lp: invalid problem")
	// ErrSyntax reports malformed MPS or LP input; the error names the line.
	ErrSyntax = errors.New("lp: syntax error")
	// ErrUnsupported reports valid input that uses a feature this package
	// does not handle (for example semi-continuous bounds in MPS).
	ErrUnsupported = errors.New("lp: unsupported feature")
	// ErrNumerical reports a solve abandoned because the linear algebra
	// became unreliable (a singular basis that repair could not mend).
	ErrNumerical = errors.New("lp: numerical difficulty")
	// ErrSolverUnavailable reports an external solver that cannot be run
	// (binary not found).
	ErrSolverUnavailable = errors.New("lp: external solver unavailable")
	// ErrCertificate reports a Result that fails Result.Verify: it is not
	// a proven answer to the problem.
	ErrCertificate = errors.New("lp: certificate check failed")
)
