package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/gputco/gputco/examples/internal/cli"
	"github.com/gputco/gputco/placement"
	"github.com/gputco/gputco/provider"
	"github.com/gputco/gputco/workload"
)

var (
	once    sync.Once
	studied result
	errOnce error
	once3   sync.Once
	study3  result
	err3    error
)

// defaults are the command's default flags; in -short mode (the race
// pass) with slices of 6 hours, not 1, so that the solves stay within
// seconds under the race detector (the checks hold for any slices: they
// sample demand as the plan does, and each slice needs its peak).
func defaults() options {
	opt := options{years: 1, growth: 0.5, period: day, slice: time.Hour, maxSpot: 0.25, timeLimit: time.Minute}
	if testing.Short() {
		opt.slice = 6 * time.Hour
	}
	return opt
}

// defaultStudy is the study of the built-in portfolio, once per test binary.
func defaultStudy(t *testing.T) result {
	t.Helper()
	once.Do(func() {
		cat, err := provider.Default()
		if err != nil {
			errOnce = err
			return
		}
		studied, errOnce = study(context.Background(), cat, builtinScenario(), defaults())
	})
	if errOnce != nil {
		t.Fatal(errOnce)
	}
	return studied
}

// threeYears is the study of the built-in portfolio over three years with
// the service's demand growing by half at each anniversary (-years 3
// -growth 0.5), once per test binary; skipped in -short mode (it solves
// for tens of seconds).
func threeYears(t *testing.T) result {
	t.Helper()
	if testing.Short() {
		t.Skip("three years of yearly epochs: tens of seconds")
	}
	once3.Do(func() {
		cat, err := provider.Default()
		if err != nil {
			err3 = err
			return
		}
		opt := defaults()
		opt.years = 3
		study3, err3 = study(context.Background(), cat, builtinScenario(), opt)
	})
	if err3 != nil {
		t.Fatal(err3)
	}
	return study3
}

// checkFeasible: every workload is placed; every service has at least its
// demand (at the middle of each slice, sampled as the plan samples each
// stretch) in every slice of every stretch; every divisible job gets its
// work; every gang job runs on one offer, after that offer's lead time,
// finishing by its deadline; no owned capacity is ordered before the start,
// arrives before its lead time or is used before it arrives; the spot
// share respects -max-spot.
func checkFeasible(t *testing.T, res result) {
	t.Helper()
	p, sc := res.Plan, res.scenario
	if len(p.Unplaced) != 0 || len(p.Assignments) != len(sc.Workloads) {
		t.Fatalf("placed %d, unplaced %v", len(p.Assignments), p.Unplaced)
	}
	cat, err := provider.Default()
	if err != nil {
		t.Fatal(err)
	}
	lead := map[string]time.Duration{}
	owned := map[string]bool{}
	for _, o := range cat.Offers {
		lead[o.ID], owned[o.ID] = o.LeadTime(), o.Pricing.Mode() == "owned"
	}
	n := p.Slices
	for _, w := range sc.Workloads {
		var a placement.Assignment
		for _, x := range p.Assignments {
			if x.Workload == w.Name {
				a = x
			}
		}
		switch {
		case w.IsService():
			for k, e := range p.Epochs {
				// Each slice's peak as the plan samples it: the middle of a
				// slice can be the curve's peak between two samples.
				sl, err := workload.Discretize(workload.Shift{Curve: w.Demand, Offset: e.Start}, p.Period, n)
				if err != nil {
					t.Fatal(err)
				}
				// In a stretch shorter than the period (a job's deadline near
				// another cut), a slice that starts at or after its end needs
				// nothing there, and one that reaches past it the peak of its
				// part before the end.
				need := make([]float64, n)
				for i, x := range sl {
					need[i] = float64(w.GPUs) * x.Peak
					if from := e.Start + x.Start; from >= e.End {
						need[i] = 0
					} else if from+x.Length > e.End {
						head, err := workload.DiscretizeFrom(w.Demand, from, e.End-from, 1)
						if err != nil {
							t.Fatal(err)
						}
						need[i] = float64(w.GPUs) * head[0].Peak
					}
				}
				for i := range n {
					got := 0.0
					for _, u := range a.Uses {
						got += u.GPUs[k*n+i]
					}
					if got < need[i]-1e-6 {
						t.Errorf("%s, stretch %v–%v, slice %d: %.2f GPUs for a demand of %.2f", w.Name, e.Start, e.End, i, got, need[i])
					}
				}
			}
		case a.Gang != nil:
			g := a.Gang
			if len(a.Uses) != 1 || a.Uses[0].Offer != g.Offer {
				t.Errorf("%s: a gang on %d offers", w.Name, len(a.Uses))
			}
			if g.Start < lead[g.Offer] || g.Finish > w.Deadline || g.Finish <= g.Start {
				t.Errorf("%s: gang run %+v, lead time %v, deadline %v", w.Name, *g, lead[g.Offer], w.Deadline)
			}
			if lo, hi := w.GangSizes.Sizes(w.GPUs); g.GPUs < lo || g.GPUs > hi {
				t.Errorf("%s: gang of %d GPUs outside %d–%d", w.Name, g.GPUs, lo, hi)
			}
		default:
			hours := 0.0
			for _, u := range a.Uses {
				hours += u.GPUHours
			}
			if hours < w.WorkGPUHours-1e-6 {
				t.Errorf("%s: %.1f GPU-hours for %.1f reference GPU-hours of work", w.Name, hours, w.WorkGPUHours)
			}
		}
	}
	for _, e := range p.Epochs {
		for _, u := range e.Uses {
			if u.GPUHours > 0 && e.Start < lead[u.Offer] {
				t.Errorf("%s uses %s in %v–%v, before its lead time %v", u.Workload, u.Offer, e.Start, e.End, lead[u.Offer])
			}
		}
	}
	for _, c := range p.Commitments {
		for _, h := range c.Held {
			if h.Order < 0 || h.Start < lead[c.Offer] || h.Start-h.Order != lead[c.Offer] {
				t.Errorf("%s: %d nodes ordered at %v, in service at %v; lead time %v", c.Offer, h.Nodes, h.Order, h.Start, lead[c.Offer])
			}
			if owned[c.Offer] && h.End != p.Horizon {
				t.Errorf("%s: owned servers held to %v, not to the horizon's end %v", c.Offer, h.End, p.Horizon)
			}
		}
	}
	if res.SpotShare > 0.25+1e-9 {
		t.Errorf("spot share %.4f above -max-spot 0.25", res.SpotShare)
	}
}

