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
	"github.com/gputco/gputco/provider"
	"github.com/gputco/gputco/workload"
	"github.com/gputco/gputco/workload/workloadtest"
)

var (
	once    sync.Once
	studied result
	errOnce error
	catalog provider.Catalog
)

func defaultStudy(t *testing.T) (result, provider.Catalog) {
	t.Helper()
	once.Do(func() {
		catalog, errOnce = loadCatalog(cli.Common{})
		if errOnce == nil {
			studied, errOnce = study(context.Background(), catalog, builtinScenario(),
				options{regulated: workloadtest.MedicalName, years: 1, timeLimit: time.Minute})
		}
	})
	if errOnce != nil {
		t.Fatal(errOnce)
	}
	return studied, catalog
}

// TestConstraintCost: the constrained plan keeps the job on German,
// physically isolated offers; lifting the constraint cannot raise the
// optimum; and the job (16 GPUs, whole nodes) costs in the plan what
// tco.Evaluate says alone on the same offer.
func TestConstraintCost(t *testing.T) {
	res, cat := defaultStudy(t)
	for _, id := range res.With.Offers[res.Regulated] {
		o, _ := cat.Offers.Find(id)
		if o.Jurisdiction != "DE" || o.Isolation != workload.Physical {
			t.Errorf("the regulated job runs on %s (%s, %s)", id, o.Jurisdiction, o.Isolation)
		}
	}
	if res.Constraint.IsNegative() || !res.With.Plan.Total.Sub(res.Without.Plan.Total).Equal(res.Constraint) {
		t.Errorf("constraint cost %s: with %s, without %s", res.Constraint, res.With.Plan.Total, res.Without.Plan.Total)
	}
	if !res.Constraint.IsPositive() {
		t.Error("the default data should make the constraint cost something")
	}
	// (A gang of whole nodes: placement's granularity note does not apply.)
	checked := false
	for _, a := range res.With.Plan.Assignments {
		if a.Alone == nil || a.Workload != res.Regulated {
			continue
		}
		checked = true
		if d := a.Cost.Sub(a.Alone.Total).Abs(); d.GreaterThan(decimal.NewFromInt(1)) {
			t.Errorf("%s: %s in the plan, %s alone (tco.Evaluate) on the same offer", a.Workload, a.Cost, a.Alone.Total)
		}
	}
	if !checked {
		t.Error("the regulated job does not run on exactly one offer")
	}
}

// TestMoves: moving the dataset costs the source's egress on every GB
// (the default 9 cents) and takes its size over 10 Gbps; moving it out at
// the end costs the offer's egress on the dataset and checkpoints.
func TestMoves(t *testing.T) {
	res, cat := defaultStudy(t)
	med := workloadtest.Medical()
	if len(res.Moves) < 5 {
		t.Fatalf("%d moves", len(res.Moves))
	}
	in := decimal.NewFromFloat(med.Data.DatasetGB).Mul(decimal.RequireFromString("0.09"))
	for _, m := range res.Moves {
		o, _ := cat.Offers.Find(m.Offer)
		if d := m.Transfer.Sub(in).Abs(); d.GreaterThan(decimal.RequireFromString("0.01")) {
			t.Errorf("%s: move in %s, want %s", m.Offer, m.Transfer, in)
		}
		out := o.Hidden.EgressPerGB.Mul(decimal.NewFromFloat(med.Data.DatasetGB + med.Data.CheckpointGB))
		if d := m.Exit.Sub(out).Abs(); d.GreaterThan(decimal.RequireFromString("0.01")) {
			t.Errorf("%s: move out %s, want %s", m.Offer, m.Exit, out)
		}
		gbps := o.Hidden.TransferGbps
		if gbps == 0 {
			gbps = 10
		}
		want := time.Duration(med.Data.DatasetGB * 8 / gbps * float64(time.Second)).Round(time.Minute).String()
		if m.TransferTime != want {
			t.Errorf("%s: transfer time %s, want %s", m.Offer, m.TransferTime, want)
		}
		if m.Compliant != (o.Jurisdiction == "DE" && o.Isolation == workload.Physical) {
			t.Errorf("%s: compliant %v", m.Offer, m.Compliant)
		}
	}
}

func TestFormatsAndChart(t *testing.T) {
	res, _ := defaultStudy(t)
	out := output(res)
	var table, rows, js bytes.Buffer
	for _, c := range []struct {
		format string
		w      *bytes.Buffer
	}{{"table", &table}, {"csv", &rows}, {"json", &js}} {
		if err := (cli.Common{Format: c.format}).Write(c.w, out); err != nil {
			t.Fatal(err)
		}
	}
	if !strings.Contains(table.String(), "What keeping medical-imaging in [DE], physical isolation costs") {
		t.Errorf("table:\n%s", table.String())
	}
	recs, err := csv.NewReader(&rows).ReadAll()
	if err != nil || len(recs) != 1+3+1 {
		t.Errorf("CSV: %v, %d rows", err, len(recs))
	}
	var v struct{ ConstraintCost decimal.Decimal }
	if err := json.Unmarshal(js.Bytes(), &v); err != nil || !v.ConstraintCost.Equal(res.Constraint) {
		t.Errorf("JSON: %v, %s", err, v.ConstraintCost)
	}
	dir := t.TempDir()
	path, err := chart(res, dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := cli.CheckPNG(path, 500, 300); err != nil {
		t.Error(err)
	}
	if fi, err := os.Stat(filepath.Join(dir, "compliance.png")); err != nil || fi.Size() < 10_000 {
		t.Errorf("compliance.png: %v", err)
	}
}

func TestUsageErrors(t *testing.T) {
	for _, args := range [][]string{{"-workload", "nope"}, {"-workload", "fine-tune"}, {"-years", "0"}, {"-format", "x"}, {"-catalog", "/nonexistent.json"}} {
		var stderr bytes.Buffer
		err := run(&bytes.Buffer{}, &stderr, args)
		if status := cli.Exit("compliance", &stderr, err); status != 2 {
			t.Errorf("run(%q): status %d (%v), want 2", args, status, err)
		}
	}
}
