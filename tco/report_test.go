package tco_test

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/gputco/gputco/provider"
	"github.com/gputco/gputco/tco"
	"github.com/gputco/gputco/workload"
	"github.com/gputco/gputco/workload/workloadtest"
	"github.com/shopspring/decimal"
)

var update = flag.Bool("update", false, "rewrite golden files")

// reportSpotFineTune is the fine-tune fixture on an 8×H100 spot offer billed
// per second, interrupted 1 % of node-hours, with storage, egress and node
// failures, under 8 % discounting.
func reportSpotFineTune(t *testing.T) tco.Report {
	t.Helper()
	o := evalOffer("test-h100-spot", provider.Spot{RatePerHour: decimal.RequireFromString("11.99"), Increment: time.Second,
		Minimum: time.Minute, InterruptionRatePerHour: 0.01, Notice: 2 * time.Minute})
	o.Hidden = provider.HiddenCosts{
		EgressPerGB: decimal.RequireFromString("0.09"), StoragePerGBMonth: decimal.RequireFromString("0.023"),
		NodeMTBF: 6338 * time.Hour, RecoveryTime: time.Hour,
	}
	o.Availability.FillProbability = 0.5
	return evaluate(t, workloadtest.FineTune(), o, tco.Assumptions{DiscountRatePerYear: 0.08})
}

// reportOwnedService is the chat-inference fixture (64 GPUs at peak, diurnal,
// one year) on owned 8×H100 servers with staff, storage and a 90-day
// procurement lead time, under 8 % discounting.
func reportOwnedService(t *testing.T) tco.Report {
	t.Helper()
	own := evalOwned()
	own.StaffFTEPerNode, own.StaffCostPerYear = 0.05, decimal.NewFromInt(180000)
	own.ProcurementLeadTime = 90 * 24 * time.Hour
	o := evalOffer("test-owned-h100", own)
	o.Hidden = provider.HiddenCosts{SetupHours: 130, StoragePerGBMonth: decimal.RequireFromString("0.04"),
		NodeMTBF: 6338 * time.Hour, RecoveryTime: 24 * time.Hour}
	return evaluate(t, workloadtest.ChatInference(), o, tco.Assumptions{DiscountRatePerYear: 0.08})
}

func TestReportString(t *testing.T) {
	tests := []struct {
		name   string
		report func(*testing.T) tco.Report
		reason string
	}{
		{"spot_fine_tune", reportSpotFineTune, "a finite job: wall time, checkpoints, preemptions, deadline"},
		{"owned_service", reportOwnedService, "a service on owned hardware: capital, power, residual"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.report(t).String()
			path := filepath.Join("testdata", tt.name+".golden")
			if *update {
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if diff := cmp.Diff(string(want), got); diff != "" {
				t.Errorf("String() mismatch (-golden +got) (%s):\n%s", tt.reason, diff)
			}
		})
	}
}

func TestReportWriteCSV(t *testing.T) {
	tests := []struct {
		name   string
		report func(*testing.T) tco.Report
		reason string
	}{
		{"spot fine-tune", reportSpotFineTune, "job lines"},
		{"owned service", reportOwnedService, "service lines, with a negative residual"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := tt.report(t)
			var buf bytes.Buffer
			if err := r.WriteCSV(&buf); err != nil {
				t.Fatal(err)
			}
			records, err := csv.NewReader(&buf).ReadAll()
			if err != nil {
				t.Fatalf("CSV does not parse back: %v", err)
			}
			header := []string{"workload", "offer", "category", "label", "kind", "owner", "timing", "amount"}
			if diff := cmp.Diff(header, records[0]); diff != "" {
				t.Fatalf("header mismatch (-want +got):\n%s", diff)
			}
			if len(records)-1 != len(r.Lines) {
				t.Fatalf("%d rows, want one per line (%d)", len(records)-1, len(r.Lines))
			}
			sum := decimal.Zero
			for i, rec := range records[1:] {
				l := r.Lines[i]
				kind := "explicit"
				if l.Category.Hidden() {
					kind = "hidden"
				}
				want := []string{r.Workload, r.Offer, l.Category.String(), l.Label, kind, l.Owner.String(), l.Timing.String(), rec[7]}
				if diff := cmp.Diff(want, rec); diff != "" {
					t.Errorf("row %d mismatch (-want +got):\n%s", i+1, diff)
				}
				amount, err := decimal.NewFromString(rec[7])
				if err != nil {
					t.Fatalf("row %d amount %q: %v", i+1, rec[7], err)
				}
				if !amount.Equal(l.Amount) {
					t.Errorf("row %d amount %s, line %s: full precision expected", i+1, amount, l.Amount)
				}
				sum = sum.Add(amount)
			}
			if !sum.Equal(r.Total) {
				t.Errorf("CSV amounts sum to %s, Total %s (%s)", sum, r.Total, tt.reason)
			}
		})
	}
}

