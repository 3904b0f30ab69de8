package tco_test

import (
	"fmt"
	"time"

	"github.com/gputco/gputco/tco"
	"github.com/shopspring/decimal"
)

// Daly's (2006) worked example: a 5-minute checkpoint, a 10-minute restart
// and a mean time to interruption of 24 hours.
func ExampleDalyInterval() {
	delta, restart, mtti := 5*time.Minute, 10*time.Minute, 24*time.Hour
	young, err := tco.YoungInterval(delta, mtti)
	if err != nil {
		fmt.Println(err)
		return
	}
	daly, err := tco.DalyInterval(delta, mtti)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("Young:", young.Round(time.Second))
	fmt.Println("Daly: ", daly.Round(time.Second))

	// A job of 100 hours of work checkpointed at Daly's interval.
	wall, err := tco.ExpectedWallTime(100*time.Hour, delta, restart, mtti, daly)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("expected wall time:", wall.Round(time.Minute))
	// Output:
	// Young: 2h0m0s
	// Daly:  1h56m41s
	// expected wall time: 109h35m0s
}

// Greedy and Uniform Progress on the same spot trace: 10 hours of work due in
// 16 hours, a 6-minute changeover, spot at 1.20 and on-demand at 4.00 an hour.
// Greedy waits out the gap and is then forced onto on-demand for good, just
// before spot returns; Uniform Progress buys a little on-demand during the gap
// to stay on the uniform line, so it can return to spot and pays less.
func ExampleSimulatePolicy() {
	job := tco.DeadlineJob{
		Work:                10 * time.Hour,
		Deadline:            16 * time.Hour,
		Changeover:          6 * time.Minute,
		SpotRatePerHour:     decimal.RequireFromString("1.20"),
		OnDemandRatePerHour: decimal.RequireFromString("4.00"),
	}
	// One entry per hour: spot for 3 hours, gone for 6, back for 4, gone.
	trace := tco.Trace{Step: time.Hour, Available: []bool{
		true, true, true, false, false, false, false, false, false, true, true, true, true,
	}}
	for _, p := range []tco.Policy{tco.Greedy{}, tco.UniformProgress{}} {
		r, err := tco.SimulatePolicy(p, job, trace)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("%-16s cost %6s  spot %-8v on-demand %-8v idle %-6v finish %-8v met %v, %d changeovers\n",
			r.Policy, r.Cost.StringFixed(2), r.SpotTime, r.OnDemandTime, r.IdleTime, r.Finish, r.DeadlineMet, r.Changeovers)
	}
	// Output:
	// greedy           cost  32.40  spot 3h0m0s   on-demand 7h12m0s  idle 5h0m0s finish 15h12m0s met true, 2 changeovers
	// uniform-progress cost  22.40  spot 7h0m0s   on-demand 3h30m0s  idle 5h0m0s finish 15h30m0s met true, 5 changeovers
}
