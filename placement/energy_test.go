package placement_test

import (
	"context"
	"testing"

	"github.com/gputco/gputco/placement"
)

// TestOwnedEnergyPerBusyGPU: an owned server's energy above idle is paid
// per busy node-hour, and a service's use in the plan is its demand, every
// GPU of it busy — so the plan's "energy above idle" line is the rate
// ((2 − 1) kW × 0.1 a kWh) times the GPU-hours on 1-GPU nodes, whatever the
// curve's shape. tco's terms spread it over the whole nodes a lone service
// holds per slice (0.0972 a GPU-hour flat, 0.0578 growing), which let
// faster growth lower the optimum in TestGrowth (6217.04 → 6073.13 on this
// case, found by rapid).
func TestOwnedEnergyPerBusyGPU(t *testing.T) {
	w := batch("job", 3, 0, 0)
	w.WorkGPUHours = 0.3053964659894126 * float64(3*180*24)
	c := timeCase{flat: true, levels: [][]float64{{0.6875, 0.46, 1e-7, 0}}, gpus: []int{2}, job: &w,
		offers: []timeOffer{{mode: 4, gpn: 1, rate: 1.5104338026884356}, {mode: 2, gpn: 4, leadMonths: 1, rate: 5}}}
	var totals []float64
	for _, g := range []float64{0, 0.445068359375} {
		plan, err := placement.Solve(context.Background(), c.problem(g))
		if err != nil {
			t.Fatal(err)
		}
		totals = append(totals, f64(plan.Total))
		for _, a := range plan.Assignments {
			for _, u := range a.Uses {
				for _, l := range u.Lines {
					if l.Label != "energy above idle" || a.Workload != "svc0" {
						continue
					}
					if got, want := f64(l.Amount), 0.1*u.GPUHours; got < want*(1-1e-9) || got > want*(1+1e-9) {
						t.Errorf("growth %g: %s on %s: energy above idle %.6f for %.4f GPU-hours, want %.6f", g, a.Workload, u.Offer, got, u.GPUHours, want)
					}
				}
			}
		}
	}
	if totals[1] < totals[0]*(1-1e-9) {
		t.Errorf("faster growth lowered the optimum: %.6f → %.6f", totals[0], totals[1])
	}
}
