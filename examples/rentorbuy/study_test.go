package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/shopspring/decimal"

	"github.com/gputco/gputco/examples/internal/cli"
	"github.com/gputco/gputco/provider"
	"github.com/gputco/gputco/tco"
	"github.com/gputco/gputco/workload"
)

// decoded is the JSON form of a default run.
type decoded struct {
	Currency string
	Own      summary
	Options  []struct {
		Offer          string
		Mode           string
		RatePerGPUHour float64
		BreakEven      tco.BreakEvenPoint
		Rent           summary
		ByHorizon      []struct {
			Years     float64
			BreakEven *tco.BreakEvenPoint
		}
	}
}

var (
	defaultOnce sync.Once
	defaultJSON decoded
	defaultErr  error
)

// defaultRun is the JSON of the default run, once per test binary.
func defaultRun(t *testing.T) decoded {
	t.Helper()
	defaultOnce.Do(func() {
		args := []string{"-format", "json"}
		if raceEnabled {
			args = append(args, "-horizons", "1,2,3")
		}
		var out, warn bytes.Buffer
		if defaultErr = run(&out, &warn, args, today); defaultErr == nil {
			defaultErr = json.Unmarshal(out.Bytes(), &defaultJSON)
		}
	})
	if defaultErr != nil {
		t.Fatal(defaultErr)
	}
	return defaultJSON
}

// TestBreakEvenOrder: among the pay-as-you-go offers that cross the owned
// server, a dearer rate crosses at a lower utilization (owning pays off
// sooner against dearer rent), so the hyperscaler on-demand break-even lies
// strictly between the dearest and the cheapest options' crossovers.
func TestBreakEvenOrder(t *testing.T) {
	d := defaultRun(t)
	type point struct {
		offer string
		rate  float64
		u     float64
	}
	var ps []point
	var aws float64
	for _, o := range d.Options {
		if len(o.BreakEven.Crossings) != 1 || (o.Mode != "metered" && o.Mode != "credit") || strings.Contains(o.Offer, "weekly") {
			continue
		}
		ps = append(ps, point{o.Offer, o.RatePerGPUHour, o.BreakEven.Crossings[0].Utilization})
		if o.Offer == "aws-p5-h100-ondemand" {
			aws = o.BreakEven.Crossings[0].Utilization
		}
	}
	if len(ps) < 4 || aws == 0 {
		t.Fatalf("%d crossing offers, aws on-demand at %v", len(ps), aws)
	}
	lo, hi := ps[0], ps[0]
	for _, p := range ps {
		if p.rate > lo.rate {
			lo = p
		}
		if p.rate < hi.rate {
			hi = p
		}
		for _, q := range ps {
			if p.rate > q.rate && p.u >= q.u {
				t.Errorf("%s ($%.2f/GPU-h) crosses at %.3f, not below %s ($%.2f) at %.3f", p.offer, p.rate, p.u, q.offer, q.rate, q.u)
			}
		}
	}
	if !(lo.u < aws && aws < hi.u) {
		t.Errorf("aws on-demand break-even %.3f not between the dearest (%s, %.3f) and the cheapest (%s, %.3f)", aws, lo.offer, lo.u, hi.offer, hi.u)
	}
}

// TestBreakEvenByHorizon: a longer horizon spreads the server's price over
// more use, so on-demand break-evens fall from 1 to 3 to 5 years (1, 2 and 3
// under the race detector).
func TestBreakEvenByHorizon(t *testing.T) {
	d := defaultRun(t)
	checked := 0
	for _, o := range d.Options {
		if !strings.HasSuffix(o.Offer, "-ondemand") {
			continue
		}
		if len(o.ByHorizon) != 3 {
			t.Fatalf("%s: %d horizons, want 3", o.Offer, len(o.ByHorizon))
		}
		prev := 2.0
		for _, h := range o.ByHorizon {
			if h.BreakEven == nil || len(h.BreakEven.Crossings) == 0 {
				t.Fatalf("%s: no crossing at %g years", o.Offer, h.Years)
			}
			u := h.BreakEven.Crossings[0].Utilization
			if u >= prev {
				t.Errorf("%s: break-even %.3f at %g years, not below the shorter horizon's %.3f", o.Offer, u, h.Years, prev)
			}
			prev = u
		}
		checked++
	}
	if checked < 3 {
		t.Errorf("%d on-demand offers checked, want at least 3", checked)
	}
}

