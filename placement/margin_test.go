package placement_test

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/gputco/gputco/placement"
	"github.com/gputco/gputco/provider"
	"github.com/gputco/gputco/workload"
	"pgregory.net/rapid"
)

// commitmentsOf is what a plan commits to: by offer, the nodes of each
// commitment (over time, by start), with extra more nodes of offer more's
// single commitment.
func commitmentsOf(plan placement.Plan, more string, extra int) map[string]string {
	out := map[string]string{}
	for _, c := range plan.Commitments {
		if c.Nodes == 0 && len(c.Held) == 0 {
			continue
		}
		n := c.Nodes
		if c.Offer == more {
			n += extra
		}
		s := fmt.Sprint(n)
		if len(c.Held) > 0 {
			s = ""
			for _, h := range c.Held {
				s += fmt.Sprintf("%d@%v ", h.Nodes, h.Start)
			}
		}
		out[c.Offer] = s
	}
	if _, ok := out[more]; !ok && extra > 0 {
		out[more] = fmt.Sprint(extra)
	}
	return out
}

func sameCommitments(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// propMarginalValues checks the marginal values of a plan against
// re-solves of its problem with one more unit: one more GPU of a service's
// peak (a job: one more reference GPU-hour of work) costs at most its
// PeakGPUValue, one more node of an offer's stock saves at least its
// SavingPerNode (0 when Plan.Stock leaves it out) — the values hold the
// plan's integer decisions, the re-solve is free to change them — and
// each is exactly the re-solve's change when the re-solve keeps the plan's
// commitments and (with one-off costs) placements, for a committed
// offer's stock or adds the one node.
func propMarginalValues(t *rapid.T) {
	c := drawCase(t, true)
	for i := range c.offers {
		// Hourly billing rounds a job's runs to whole hours in its lines,
		// which the model (and so a marginal value) does not see: one more
		// GPU-hour of work may cost a whole hour per GPU. Pro-rata instead.
		if c.offers[i].mode == 3 {
			c.offers[i].mode = 1
		}
	}
	for i, w := range c.ws {
		// A slice whose demand is below a millionth of a GPU needs nothing
		// in the model, which one more GPU of peak may lift above it: no
		// such levels.
		if st, ok := w.Demand.(workload.Steps); ok {
			st.Steps = slices.Clone(st.Steps)
			for j := range st.Steps {
				if st.Steps[j].Value < 1e-3 {
					st.Steps[j].Value = 0
				}
			}
			c.ws[i].Demand = st
		}
	}
	p := c.problem(1)
	p.Options.MaxSpotShare = rapid.SampledFrom([]float64{0, 0.5}).Draw(t, "spot share")
	p.Options.OverTime = rapid.Bool().Draw(t, "over time")
	// A dataset to move makes every placement an integer decision of its
	// own (a one-off transfer, whatever the workload's size), which the
	// values hold too.
	oneOffs := rapid.Bool().Draw(t, "one-off costs")
	if oneOffs {
		p.Workloads = slices.Clone(p.Workloads)
		for i := range p.Workloads {
			p.Workloads[i].Data = workload.Data{DatasetGB: float64(rapid.IntRange(1, 50).Draw(t, "dataset GB") * 100),
				Location: workload.Location{Provider: "elsewhere", Region: "x"}}
		}
		p.Assumptions.Exclude = slices.DeleteFunc(slices.Clone(p.Assumptions.Exclude), func(c provider.Category) bool { return c == provider.DataTransfer })
	}
	// decisions are a plan's integer decisions: its commitments, and with
	// one-off costs its placements.
	decisions := func(plan placement.Plan, more string, extra int) map[string]string {
		d := commitmentsOf(plan, more, extra)
		if oneOffs {
			for _, a := range plan.Assignments {
				for _, u := range a.Uses {
					d[a.Workload+" on "+u.Offer] = "placed"
				}
			}
		}
		return d
	}
	plan := solveProp(t, p)
	if plan.Status != placement.Optimal || len(plan.Unplaced) > 0 {
		return
	}
	total := f64(plan.Total)
	// tco prices the plans' lines from float quantities (GPU-hours of
	// sampled demand), a few parts in 10⁷ off the model's: within a cent
	// or a millionth.
	tol := func(more float64) float64 { return max(0.01, 1e-6*max(total, more)) }
	base := decisions(plan, "", 0)
	for i, w := range p.Workloads {
		q := p
		q.Workloads = slices.Clone(p.Workloads)
		if w.IsService() {
			q.Workloads[i].GPUs++
		} else {
			q.Workloads[i].WorkGPUHours++
		}
		more := solveProp(t, q)
		if more.Status != placement.Optimal || len(more.Unplaced) > 0 {
			continue
		}
		d := f64(more.Total) - total
		got := f64(plan.Assignments[i].PeakGPUValue)
		if plan.Assignments[i].Workload != w.Name {
			t.Fatalf("assignment %d is %s, want %s", i, plan.Assignments[i].Workload, w.Name)
		}
		if got < d-tol(f64(more.Total)) {
			t.Fatalf("%s: PeakGPUValue %g, below the re-solve's %g (%g → %g)", w.Name, got, d, total, f64(more.Total))
		}
		if sameCommitments(base, decisions(more, "", 0)) && math.Abs(got-d) > tol(f64(more.Total)) {
			t.Fatalf("%s: PeakGPUValue %g, the re-solve with the same commitments adds %g (%g → %g)", w.Name, got, d, total, f64(more.Total))
		}
	}
	for i, o := range p.Offers {
		if o.Availability.MaxNodes == 0 {
			continue
		}
		q := p
		q.Offers = slices.Clone(p.Offers)
		q.Offers[i].Availability.MaxNodes++
		more := solveProp(t, q)
		if more.Status != placement.Optimal || len(more.Unplaced) > 0 {
			continue
		}
		saving := total - f64(more.Total)
		got := 0.0
		for _, s := range plan.Stock {
			if s.Offer == o.ID {
				got = f64(s.SavingPerNode)
			}
		}
		if got > saving+tol(f64(more.Total)) {
			t.Fatalf("%s: SavingPerNode %g, above the re-solve's saving %g (%g → %g)", o.ID, got, saving, total, f64(more.Total))
		}
		after := decisions(more, "", 0)
		same := sameCommitments(base, after)
		if !p.Options.OverTime {
			same = same || sameCommitments(decisions(plan, o.ID, 1), after)
		}
		if same && math.Abs(got-saving) > tol(f64(more.Total)) {
			t.Fatalf("%s: SavingPerNode %g, the re-solve with the plan's commitments saves %g (%g → %g)", o.ID, got, saving, total, f64(more.Total))
		}
	}
}

func TestMarginalValuesResolve(t *testing.T) { rapid.Check(t, propMarginalValues) }

func FuzzMarginalValuesResolve(f *testing.F) { f.Fuzz(rapid.MakeFuzz(propMarginalValues)) }
