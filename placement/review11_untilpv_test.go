package placement_test

import (
	"context"
	"testing"

	"github.com/gputco/gputco/placement"
	"github.com/gputco/gputco/tco"
)

// TestReview11ShortReservationPresentValue: review6Short with a 1-year
// reservation "res" (1.5 per node-hour) and on-demand "od" (4), at a 10 %
// discount rate. The 6-month service reserves one node (13 140: tco.Evaluate
// alone bills 6 570 "recurring", spread over its 182.5 days, and 6 570
// "commitment beyond horizon", Scheduled over the term's second half;
// present value 12 483.53); the long one runs on od-eu (PV 33 289.42).
// Each is alone on its offer, so Plan.PresentValue should be the sum of
// their Alone present values, 45 772.96 ("PresentValue discounts them at
// the assumptions' rate as tco does"). Over time it is. Without OverTime
// it is 46 249.89: untilOf now prices the commitment by tco over the
// service's 182.5 days, whose terms have the Scheduled "beyond horizon"
// line, and the plan's discounter does not know that timing
// (discounter.present discounts Spread and AtEnd lines; a Scheduled one
// is counted undiscounted), so 6 570 is counted at face value. Before
// untilOf the commitment was priced over the plan's year (no Scheduled
// line) and agreed. Also TestOverTimeOneEpoch's oracle (one epoch, no
// lead times, no gangs: the plans agree) fails on PresentValue here.
// Severity: medium (a wrong report; totals agree).
func TestReview11ShortReservationPresentValue(t *testing.T) {
	for _, overTime := range []bool{true, false} {
		p := review6Short(reserved("res", "1.5", 8, 0), onDemand("od", "4", 8, 0))
		p.Assumptions.DiscountRatePerYear = 0.1
		p.Options.OverTime = overTime
		plan, err := placement.Solve(context.Background(), p)
		if err != nil {
			t.Fatal(err)
		}
		want := dec("0")
		for i, a := range plan.Assignments {
			if len(a.Uses) != 1 || a.Alone == nil {
				t.Fatalf("oracle: %s not alone on one offer: %v", a.Workload, plan)
			}
			var o = p.Offers[0]
			for _, x := range p.Offers {
				if x.ID == a.Uses[0].Offer {
					o = x
				}
			}
			r, err := tco.Evaluate(p.Workloads[i], o, p.Assumptions)
			if err != nil {
				t.Fatal(err)
			}
			if !r.PresentValue.Equal(a.Alone.PresentValue) || a.Cost.Sub(r.Total).Abs().GreaterThan(dec("0.01")) {
				t.Fatalf("oracle: %s cost %s alone %s, tco %s", a.Workload, a.Cost, a.Alone.PresentValue, r.Total)
			}
			want = want.Add(r.PresentValue)
		}
		t.Logf("over time %v: total %s, present value %s, sum of tco's alone %s", overTime, plan.Total, plan.PresentValue, want)
		if plan.PresentValue.Sub(want).Abs().GreaterThan(dec("0.01")) {
			t.Errorf("over time %v: present value %s, tco.Evaluate of each alone sums to %s", overTime, plan.PresentValue, want)
		}
	}
}
