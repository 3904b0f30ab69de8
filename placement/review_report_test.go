package placement_test

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/gputco/gputco/placement"
	"github.com/shopspring/decimal"
)

// rvConsistent checks that a plan over time reports per stretch what its
// totals say: the total is the sum of the uses' and commitments' costs; a
// commitment's cost is the sum of its Held costs (no per-offer lines in
// these cases); each stretch holds the nodes of the commitments covering
// it; the stretches' GPU-hours add up to each use's; a slice's GPUs by
// offer add up to its tiers; committed GPUs in a slice fit the nodes held;
// the JSON and the text carry every stretch.
func rvConsistent(t *testing.T, plan placement.Plan, gpn map[string]int) {
	t.Helper()
	tot := decimal.Zero
	for _, a := range plan.Assignments {
		for _, u := range a.Uses {
			tot = tot.Add(u.Cost)
		}
	}
	for _, c := range plan.Commitments {
		tot = tot.Add(c.Cost)
		held := decimal.Zero
		for _, h := range c.Held {
			held = held.Add(h.Cost)
		}
		if !held.Equal(c.Cost) {
			t.Errorf("%s: cost %s, its commitments' %s", c.Offer, c.Cost, held)
		}
	}
	if !tot.Equal(plan.Total) {
		t.Errorf("total %s, the uses and commitments %s", plan.Total, tot)
	}
	gpuh := map[[2]string]float64{}
	for _, e := range plan.Epochs {
		nodes := map[string]int{}
		for _, c := range plan.Commitments {
			for _, h := range c.Held {
				if h.Start == e.Start && !slices.ContainsFunc(e.Started, func(s placement.Held) bool {
					return s.Offer == h.Offer && s.Nodes == h.Nodes && s.Order == h.Order && s.End == h.End && s.Cost.Equal(h.Cost)
				}) {
					t.Errorf("%s commitment %+v not in the Started of its stretch", c.Offer, h)
				}
				if h.Start <= e.Start && e.End <= h.End {
					nodes[c.Offer] += h.Nodes
				} else if h.Start < e.End && e.Start < h.End {
					t.Errorf("%s commitment %v–%v covers part of stretch %v–%v", c.Offer, h.Start, h.End, e.Start, e.End)
				}
			}
		}
		for _, h := range e.Started {
			if h.Start != e.Start || h.Order > h.Start {
				t.Errorf("stretch %v–%v lists as started %+v", e.Start, e.End, h)
			}
		}
		for _, h := range e.Held {
			if nodes[h.Offer] != h.Nodes {
				t.Errorf("stretch %v–%v holds %d × %s, its commitments %d", e.Start, e.End, h.Nodes, h.Offer, nodes[h.Offer])
			}
		}
		for _, u := range e.Uses {
			gpuh[[2]string{u.Workload, u.Offer}] += u.GPUHours
		}
		for i, s := range e.Slices {
			sum := 0.0
			for k, g := range s.Offers {
				sum += g
				if n, ok := gpn[k]; ok && nodes[k] > 0 && g > float64(nodes[k]*n)+1e-6 {
					t.Errorf("stretch %v slice %d: %g GPUs of %s on %d nodes", e.Start, i, g, k, nodes[k])
				}
			}
			if d := s.Base + s.Burst + s.Spot - sum; math.Abs(d) > 1e-6 {
				t.Errorf("stretch %v slice %d: tiers %g+%g+%g, offers %g", e.Start, i, s.Base, s.Burst, s.Spot, sum)
			}
		}
	}
	for _, a := range plan.Assignments {
		for _, u := range a.Uses {
			if g := gpuh[[2]string{a.Workload, u.Offer}]; math.Abs(g-u.GPUHours) > 1e-6*max(1, u.GPUHours) {
				t.Errorf("%s on %s: %g GPU-hours, its stretches %g", a.Workload, u.Offer, u.GPUHours, g)
			}
		}
	}
	raw, err := json.Marshal(plan)
	if err != nil {
		t.Fatal(err)
	}
	var j struct {
		Total  decimal.Decimal `json:"total"`
		Epochs []struct {
			Start string `json:"start"`
			Held  []struct {
				Offer string `json:"offer"`
				Nodes int    `json:"nodes"`
			} `json:"held"`
		} `json:"epochs"`
	}
	if err := json.Unmarshal(raw, &j); err != nil {
		t.Fatal(err)
	}
	if !j.Total.Equal(plan.Total) || len(j.Epochs) != len(plan.Epochs) {
		t.Errorf("JSON total %s with %d epochs, plan %s with %d", j.Total, len(j.Epochs), plan.Total, len(plan.Epochs))
	}
	text := plan.String()
	for _, e := range plan.Epochs {
		if line := fmt.Sprintf("epoch %d, day %.4g to %.4g:", e.Epoch, e.Start.Hours()/24, e.End.Hours()/24); !strings.Contains(text, line) {
			t.Errorf("text lacks %q", line)
		}
	}
}
