package placement_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/gputco/gputco/placement"
	"github.com/gputco/gputco/tco"
)

// TestUnplacedErrorText: the exclusions of an UnplacedError are separated
// by "; " with none after the last, and beyond three the rest are counted.
func TestUnplacedErrorText(t *testing.T) {
	excl := func(n int) []tco.Exclusion {
		var xs []tco.Exclusion
		for i := range n {
			xs = append(xs, tco.Exclusion{Offer: fmt.Sprint("o", i), Err: fmt.Errorf("reason %d", i)})
		}
		return xs
	}
	for _, c := range []struct {
		n    int
		want string
	}{
		{1, `placement: workload "w": every offer (1) excluded: reason 0`},
		{2, `placement: workload "w": every offer (2) excluded: reason 0; reason 1`},
		{5, `placement: workload "w": every offer (5) excluded: reason 0; reason 1; reason 2; … and 2 more`},
	} {
		err := &placement.UnplacedError{Workload: "w", Excluded: excl(c.n)}
		if got := err.Error(); got != c.want {
			t.Errorf("%d exclusions:\n got %s\nwant %s", c.n, got, c.want)
		}
		if !errors.Is(err, placement.ErrNoOffer) {
			t.Errorf("%d exclusions: not ErrNoOffer", c.n)
		}
	}
}