func TestReportMarshalJSON(t *testing.T) {
	tests := []struct {
		name   string
		report func(*testing.T) tco.Report
		reason string
	}{
		{"spot fine-tune", reportSpotFineTune, "job with a wall time"},
		{"owned service", reportOwnedService, "service with a year of cash flow"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := tt.report(t)
			data, err := json.Marshal(r)
			if err != nil {
				t.Fatal(err)
			}
			var m map[string]any
			if err := json.Unmarshal(data, &m); err != nil {
				t.Fatalf("JSON does not decode: %v", err)
			}
			total, ok := m["total"].(string)
			if !ok {
				t.Fatalf("total = %#v, want a decimal string", m["total"])
			}
			if d, err := decimal.NewFromString(total); err != nil || !d.Equal(r.Total) {
				t.Errorf("total %q, want %s", total, r.Total)
			}
			lines, ok := m["lines"].([]any)
			if !ok || len(lines) != len(r.Lines) {
				t.Fatalf("lines = %#v, want %d lines", m["lines"], len(r.Lines))
			}
			for i, l := range lines {
				obj, _ := l.(map[string]any)
				if obj["owner"] != r.Lines[i].Owner.String() || obj["category"] != r.Lines[i].Category.String() {
					t.Errorf("line %d = %#v, want category %s and owner %s inline", i, l, r.Lines[i].Category, r.Lines[i].Owner)
				}
			}
			flow, ok := m["cashFlowByMonth"].([]any)
			if !ok || len(flow) != len(r.CashFlow) {
				t.Fatalf("cashFlowByMonth = %#v, want %d months", m["cashFlowByMonth"], len(r.CashFlow))
			}
			sum := decimal.Zero
			for _, f := range flow {
				s, _ := f.(string)
				d, err := decimal.NewFromString(s)
				if err != nil {
					t.Fatalf("cash flow month %#v: %v", f, err)
				}
				sum = sum.Add(d)
			}
			if !sum.Equal(r.Total) {
				t.Errorf("decoded cash flow sums to %s, Total %s", sum, r.Total)
			}
			for key, want := range map[string]time.Duration{
				"horizon": r.Horizon, "wallTime": r.WallTime, "startDelay": r.StartDelay,
				"transferTime": r.TransferTime, "finish": r.Finish, "deadline": r.Deadline,
			} {
				s, ok := m[key].(string)
				if !ok {
					t.Errorf("%s = %#v, want a Go duration string", key, m[key])
					continue
				}
				if got, err := time.ParseDuration(s); err != nil || got != want {
					t.Errorf("%s = %q, want %v (%s)", key, s, want, tt.reason)
				}
			}
			deriv, ok := m["derivation"].(map[string]any)
			if !ok {
				t.Fatalf("derivation = %#v", m["derivation"])
			}
			if s, _ := deriv["checkpointInterval"].(string); s != r.Derivation.CheckpointInterval.String() {
				t.Errorf("derivation.checkpointInterval = %q, want %q", s, r.Derivation.CheckpointInterval)
			}
		})
	}
}

