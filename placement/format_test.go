package placement_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/gputco/gputco/placement"
	"github.com/gputco/gputco/provider"
	"github.com/gputco/gputco/workload"
	"github.com/shopspring/decimal"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// formatPlan is a small plan with every kind of row: a reserved base shared
// by a service and a job, on-demand burst, spot, a stock that binds, an
// unplaced workload.
func formatPlan(t *testing.T) placement.Plan {
	t.Helper()
	w := []workload.Workload{steps("svc", 32), batch("job", 8, 10000, 90*24*time.Hour),
		{Name: "gang", Kind: workload.Training, GPUs: 16, WorkGPUHours: 1000}}
	p := placement.Problem{Workloads: w,
		Offers:      []provider.Offer{reserved("res", "14", 8, 3), onDemand("od", "30", 8, 0), spot("spot", "11", 8, 1, 0)},
		Assumptions: bare(), Options: placement.Options{Period: workload.Day}}
	plan, err := placement.Solve(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	return plan
}

func TestPlanString(t *testing.T) {
	plan := formatPlan(t)
	got := plan.String()
	golden := filepath.Join("testdata", "plan.golden")
	if *update {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(string(want), got); d != "" {
		t.Errorf("Plan.String() mismatch (-want +got; go test -update rewrites):\n%s", d)
	}
}

func TestPlanCSVSumsToTotal(t *testing.T) {
	plan := formatPlan(t)
	var buf bytes.Buffer
	if err := plan.WriteCSV(&buf); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) < 3 || rows[0][8] != "amount" {
		t.Fatalf("csv %v: want a header and lines", rows)
	}
	sum := decimal.Zero
	for _, r := range rows[1:] {
		sum = sum.Add(decimal.RequireFromString(r[8]))
	}
	if !sum.Equal(plan.Total) {
		t.Errorf("csv lines sum to %s, plan total %s", sum, plan.Total)
	}
}

func TestPlanJSON(t *testing.T) {
	plan := formatPlan(t)
	data, err := json.Marshal(plan)
	if err != nil {
		t.Fatal(err)
	}
	var back struct {
		Status      string
		Total       decimal.Decimal
		Unplaced    []struct{ Workload, Error string }
		Commitments []struct{ Offer, Tier string }
		Assignments []struct {
			Uses []struct {
				PeakGPUs float64
				GPUs     []float64
			}
		}
		Stats struct{ FirstPlan string }
	}
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	if len(back.Assignments) != len(plan.Assignments) {
		t.Fatalf("JSON has %d assignments, plan %d", len(back.Assignments), len(plan.Assignments))
	}
	for i, a := range plan.Assignments {
		for k, u := range a.Uses {
			got := back.Assignments[i].Uses[k]
			if !slices.Equal(got.GPUs, u.GPUs) || got.PeakGPUs != u.PeakGPUs {
				t.Errorf("%s on %s: JSON gpus %v peak %g, plan %v peak %g", a.Workload, u.Offer, got.GPUs, got.PeakGPUs, u.GPUs, u.PeakGPUs)
			}
		}
	}
	if back.Stats.FirstPlan == "" {
		t.Errorf("JSON stats have no firstPlan")
	}
	if !back.Total.Equal(plan.Total) || back.Status != plan.Status.String() {
		t.Errorf("JSON total %s status %s, plan %s %s", back.Total, back.Status, plan.Total, plan.Status)
	}
	if len(back.Unplaced) != 1 || back.Unplaced[0].Workload != "gang" || back.Unplaced[0].Error == "" {
		t.Errorf("JSON unplaced %+v, want the gang job with its error", back.Unplaced)
	}
	if len(back.Commitments) != len(plan.Commitments) {
		t.Errorf("JSON has %d commitments, plan %d", len(back.Commitments), len(plan.Commitments))
	}
}
