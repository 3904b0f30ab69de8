package placement_test

import (
	"math"
	"testing"

	"github.com/gputco/gputco/placement"
	"github.com/gputco/gputco/provider"
)

// TestCoarseRelaxes: the coarse relaxation of a pool (slices of a stretch
// merged at their mean demand and least repetitions) has an optimum no
// higher than the pool's model on random problems over time with growing
// demand, jobs and gangs — a lower bound, as Solve uses it — and is
// smaller.
func TestCoarseRelaxes(t *testing.T) {
	n := 4
	if testing.Short() {
		n = 1 // growing curves are integrated numerically by tco: slow under the race detector
	}
	compared := 0
	for seed := range uint64(n) {
		p := timePortfolio(seed+1, 3, 1, 1, 4, 12, provider.Year, 3*provider.Month, seed%2 == 1)
		coarse, full, cc, fc, err := placement.CoarseOptima(p)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		for i := range coarse {
			compared++
			if coarse[i] > full[i]+1e-7*max(1, math.Abs(full[i])) {
				t.Errorf("seed %d pool %d: coarse optimum %.6f above the model's %.6f", seed, i, coarse[i], full[i])
			}
			if cc[i] >= fc[i] {
				t.Errorf("seed %d pool %d: coarse model of %d columns, the model %d", seed, i, cc[i], fc[i])
			}
			t.Logf("seed %d pool %d: coarse %.2f (%d cols), model %.2f (%d cols)", seed, i, coarse[i], cc[i], full[i], fc[i])
		}
	}
	if compared < n/2 {
		t.Errorf("%d pools compared in %d problems, want at least half as many", compared, n)
	}
}
