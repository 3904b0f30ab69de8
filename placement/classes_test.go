package placement_test

import (
	"bytes"
	"fmt"
	"math"
	"testing"

	"github.com/gputco/gputco/placement/lp"
	"github.com/gputco/gputco/provider"
)

// TestSliceClassesExact checks the reduction of a stretch's slices that the
// model cannot tell apart to one (over time): on random portfolios of jobs,
// gangs and a steady service (whose slices are alike within a stretch)
// over a year in quarterly epochs with lead times, Solve's optimum equals
// cbc's on the full model (ModelFull: every slice its own columns and
// rows) within 1e-6, and the reduced model has fewer columns. The race
// pass (-short) runs seeds 2 and 5, one with hidden costs and one without:
// Solve takes under 0.1 s on each (seeds 0, 1 and 3 take 2 to 8 s, ten
// times that under -race). The seeds run as parallel subtests, cbc beside
// Solve.
func TestSliceClassesExact(t *testing.T) {
	bin := cbcPath(t)
	seeds := []uint64{0, 1, 2, 3, 4, 5}
	if testing.Short() {
		seeds = []uint64{2, 5}
	}
	for _, seed := range seeds {
		t.Run(fmt.Sprintf("seed=%d", seed), func(t *testing.T) {
			t.Parallel()
			p := timePortfolio(seed+40, 0, 3, 2, 4, 4, provider.Year, 3*provider.Month, seed%2 == 1)
			svc := steady("steady", 8+int(seed%3)*4, 0.75)
			svc.Horizon = provider.Year
			p.Workloads = append(p.Workloads, svc)
			p.Options.Gap = 1e-9
			full, reduced := models(t, p)
			if reduced.NumCols() >= full.NumCols() {
				t.Errorf("seed %d: reduced model %d columns, full %d: no slices merged", seed, reduced.NumCols(), full.NumCols())
			}
			var buf bytes.Buffer
			if err := lp.WriteMPS(&buf, full); err != nil {
				t.Fatal(err)
			}
			plan, want := solveBesideCBC(t, bin, buf.Bytes(), p)
			if got := f64(plan.Total); math.Abs(got-want) > 1e-6*max(1, math.Abs(want)) {
				t.Errorf("seed %d: Solve %.6f, cbc on the full model %.6f", seed, got, want)
			}
			if len(plan.Assignments) == 0 {
				t.Errorf("seed %d: nothing placed: the case tests nothing", seed)
			}
		})
	}
}
