package placement_test

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gputco/gputco/placement"
	"github.com/gputco/gputco/placement/lp"
	"github.com/gputco/gputco/provider"
	"github.com/gputco/gputco/workload"
)

// reducible is portfolio with what the reductions act on: unlimited
// reservations of the same node size at different prices (one dominates
// the others), and unlimited on-demand offers the jobs may burst on.
func reducible(seed uint64, bareCosts bool) placement.Problem {
	p := portfolio(seed, 3, 3, 5, 24*time.Hour, bareCosts)
	for i, rate := range []string{"8", "9.5", "8"} { // the last ties the first
		o := reserved("res-"+string(rune('a'+i)), rate, 4, 0)
		o.Jurisdiction, o.Region = "DE", "DE-1"
		p.Offers = append(p.Offers, o)
	}
	p.Offers = append(p.Offers, onDemand("od-big", "19", 8, 0))
	return p
}

// TestReductionsExact checks the model's reductions (dominated committed
// offers left out, a job's unlimited pay-as-you-go use as one column) on
// random portfolios: Solve's optimum equals cbc's on the full model
// (ModelFull: every pair, every use per slice) within 1e-6, and so does
// the built-in solver's optimum of the reduced model exported; the reduced
// model is smaller in every case. The race pass (-short) runs seeds 0, 6
// (bare costs) and 7 (hidden costs), which solve in a tenth of the time of
// seeds 1 and 2.
func TestReductionsExact(t *testing.T) {
	t.Parallel() // CPU-bound: runs beside the other long tests of the package
	bin := cbcPath(t)
	seeds := []uint64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}
	if testing.Short() {
		seeds = []uint64{0, 6, 7}
	}
	ctx := context.Background()
	for _, seed := range seeds {
		p := reducible(seed+300, seed%2 == 0)
		p.Options.Gap = 1e-9
		full, reduced := models(t, p)
		if reduced.NumCols() >= full.NumCols() {
			t.Errorf("seed %d: reduced model %d columns, full %d: nothing reduced", seed, reduced.NumCols(), full.NumCols())
		}
		checkReduced(ctx, t, bin, seed, p, full, reduced)
	}
}

