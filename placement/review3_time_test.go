package placement_test

import (
	"context"
	"testing"
	"time"

	"github.com/gputco/gputco/placement"
	"github.com/gputco/gputco/provider"
	"github.com/gputco/gputco/workload"
)

// TestReview3OverTimeDemandMet: over time, on random portfolios (growing
// diurnal services, jobs, a gang; epochs of a year, a quarter or five
// months; two to four slices a day), every service has at least its demand
// (GPUs × the curve at the middle of the slice, within 1e-3 relative: the
// plan samples each slice's peak at its own points, and growth moves within
// a slice) at every slice of a sample of the repetitions of the period in
// every stretch, the last partial one included; every divisible job gets
// its work in GPU-hours.
func TestReview3OverTimeDemandMet(t *testing.T) {
	seeds := uint64(6)
	if testing.Short() {
		seeds = 1
	}
	for seed := range seeds {
		horizon := []time.Duration{provider.Year, 18 * provider.Month, 2 * provider.Year}[seed%3]
		epoch := []time.Duration{provider.Year, 3 * provider.Month, 5 * provider.Month}[seed%3]
		p := timePortfolio(seed+9500, 2, 2, 1, 4, []int{2, 3, 4}[seed%3], horizon, epoch, seed%2 == 1)
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		plan, err := placement.Solve(ctx, p)
		cancel()
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		n := plan.Slices
		slice := plan.Period / time.Duration(n)
		for _, w := range p.Workloads {
			var a *placement.Assignment
			for i := range plan.Assignments {
				if plan.Assignments[i].Workload == w.Name {
					a = &plan.Assignments[i]
				}
			}
			if a == nil {
				continue
			}
			if w.IsService() {
				for k, e := range plan.Epochs {
					for i := range n {
						got := 0.0
						for _, u := range a.Uses {
							got += u.GPUs[k*n+i]
						}
						for r := time.Duration(0); e.Start+r*plan.Period < e.End; r += max(1, (e.End-e.Start)/plan.Period/7) {
							tm := e.Start + r*plan.Period + time.Duration(i)*slice + slice/2
							if tm >= e.End || tm >= plan.Horizon {
								continue
							}
							need := float64(w.GPUs) * w.Demand.At(tm)
							if need < 1e-6 {
								continue
							}
							if got < need-1e-3*max(1, need) {
								t.Errorf("seed %d %s stretch %v–%v slice %d (t=%v): %.6f GPUs for demand %.6f", seed, w.Name, e.Start, e.End, i, tm, got, need)
							}
						}
					}
				}
			} else if a.Gang == nil {
				h := 0.0
				for _, u := range a.Uses {
					h += u.GPUHours
				}
				if h < w.WorkGPUHours*(1-1e-7) {
					t.Errorf("seed %d %s: %.9g GPU-hours for %.9g of work", seed, w.Name, h, w.WorkGPUHours)
				}
			}
		}
	}
}

// TestReview3OverTimePartialRepetition: a quarter (2,190 h) is not a whole
// number of days, so each stretch ends with a partial day; a service whose
// demand jumps from 0.2 to 1 within it (or just before) has its demand in
// every slice of every stretch, the partial day included.
func TestReview3OverTimePartialRepetition(t *testing.T) {
	for _, jump := range []time.Duration{2186 * time.Hour, 2180 * time.Hour, 2100 * time.Hour} {
		st, err := workload.NewSteps(0, workload.Step{Start: 0, Value: 0.2}, workload.Step{Start: jump, Value: 1})
		if err != nil {
			t.Fatal(err)
		}
		w := workload.Workload{Name: "svc", Kind: workload.Inference, GPUs: 10, Demand: st, Horizon: provider.Year,
			Interruption: workload.Interruption{Tolerance: workload.Stateless}}
		p := placement.Problem{Workloads: []workload.Workload{w}, Offers: []provider.Offer{onDemand("od", "2", 1, 0)}, Assumptions: bare()}
		p.Options.Epoch = 3 * provider.Month
		p.Options.Period = 24 * time.Hour
		plan, err := placement.Solve(context.Background(), p)
		if err != nil {
			t.Fatal(err)
		}
		n := plan.Slices
		slice := plan.Period / time.Duration(n)
		a := plan.Assignments[0]
		for k, e := range plan.Epochs {
			for tm := e.Start + slice/2; tm < e.End; tm += slice {
				i := int(((tm - e.Start) % plan.Period) / slice)
				got := 0.0
				for _, u := range a.Uses {
					got += u.GPUs[k*n+i]
				}
				if need := float64(w.GPUs) * w.Demand.At(tm); got < need-1e-6 {
					t.Errorf("jump at %v: stretch %v–%v, t = %v (slice %d): %.3f GPUs for a demand of %.3f", jump, e.Start, e.End, tm, i, got, need)
				}
			}
		}
	}
}
