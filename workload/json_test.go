package workload

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/shopspring/decimal"
)

var decimalEqual = cmp.Comparer(func(a, b decimal.Decimal) bool { return a.Equal(b) })

func TestCurveJSONRoundTrip(t *testing.T) {
	for _, b := range builtins() {
		data, err := MarshalCurve(b.curve)
		if err != nil {
			t.Fatalf("%s: MarshalCurve: %v", b.name, err)
		}
		got, err := UnmarshalCurve(data)
		if err != nil {
			t.Fatalf("%s: UnmarshalCurve(%s): %v", b.name, data, err)
		}
		if d := cmp.Diff(b.curve, got); d != "" {
			t.Errorf("%s: round trip (-want +got):\n%s", b.name, d)
		}
	}
}

func TestCurveJSONDurations(t *testing.T) {
	data, err := MarshalCurve(Repeat{Curve: Constant{Value: 1}, Cycle: 720 * 60 * 60 * 1e9})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), `"cycle":"720h0m0s"`) {
		t.Errorf("durations are Go duration strings: %s", data)
	}
}

func TestCurveJSONErrors(t *testing.T) {
	tests := []struct {
		name   string
		reason string
		in     string
		want   error
	}{
		{"unknown type", "closed set of built-ins", `{"type":"sawtooth"}`, ErrUnknownName},
		{"unknown field", "typos are caught", `{"type":"constant","valeu":1}`, ErrSyntax},
		{"bad duration", "durations are Go strings", `{"type":"repeat","curve":{"type":"constant","value":1},"cycle":"a week"}`, ErrSyntax},
		{"not JSON", "syntax", `{`, ErrSyntax},
		{"nested unknown", "errors propagate from terms", `{"type":"sum","terms":[{"type":"nope"}]}`, ErrUnknownName},
	}
	for _, tt := range tests {
		if _, err := UnmarshalCurve([]byte(tt.in)); !errors.Is(err, tt.want) {
			t.Errorf("%s: %v, want %v (%s)", tt.name, err, tt.want, tt.reason)
		}
	}
	if _, err := MarshalCurve(nanCurve{}); !errors.Is(err, ErrUnsupportedCurve) {
		t.Errorf("custom curve: %v, want ErrUnsupportedCurve", err)
	}
}

const scenarioJSON = `{
  "name": "demo",
  "workloads": [
    {
      "name": "chat",
      "kind": "inference",
      "gpus": 16,
      "demand": {"type": "diurnal", "mean": 0.5, "amplitude": 0.3, "peakHour": 20},
      "horizon": "720h0m0s",
      "requirements": {"minMemoryGiB": 40, "minIsolation": "dedicated",
        "interconnect": {"fabric": "none", "gbps": 0, "belowFabric": "incompatible"}},
      "interruption": {"tolerance": "stateless", "restartTime": "3m0s"}
    },
    {
      "name": "tune",
      "kind": "fine-tuning",
      "gpus": 8,
      "workGPUHours": 96,
      "deadline": "48h0m0s",
      "costOfDelayPerDay": "1500.50",
      "requirements": {"models": {"H100 SXM": 1, "A100 80GB": 0.33}, "jurisdictions": ["EU"]},
      "interruption": {"tolerance": "checkpointed", "checkpointTime": "2m0s", "restartTime": "5m0s"},
      "data": {"datasetGB": 200, "location": {"provider": "aws", "region": "eu-central-1"}}
    }
  ]
}`

func TestReadScenario(t *testing.T) {
	s, err := ReadScenario(strings.NewReader(scenarioJSON))
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Workloads) != 2 || s.Workloads[0].Horizon.Hours() != 720 || !s.Workloads[1].CostOfDelayPerDay.Equal(decimal.RequireFromString("1500.5")) {
		t.Fatalf("unexpected scenario %+v", s)
	}
	var buf bytes.Buffer
	if err := WriteScenario(&buf, s); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), `"horizon": "720h0m0s"`) {
		t.Errorf("horizon not a duration string:\n%s", buf.String())
	}
	back, err := ReadScenario(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(s, back, decimalEqual); d != "" {
		t.Errorf("round trip (-want +got):\n%s", d)
	}
}

func TestReadErrors(t *testing.T) {
	tests := []struct {
		name   string
		reason string
		in     string
		want   error
	}{
		{"unknown field", "typos are caught", `{"name":"x","kind":"batch","gpus":1,"workGPUHours":1,"gpu":2}`, ErrSyntax},
		{"unknown kind", "closed enumeration", `{"name":"x","kind":"serving","gpus":1,"workGPUHours":1}`, ErrUnknownName},
		{"bad duration", "durations are Go strings", `{"name":"x","kind":"batch","gpus":1,"workGPUHours":1,"deadline":"2 days"}`, ErrSyntax},
		{"invalid", "Read validates", `{"name":"x","kind":"batch","gpus":1,"workGPUHours":-1}`, ErrNegative},
		{"trailing", "one value only", `{"name":"x","kind":"batch","gpus":1,"workGPUHours":1} {}`, ErrSyntax},
	}
	for _, tt := range tests {
		if _, err := ReadWorkload(strings.NewReader(tt.in)); !errors.Is(err, tt.want) {
			t.Errorf("%s: %v, want %v (%s)", tt.name, err, tt.want, tt.reason)
		}
	}
	if _, err := ReadScenario(strings.NewReader(`{"workloads":[{"name":"x","kind":"batch","gpus":0,"workGPUHours":1}]}`)); err == nil ||
		!strings.Contains(err.Error(), "workloads[0].gpus") {
		t.Errorf("scenario errors name the workload: %v", err)
	}
}

// TestDurationUnits: a workload's durations read as the provider package
// reads catalogs in JSON and CSV: Go durations and days, months, years.
func TestDurationUnits(t *testing.T) {
	for in, want := range map[string]time.Duration{"72h": 72 * time.Hour, "3d": 72 * time.Hour, "1mo": 730 * time.Hour, "1y": 8760 * time.Hour} {
		w, err := ReadWorkload(strings.NewReader(`{"name":"x","kind":"batch","gpus":1,"workGPUHours":1,"deadline":"` + in + `"}`))
		if err != nil || w.Deadline != want {
			t.Errorf("deadline %q: %v, %v; want %v", in, w.Deadline, err, want)
		}
	}
}

func TestCurveJSONDepthLimit(t *testing.T) {
	in := strings.Repeat(`{"type":"scale","factor":1,"curve":`, MaxCurveDepth+2) + `{"type":"constant","value":1}` + strings.Repeat("}", MaxCurveDepth+2)
	if _, err := UnmarshalCurve([]byte(in)); !errors.Is(err, ErrSyntax) {
		t.Errorf("deep nesting: %v, want ErrSyntax", err)
	}
	in = strings.Repeat(`{"type":"scale","factor":1,"curve":`, 5) + `{"type":"constant","value":1}` + strings.Repeat("}", 5)
	if _, err := UnmarshalCurve([]byte(in)); err != nil {
		t.Errorf("shallow nesting: %v", err)
	}
}
