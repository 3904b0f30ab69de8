package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/gputco/gputco/examples/internal/cli"
	"github.com/gputco/gputco/provider"
	"github.com/gputco/gputco/workload"
)

// light are flags that keep the tests of the command line quick (also under
// the race detector); the substance is checked on analysed's larger samples.
var light = []string{"-trials", "300", "-samples", "30", "-traces", "5"}

var (
	analysedOnce   sync.Once
	analysedResult result
	analysedErr    error
)

// analysed runs the command's logic on the default data, once per test binary.
func analysed(t *testing.T) result {
	t.Helper()
	analysedOnce.Do(func() { analysedResult, analysedErr = analyse1() })
	if analysedErr != nil {
		t.Fatal(analysedErr)
	}
	return analysedResult
}

func analyse1() (result, error) {
	cat, err := provider.Default()
	if err != nil {
		return result{}, err
	}
	opt := options{spot: "aws-p5-h100-spot", onDemand: "aws-p5-h100-ondemand", meanOn: 4 * time.Hour,
		step: 5 * time.Minute, traces: 40, trials: 2000, samples: 400, seed: 1}
	in, err := resolve(cat, builtinScenario(), opt)
	if err != nil {
		return result{}, err
	}
	return analyse(in, opt)
}

func f(d decimal.Decimal) float64 { v, _ := d.Float64(); return v }

// TestCheckpointing: Daly's interval is a local minimum of the expected wall
// time, and close to Young's √(2δM) computed here, since δ ≪ M.
func TestCheckpointing(t *testing.T) {
	c := analysed(t).Checkpointing
	if c == nil {
		t.Fatal("no checkpoint analysis for a checkpointed job on spot")
	}
	delta, mtti := time.Duration(c.Checkpoint).Hours(), time.Duration(c.MeanTimeToInterruption).Hours()
	young := math.Sqrt(2 * delta * mtti)
	if got := time.Duration(c.Young).Hours(); math.Abs(got-young) > 1e-6*young {
		t.Errorf("Young's interval %v h, want √(2δM) = %v h", got, young)
	}
	if d := time.Duration(c.Daly).Hours(); math.Abs(d-young) > 0.02*young || d >= young {
		t.Errorf("Daly's interval %v h: want just below Young's %v h when δ/M = %.1e", d, young, delta/mtti)
	}
	if c.WallAtDaly > c.WallAtHalf || c.WallAtDaly > c.WallAtTwice {
		t.Errorf("wall time at Daly's interval %v is not below those at half (%v) and twice (%v) it",
			time.Duration(c.WallAtDaly), time.Duration(c.WallAtHalf), time.Duration(c.WallAtTwice))
	}
	// 48 hours of compute: the expected wall time adds checkpoints and lost work.
	if w := time.Duration(c.WallAtDaly); w <= 48*time.Hour || w > 50*time.Hour {
		t.Errorf("expected wall time %v for 48 h of work with rare interruptions", w)
	}
}

// TestExpectedAndSimulated: spot is cheaper than on-demand in expectation,
// yet no cheaper than its rate times the work; the simulated percentiles are
// ordered, and the independent single trials drawn for the chart have
// about the same median as the simulation.
func TestExpectedAndSimulated(t *testing.T) {
	res := analysed(t)
	if len(res.Options) != 2 || res.Options[0].Offer != res.Spot || res.Options[1].Offer != res.OnDemand {
		t.Fatalf("options %+v, want spot then on-demand", res.Options)
	}
	spot, od := res.Options[0], res.Options[1]
	if !spot.Expected.LessThan(od.Expected) {
		t.Errorf("spot expected %s ≥ on-demand %s on the default catalog", spot.Expected, od.Expected)
	}
	floor := f(res.SpotNodeRate) / 8 * res.WorkGPUHours // 8 GPUs a node, speed factor 1
	if f(spot.Expected) < floor {
		t.Errorf("spot expected %s below its rate times the work, %.2f", spot.Expected, floor)
	}
	for i, o := range res.Options {
		c := o.Cost
		if c.P50.GreaterThan(c.P90) || c.P90.GreaterThan(c.P99) {
			t.Errorf("%s: percentiles not ordered: %s, %s, %s", o.Offer, c.P50, c.P90, c.P99)
		}
		if o.FinishP50 > o.FinishP90 || o.FinishP90 > o.FinishP99 {
			t.Errorf("%s: finish percentiles not ordered", o.Offer)
		}
		s := slices.Clone(res.samples[i])
		slices.Sort(s)
		median := s[len(s)/2]
		if p50 := f(c.P50); math.Abs(median-p50) > 0.03*p50 {
			t.Errorf("%s: median of %d single trials %.2f, simulation's P50 %.2f", o.Offer, len(s), median, p50)
		}
	}
	// Spot's fill probability (0.4) makes it miss the deadline more often.
	if spot.DeadlineMissedFraction <= od.DeadlineMissedFraction {
		t.Errorf("spot misses the deadline in %.3f of trials, on-demand in %.3f", spot.DeadlineMissedFraction, od.DeadlineMissedFraction)
	}
}