// TestReductionsPlan: the plan of a reduced model reports what the full
// model would allow: a job that needs its whole width until its deadline,
// bursting on unlimited on-demand capacity (one column of GPU-hours in the
// model) beside a small cheap offer, gets GPUs per slice within its width,
// the dearer of two unlimited reservations of one node size is never used,
// and the total is the full model's optimum.
func TestReductionsPlan(t *testing.T) {
	job := batch("job", 16, 16*24*30, 30*24*time.Hour)
	cheap := reserved("cheap", "10", 8, 0)
	dear := reserved("dear", "12", 8, 0)
	od := onDemand("od", "30", 8, 0)
	small := onDemand("small", "2", 1, 4) // cheap but limited: the rest bursts
	p := placement.Problem{Workloads: []workload.Workload{job}, Offers: []provider.Offer{dear, od, small, cheap}, Assumptions: bare()}
	p.Assumptions.Horizon = provider.Year
	p.Options.Period = 7 * 24 * time.Hour
	full, err := placement.ModelFull(p)
	if err != nil {
		t.Fatal(err)
	}
	reduced, err := placement.Model(p)
	if err != nil {
		t.Fatal(err)
	}
	if reduced.NumCols() >= full.NumCols() {
		t.Fatalf("reduced %d columns, full %d", reduced.NumCols(), full.NumCols())
	}
	plan, err := placement.Solve(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	r, err := lp.Solve(context.Background(), full, lp.Options{Gap: 1e-9})
	if err != nil || r.Status != lp.Optimal {
		t.Fatalf("full model: %v %v", r.Status, err)
	}
	if got := f64(plan.Total); math.Abs(got-r.Objective) > 1e-6*r.Objective {
		t.Errorf("plan total %.6f, full model's optimum %.6f", got, r.Objective)
	}
	width := make([]float64, plan.Slices)
	burst := 0.0
	for _, a := range plan.Assignments {
		for _, u := range a.Uses {
			if u.Offer == "dear" {
				t.Errorf("the dominated reservation is used: %+v", u)
			}
			if u.Offer == "od" {
				burst = u.GPUHours
			}
			for s, v := range u.GPUs {
				width[s] += v
			}
		}
	}
	if burst <= 0 {
		t.Errorf("no burst on the unlimited on-demand offer: the case does not test the aggregated use")
	}
	for s, v := range width {
		if v > 16*(1+1e-9) {
			t.Errorf("slice %d: %g GPUs, above the job's width 16", s, v)
		}
	}
}

// TestReductionsMergedSlices holds the merge of identical slices to cbc on
// the full model: reducible portfolios over a period of three days of
// six-hour slices, whose diurnal services repeat every day, so the slices
// of a day merge with those of the days no job's deadline tells apart —
// with and without hidden costs, with a spot share on odd seeds. Solve's
// optimum equals cbc's on the full model (every slice its own columns)
// within 1e-6, and so does the built-in solver's on the reduced model. In
// at least half of them (the others' job deadlines tell every day apart)
// the reduced model has use columns for fewer slices than the period has.
// The race pass (-short) runs seeds 2 (merged) and 3 (with a spot share),
// a third of the time of seeds 0 and 1.
func TestReductionsMergedSlices(t *testing.T) {
	t.Parallel() // CPU-bound: runs beside the other long tests of the package
	bin := cbcPath(t)
	seeds := []uint64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}
	if testing.Short() {
		seeds = []uint64{2, 3}
	}
	n := len(seeds)
	ctx := context.Background()
	merged := 0
	for _, seed := range seeds {
		p := reducible(seed+900, seed%2 == 0)
		p.Options.Period, p.Options.Slices = 72*time.Hour, 12
		p.Options.Gap = 1e-9
		if seed%2 == 1 {
			p.Offers = append(p.Offers, spot("spot-big", "6", 8, 0, 0.002))
			p.Options.MaxSpotShare = 0.4
		}
		full, reduced := models(t, p)
		if useSlices(reduced) < 12 {
			merged++
		}
		want := checkReduced(ctx, t, bin, seed, p, full, reduced)
		t.Logf("seed %d: full %d×%d, reduced %d×%d, use columns in %d slices; optimum %.4f", seed,
			full.NumRows(), full.NumCols(), reduced.NumRows(), reduced.NumCols(), useSlices(reduced), want)
	}
	if merged < n/2 {
		t.Errorf("slices merged in %d of %d portfolios: the test does not test the merge", merged, n)
	}
}

// checkReduced holds Solve's plan of p and the optimum of the reduced model
// to cbc's optimum of the full one, which it returns.
func checkReduced(ctx context.Context, t *testing.T, bin string, seed uint64, p placement.Problem, full, reduced *lp.Problem) float64 {
	t.Helper()
	var buf bytes.Buffer
	if err := lp.WriteMPS(&buf, full); err != nil {
		t.Fatal(err)
	}
	want := cbcObjective(t, bin, buf.Bytes())
	plan, err := placement.Solve(ctx, p)
	if err != nil {
		t.Fatalf("seed %d: %v", seed, err)
	}
	if got := f64(plan.Total); math.Abs(got-want) > 1e-6*max(1, math.Abs(want)) {
		t.Errorf("seed %d: Solve %.6f, cbc on the full model %.6f", seed, got, want)
	}
	r, err := lp.Solve(ctx, reduced, lp.Options{Gap: 1e-9})
	if err != nil || r.Status != lp.Optimal {
		t.Fatalf("seed %d: reduced model %v %v", seed, r.Status, err)
	}
	if math.Abs(r.Objective-want) > 1e-6*max(1, math.Abs(want)) {
		t.Errorf("seed %d: reduced model's optimum %.6f, full model's %.6f", seed, r.Objective, want)
	}
	return want
}

// models returns p's full model (ModelFull) and its reduced one (Model).
func models(t *testing.T, p placement.Problem) (full, reduced *lp.Problem) {
	t.Helper()
	full, err := placement.ModelFull(p)
	if err != nil {
		t.Fatal(err)
	}
	reduced, err = placement.Model(p)
	if err != nil {
		t.Fatal(err)
	}
	return full, reduced
}

