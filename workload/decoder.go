package workload

import (
	"encoding/json"
)

// CurveDecoder decodes the JSON object of one curve type. raw is the whole
// object, including its "type" field; d is the decoder in use, for a curve
// that holds other curves (call d.Curve on each inner object, so that nesting
// and size stay bounded by MaxCurveDepth and MaxCurveNodes). It should reject
// unknown fields, as the built-in types do.
type CurveDecoder func(raw json.RawMessage, d Decoder) (Curve, error)

// Decoder decodes curves, workloads and scenarios from JSON, with curve types
// of your own. The zero Decoder knows the built-in types: it is what
// UnmarshalCurve, Workload.UnmarshalJSON and ReadScenario use. To decode a
// type of your own, add a CurveDecoder under its "type" name to Curves; it
// takes precedence over a built-in type of the same name. To write such a
// curve back, give it a MarshalJSON method that writes its "type" (see
// MarshalCurve). A Decoder is safe for concurrent use as long as Curves is
// not modified.
type Decoder struct {
	// Curves maps a "type" discriminator to its decoder.
	Curves map[string]CurveDecoder

	// depth is the nesting of the curve being decoded; nodes counts the
	// curves decoded so far in the current top-level curve.
	depth int
	nodes *int
}

// Curve decodes one curve as UnmarshalCurve does, dispatching on its "type"
// field to d.Curves first, then to the built-in types. Called from a
// CurveDecoder on an inner object, it continues that curve's depth and size
// limits.
func (d Decoder) Curve(data []byte) (Curve, error) {
	if d.nodes == nil {
		d.nodes = new(int)
	}
	return unmarshalCurve(data, d)
}

// Workload decodes one workload from JSON, its demand curve with d, and
// validates it, as ReadWorkload does.
func (d Decoder) Workload(data []byte) (Workload, error) {
	d.depth, d.nodes = 0, nil
	var w Workload
	if err := w.decode(data, d); err != nil {
		return Workload{}, wrapSyntax(err)
	}
	if err := w.Validate(); err != nil {
		return Workload{}, err
	}
	return w, nil
}

// Scenario decodes a scenario from JSON, its demand curves with d, and
// validates it, as ReadScenario does.
func (d Decoder) Scenario(data []byte) (Scenario, error) {
	d.depth, d.nodes = 0, nil
	var s Scenario
	if err := s.decode(data, d); err != nil {
		return Scenario{}, wrapSyntax(err)
	}
	if err := s.Validate(); err != nil {
		return Scenario{}, err
	}
	return s, nil
}
