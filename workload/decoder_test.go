package workload_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/gputco/gputco/workload"
)

// ramp is a downstream curve: its inner curve times a linear ramp from 0 to
// 1 over Over. It holds another curve, so its decoder calls d.Curve.
type ramp struct {
	Inner workload.Curve
	Over  time.Duration
}

func (r ramp) At(t time.Duration) float64 {
	f := 1.0
	if t < r.Over {
		f = max(float64(t)/float64(r.Over), 0)
	}
	return f * r.Inner.At(t)
}

func (r ramp) Period() time.Duration { return 0 }

func (r ramp) MarshalJSON() ([]byte, error) {
	inner, err := workload.MarshalCurve(r.Inner)
	if err != nil {
		return nil, err
	}
	return json.Marshal(struct {
		Type  string          `json:"type"`
		Inner json.RawMessage `json:"inner"`
		Over  string          `json:"over"`
	}{"ramp", inner, r.Over.String()})
}

func decodeRamp(raw json.RawMessage, d workload.Decoder) (workload.Curve, error) {
	var v struct {
		Type  string          `json:"type"`
		Inner json.RawMessage `json:"inner"`
		Over  string          `json:"over"`
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	over, err := time.ParseDuration(v.Over)
	if err != nil {
		return nil, err
	}
	inner, err := d.Curve(v.Inner)
	if err != nil {
		return nil, err
	}
	return ramp{Inner: inner, Over: over}, nil
}

var rampDecoder = workload.Decoder{Curves: map[string]workload.CurveDecoder{"ramp": decodeRamp}}

func TestDecoderCurve(t *testing.T) {
	c, err := rampDecoder.Curve([]byte(`{"type":"ramp","inner":{"type":"constant","value":0.8},"over":"10h"}`))
	if err != nil {
		t.Fatal(err)
	}
	if got := c.At(5 * time.Hour); math.Abs(got-0.4) > 1e-12 {
		t.Errorf("At(5h) = %v, want 0.4", got)
	}
	// Round trip through MarshalCurve (the curve's own MarshalJSON).
	data, err := workload.MarshalCurve(c)
	if err != nil {
		t.Fatal(err)
	}
	back, err := rampDecoder.Curve(data)
	if err != nil {
		t.Fatal(err)
	}
	if back != c {
		t.Errorf("round trip gave %#v, want %#v", back, c)
	}
	// The zero decoder does not know the type.
	if _, err := workload.UnmarshalCurve(data); !errors.Is(err, workload.ErrUnknownName) {
		t.Errorf("UnmarshalCurve of a downstream type: %v, want ErrUnknownName", err)
	}
	// A built-in type inside a downstream one, and a downstream one inside a built-in.
	if _, err := rampDecoder.Curve([]byte(`{"type":"scale","factor":0.5,"curve":` + string(data) + `}`)); err != nil {
		t.Errorf("ramp inside scale: %v", err)
	}
}

func TestDecoderBounds(t *testing.T) {
	// Downstream nesting counts towards MaxCurveDepth.
	nested := `{"type":"constant","value":1}`
	for range workload.MaxCurveDepth + 1 {
		nested = `{"type":"ramp","over":"1h","inner":` + nested + `}`
	}
	if _, err := rampDecoder.Curve([]byte(nested)); !errors.Is(err, workload.ErrMalformed) || !strings.Contains(err.Error(), "deeper") {
		t.Errorf("ramps nested %d deep: %v, want the depth limit", workload.MaxCurveDepth+1, err)
	}
	// A decoder's error names the type.
	if _, err := rampDecoder.Curve([]byte(`{"type":"ramp","over":"soon","inner":null}`)); !errors.Is(err, workload.ErrMalformed) || !strings.Contains(err.Error(), `"ramp" curve`) {
		t.Errorf("bad ramp: %v, want a malformed-input error naming the ramp curve", err)
	}
	// A downstream decoder takes precedence over a built-in type of the same name.
	own := workload.Decoder{Curves: map[string]workload.CurveDecoder{
		"constant": func(json.RawMessage, workload.Decoder) (workload.Curve, error) {
			return workload.Constant{Value: 0.25}, nil
		},
	}}
	if c, err := own.Curve([]byte(`{"type":"constant","value":1}`)); err != nil || c.At(0) != 0.25 {
		t.Errorf("overridden constant: %v, %v", c, err)
	}
}

func TestDecoderScenario(t *testing.T) {
	in := `{"name":"s","workloads":[{"name":"svc","kind":"inference","gpus":8,"horizon":"720h",
		"demand":{"type":"ramp","over":"48h","inner":{"type":"diurnal","mean":0.6,"amplitude":0.3,"peakHour":14}}}]}`
	s, err := rampDecoder.Scenario([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := s.Workloads[0].Demand.(ramp); !ok {
		t.Fatalf("demand %T, want ramp", s.Workloads[0].Demand)
	}
	if _, err := workload.ReadScenario(strings.NewReader(in)); !errors.Is(err, workload.ErrUnknownName) {
		t.Errorf("ReadScenario of a downstream curve: %v, want ErrUnknownName", err)
	}
	var b bytes.Buffer
	if err := workload.WriteScenario(&b, s); err != nil {
		t.Fatal(err)
	}
	if _, err := rampDecoder.Scenario(b.Bytes()); err != nil {
		t.Errorf("scenario written and read back: %v", err)
	}
	w, err := rampDecoder.Workload([]byte(`{"name":"svc","kind":"inference","gpus":8,"horizon":"720h","demand":{"type":"ramp","over":"1h","inner":{"type":"constant","value":2}}}`))
	if !errors.Is(err, workload.ErrDemand) {
		t.Errorf("a ramp above 1 decoded to %v, %v; want the validation error", w, err)
	}
	if _, err := rampDecoder.Scenario([]byte(`{"workloads":[{"name":"x","oops":1}]}`)); !errors.Is(err, workload.ErrMalformed) {
		t.Errorf("unknown field: %v, want ErrMalformed", err)
	}
}

// A downstream curve type decoded from JSON with a Decoder.
func ExampleDecoder() {
	dec := workload.Decoder{Curves: map[string]workload.CurveDecoder{"ramp": decodeRamp}}
	c, err := dec.Curve([]byte(`{"type":"ramp","over":"10h","inner":{"type":"constant","value":0.8}}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%.2f %.2f %.2f\n", c.At(0), c.At(5*time.Hour), c.At(20*time.Hour))
	// Output: 0.00 0.40 0.80
}
