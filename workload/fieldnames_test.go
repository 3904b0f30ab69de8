package workload_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/gputco/gputco/workload"
)

// TestDecodeErrorsNameJSONPath: a value of the wrong type, or one that does
// not parse as its field's (a duration, an amount, an enumeration name, a
// curve type), is reported as a *FieldError under its path in the file —
// inside a demand curve and a scenario too — not under the Go struct that
// decodes it nor without a field.
func TestDecodeErrorsNameJSONPath(t *testing.T) {
	const svc = `"name": "a", "kind": "inference", "gpus": 8, "horizon": "720h", `
	tests := []struct {
		name, doc, field, want string
		scenario               bool
		sentinel               error
	}{
		{"duration", `{"name": "a", "kind": "inference", "gpus": 8, "horizon": "soon"}`, "horizon", `horizon = "soon": malformed value: duration "soon"`, false, workload.ErrMalformed},
		{"enumeration", `{"name": "a", "kind": "cloudy", "gpus": 8}`, "kind", `kind = "cloudy": malformed value: unknown name`, false, workload.ErrUnknownName},
		{"type", `{"name": "a", "kind": "training", "gpus": "eight"}`, "gpus", `gpus = "eight": malformed value: a JSON string where a whole number belongs`, false, workload.ErrMalformed},
		{"amount", `{"name": "a", "kind": "training", "gpus": 8, "costOfDelayPerDay": "abc"}`, "costOfDelayPerDay", `costOfDelayPerDay = "abc": malformed value: amount "abc"`, false, workload.ErrMalformed},
		{"nested enumeration", `{"name": "a", "kind": "training", "gpus": 8, "requirements": {"interconnect": {"fabric": "wifi"}}}`,
			"requirements.interconnect.fabric", `requirements.interconnect.fabric = "wifi": malformed value: unknown name`, false, workload.ErrUnknownName},
		{"curve duration", `{` + svc + `"demand": {"type": "steps", "cycle": "24h", "steps": [{"start": "zz", "value": 1}]}}`,
			"demand.steps[0].start", `demand.steps[0].start = "zz": malformed value: duration "zz"`, false, workload.ErrMalformed},
		{"curve type mismatch", `{` + svc + `"demand": {"type": "diurnal", "mean": "x"}}`,
			"demand.mean", `demand.mean = "x": malformed value: a JSON string where a number belongs`, false, workload.ErrMalformed},
		{"inner curve type", `{` + svc + `"demand": {"type": "sum", "terms": [{"type": "constant", "value": 0.1}, {"type": "scale", "curve": {"type": "bogus"}}]}}`,
			"demand.terms[1].curve.type", `demand.terms[1].curve.type = "bogus": malformed value: unknown name`, false, workload.ErrUnknownName},
		{"scenario", `{"name": "s", "workloads": [{"name": "a", "kind": "training", "gpus": 8, "workGPUHours": 1}, {"name": "b", "kind": "training", "gpus": "x"}]}`,
			"workloads[1].gpus", `workloads[1].gpus = "x": malformed value: a JSON string where a whole number belongs`, true, workload.ErrMalformed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var err error
			if tt.scenario {
				_, err = workload.ReadScenario(strings.NewReader(tt.doc))
			} else {
				_, err = workload.ReadWorkload(strings.NewReader(tt.doc))
			}
			var fe *workload.FieldError
			if !errors.As(err, &fe) || fe.Field != tt.field || !errors.Is(err, workload.ErrMalformed) || !errors.Is(err, tt.sentinel) {
				t.Fatalf("error %v: want a *FieldError at %q wrapping ErrMalformed and %v", err, tt.field, tt.sentinel)
			}
			if msg := err.Error(); msg != "workload: "+tt.want && !strings.HasPrefix(msg, "workload: "+tt.want) || strings.Contains(msg, "Go struct") || strings.Count(msg, "workload:") != 1 {
				t.Errorf("message %q, want it to start %q, the package prefix once, naming no Go struct", msg, "workload: "+tt.want)
			}
		})
	}
}