// TestRangesAgreeWithEvaluate: the ranges where owning is cheaper agree, at
// every utilization of the chart, with the two present values that Evaluate
// gives directly; and explicit + hidden = total for every option.
func TestRangesAgreeWithEvaluate(t *testing.T) {
	d := defaultRun(t)
	cat, err := provider.Default()
	if err != nil {
		t.Fatal(err)
	}
	own, _ := cat.Offers.Find("self-8x-h100-server")
	w := standing(own)
	w.Horizon = years(3)
	opt := options{years: 3}
	owned, err := series(w, own, opt, utilizations())
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range d.Options {
		if !o.Rent.Explicit.Add(o.Rent.Hidden).Equal(o.Rent.Total) {
			t.Errorf("%s: explicit %s + hidden %s ≠ total %s", o.Offer, o.Rent.Explicit, o.Rent.Hidden, o.Rent.Total)
		}
		switch o.Offer {
		case "aws-p5-h100-ondemand", "lambda-h100-8x-ondemand", "aws-p5-h100-reserved-3y", "aws-p5-h100-spot":
		default:
			continue
		}
		rent, _ := cat.Offers.Find(o.Offer)
		rs, err := series(w, rent, opt, utilizations())
		if err != nil {
			t.Fatal(err)
		}
		for i, u := range utilizations() {
			if o.BreakEven.OwnCheaperAt(u) != (owned[i] < rs[i]) {
				t.Errorf("%s at %.0f%%: ranges say own cheaper = %v, Evaluate gives own %.0f, rent %.0f", o.Offer, u*100,
					o.BreakEven.OwnCheaperAt(u), owned[i], rs[i])
			}
		}
	}
	if !d.Own.Explicit.Add(d.Own.Hidden).Equal(d.Own.Total) || !d.Own.Total.GreaterThan(decimal.Zero) {
		t.Errorf("owned: explicit %s + hidden %s vs total %s", d.Own.Explicit, d.Own.Hidden, d.Own.Total)
	}
}

func TestFormatsAndChart(t *testing.T) {
	dir := t.TempDir()
	var out, warn bytes.Buffer
	if err := run(&out, &warn, []string{"-format", "csv", "-years", "1", "-horizons", "1", "-out", dir}, today); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&out).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 1+len(defaultRun(t).Options) || rows[0][0] != "rent_offer" {
		t.Errorf("%d CSV rows, want a header and one per option", len(rows))
	}
	path := filepath.Join(dir, "rentorbuy.png")
	if err := cli.CheckPNG(path, 500, 300); err != nil {
		t.Error(err)
	}
	if fi, err := os.Stat(path); err != nil || fi.Size() < 10_000 {
		t.Errorf("rentorbuy.png: %v", err)
	}
}

// TestOwnWorkloads: -workloads and -workload compare the user's workload.
func TestOwnWorkloads(t *testing.T) {
	cat, err := provider.Default()
	if err != nil {
		t.Fatal(err)
	}
	own, _ := cat.Offers.Find("self-8x-h100-server")
	w := standing(own)
	w.Name, w.GPUs = "two-nodes", 16
	var b bytes.Buffer
	if err := workload.WriteScenario(&b, workload.Scenario{Workloads: []workload.Workload{standing(own), w}}); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "w.json")
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, warn bytes.Buffer
	if err := run(&out, &warn, []string{"-workloads", path, "-workload", "two-nodes", "-years", "1", "-horizons", "1"}, today); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "Workload two-nodes from "+path+": 16 GPUs at peak") {
		t.Errorf("output does not name the workload:\n%s", out.String())
	}
}
