package placement_test

import (
	"bytes"
	"context"
	"math"
	"testing"
	"time"

	"github.com/gputco/gputco/placement"
	"github.com/gputco/gputco/placement/lp"
	"github.com/gputco/gputco/provider"
)

// TestReview2ReductionsUnderOptions holds the reductions (dominated
// committed offers and pay-as-you-go pairs left out, unlimited
// pay-as-you-go use of a job aggregated) to cbc on the full model
// (ModelFull) where TestReductionsExact does not go: with a spot-share
// limit (an unlimited spot offer next to on-demand ones, a spot
// reservation that would dominate a dearer on-demand one but for the
// limit), and over time (two epochs, lead times on one unlimited offer).
func TestReview2ReductionsUnderOptions(t *testing.T) {
	bin := cbcPath(t)
	seeds := []uint64{3} // the cheapest; seeds 0..3 all passed (≈ 25 s on a loaded machine)
	ctx := context.Background()
	for _, seed := range seeds {
		for _, overTime := range []bool{false, true} {
			p := reducible(seed+700, seed%2 == 1)
			p.Offers = append(p.Offers, spot("spot-big", "6", 8, 0, 0.002), spot("spot-res", "5", 4, 0, 0))
			p.Offers[len(p.Offers)-1].Pricing = provider.Reserved{Term: provider.Year, RecurringPerHour: dec("5")}
			p.Options.MaxSpotShare = 0.3
			p.Options.Gap = 1e-9
			if overTime {
				p.Options.OverTime = true
				p.Options.Epoch = 6 * provider.Month
				p.Options.Period = 24 * time.Hour
				p.Options.Slices = 4
				lead := onDemand("od-late", "14", 8, 0)
				lead.Availability.LeadTime = 2 * provider.Month
				p.Offers = append(p.Offers, lead)
			}
			full, err := placement.ModelFull(p)
			if err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			if err := lp.WriteMPS(&buf, full); err != nil {
				t.Fatal(err)
			}
			want := cbcObjective(t, bin, buf.Bytes())
			plan, err := placement.Solve(ctx, p)
			if err != nil {
				t.Fatalf("seed %d over time %v: %v", seed, overTime, err)
			}
			if got := f64(plan.Total); math.Abs(got-want) > 1e-6*max(1, math.Abs(want)) {
				t.Errorf("seed %d over time %v: Solve %.6f, cbc on the full model %.6f", seed, overTime, got, want)
			}
			reduced, err := placement.Model(p)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("seed %d over time %v: full %d cols, reduced %d; optimum %.4f", seed, overTime, full.NumCols(), reduced.NumCols(), want)
		}
	}
}
