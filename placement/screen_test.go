package placement_test

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/gputco/gputco/placement"
	"github.com/gputco/gputco/provider"
	"github.com/gputco/gputco/tco"
	"github.com/gputco/gputco/workload"
)

// stepService is a service whose hourly demand is whole GPUs: a daily
// schedule of random levels (multiples of 1/gpus).
func stepService(r *rand.Rand, name string, gpus int) workload.Workload {
	var st []workload.Step
	for h := 0; h < 24; h += 1 + r.IntN(4) {
		st = append(st, workload.Step{Start: time.Duration(h) * time.Hour, Value: float64(1+r.IntN(gpus)) / float64(gpus)})
	}
	st[r.IntN(len(st))].Value = 1
	return workload.Workload{Name: name, Kind: workload.Inference, GPUs: gpus, Horizon: provider.Year,
		Demand:       workload.Steps{Cycle: workload.Day, Steps: st},
		Interruption: workload.Interruption{Tolerance: workload.Stateless}}
}

// singlePool is one step service and k offers of one GPU per node: reserved
// and on-demand at random rates, with stock limits when limited.
func singlePool(seed uint64, k int, limited bool) placement.Problem {
	r := rand.New(rand.NewPCG(seed, 7))
	w := stepService(r, "svc", 10+r.IntN(40))
	var os []provider.Offer
	for i := range k {
		stock := 0
		if limited {
			stock = 2 + r.IntN(10)
		}
		id := fmt.Sprintf("o%d", i)
		if i%2 == 0 {
			os = append(os, reserved(id, money(1.2+1.5*r.Float64()).String(), 1, stock))
		} else {
			os = append(os, onDemand(id, money(2.5+2*r.Float64()).String(), 1, stock))
		}
	}
	os = append(os, onDemand("backstop", "9", 1, 0))
	return placement.Problem{Workloads: []workload.Workload{w}, Offers: os, Assumptions: bare(),
		Options: placement.Options{Period: workload.Day}}
}

// screening computes the screening-curve cost of p's single service
// independently: the load-duration curve of its hourly demand, each layer
// on the offer whose cost line F + v·h is lowest at the layer's duration.
func screening(t *testing.T, p placement.Problem) float64 {
	t.Helper()
	w := p.Workloads[0]
	reps := p.Assumptions.Horizon.Hours() / p.Options.Period.Hours()
	sl, err := workload.Discretize(w.Demand, p.Options.Period, int(p.Options.Period.Hours()))
	if err != nil {
		t.Fatal(err)
	}
	d := make([]float64, len(sl))
	for i, s := range sl {
		d[i] = math.Round(s.Peak * float64(w.GPUs))
	}
	slices.Sort(d)
	slices.Reverse(d)
	type line struct{ f, v float64 }
	var lines []line
	for _, o := range p.Offers {
		o.Availability.MaxNodes = 0 // the curve ignores stock
		terms, err := tco.CostTerms(w, o, p.Assumptions)
		if err != nil {
			t.Fatal(err)
		}
		f, _ := terms.FixedPerNode.Float64()
		v, _ := terms.VariablePerNodeHour.Float64()
		lines = append(lines, line{f / float64(o.GPUsPerNode), v / float64(o.GPUsPerNode)})
	}
	total := 0.0
	for i := range d { // layer (d[i+1], d[i]] lasts i+1 slices
		next := 0.0
		if i+1 < len(d) {
			next = d[i+1]
		}
		h := float64(i+1) * reps
		best := math.Inf(1)
		for _, l := range lines {
			best = min(best, l.f+l.v*h)
		}
		total += (d[i] - next) * best
	}
	return total
}

// TestScreeningCurve is oracle 1: one service, no binding stock: the plan
// costs the screening-curve optimum, on the merit fast path and on the
// general LP path alike.
func TestScreeningCurve(t *testing.T) {
	for seed := range uint64(12) {
		p := singlePool(seed, 2+int(seed%5), false)
		want := screening(t, p)
		for _, general := range []bool{false, true} {
			q := p
			if general {
				q.Options.MaxSpotShare = 1 // not binding, but off the fast path
			}
			plan, err := placement.Solve(context.Background(), q)
			if err != nil {
				t.Fatal(err)
			}
			got, _ := plan.Total.Float64()
			if math.Abs(got-want) > 1e-9*want {
				t.Errorf("seed %d general %v: total %.6f, screening curve %.6f", seed, general, got, want)
			}
			if fast := plan.Stats.FastPools == 1; fast == general {
				t.Errorf("seed %d general %v: fast pools %d", seed, general, plan.Stats.FastPools)
			}
		}
	}
}

// TestMeritEqualsLP is oracle 2: with binding stock limits the merit-order
// programme (fast path) and the general LP path give the same optimum; the
// screening curve is then only a lower bound.
func TestMeritEqualsLP(t *testing.T) {
	binding := 0
	for seed := range uint64(16) {
		p := singlePool(100+seed, 3+int(seed%6), true)
		fast, err := placement.Solve(context.Background(), p)
		if err != nil {
			t.Fatal(err)
		}
		q := p
		q.Options.MaxSpotShare = 1
		general, err := placement.Solve(context.Background(), q)
		if err != nil {
			t.Fatal(err)
		}
		f, _ := fast.Total.Float64()
		g, _ := general.Total.Float64()
		if general.Status != placement.Optimal {
			t.Errorf("seed %d: LP path %v, gap %g", seed, general.Status, general.Gap)
		}
		if math.Abs(f-g) > 1e-9*f {
			t.Errorf("seed %d: merit %.6f, LP path %.6f", seed, f, g)
		}
		if gb, _ := general.Bound.Float64(); gb > f*(1+1e-9) {
			t.Errorf("seed %d: LP bound %.6f above the merit optimum %.6f", seed, gb, f)
		}
		s := screening(t, p)
		if s > f*(1+1e-9) {
			t.Errorf("seed %d: screening curve %.6f above the optimum %.6f", seed, s, f)
		}
		if s < f*(1-1e-6) {
			binding++
		}
	}
	if binding < 4 {
		t.Errorf("stock bound in only %d of 16 instances: the oracle tests too little", binding)
	}
}
