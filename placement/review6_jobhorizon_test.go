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

// TestReview6JobHorizon: with Assumptions.Horizon zero the plan's horizon
// is the longest workload horizon (here a 1-year service in "EU" on its own
// offer), and tco costs a finite job alone over its own Horizon, or
// without one over the time it holds capacity (its wall time: 625 h). A
// checkpointed 5 000 GPU-hour job in "US" with a 1 000 GB dataset, alone
// on pro-rata on-demand that charges 0.1 per GB-month of storage, costs
// tco.Evaluate 18 835.62 (compute 18 750, storage 85.62 for its 625 h);
// with its own 90-day Horizon, 19 045.89 (storage 295.89). The plan
// charges it 19 950 in all four cases (over time or not): storage 1 200, a
// whole year of the plan's horizon. The
// review-5 fix ends a service's demand at its own Horizon; a job's
// horizon-proportional lines (storage) still run to the plan's. Severity:
// medium (a hidden cost inflated by up to the ratio of the horizons, and
// offers with dearer storage penalised for a job that is long gone; the
// consistency oracle, issue 11's oracle 5).
func TestReview6JobHorizon(t *testing.T) {
	long := rvStepService("long", 8, provider.Year, workload.Step{Start: 0, Value: 1})
	long.Requirements.Jurisdictions = []string{"EU"}
	odEU := onDemand("od-eu", "4", 8, 0)
	odEU.Jurisdiction = "EU"
	od := onDemand("od", "30", 8, 0)
	od.Hidden.StoragePerGBMonth = dec("0.1")
	for _, own := range []time.Duration{0, 90 * 24 * time.Hour} {
		for _, overTime := range []bool{false, true} {
			job := batch("job", 8, 5000, 0)
			job.Requirements.Jurisdictions = []string{"US"}
			job.Data.DatasetGB = 1000
			job.Horizon = own
			p := placement.Problem{Workloads: []workload.Workload{job, long}, Offers: []provider.Offer{od, odEU},
				Assumptions: tco.Assumptions{}, Options: placement.Options{Period: 24 * time.Hour, Slices: 4, OverTime: overTime}}
			plan, err := placement.Solve(context.Background(), p)
			if err != nil {
				t.Fatal(err)
			}
			r, err := tco.Evaluate(job, od, p.Assumptions)
			if err != nil {
				t.Fatal(err)
			}
			a := plan.Assignments[0]
			if len(a.Uses) != 1 || a.Uses[0].Offer != "od" {
				t.Fatalf("job runs on %+v, want od alone", a.Uses)
			}
			checkClose(t, "job (own horizon "+own.String()+", over time "+map[bool]string{false: "off", true: "on"}[overTime]+") vs tco.Evaluate alone",
				a.Cost, r.Total, 1e-9)
		}
	}
}

// TestReview6ShortServiceHiddenHorizon: the same for a service shorter
// than the plan's horizon (Assumptions.Horizon zero). Review 5's fix ends
// its demand at its own 6-month Horizon — its compute, 17 520, matches
// tco.Evaluate — but its lines that grow with the horizon do not end
// there: with a 1 000 GB dataset at 0.1 per GB-month and 100 GB a month
// of egress at 0.09, tco.Evaluate alone charges storage 600 and monthly
// egress 54 (6 months; total 18 264), the plan 1 200 and 108 (12 months;
// total 18 918). TestReview5WorkloadHorizon runs without hidden costs, so
// it does not see it. Severity: medium (as TestReview6JobHorizon).
func TestReview6ShortServiceHiddenHorizon(t *testing.T) {
	short := rvStepService("short", 8, provider.Year/2, workload.Step{Start: 0, Value: 1})
	short.Requirements.Jurisdictions = []string{"US"}
	short.Data.DatasetGB = 1000
	short.Data.EgressGBPerMonth = 100
	long := rvStepService("long", 8, provider.Year, workload.Step{Start: 0, Value: 1})
	long.Requirements.Jurisdictions = []string{"EU"}
	odEU := onDemand("od-eu", "4", 8, 0)
	odEU.Jurisdiction = "EU"
	od := onDemand("od", "4", 8, 0)
	od.Hidden.StoragePerGBMonth = dec("0.1")
	od.Hidden.EgressPerGB = dec("0.09")
	for _, overTime := range []bool{false, true} {
		p := placement.Problem{Workloads: []workload.Workload{short, long}, Offers: []provider.Offer{od, odEU},
			Assumptions: tco.Assumptions{}, Options: placement.Options{Period: 24 * time.Hour, Slices: 4, OverTime: overTime}}
		plan, err := placement.Solve(context.Background(), p)
		if err != nil {
			t.Fatal(err)
		}
		r, err := tco.Evaluate(short, od, p.Assumptions)
		if err != nil {
			t.Fatal(err)
		}
		a := plan.Assignments[0]
		if len(a.Uses) != 1 || a.Uses[0].Offer != "od" {
			t.Fatalf("short runs on %+v, want od alone", a.Uses)
		}
		checkClose(t, "short (over time "+map[bool]string{false: "off", true: "on"}[overTime]+") vs tco.Evaluate alone", a.Cost, r.Total, 1e-9)
	}
}
