package placement_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/gputco/gputco/placement"
	"github.com/gputco/gputco/provider"
	"github.com/gputco/gputco/tco"
	"github.com/gputco/gputco/workload"
)

// TestScheduledPresentValue: a steady service alone on a 1-year
// reservation with an upfront payment, over three years at a 10 % discount
// rate: the reservation's later upfront payments are tco's Scheduled
// "renewal upfront" line, paid at the start of years 2 and 3. The plan's
// present value is tco.Evaluate's, over one period (one commitment for the
// horizon, whose Scheduled line the plan discounts on its schedule) and
// over time (a commitment each year). Before the schedule reached the
// plan's lines, the plan over one period counted the renewals at face
// value: 52 766 against tco's 50 121.
func TestScheduledPresentValue(t *testing.T) {
	for _, overTime := range []bool{false, true} {
		t.Run(fmt.Sprintf("overTime=%v", overTime), func(t *testing.T) {
			a := bare()
			a.Horizon = 3 * provider.Year
			a.DiscountRatePerYear = 0.1
			w := steady("svc", 8, 1)
			w.Horizon = a.Horizon
			o := node("res", provider.Reserved{Term: provider.Year, UpfrontPerNode: dec("10000"), RecurringPerHour: dec("1")}, 8, 0)
			p := placement.Problem{Workloads: []workload.Workload{w}, Offers: []provider.Offer{o}, Assumptions: a,
				Options: placement.Options{OverTime: overTime, Period: 24 * time.Hour, Slices: 2}}
			plan, err := placement.Solve(context.Background(), p)
			if err != nil {
				t.Fatal(err)
			}
			r, err := tco.Evaluate(w, o, a)
			if err != nil {
				t.Fatal(err)
			}
			scheduled := false
			for _, l := range r.Lines {
				scheduled = scheduled || l.Timing == provider.Scheduled
			}
			if !scheduled {
				t.Fatalf("oracle: tco prices no Scheduled line: %v", r)
			}
			checkClose(t, "total vs tco.Evaluate", plan.Total, r.Total, 1e-9)
			checkClose(t, "present value vs tco.Evaluate", plan.PresentValue, r.PresentValue, 1e-9)
		})
	}
}