// checkCheaper: the plan costs no more than on on-demand offers alone (a
// subset of the offers cannot do better), which place every workload; its
// bound is below its total, and its lines add up.
func checkCheaper(t *testing.T, res result) {
	t.Helper()
	p := res.Plan
	if p.Bound.GreaterThan(p.Total) || p.Gap < 0 || p.Gap > 1e-4 {
		t.Errorf("total %s, bound %s, gap %v, status %v", p.Total, p.Bound, p.Gap, p.Status)
	}
	if !p.Explicit.Add(p.Hidden).Equal(p.Total) {
		t.Errorf("explicit %s + hidden %s ≠ total %s", p.Explicit, p.Hidden, p.Total)
	}
	for _, a := range res.Alternatives {
		if a.Err != "" {
			t.Errorf("%s: %s", a.Name, a.Err)
			continue
		}
		if len(a.Unplaced) == 0 && a.Total.LessThan(p.Total) {
			t.Errorf("%s places everything for %s, less than the plan's %s", a.Name, a.Total, p.Total)
		}
		if a.Name == "all on-demand" && (len(a.Unplaced) != 0 || !a.Total.GreaterThan(p.Total)) {
			t.Errorf("all on-demand: %s, unplaced %v; want every workload at more than %s", a.Total, a.Unplaced, p.Total)
		}
	}
}

// TestPlanFeasible checks the default plan (one year).
func TestPlanFeasible(t *testing.T) { checkFeasible(t, defaultStudy(t)) }

// TestPlanCheaper checks the default plan's cost.
func TestPlanCheaper(t *testing.T) { checkCheaper(t, defaultStudy(t)) }