// TestDeadlineAdvice: a missed deadline is printed with the precision to
// see by how much and why, and the report names the smallest gang of whole
// nodes that meets it — which Evaluate, run with that gang, confirms, while
// one node fewer still misses.
func TestDeadlineAdvice(t *testing.T) {
	cat, err := provider.Default()
	if err != nil {
		t.Fatal(err)
	}
	o, _ := cat.Offers.Find("aws-p5-h100-ondemand")
	w := workload.Workload{Name: "3-day job", Kind: workload.Training, GPUs: 8, WorkGPUHours: 8 * 60, Deadline: 72 * time.Hour,
		Interruption: workload.Interruption{Tolerance: workload.Checkpointed, CheckpointTime: 2 * time.Minute, RestartTime: 5 * time.Minute}}
	r, err := tco.Evaluate(w, o, tco.Assumptions{})
	if err != nil {
		t.Fatal(err)
	}
	if r.DeadlineMet || r.GPUsToMeetDeadline == 0 || r.GPUsToMeetDeadline%o.GPUsPerNode != 0 {
		t.Fatalf("deadline met %v, GPUs to meet it %d; want a miss and a gang of whole nodes", r.DeadlineMet, r.GPUsToMeetDeadline)
	}
	s := r.String()
	for _, want := range []string{"deadline 72.0h MISSED by ", fmt.Sprintf("%d GPUs would meet it", r.GPUsToMeetDeadline), "wall 60."} {
		if !strings.Contains(s, want) {
			t.Errorf("report lacks %q:\n%s", want, s)
		}
	}
	for _, tt := range []struct {
		gpus int
		met  bool
	}{{r.GPUsToMeetDeadline, true}, {r.GPUsToMeetDeadline - o.GPUsPerNode, false}} {
		big := w
		big.GPUs = tt.gpus
		rb, err := tco.Evaluate(big, o, tco.Assumptions{})
		if err != nil {
			t.Fatal(err)
		}
		if rb.DeadlineMet != tt.met {
			t.Errorf("with %d GPUs: finish %v, deadline met %v, want %v", tt.gpus, rb.Finish, rb.DeadlineMet, tt.met)
		}
	}
}

// TestServiceCoverage: a service cannot be served before its capacity
// exists. On the default 8×H100 server, with its 9-month procurement, a
// one-year service is covered from the lead time on — about a quarter of
// the horizon — and the report says so; it was reported as costed for the
// whole year with nothing amiss.
func TestServiceCoverage(t *testing.T) {
	cat, err := provider.Default()
	if err != nil {
		t.Fatal(err)
	}
	own, _ := cat.Offers.Find("self-8x-h100-server")
	w := workload.Workload{Name: "svc", Kind: workload.Inference, GPUs: 8, Demand: workload.Constant{Value: 1}, Horizon: provider.Year,
		Interruption: workload.Interruption{Tolerance: workload.Stateless}}
	r, err := tco.Evaluate(w, own, tco.Assumptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := 1 - r.StartDelay.Hours()/provider.Year.Hours()
	if r.StartDelay < own.LeadTime() || r.Coverage != want || want > 0.25 {
		t.Errorf("start delay %v, coverage %g; want the lead time %v or more and coverage %g ≤ 25 %%", r.StartDelay, r.Coverage, own.LeadTime(), want)
	}
	if s := r.String(); !strings.Contains(s, "capacity from 273.8d (6571h): only 25.0% of the horizon is served") {
		t.Errorf("report does not say what is served:\n%s", s)
	}
	job := workload.Workload{Name: "job", Kind: workload.Training, GPUs: 8, WorkGPUHours: 80,
		Interruption: workload.Interruption{Tolerance: workload.Checkpointed, CheckpointTime: time.Minute}}
	if r, err := tco.Evaluate(job, own, tco.Assumptions{}); err != nil || r.Coverage != 1 {
		t.Errorf("a finite job: coverage %g, %v; want 1 (its finish counts the delay)", r.Coverage, err)
	}
}