// useSlices counts the slices that have a use column x_<w>_<k>_<t> in m.
func useSlices(m *lp.Problem) int {
	seen := map[string]bool{}
	for _, name := range m.ColNames {
		if f := strings.Split(name, "_"); len(f) == 4 && f[0] == "x" {
			seen[f[3]] = true
		}
	}
	return len(seen)
}

// TestReductionsBurstOnlyJobs: a job whose every use is one aggregated
// column (it can use only unlimited on-demand capacity: the only offers
// with GPUs of the memory it needs) tells no slices apart, whatever its
// deadline. Reducible portfolios over three days of six-hour slices, each
// with such a job whose deadline falls in the period's second day, and
// its services' (daily) curves: the slice classes are those of the pool
// without the job (the reduced model has use columns in as many slices as
// with the job left out), and Solve's optimum and the reduced model's equal
// cbc's on the full model within 1e-6.
func TestReductionsBurstOnlyJobs(t *testing.T) {
	bin := cbcPath(t)
	seeds := []uint64{0, 1, 2}
	if testing.Short() {
		seeds = seeds[:1]
	}
	ctx := context.Background()
	big := provider.GPU{Model: "H200", MemoryGiB: 141, BF16TFLOPS: 989, TDPWatts: 700}
	for _, seed := range seeds {
		p := reducible(seed+1300, seed%2 == 0)
		p.Options.Period, p.Options.Slices = 72*time.Hour, 12
		p.Options.Gap = 1e-9
		for i, rate := range []string{"30", "34"} {
			o := onDemand("od-h200-"+string(rune('a'+i)), rate, 8, 0)
			o.GPU = big
			p.Offers = append(p.Offers, o)
		}
		without := useSlices(mustModel(t, p))
		job := batch("burst", 16, 16*24*20, (30*24+30)*time.Hour)
		job.Requirements.MinMemoryGiB = 100
		p.Workloads = append(p.Workloads, job)
		full, err := placement.ModelFull(p)
		if err != nil {
			t.Fatal(err)
		}
		reduced := mustModel(t, p)
		if got := useSlices(reduced); got != without {
			t.Errorf("seed %d: use columns in %d slices with the burst-only job, %d without it", seed, got, without)
		}
		if without >= 12 {
			t.Errorf("seed %d: no slices merged without the job: the case does not test the merge", seed)
		}
		want := checkReduced(ctx, t, bin, seed, p, full, reduced)
		t.Logf("seed %d: full %d×%d, reduced %d×%d, use columns in %d slices; optimum %.4f", seed,
			full.NumRows(), full.NumCols(), reduced.NumRows(), reduced.NumCols(), useSlices(reduced), want)
	}
}

