package merit

import (
	"errors"
	"fmt"
)

// Sentinel errors of the package. Test for them with errors.Is.
var (
	// ErrInvalid reports a Problem whose shape or values make it meaningless
	// (NaN, infinite or negative quantities, mismatched lengths, no offer).
	ErrInvalid = errors.New("merit: invalid problem")
	// ErrInfeasible reports demand whose peak exceeds the total stock of all
	// offers. The error is an *InfeasibleError carrying the shortfall.
	ErrInfeasible = errors.New("merit: infeasible")
	// ErrNodeLimit reports a whole-node search stopped at its node limit
	// before proving optimality; the best plan found is returned with it.
	ErrNodeLimit = errors.New("merit: node limit reached")
)

// InfeasibleError reports that no placement can meet the peak demand: the
// offers' stock limits (each rounded down to whole nodes where an offer has a
// node size) sum to less than the peak.
type InfeasibleError struct {
	PeakGPUs      float64 // the largest demand of any slice
	StockGPUs     float64 // the sum of all usable stock limits
	ShortfallGPUs float64 // PeakGPUs − StockGPUs (> 0)
}

// Error implements error.
func (e *InfeasibleError) Error() string {
	return fmt.Sprintf("merit: infeasible: peak demand %g GPUs exceeds total stock %g GPUs by %g GPUs",
		e.PeakGPUs, e.StockGPUs, e.ShortfallGPUs)
}

// Unwrap makes errors.Is(err, ErrInfeasible) hold.
func (e *InfeasibleError) Unwrap() error { return ErrInfeasible }
