package placement_test

import (
	"context"
	"math"
	"testing"
	"time"

	"github.com/gputco/gputco/placement"
	"github.com/gputco/gputco/provider"
	"github.com/gputco/gputco/workload"
)

// opaque hides a curve's cycle: the model samples it as a curve with no
// pattern, every slice of the period apart.
type opaque struct{ c workload.Curve }

func (o opaque) At(t time.Duration) float64 { return o.c.At(t) }
func (o opaque) Period() time.Duration      { return o.c.Period() }

// TestGrowthPhases: a daily pattern growing 60 % a year, planned over a week
// of hourly slices, one period repeated over the year and over time in
// quarters and in 10-day epochs (the last of five days, shorter than the
// period). The model makes each hour of the day alike across the week
// (the busiest day's peak, the days' mean volume), so it has at most a
// fifth of the columns of the same curve with its cycle hidden; the plan
// still meets the demand in every slice of every week of the year (the
// peaks of the period's slices, as workload.DiscretizeFrom samples each,
// checked one by one); on pay-as-you-go alone its total is the curve's
// volume priced (each hour at its sampled peak, as the package prices a
// use), the same as with the cycle hidden; with a reservation beside it,
// it is no cheaper than with the cycle hidden (the merged model asks more)
// and within 0.5 % of it.
func TestGrowthPhases(t *testing.T) {
	t.Parallel() // CPU-bound: runs beside the other long tests of the package
	d, err := workload.NewDiurnal(0.6, 0.3, 15)
	if err != nil {
		t.Fatal(err)
	}
	curve := workload.Growth{Base: workload.Scale{Curve: d, Factor: 1 / 1.6}, RatePerYear: 0.6, Compound: true}
	svc := workload.Workload{Name: "svc", Kind: workload.Inference, GPUs: 40, Demand: curve, Horizon: provider.Year,
		Interruption: workload.Interruption{Tolerance: workload.Stateless}}
	od, res := onDemand("od", "24", 8, 0), reserved("res", "10", 8, 0)
	for _, c := range []struct {
		name string
		opt  placement.Options
	}{
		{"one period", placement.Options{Period: workload.Week, Slices: 168}},
		{"over time", placement.Options{Period: workload.Week, Slices: 168, Epoch: 3 * provider.Month}},
		// Stretches of a week and three days, the last of five days.
		{"over time in 10-day epochs", placement.Options{Period: workload.Week, Slices: 168, Epoch: 10 * workload.Day}},
	} {
		solve := func(w workload.Workload, offers ...provider.Offer) (placement.Plan, int) {
			t.Helper()
			p := placement.Problem{Workloads: []workload.Workload{w}, Offers: offers, Assumptions: bare(), Options: c.opt}
			m, err := placement.Model(p)
			if err != nil {
				t.Fatal(err)
			}
			plan, err := placement.Solve(context.Background(), p)
			if err != nil {
				t.Fatal(err)
			}
			if plan.Status != placement.Optimal || len(plan.Unplaced) > 0 {
				t.Fatalf("%s: status %v, unplaced %v", c.name, plan.Status, plan.Unplaced)
			}
			return plan, m.NumCols()
		}
		hidden := svc
		hidden.Demand = opaque{curve}
		merged, mc := solve(svc, od, res)
		apart, ac := solve(hidden, od, res)
		if 5*mc > ac {
			t.Errorf("%s: %d columns with the cycle, %d without: want at most a fifth", c.name, mc, ac)
		}
		checkEveryMoment(t, c.name+" hidden", hidden, apart)
		checkEveryMoment(t, c.name, svc, merged)
		m, a := f64(merged.Total), f64(apart.Total)
		if m < a*(1-1e-9) || m > a*1.005 {
			t.Errorf("%s: %.2f with the cycle, %.2f without: want no less and within 0.5 %%", c.name, m, a)
		}
		onlyM, _ := solve(svc, od)
		onlyA, _ := solve(hidden, od)
		// The volume at the slices' resolution: every hour of the year at
		// its sampled peak, at 3 per GPU-hour.
		want := 0.0
		for off := time.Duration(0); off < provider.Year; off += workload.Week {
			sl, err := workload.DiscretizeFrom(curve, off, workload.Week, 168)
			if err != nil {
				t.Fatal(err)
			}
			for _, x := range sl {
				if off+x.Start < provider.Year {
					want += 3 * float64(svc.GPUs) * x.Peak * x.Hours()
				}
			}
		}
		if m, a := f64(onlyM.Total), f64(onlyA.Total); math.Abs(m-a) > 1e-9*a || math.Abs(m-want) > 1e-6*want {
			t.Errorf("%s: on pay-as-you-go alone %.4f with the cycle, %.4f without, want both the volume priced, %.4f", c.name, m, a, want)
		}
		checkEveryMoment(t, c.name, svc, onlyM)
	}
}

// checkEveryMoment checks that plan gives service w (its only workload) in
// every slice of every repetition of the period within each stretch (or
// within the horizon, planning one period) at least the slice's peak there
// — its largest sampled demand, workload.DiscretizeFrom's Peak; over its
// part before the stretch's end for a slice that reaches past it —, read
// in the slice of the stretch that repetition's slice falls in.
func checkEveryMoment(t *testing.T, name string, w workload.Workload, plan placement.Plan) {
	t.Helper()
	type stretch struct{ start, end time.Duration }
	sts := []stretch{{0, w.Horizon}}
	if len(plan.Epochs) > 0 {
		sts = sts[:0]
		for _, e := range plan.Epochs {
			sts = append(sts, stretch{e.Start, e.End})
		}
	}
	T, P := plan.Slices, plan.Period
	for s, st := range sts {
		for off := st.start; off < st.end; off += P {
			sl, err := workload.DiscretizeFrom(w.Demand, off, P, T)
			if err != nil {
				t.Fatal(err)
			}
			for j, x := range sl {
				from := off + x.Start
				if from >= st.end {
					break
				}
				if from+x.Length > st.end {
					head, err := workload.DiscretizeFrom(w.Demand, from, st.end-from, 1)
					if err != nil {
						t.Fatal(err)
					}
					x = head[0]
				}
				got := 0.0
				for _, u := range plan.Assignments[0].Uses {
					got += u.GPUs[s*T+j]
				}
				if need := float64(w.GPUs) * x.Peak; got < need-1e-9*need {
					t.Fatalf("%s: %v–%v, slice %d of the period from %v: %.6f GPUs, peak %.6f", name, st.start, st.end, j, off, got, need)
				}
			}
		}
	}
}