// TestPolicies: both policies meet every deadline (the job is feasible),
// never cost less than running all of it on spot, cost less with more spot,
// and at 95 % availability cost less than all on-demand.
func TestPolicies(t *testing.T) {
	res := analysed(t)
	j := res.PolicyJob
	if len(res.Policies) != 2*len(levels()) {
		t.Fatalf("%d policy rows, want %d", len(res.Policies), 2*len(levels()))
	}
	allSpot := f(j.SpotPerHour) * time.Duration(j.Work).Hours()
	first := map[string]policyRow{}
	for _, p := range res.Policies {
		if p.DeadlineMisses != 0 {
			t.Errorf("%s at %.0f%%: %d deadline misses on a feasible job", p.Policy, p.Availability*100, p.DeadlineMisses)
		}
		if f(p.MeanCost) < allSpot {
			t.Errorf("%s at %.0f%%: mean cost %s below all-spot %.2f", p.Policy, p.Availability*100, p.MeanCost, allSpot)
		}
		if p.P90Cost.LessThan(p.MeanCost.Mul(decimal.RequireFromString("0.5"))) {
			t.Errorf("%s at %.0f%%: P90 %s implausibly below the mean %s", p.Policy, p.Availability*100, p.P90Cost, p.MeanCost)
		}
		if _, ok := first[p.Policy]; !ok {
			first[p.Policy] = p
		}
		if p.Availability == levels()[len(levels())-1] {
			lo := first[p.Policy]
			if !p.MeanCost.LessThan(lo.MeanCost) {
				t.Errorf("%s: mean cost %s at %.0f%% availability not below %s at %.0f%%", p.Policy,
					p.MeanCost, p.Availability*100, lo.MeanCost, lo.Availability*100)
			}
			if !p.MeanCost.LessThan(j.AllOnDemand) {
				t.Errorf("%s: mean cost %s at %.0f%% availability not below all on-demand %s", p.Policy,
					p.MeanCost, p.Availability*100, j.AllOnDemand)
			}
		}
	}
}

// TestRunFormats: the table, CSV and JSON forms carry the same rows.
func TestRunFormats(t *testing.T) {
	var table, stderr bytes.Buffer
	if err := run(&table, &stderr, light); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Daly's interval", "OFFER  ", "aws-p5-h100-spot", "uniform-progress", "$"} {
		if !strings.Contains(table.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, table.String())
		}
	}
	var out bytes.Buffer
	if err := run(&out, &stderr, append([]string{"-format", "csv"}, light...)); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&out).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 1+2+2*len(levels()) {
		t.Errorf("%d CSV rows, want a header, 2 offers and %d policy rows", len(rows), 2*len(levels()))
	}
	out.Reset()
	if err := run(&out, &stderr, append([]string{"-format", "json"}, light...)); err != nil {
		t.Fatal(err)
	}
	var v struct {
		Options  []struct{ Offer string }
		Policies []struct{ Policy string }
	}
	if err := json.Unmarshal(out.Bytes(), &v); err != nil {
		t.Fatal(err)
	}
	if len(v.Options) != 2 || len(v.Policies) != 2*len(levels()) {
		t.Errorf("JSON has %d options and %d policy rows", len(v.Options), len(v.Policies))
	}
}

