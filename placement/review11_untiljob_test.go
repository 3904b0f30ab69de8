package placement_test

import (
	"context"
	"testing"

	"github.com/gputco/gputco/placement"
	"github.com/gputco/gputco/provider"
)

// TestReview11JobCancelsShortHorizon: review6Short with "mon" (monthly, 3
// per node-hour) and "od" (on-demand, 4): the 6-month US service rents mon
// for its six months, 13 140, total 48 180, with and without OverTime
// (TestReview6ShortHorizonMonthly). Add a tiny US job: 8 GPU-hours on 8
// GPUs due in one month (provider.Month), which may use mon or od (alone on
// od it costs 4). untilOf counts every workload but a shorter service as
// needing the offer to the horizon's end — a job too, though it can use
// nothing after its deadline, a month in — so mon's commitment is again
// held for the whole year: without OverTime the short service goes to od
// (17 520), total 52 564; over time there is no cut at 4 380 h and it
// rents mon one month and bridges on od (16 790), total 51 834; both
// reported optimal. Expected: at most 48 184 — the plan without the job
// plus the job alone on od is feasible (the job's deadline is long before
// the short service's end, and it need not use mon at all). Severity: high
// (a plan reported optimal that costs 3 650–4 380 more than a feasible
// one; the review6 fix undone by any job that could use the offer).
func TestReview11JobCancelsShortHorizon(t *testing.T) {
	for _, overTime := range []bool{false, true} {
		p := review6Short(monthly("mon", "3", 8, 0), onDemand("od", "4", 8, 0))
		p.Options.OverTime = overTime
		base, err := placement.Solve(context.Background(), p)
		if err != nil {
			t.Fatal(err)
		}
		job := batch("job", 8, 8, provider.Month)
		job.Requirements.Jurisdictions = []string{"US"}
		p.Workloads = append(p.Workloads, job)
		plan, err := placement.Solve(context.Background(), p)
		if err != nil {
			t.Fatal(err)
		}
		if plan.Status != placement.Optimal || len(plan.Unplaced) > 0 {
			t.Fatalf("over time %v: status %v, unplaced %v", overTime, plan.Status, plan.Unplaced)
		}
		want := base.Total.Add(dec("4")) // the job alone on od: 8 GPU-h × 4/8
		t.Logf("over time %v: without the job %s, with it %s (bound %s)", overTime, base.Total, plan.Total, plan.Bound)
		if plan.Total.Sub(want).GreaterThan(dec("0.01")) {
			t.Errorf("over time %v: total %s with the job, but %s (the plan without it, the job on od) is feasible", overTime, plan.Total, want)
		}
		if plan.Bound.Sub(want).GreaterThan(dec("0.01")) {
			t.Errorf("over time %v: bound %s above the feasible %s", overTime, plan.Bound, want)
		}
	}
}
