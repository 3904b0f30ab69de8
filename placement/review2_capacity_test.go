package placement_test

import (
	"context"
	"testing"
	"time"

	"github.com/gputco/gputco/placement"
	"github.com/gputco/gputco/provider"
)

// TestReview2GangCapacity checks plans over time with several gangs,
// services and jobs against committed capacity moment by moment, outside
// the solver: in every stretch and slice, the GPUs of the other workloads
// on a reserved or owned offer plus the most GPUs the gang runs on it hold
// at once in the stretch (their nodes over [Start, Finish)) are within the
// nodes held there; every gang run starts at or after its offer's lead
// time, finishes by its deadline and the horizon, and holds no more nodes
// than the offer's stock.
func TestReview2GangCapacity(t *testing.T) {
	n := 3
	if testing.Short() {
		n = 2
	}
	for seed := range uint64(n) {
		p := timePortfolio(seed+900, 1, 0, 3, 3, 2, 6*provider.Month, 3*provider.Month, true)
		p.Options.OverTime = true
		p.Options.Period = 24 * time.Hour
		p.Options.Gap = 1e-4
		plan, err := placement.Solve(context.Background(), p)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		offers := map[string]provider.Offer{}
		for _, o := range p.Offers {
			offers[o.ID] = o
		}
		type run struct {
			held          int
			start, finish time.Duration
		}
		runs := map[string][]run{}
		for i, a := range plan.Assignments {
			g := a.Gang
			if g == nil {
				continue
			}
			w, o := p.Workloads[i], offers[g.Offer]
			if g.Start < o.LeadTime() || w.Deadline > 0 && g.Finish > w.Deadline || g.Finish > p.Assumptions.Horizon {
				t.Errorf("seed %d: %s runs %+v on %s: lead time %v, deadline %v", seed, w.Name, g, o.ID, o.LeadTime(), w.Deadline)
			}
			if m := o.Availability.MaxNodes; m > 0 && g.Nodes > m {
				t.Errorf("seed %d: %s holds %d nodes of %s, stock %d", seed, w.Name, g.Nodes, o.ID, m)
			}
			runs[g.Offer] = append(runs[g.Offer], run{g.Nodes * o.GPUsPerNode, g.Start, g.Finish})
		}
		T := plan.Slices
		gangs, onCommitted := 0, 0
		for id, rs := range runs {
			gangs += len(rs)
			if offers[id].Pricing.Mode() != "pay-as-you-go" {
				onCommitted += len(rs)
			}
		}
		for s, e := range plan.Epochs {
			held := map[string]int{}
			for _, h := range e.Held {
				held[h.Offer] = h.Nodes
			}
			for id, o := range offers {
				switch o.Pricing.(type) {
				case provider.Reserved, provider.Owned:
				default:
					continue
				}
				most := 0 // the most gang GPUs held at once in the stretch
				moments := []time.Duration{e.Start}
				for _, r := range runs[id] {
					if r.start > e.Start && r.start < e.End {
						moments = append(moments, r.start)
					}
				}
				for _, m := range moments {
					at := 0
					for _, r := range runs[id] {
						if r.start <= m && m < r.finish {
							at += r.held
						}
					}
					most = max(most, at)
				}
				limit := float64(held[id] * o.GPUsPerNode)
				for j := range T {
					use := float64(most)
					for _, a := range plan.Assignments {
						if a.Gang != nil {
							continue
						}
						for _, u := range a.Uses {
							if u.Offer == id {
								use += u.GPUs[s*T+j]
							}
						}
					}
					if use > limit+1e-6*max(1, limit) {
						t.Errorf("seed %d: %s in %v–%v slice %d: %g GPUs in use (%d held by gangs at once), %g held",
							seed, id, e.Start, e.End, j, use, most, limit)
					}
				}
			}
		}
		t.Logf("seed %d: %d gang runs placed (%d on committed capacity), %d unplaced, total %v", seed, gangs, onCommitted, len(plan.Unplaced), plan.Total)
	}
}
