package placement_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/gputco/gputco/provider"
	"github.com/gputco/gputco/tco"
	"github.com/gputco/gputco/workload"
)

// TestReviewBruteForceCommitments: a service of up to 32 GPUs whose daily
// shape (four 6-hour slices) changes from year 1 to year 2, on owned
// servers (idle power = max power, so every cost of a node is fixed; no
// lead time), a 1-year reservation at 10 per node-hour with a stock of 2
// nodes, and on demand at 32 (divisible by GPU: 4 per GPU-hour). The
// plan's total must be the least, over servers bought at year 0 and at
// year 1 (0–4) and nodes reserved for each year (0–2), of their fixed
// costs plus on demand for what they do not cover; an owned node bought at year y costs what tco.Evaluate says of one
// node kept from y to the end.
func TestReviewBruteForceCommitments(t *testing.T) {
	Y := provider.Year
	own := node("own", provider.Owned{PurchasePerNode: dec("400000"), UsefulLifeYears: 5, IdlePowerKW: 6, MaxPowerKW: 6,
		PUE: 1.3, EnergyPerKWh: dec("0.12"), ColocationPerKWMonth: dec("150"), MaintenanceFractionPerYear: 0.05,
		Resale: provider.Resale{Points: []provider.ResalePoint{{Age: 5 * Y, Fraction: 0.1}}}}, 8, 0)
	res, od := reserved("res", "10", 8, 2), onDemand("od", "32", 8, 0)
	fOwn := map[time.Duration]float64{}
	for _, h := range []time.Duration{Y, 2 * Y} {
		a := bare()
		a.Horizon = h
		r, err := tco.Evaluate(steady("one", 8, 1), own, a)
		if err != nil {
			t.Fatal(err)
		}
		fOwn[h], _ = r.Total.Float64()
	}
	t.Logf("owned node: 1 year %.2f, 2 years %.2f", fOwn[Y], fOwn[2*Y])
	fRes := 10 * 8760.0
	seeds := 6
	if testing.Short() {
		seeds = 1
	}
	for seed := range uint64(seeds) {
		r := rand.New(rand.NewPCG(seed, 7))
		var shape [2][4]float64
		for e := range shape {
			for s := range shape[e] {
				shape[e][s] = float64(r.IntN(9)) / 8 // 0..32 GPUs in steps of 4
			}
		}
		var steps []workload.Step
		for d := range 730 {
			for s := range 4 {
				steps = append(steps, workload.Step{Start: time.Duration(d)*day + time.Duration(s)*6*time.Hour, Value: shape[d/365][s]})
			}
		}
		w := workload.Workload{Name: "svc", Kind: workload.Inference, GPUs: 32, Demand: workload.Steps{Steps: steps},
			Horizon: 2 * Y, Interruption: workload.Interruption{Tolerance: workload.Stateless}}
		best, arg := math.Inf(1), [4]int{}
		for o0 := range 5 {
			for o1 := range 5 {
				for r0 := range 3 {
					for r1 := range 3 {
						c := float64(o0)*fOwn[2*Y] + float64(o1)*fOwn[Y] + float64(r0+r1)*fRes
						for e, n := range [2]int{o0 + r0, o0 + o1 + r1} {
							for _, v := range shape[e] {
								c += 4 * max(0, 32*v-8*float64(n)) * 6 * 365
							}
						}
						if c < best {
							best, arg = c, [4]int{o0, o1, r0, r1}
						}
					}
				}
			}
		}
		t.Run(fmt.Sprint(shape), func(t *testing.T) {
			t.Logf("best: owned %d at year 0, %d at year 1; reserved %d, %d: %.2f", arg[0], arg[1], arg[2], arg[3], best)
			rvSolve(t, rvProblem(2*Y, 0, []workload.Workload{w}, own, res, od), fmt.Sprintf("%.2f", best))
		})
	}
}