// TestCharts: both charts are PNGs of the chart size, not blank, and not tiny.
func TestCharts(t *testing.T) {
	dir := t.TempDir()
	var out, stderr bytes.Buffer
	if err := run(&out, &stderr, append([]string{"-out", dir}, light...)); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"spot-cost.png", "spot-policies.png"} {
		path := filepath.Join(dir, name)
		if err := cli.CheckPNG(path, 500, 300); err != nil {
			t.Error(err)
		}
		if fi, err := os.Stat(path); err != nil || fi.Size() < 10_000 {
			t.Errorf("%s: %v bytes (%v), want a drawn chart", name, fi.Size(), err)
		}
	}
}

// TestOwnWorkloads: -workloads and -job pick a job from the user's scenario.
func TestOwnWorkloads(t *testing.T) {
	sc := builtinScenario()
	w := sc.Workloads[0]
	w.Name, w.GPUs, w.WorkGPUHours = "my-job", 8, 8*24
	sc.Workloads = append(sc.Workloads, w)
	var b bytes.Buffer
	if err := workload.WriteScenario(&b, sc); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "w.json")
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, stderr bytes.Buffer
	if err := run(&out, &stderr, append([]string{"-workloads", path, "-job", "my-job"}, light...)); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(out.String(), "Spot or on-demand for my-job: 8 GPUs, 192 reference GPU-hours") {
		t.Errorf("output does not describe my-job:\n%s", out.String())
	}
}

// TestRunErrors: bad flags and inputs are one-line usage errors (status 2).
func TestRunErrors(t *testing.T) {
	tests := []struct {
		name   string
		args   []string
		reason string
	}{
		{"unknown job", []string{"-job", "nope"}, "the job must exist"},
		{"spot is on-demand", []string{"-spot", "aws-p5-h100-ondemand"}, "the spot offer must be interruptible"},
		{"on-demand is spot", []string{"-ondemand", "aws-p5-h100-spot"}, "the on-demand offer must not be"},
		{"unknown offer", []string{"-spot", "nope"}, "the offer must exist"},
		{"bad format", []string{"-format", "xml"}, "table, csv or json"},
		{"no traces", []string{"-traces", "0"}, "at least one trace"},
		{"negative mtti", []string{"-spot-mtti", "-1h"}, "a duration"},
		{"step too long", []string{"-step", "5h"}, "step within an on-period"},
		{"flag value", []string{"-trials", "many"}, "the flag package's parse error"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, stderr bytes.Buffer
			err := run(&out, &stderr, tt.args)
			if status := cli.Exit("spot", &stderr, err); status != 2 {
				t.Errorf("run(%q): status %d (%v), want 2: %s", tt.args, status, err, tt.reason)
			}
			if strings.Count(stderr.String(), "\n") != 1 {
				t.Errorf("want one line on stderr, got %q", stderr.String())
			}
		})
	}
}

// TestSpotMTTI: a shorter time between interruptions shortens Daly's interval
// and makes spot dearer.
func TestSpotMTTI(t *testing.T) {
	var base, what bytes.Buffer
	if err := run(&base, &bytes.Buffer{}, append([]string{"-format", "json"}, light...)); err != nil {
		t.Fatal(err)
	}
	if err := run(&what, &bytes.Buffer{}, append([]string{"-format", "json", "-spot-mtti", "50h"}, light...)); err != nil {
		t.Fatal(err)
	}
	type r struct {
		Checkpointing struct{ Daly string }
		Options       []struct{ Expected decimal.Decimal }
	}
	var b, w r
	if err := json.Unmarshal(base.Bytes(), &b); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(what.Bytes(), &w); err != nil {
		t.Fatal(err)
	}
	db, _ := time.ParseDuration(b.Checkpointing.Daly)
	dw, _ := time.ParseDuration(w.Checkpointing.Daly)
	if dw >= db || !w.Options[0].Expected.GreaterThan(b.Options[0].Expected) {
		t.Errorf("with -spot-mtti 50h: Daly %v (was %v), spot expected %s (was %s)", dw, db, w.Options[0].Expected, b.Options[0].Expected)
	}
}