// mustModel is placement.Model(p), failing t on an error.
func mustModel(t *testing.T, p placement.Problem) *lp.Problem {
	t.Helper()
	m, err := placement.Model(p)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// shareable is portfolio with hidden costs and what the sharing of a
// service's pay-as-you-go uses acts on: in every jurisdiction, beside its
// on-demand offer, two unlimited on-demand offers cheaper per GPU-hour but
// dearer to set up (a trade-off no pair dominates) and an unlimited spot
// offer dearer still to set up. Over time (a two-year horizon in yearly
// epochs of daily periods) the cheaper offers arrive after lead times of
// one and three months, so the sets of slices the offers of a group can
// use are nested.
func shareable(seed uint64, overTime bool) placement.Problem {
	p := portfolio(seed, 3, 1, 4, 24*time.Hour, false)
	if overTime {
		p = timePortfolio(seed, 3, 1, 0, 4, 6, 2*provider.Year, provider.Year, false)
	}
	for _, j := range []string{"US", "EU", "DE"} {
		for i, o := range []struct {
			rate  string
			setup float64
			lead  time.Duration
		}{{"3.6", 150, provider.Month}, {"3.2", 400, 3 * provider.Month}, {"spot", 600, 0}} {
			var x provider.Offer
			if o.rate == "spot" {
				x = spot(fmt.Sprintf("spot-%s-%d", j, i), "2", 1, 0, 0.002)
			} else {
				x = onDemand(fmt.Sprintf("od-%s-%d", j, i), o.rate, 1, 0)
			}
			x.Jurisdiction, x.Region = j, j+"-1"
			x.Hidden.SetupHours = o.setup
			if overTime {
				x.Availability.LeadTime = o.lead
			}
			p.Offers = append(p.Offers, x)
		}
	}
	return p
}

// TestReductionsShared checks the sharing of a service's pay-as-you-go
// uses (one column per slice for a group of unlimited offers, a column of
// GPU-hours for each but one) on shareable portfolios, in one period
// (even seeds) and over time (odd), with a spot share on every third seed
// (spot then out of the groups): Solve's optimum and the reduced model's
// equal cbc's on the full model within 1e-6 and the plan's uses meet
// every service's demand in every slice; in at least half of them the
// reduced model has columns of GPU-hours (v_…; in the others an unlimited
// offer of the portfolio dominates the added ones) and it is smaller
// whenever it has. Seeds 1, 2, 5, 6, 9 and 11 are left out: cbc and Solve take
// ten times as long on them. The race pass (-short) runs seeds 0 (one
// period) and 7 (over time).
func TestReductionsShared(t *testing.T) {
	t.Parallel() // CPU-bound: runs beside the other long tests of the package
	bin := cbcPath(t)
	seeds := []uint64{0, 3, 4, 7, 8, 10}
	if testing.Short() {
		seeds = []uint64{0, 7}
	}
	ctx := context.Background()
	shared := 0
	for _, seed := range seeds {
		p := shareable(seed+1700, seed%2 == 1)
		p.Options.Gap = 1e-9
		if seed%3 == 2 {
			p.Options.MaxSpotShare = 0.3
		}
		full, err := placement.ModelFull(p)
		if err != nil {
			t.Fatal(err)
		}
		reduced := mustModel(t, p)
		vs := 0
		for _, name := range reduced.ColNames {
			if strings.HasPrefix(name, "v_") {
				vs++
			}
		}
		if vs > 0 {
			shared++
			if reduced.NumCols() >= full.NumCols() {
				t.Errorf("seed %d: reduced model %d columns, full %d", seed, reduced.NumCols(), full.NumCols())
			}
		}
		var buf bytes.Buffer
		if err := lp.WriteMPS(&buf, full); err != nil {
			t.Fatal(err)
		}
		want := cbcObjective(t, bin, buf.Bytes())
		plan, err := placement.Solve(ctx, p)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if got := f64(plan.Total); math.Abs(got-want) > 1e-6*max(1, math.Abs(want)) {
			t.Errorf("seed %d: Solve %.6f, cbc on the full model %.6f", seed, got, want)
		}
		checkDemand(t, p, plan)
		r, err := lp.Solve(ctx, reduced, lp.Options{Gap: 1e-9})
		if err != nil || r.Status != lp.Optimal {
			t.Fatalf("seed %d: reduced model %v %v", seed, r.Status, err)
		}
		if math.Abs(r.Objective-want) > 1e-6*max(1, math.Abs(want)) {
			t.Errorf("seed %d: reduced model's optimum %.6f, full model's %.6f", seed, r.Objective, want)
		}
		t.Logf("seed %d: full %d×%d, reduced %d×%d (%d columns of GPU-hours); optimum %.4f", seed,
			full.NumRows(), full.NumCols(), reduced.NumRows(), reduced.NumCols(), vs, want)
	}
	if shared < (len(seeds)+1)/2 {
		t.Errorf("uses shared in %d of %d portfolios: the test does not test the sharing", shared, len(seeds))
	}
}

// checkDemand checks that plan's uses meet every service's demand in every
// slice of every stretch (the curve's peak in the slice, as the model
// samples it; over time, growth sampled at the stretch's end, so the
// stretch's start is the least it must meet).
func checkDemand(t *testing.T, p placement.Problem, plan placement.Plan) {
	t.Helper()
	type stretch struct{ start time.Duration }
	sts := []stretch{{0}}
	if len(plan.Epochs) > 0 {
		sts = sts[:0]
		for _, e := range plan.Epochs {
			sts = append(sts, stretch{e.Start})
		}
	}
	T := plan.Slices
	for i, a := range plan.Assignments {
		w := p.Workloads[i]
		if !w.IsService() {
			continue
		}
		for s, st := range sts {
			sl, err := workload.Discretize(workload.Shift{Curve: w.Demand, Offset: st.start}, plan.Period, T)
			if err != nil {
				t.Fatal(err)
			}
			for j, x := range sl {
				got := 0.0
				for _, u := range a.Uses {
					got += u.GPUs[s*T+j]
				}
				if need := x.Peak * float64(w.GPUs); need >= 1e-6 && got < need-1e-6*max(1, need) {
					t.Errorf("%s: stretch %d slice %d gets %g GPUs, needs %g", w.Name, s, j, got, need)
				}
			}
		}
	}
}

// TestReductionsSharedPlan: the plan of a model whose service shares its
// pay-as-you-go uses reports what the full model's plan does — the same
// uses of every offer in every slice, the same total, marginal value of
// peak and runners-up. One service, two unlimited on-demand offers: in one
// period the cheaper per GPU-hour (the group's representative) costs so
// much to set up that the service runs on the other (its column of
// GPU-hours); over time (two yearly epochs) it arrives after three months
// at a small set-up cost and a third, between the two in price, after one
// month, so the plan runs on each in turn — the lift of the sharing rows'
// nested slices.
func TestReductionsSharedPlan(t *testing.T) {
	d, err := workload.NewDiurnal(0.5, 0.3, 14)
	if err != nil {
		t.Fatal(err)
	}
	svc := workload.Workload{Name: "svc", Kind: workload.Inference, GPUs: 8, Demand: d, Horizon: provider.Year,
		Interruption: workload.Interruption{Tolerance: workload.Stateless}}
	a := bare()
	a.Exclude = slices.DeleteFunc(slices.Clone(a.Exclude), func(c provider.Category) bool { return c == provider.Setup })
	for _, overTime := range []bool{false, true} {
		easy, cheap := onDemand("easy", "4", 1, 0), onDemand("cheap", "3", 1, 0)
		easy.Hidden.SetupHours, cheap.Hidden.SetupHours = 10, 2000
		p := placement.Problem{Workloads: []workload.Workload{svc}, Offers: []provider.Offer{easy, cheap}, Assumptions: a}
		p.Options.Period, p.Options.Slices, p.Options.Gap = 24*time.Hour, 12, 1e-9
		if overTime {
			mid := onDemand("mid", "3.5", 1, 0)
			mid.Hidden.SetupHours, mid.Availability.LeadTime = 10, provider.Month
			cheap.Hidden.SetupHours, cheap.Availability.LeadTime = 10, 3*provider.Month
			p.Offers = []provider.Offer{easy, mid, cheap}
			p.Assumptions.Horizon, p.Options.Epoch = 2*provider.Year, provider.Year
			p.Workloads[0].Horizon = p.Assumptions.Horizon
		}
		m := mustModel(t, p)
		if !slices.ContainsFunc(m.ColNames, func(s string) bool { return strings.HasPrefix(s, "v_") }) {
			t.Fatalf("over time %v: no column of GPU-hours: the case does not test the sharing", overTime)
		}
		ctx := context.Background()
		plan, err := placement.Solve(ctx, p)
		if err != nil {
			t.Fatal(err)
		}
		full, err := placement.SolveFull(ctx, p)
		if err != nil {
			t.Fatal(err)
		}
		if a, b := f64(plan.Total), f64(full.Total); math.Abs(a-b) > 1e-6*b {
			t.Errorf("over time %v: total %.6f, the full model's plan %.6f", overTime, a, b)
		}
		ga, gb := plan.Assignments[0], full.Assignments[0]
		if a, b := f64(ga.PeakGPUValue), f64(gb.PeakGPUValue); math.Abs(a-b) > 1e-6*max(1, math.Abs(b)) {
			t.Errorf("over time %v: marginal value of peak %.6f, the full model's plan %.6f", overTime, a, b)
		}
		uses := func(as placement.Assignment) map[string][]float64 {
			out := map[string][]float64{}
			for _, u := range as.Uses {
				out[u.Offer] = u.GPUs
			}
			return out
		}
		ua, ub := uses(ga), uses(gb)
		if len(ua) != len(ub) || len(ua) != map[bool]int{false: 1, true: 3}[overTime] {
			t.Fatalf("over time %v: uses %v, the full model's plan %v", overTime, ua, ub)
		}
		if !overTime && ua["easy"] == nil {
			t.Errorf("the service does not run on the easy offer: %v", ua)
		}
		for id, u := range ua {
			for s, v := range u {
				if w := ub[id][s]; math.Abs(v-w) > 1e-6*max(1, w) {
					t.Errorf("over time %v: %s slice %d: %g GPUs, the full model's plan %g", overTime, id, s, v, w)
				}
			}
		}
		ra, rb := ga.RunnersUp, gb.RunnersUp
		if len(ra) != len(rb) {
			t.Errorf("over time %v: runners-up %v, the full model's plan %v", overTime, ra, rb)
		}
		for i := range min(len(ra), len(rb)) {
			if ra[i].Offer != rb[i].Offer || !ra[i].Delta.Equal(rb[i].Delta) {
				t.Errorf("over time %v: runner-up %d %s %s, the full model's plan %s %s", overTime, i, ra[i].Offer, ra[i].Delta, rb[i].Offer, rb[i].Delta)
			}
		}
	}
}

// TestReductionsAggregatedLeadTimes: a job's uses of unlimited on-demand
// offers that arrive at different times are columns of GPU-hours each
// (h_…), with a width row for each arrival, and the plan lifts them back
// within the job's width and after each offer's lead time. Over a year in
// one epoch of daily periods, a 16-GPU job due in four months whose work
// needs its whole width for three of them, on an offer at once, a cheaper
// one after one month and the cheapest after two: the plan's total is the
// full model's plan's, no slice uses more than 16 GPUs, no offer is used
// before it exists, and the work is done.
func TestReductionsAggregatedLeadTimes(t *testing.T) {
	job := batch("job", 16, 16*24*90, 120*24*time.Hour)
	now, soon, late := onDemand("now", "4", 8, 0), onDemand("soon", "3.5", 8, 0), onDemand("late", "3", 8, 0)
	soon.Availability.LeadTime, late.Availability.LeadTime = provider.Month, 2*provider.Month
	p := placement.Problem{Workloads: []workload.Workload{job}, Offers: []provider.Offer{now, soon, late}, Assumptions: bare()}
	p.Options.Period, p.Options.Slices, p.Options.Epoch, p.Options.Gap = 24*time.Hour, 6, provider.Year, 1e-9
	m := mustModel(t, p)
	hs, rows := 0, 0
	for _, n := range m.ColNames {
		if strings.HasPrefix(n, "h_") {
			hs++
		}
	}
	for _, n := range m.RowNames {
		if strings.HasPrefix(n, "widthh_") {
			rows++
		}
	}
	if hs != 3 || rows < 2 {
		t.Fatalf("%d columns of GPU-hours, %d width rows over them: want 3 and more than one", hs, rows)
	}
	ctx := context.Background()
	plan, err := placement.Solve(ctx, p)
	if err != nil {
		t.Fatal(err)
	}
	full, err := placement.SolveFull(ctx, p)
	if err != nil {
		t.Fatal(err)
	}
	if a, b := f64(plan.Total), f64(full.Total); math.Abs(a-b) > 1e-6*b {
		t.Errorf("total %.6f, the full model's plan %.6f", a, b)
	}
	lead := map[string]time.Duration{"now": 0, "soon": provider.Month, "late": 2 * provider.Month}
	width := make([]float64, len(plan.Assignments[0].Uses[0].GPUs))
	work := 0.0
	used := map[string]bool{}
	for _, u := range plan.Assignments[0].Uses {
		used[u.Offer] = true
		work += u.GPUHours
		for s, v := range u.GPUs {
			width[s] += v
			if e := plan.Epochs[s/plan.Slices]; v > 1e-9 && e.Start < lead[u.Offer] {
				t.Errorf("%s used in %v–%v, before its lead time %v", u.Offer, e.Start, e.End, lead[u.Offer])
			}
		}
	}
	if len(used) != 3 {
		t.Errorf("offers used %v: the case does not test the nested rows", used)
	}
	for s, v := range width {
		if v > 16*(1+1e-9) {
			t.Errorf("slice %d: %g GPUs, above the job's width 16", s, v)
		}
	}
	if work < job.WorkGPUHours*(1-1e-6) {
		t.Errorf("%g of %g GPU-hours of work", work, job.WorkGPUHours)
	}
}

// TestReductionsAggregatedAfterDeadline: a job's unlimited pay-as-you-go
// offer that arrives after the job's deadline carries none of its work and
// gets no column of GPU-hours (with a one-off cost it had one whose upper
// bound, the scale of its link row, was zero: a model with an infinite
// coefficient that the solver refused); the plan is the full model's.
func TestReductionsAggregatedAfterDeadline(t *testing.T) {
	job := batch("job", 16, 16*24*30, 40*24*time.Hour)
	a := bare()
	a.Exclude = slices.DeleteFunc(slices.Clone(a.Exclude), func(c provider.Category) bool { return c == provider.Setup })
	now, late := onDemand("now", "4", 8, 0), onDemand("late", "3", 8, 0)
	now.Hidden.SetupHours, late.Hidden.SetupHours = 10, 10
	late.Availability.LeadTime = 3 * provider.Month
	p := placement.Problem{Workloads: []workload.Workload{job}, Offers: []provider.Offer{now, late}, Assumptions: a}
	p.Options.Period, p.Options.Slices, p.Options.Epoch, p.Options.Gap = 24*time.Hour, 6, provider.Year, 1e-9
	ctx := context.Background()
	plan, err := placement.Solve(ctx, p)
	if err != nil {
		t.Fatal(err)
	}
	full, err := placement.SolveFull(ctx, p)
	if err != nil {
		t.Fatal(err)
	}
	if a, b := f64(plan.Total), f64(full.Total); math.Abs(a-b) > 1e-6*b {
		t.Errorf("total %.6f, the full model's plan %.6f", a, b)
	}
	if len(plan.Unplaced) != 0 || len(plan.Assignments) != 1 || len(plan.Assignments[0].Uses) != 1 || plan.Assignments[0].Uses[0].Offer != "now" {
		t.Errorf("plan %v, want the job on now alone", plan)
	}
}

// TestReductionsChains holds the commitments left out of the model over
// time (markChains: those that another, or a month and the next, make at no
// more cost) to cbc on the full model, which has a column for every
// commitment: random portfolios over a year in quarterly epochs with
// monthly rentals, reservations of a month to three years, lead times and
// owned servers. Solve's optimum equals cbc's on the full model within
// 1e-6, and so does the built-in solver's on the reduced model; in at least
// half of them the reduced model has fewer integer columns.
func TestReductionsChains(t *testing.T) {
	bin := cbcPath(t)
	seeds := []uint64{0, 1, 2, 3, 4, 5, 6, 7}
	if testing.Short() {
		seeds = []uint64{0, 1}
	}
	ctx := context.Background()
	fewer := 0
	for _, seed := range seeds {
		p := timePortfolio(seed+500, 2, 2, 0, 4, 3, provider.Year, 3*provider.Month, seed%2 == 1)
		p.Options.Gap = 1e-9
		full, reduced := models(t, p)
		ints := func(m *lp.Problem) int {
			n := 0
			for _, b := range m.Integer {
				if b {
					n++
				}
			}
			return n
		}
		if ints(reduced) < ints(full) {
			fewer++
		}
		checkReduced(ctx, t, bin, seed, p, full, reduced)
	}
	if 2*fewer < len(seeds) {
		t.Errorf("fewer integer columns in %d of %d reduced models: the reduction was not exercised", fewer, len(seeds))
	}
}
