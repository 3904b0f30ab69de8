package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
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
)

var (
	once    sync.Once
	studied result
	errOnce error
)

// defaultStudy is the study of the built-in portfolio, once per test binary.
func defaultStudy(t *testing.T) result {
	t.Helper()
	once.Do(func() {
		cat, err := provider.Default()
		if err != nil {
			errOnce = err
			return
		}
		studied, errOnce = study(context.Background(), cat, builtinScenario(), options{years: 1, maxSpot: 0.25, timeLimit: time.Minute})
	})
	if errOnce != nil {
		t.Fatal(errOnce)
	}
	return studied
}

// TestPlanFeasible: every workload is placed; every service has at least
// its demand in every slice; every job gets at least its work (no default
// GPU is faster than the reference); the spot share respects -max-spot.
func TestPlanFeasible(t *testing.T) {
	res := defaultStudy(t)
	p := res.Plan
	if len(p.Unplaced) != 0 || len(p.Assignments) != len(builtinScenario().Workloads) {
		t.Fatalf("placed %d, unplaced %v", len(p.Assignments), p.Unplaced)
	}
	slice := p.Period / time.Duration(p.Slices)
	for _, w := range builtinScenario().Workloads {
		var a placement.Assignment
		for _, x := range p.Assignments {
			if x.Workload == w.Name {
				a = x
			}
		}
		if w.IsService() {
			for i := range p.Slices {
				got := 0.0
				for _, u := range a.Uses {
					got += u.GPUs[i]
				}
				mid := time.Duration(i)*slice + slice/2
				if need := float64(w.GPUs) * w.Demand.At(mid); got < need-1e-6 {
					t.Errorf("%s slice %d: %.2f GPUs for a demand of %.2f", w.Name, i, got, need)
				}
			}
			continue
		}
		hours, spot := 0.0, 0.0
		for _, u := range a.Uses {
			hours += u.GPUHours
			if u.Tier == placement.Spot {
				spot += u.GPUHours
			}
		}
		if hours < w.WorkGPUHours-1e-6 {
			t.Errorf("%s: %.1f GPU-hours for %.1f reference GPU-hours of work", w.Name, hours, w.WorkGPUHours)
		}
	}
	if res.SpotShare > 0.25+1e-9 {
		t.Errorf("spot share %.4f above -max-spot 0.25", res.SpotShare)
	}
}

// TestPlanCheaper: the plan costs no more than on on-demand offers alone
// (a subset of the offers cannot do better), its bound is below its total,
// and its lines add up.
func TestPlanCheaper(t *testing.T) {
	res := defaultStudy(t)
	p := res.Plan
	if p.Bound.GreaterThan(p.Total) || p.Gap < 0 || p.Status != placement.Optimal {
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
	dir := t.TempDir()
	path, err := chart(res, builtinScenario(), dir)
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
	for _, args := range [][]string{{"-years", "0"}, {"-max-spot", "2"}, {"-time-limit", "0s"}, {"-format", "x"}, {"-workloads", "/nonexistent.json"}} {
		var stderr bytes.Buffer
		err := run(&bytes.Buffer{}, &stderr, args)
		if status := cli.Exit("hybrid", &stderr, err); status != 2 {
			t.Errorf("run(%q): status %d (%v), want 2", args, status, err)
		}
	}
}
