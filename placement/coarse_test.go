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
	t.Parallel() // CPU-bound: runs beside the other long tests of the package
	seeds := []uint64{0, 1, 2, 3}
	if testing.Short() {
		// The smallest of the four (812 columns): seed 0's model (1 872)
		// takes 4 s, 80 s under the race detector.
		seeds = []uint64{1}
	}
	compared := 0
	for _, seed := range seeds {
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
	if compared < len(seeds)/2 {
		t.Errorf("%d pools compared in %d problems, want at least half as many", compared, len(seeds))
	}
}