// TestThreeYears: over three yearly epochs with the service growing by half
// a year, the plan is feasible, cheaper than all on-demand, summarises
// three years, and starts commitments in more than one of them or says
// why not; the service's peak demand grows as asked.
func TestThreeYears(t *testing.T) {
	res := threeYears(t)
	checkFeasible(t, res)
	checkCheaper(t, res)
	if len(res.Years) != 3 {
		t.Fatalf("%d years summarised, want 3", len(res.Years))
	}
	starting := 0
	for i, y := range res.Years {
		for _, a := range y.Actions {
			if a.Verb != "drop" && a.Verb != "run" {
				starting++
				break
			}
		}
		if want := 64 * math.Pow(1.5, float64(i)); math.Abs(y.PeakDemand-want) > 0.5 {
			t.Errorf("year %d: services' peak %.1f, want %.1f", i+1, y.PeakDemand, want)
		}
	}
	out, err := output(res)
	if err != nil {
		t.Fatal(err)
	}
	var table bytes.Buffer
	if err := (cli.Common{Format: "table"}).Write(&table, out); err != nil {
		t.Fatal(err)
	}
	if starting < 2 && !strings.Contains(table.String(), "Commitments start in one year only") && !strings.Contains(table.String(), "No commitment in any year") {
		t.Errorf("commitments start in %d years and the output does not say why:\n%s", starting, table.String())
	}
	for _, want := range []string{"Year 1 (days 0–365)", "Year 3 (days 730–1095)", "run pretrain-8b"} {
		if !strings.Contains(table.String(), want) {
			t.Errorf("table lacks %q", want)
		}
	}
	dir := t.TempDir()
	path, err := chart(res, dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := cli.CheckPNG(path, 900, 500); err != nil {
		t.Error(err)
	}
}

func TestFormatsAndChart(t *testing.T) {
	res := defaultStudy(t)
	out, err := output(res)
	if err != nil {
		t.Fatal(err)
	}
	var table, rows, js bytes.Buffer
	for _, c := range []struct {
		format string
		w      *bytes.Buffer
	}{{"table", &table}, {"csv", &rows}, {"json", &js}} {
		if err := (cli.Common{Format: c.format}).Write(c.w, out); err != nil {
			t.Fatal(err)
		}
	}
	for _, want := range []string{"plan optimal", "proven lower bound", "all on-demand:", "of the GPU-hours on spot"} {
		if !strings.Contains(table.String(), want) {
			t.Errorf("table lacks %q", want)
		}
	}
	recs, err := csv.NewReader(&rows).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	sum := decimal.Zero
	for _, r := range recs[1:] {
		sum = sum.Add(decimal.RequireFromString(r[len(r)-1]))
	}
	if !sum.Equal(res.Plan.Total) {
		t.Errorf("CSV lines sum to %s, total %s", sum, res.Plan.Total)
	}
	var v struct{ Alternatives []alternative }
	if err := json.Unmarshal(js.Bytes(), &v); err != nil || len(v.Alternatives) != 2 {
		t.Errorf("JSON: %v, %+v", err, v)
	}
	// The chart's bands, from the uses' GPUs per slice, add up to the
	// plan's own GPUs per slice of every stretch.
	for k, e := range res.Plan.Epochs {
		series := stacked(res.Plan, k)
		for i, sl := range e.Slices {
			got := 0.0
			for _, s := range series {
				got += s[i]
			}
			if want := sl.Base + sl.Burst + sl.Spot; math.Abs(got-want) > 1e-6 {
				t.Errorf("stretch %d slice %d: bands add up to %.4f GPUs, the plan's slice to %.4f", k, i, got, want)
			}
		}
	}
	dir := t.TempDir()
	path, err := chart(res, dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := cli.CheckPNG(path, 500, 300); err != nil {
		t.Error(err)
	}
	if fi, err := os.Stat(filepath.Join(dir, "hybrid.png")); err != nil || fi.Size() < 10_000 {
		t.Errorf("hybrid.png: %v", err)
	}
}

func TestUsageErrors(t *testing.T) {
	for _, args := range [][]string{{"-years", "0"}, {"-years", "11"}, {"-growth", "-1"}, {"-growth", "NaN"}, {"-period", "30m"}, {"-period", "169h"},
		{"-period", "4h"}, {"-slice", "5h"}, {"-slice", "30m"}, {"-max-spot", "2"}, {"-time-limit", "0s"}, {"-format", "x"}, {"-workloads", "/nonexistent.json"}, {"-years", "x"}} {
		var stderr bytes.Buffer
		err := run(&bytes.Buffer{}, &stderr, args)
		if status := cli.Exit("hybrid", &stderr, err); status != 2 {
			t.Errorf("run(%q): status %d (%v), want 2", args, status, err)
		}
		if msg := strings.TrimSpace(stderr.String()); msg == "" || strings.Count(msg, "\n") > 0 && !strings.Contains(msg, "Usage") {
			t.Errorf("run(%q): stderr %q, want one line", args, msg)
		}
	}
}
