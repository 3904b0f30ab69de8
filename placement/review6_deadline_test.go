package placement_test

import (
	"context"
	"testing"
	"time"

	"github.com/gputco/gputco/placement"
	"github.com/gputco/gputco/provider"
	"github.com/gputco/gputco/tco"
	"github.com/gputco/gputco/workload"
)

// review6DeadlineCase solves a checkpointed job of work reference
// GPU-hours, 8 GPUs wide, due in 48 h, with setupHours of engineer time
// (its setup), alone on unlimited pro-rata on-demand with lead time lead,
// over 30 days, and returns the plan and tco.Evaluate's report of the job
// alone there.
func review6DeadlineCase(t *testing.T, work, setupHours float64, lead time.Duration, overTime bool) (placement.Plan, tco.Report) {
	t.Helper()
	job := batch("job", 8, work, 48*time.Hour)
	job.Setup.EngineerHours = setupHours
	od := onDemand("od", "8", 8, 0)
	od.Availability.LeadTime = lead
	a := bare()
	a.Horizon = 30 * day
	opts := placement.Options{Period: day, Slices: 24, OverTime: overTime}
	if overTime {
		opts.Epoch = day
	}
	plan, err := placement.Solve(context.Background(), placement.Problem{Workloads: []workload.Workload{job},
		Offers: []provider.Offer{od}, Assumptions: a, Options: opts})
	if err != nil {
		t.Fatal(err)
	}
	a.Step = time.Hour
	r, err := tco.Evaluate(job, od, a)
	if err != nil {
		t.Fatal(err)
	}
	return plan, r
}

// TestReview6JobDeadlineSetup: a divisible job's setup is not counted
// against its deadline. 384 reference GPU-hours at 8 GPUs is 48 h of work,
// due in 48 h, after 4 h of setup: tco.Evaluate alone finishes it at 52 h
// (DeadlineMet false), and no plan on the only offer can do better (the
// job is 8 GPUs wide). Solve places it (Status Optimal), its work spread
// over every slice from t = 0 — and its own Assignment.Alone says Finish
// 52 h, DeadlineMet false. Same with and without OverTime. Gangs count
// setup (the package doc's d = Finish − L_k); divisible jobs do not.
// Expected: the job in Plan.Unplaced with ErrDeadline, as over time
// TestReview6JobDeadlineLeadTime's case is. Severity: high (a plan that
// misses a deadline, reported as met).
func TestReview6JobDeadlineSetup(t *testing.T) {
	for _, overTime := range []bool{false, true} {
		plan, r := review6DeadlineCase(t, 384, 4, 0, overTime)
		if r.DeadlineMet {
			t.Fatalf("tco.Evaluate meets the deadline (finish %v); the case is wrong", r.Finish)
		}
		if len(plan.Unplaced) != 1 {
			alone := "nil"
			if a := plan.Assignments[0].Alone; a != nil {
				alone = a.Finish.String()
			}
			t.Errorf("over time %v: job placed (%v, Alone finish %s), want it unplaced: tco finishes it at %v, after its 48 h deadline",
				overTime, plan.Status, alone, r.Finish)
		}
	}
}

// TestReview6JobDeadlineLeadTime: without OverTime a divisible job's work
// is placed from t = 0 on an offer whose capacity arrives after 12 h. 320
// reference GPU-hours at 8 GPUs (40 h), due in 48 h: tco.Evaluate alone
// finishes at 12 + 40 = 52 h (DeadlineMet false); over time Solve leaves
// it unplaced ("at most 288 by the deadline"), without OverTime it places
// it (Optimal). The package doc says that without planning over time
// "lead times are only priced by tco", but a deadline is a constraint, not
// a price: the plan runs work on capacity that does not exist yet.
// Severity: medium (documented for prices, not for deadlines).
func TestReview6JobDeadlineLeadTime(t *testing.T) {
	plan, r := review6DeadlineCase(t, 320, 0, 12*time.Hour, false)
	if r.DeadlineMet {
		t.Fatalf("tco.Evaluate meets the deadline (finish %v); the case is wrong", r.Finish)
	}
	over, _ := review6DeadlineCase(t, 320, 0, 12*time.Hour, true)
	if len(over.Unplaced) != 1 {
		t.Fatalf("over time: job placed; the case is wrong")
	}
	if len(plan.Unplaced) != 1 {
		t.Errorf("job placed (%v) without OverTime, want it unplaced as over time: tco finishes it at %v, after its 48 h deadline", plan.Status, r.Finish)
	}
}

// TestReview6ServiceBeyondLeadTime: the service side of
// TestReview6JobDeadlineLeadTime. A steady 8-GPU service over 180 days may
// use a 1-year reservation at 1 per node-hour whose capacity arrives after
// 9 months — after the horizon ends: tco.Evaluate alone reports Coverage 0
// (start delay 6 570 h of a 4 320 h horizon) — or on-demand at 4. Without
// OverTime the plan puts all its demand on the reservation (total 8 760,
// Optimal): every slice's demand "met" by capacity that never exists in
// the horizon; over time it is excluded (ErrLeadTime) and the service
// runs on on-demand (17 280). The package doc says that without planning
// over time "lead times are only priced by tco", and with no
// CostOfDelayPerDay the price is zero; invariant 10 says a plan meets
// demand in every slice. Expected: capacity whose lead time reaches the
// horizon's end excluded, as over time. Severity: medium-high (a plan
// that serves nothing, reported optimal and half the price of one that
// does).
func TestReview6ServiceBeyondLeadTime(t *testing.T) {
	svc := steady("chat", 8, 1)
	svc.Horizon = 180 * day
	a := bare()
	a.Horizon = 180 * day
	res := reserved("res", "1", 8, 0)
	res.Availability.LeadTime = 9 * provider.Month
	od := onDemand("od", "4", 8, 0)
	r, err := tco.Evaluate(svc, res, a)
	if err != nil || r.Coverage != 0 {
		t.Fatalf("tco.Evaluate on res: coverage %v, %v; the case is wrong", r.Coverage, err)
	}
	p := placement.Problem{Workloads: []workload.Workload{svc}, Offers: []provider.Offer{res, od}, Assumptions: a,
		Options: placement.Options{Period: day, Slices: 2}}
	plan, err := placement.Solve(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range plan.Assignments[0].Uses {
		if u.Offer == "res" && u.GPUHours > 0 {
			t.Errorf("chat runs %g GPU-hours on res, whose capacity arrives after the horizon (total %s)", u.GPUHours, plan.Total)
		}
	}
}
