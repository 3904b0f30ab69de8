package placement_test

import (
	"bytes"
	"context"
	"math"
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
	bin := cbcPath(t)
	seeds := []uint64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}
	if testing.Short() {
		seeds = []uint64{0, 6, 7}
	}
	ctx := context.Background()
	for _, seed := range seeds {
		p := reducible(seed+300, seed%2 == 0)
		p.Options.Gap = 1e-9
		full, err := placement.ModelFull(p)
		if err != nil {
			t.Fatal(err)
		}
		reduced, err := placement.Model(p)
		if err != nil {
			t.Fatal(err)
		}
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
	bin := cbcPath(t)
	seeds := []uint64{0, 1, 2, 3, 4, 5}
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
		full, err := placement.ModelFull(p)
		if err != nil {
			t.Fatal(err)
		}
		reduced, err := placement.Model(p)
		if err != nil {
			t.Fatal(err)
		}
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
