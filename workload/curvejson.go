package workload

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"time"
)

// Wire forms of the built-in curves; "type" is the discriminator.
type (
	curveType struct {
		Type string `json:"type"`
	}
	constantJSON struct {
		Type  string  `json:"type"`
		Value float64 `json:"value"`
	}
	diurnalJSON struct {
		Type      string  `json:"type"`
		Mean      float64 `json:"mean"`
		Amplitude float64 `json:"amplitude"`
		PeakHour  float64 `json:"peakHour"`
	}
	weeklyJSON struct {
		Type    string          `json:"type"`
		Weekday json.RawMessage `json:"weekday"`
		Weekend json.RawMessage `json:"weekend"`
	}
	stepJSON struct {
		Start jsonDuration `json:"start"`
		Value float64      `json:"value"`
	}
	stepsJSON struct {
		Type  string       `json:"type"`
		Cycle jsonDuration `json:"cycle"`
		Steps []stepJSON   `json:"steps"`
	}
	pointJSON struct {
		T jsonDuration `json:"t"`
		V float64      `json:"v"`
	}
	piecewiseJSON struct {
		Type   string      `json:"type"`
		Points []pointJSON `json:"points"`
	}
	growthJSON struct {
		Type        string          `json:"type"`
		Base        json.RawMessage `json:"base"`
		RatePerYear float64         `json:"ratePerYear"`
		Compound    bool            `json:"compound"`
	}
	sumJSON struct {
		Type  string            `json:"type"`
		Terms []json.RawMessage `json:"terms"`
	}
	scaleJSON struct {
		Type   string          `json:"type"`
		Curve  json.RawMessage `json:"curve"`
		Factor float64         `json:"factor"`
	}
	clampJSON struct {
		Type  string          `json:"type"`
		Curve json.RawMessage `json:"curve"`
		Min   float64         `json:"min"`
		Max   float64         `json:"max"`
	}
	shiftJSON struct {
		Type   string          `json:"type"`
		Curve  json.RawMessage `json:"curve"`
		Offset jsonDuration    `json:"offset"`
	}
	repeatJSON struct {
		Type  string          `json:"type"`
		Curve json.RawMessage `json:"curve"`
		Cycle jsonDuration    `json:"cycle"`
	}
	windowJSON struct {
		Type  string          `json:"type"`
		Curve json.RawMessage `json:"curve"`
		From  jsonDuration    `json:"from"`
		Until jsonDuration    `json:"until,omitempty"`
	}
)

// MarshalCurve encodes a built-in curve (and combinations of built-ins) as
// JSON with a "type" discriminator: "constant", "diurnal", "weekly",
// "steps", "piecewise_linear", "growth", "sum", "scale", "clamp", "shift" or
// "repeat". Durations are Go duration strings. A curve of another type that
// implements json.Marshaler writes its own JSON (with its "type", for a
// Decoder to read it back); any other curve is an error wrapping
// ErrUnsupportedCurve; NaN or infinite parameters are errors
// from encoding/json. The curve is not validated.
func MarshalCurve(c Curve) ([]byte, error) {
	sub := func(c Curve) (json.RawMessage, error) {
		if c == nil {
			return json.RawMessage("null"), nil
		}
		return MarshalCurve(c)
	}
	var v any
	switch c := c.(type) {
	case nil:
		return nil, fmt.Errorf("workload: %w: nil", ErrUnsupportedCurve)
	case Constant:
		v = constantJSON{"constant", c.Value}
	case Diurnal:
		v = diurnalJSON{"diurnal", c.Mean, c.Amplitude, c.PeakHour}
	case Weekly:
		wd, err := sub(c.Weekday)
		if err != nil {
			return nil, err
		}
		we, err := sub(c.Weekend)
		if err != nil {
			return nil, err
		}
		v = weeklyJSON{"weekly", wd, we}
	case Steps:
		st := make([]stepJSON, len(c.Steps))
		for i, s := range c.Steps {
			st[i] = stepJSON{jsonDuration(s.Start), s.Value}
		}
		v = stepsJSON{"steps", jsonDuration(c.Cycle), st}
	case PiecewiseLinear:
		pts := make([]pointJSON, len(c.Points))
		for i, p := range c.Points {
			pts[i] = pointJSON{jsonDuration(p.T), p.V}
		}
		v = piecewiseJSON{"piecewise_linear", pts}
	case Growth:
		b, err := sub(c.Base)
		if err != nil {
			return nil, err
		}
		v = growthJSON{"growth", b, c.RatePerYear, c.Compound}
	case Sum:
		terms := make([]json.RawMessage, len(c.Terms))
		for i, t := range c.Terms {
			b, err := sub(t)
			if err != nil {
				return nil, err
			}
			terms[i] = b
		}
		v = sumJSON{"sum", terms}
	case Scale:
		b, err := sub(c.Curve)
		if err != nil {
			return nil, err
		}
		v = scaleJSON{"scale", b, c.Factor}
	case Clamp:
		b, err := sub(c.Curve)
		if err != nil {
			return nil, err
		}
		v = clampJSON{"clamp", b, c.Min, c.Max}
	case Shift:
		b, err := sub(c.Curve)
		if err != nil {
			return nil, err
		}
		v = shiftJSON{"shift", b, jsonDuration(c.Offset)}
	case Repeat:
		b, err := sub(c.Curve)
		if err != nil {
			return nil, err
		}
		v = repeatJSON{"repeat", b, jsonDuration(c.Cycle)}
	case Window:
		b, err := sub(c.Curve)
		if err != nil {
			return nil, err
		}
		v = windowJSON{"window", b, jsonDuration(c.From), jsonDuration(c.Until)}
	case json.Marshaler:
		return c.MarshalJSON()
	default:
		return nil, fmt.Errorf("workload: %w: %T", ErrUnsupportedCurve, c)
	}
	return json.Marshal(v)
}

// MaxCurveDepth is the deepest nesting of combinators UnmarshalCurve accepts.
const MaxCurveDepth = 32

// UnmarshalCurve decodes a curve written by MarshalCurve. Unknown types and
// unknown fields are errors (wrapping ErrUnknownName or ErrMalformed), and so
// is nesting deeper than MaxCurveDepth or more than MaxCurveNodes curves in
// all (wrapping ErrOutOfRange too), checked as the curves are read; the curve
// is not validated otherwise ("null" decodes to a nil curve without error).
//
// UnmarshalCurve knows the built-in types only; Decoder.Curve also decodes
// types of your own.
func UnmarshalCurve(data []byte) (Curve, error) {
	return Decoder{}.Curve(data)
}

// unmarshalCurve decodes one curve at d.depth, counting the curves decoded so
// far in *d.nodes; a type in d.Curves takes precedence over a built-in one.
func unmarshalCurve(data []byte, d Decoder) (Curve, error) {
	depth, nodes := d.depth, d.nodes
	if depth > MaxCurveDepth {
		return nil, fmt.Errorf("workload: %w: curves nested deeper than %d", ErrMalformed, MaxCurveDepth)
	}
	inner := d
	inner.depth++
	sub := func(key string, data []byte) (Curve, error) {
		c, err := unmarshalCurve(data, inner)
		return c, under(key, err)
	}
	if bytes.Equal(bytes.TrimSpace(data), []byte("null")) {
		return nil, nil
	}
	if *nodes++; *nodes > MaxCurveNodes {
		return nil, fmt.Errorf("workload: %w: %w: more than MaxCurveNodes = %d curves", ErrMalformed, ErrOutOfRange, MaxCurveNodes)
	}
	var t curveType
	if err := json.Unmarshal(data, &t); err != nil {
		if fe := located(data, reflect.TypeFor[curveType](), err); fe != nil {
			return nil, fe
		}
		return nil, fmt.Errorf("workload: %w: curve: %w", ErrMalformed, nested{err})
	}
	if f, ok := d.Curves[t.Type]; ok {
		c, err := f(data, inner)
		if err != nil {
			if errors.Is(err, ErrMalformed) || errors.Is(err, ErrOutOfRange) {
				return nil, fmt.Errorf("workload: %s curve: %w", echo(t.Type), nested{err})
			}
			return nil, fmt.Errorf("workload: %w: %s curve: %w", ErrMalformed, echo(t.Type), nested{err})
		}
		return c, nil
	}
	dec := func(v any) error {
		if err := strictUnmarshal(data, v); err != nil {
			if fe := located(data, reflect.TypeOf(v).Elem(), err); fe != nil {
				return fe
			}
			return fmt.Errorf("workload: %w: %s curve: %w", ErrMalformed, t.Type, nested{err})
		}
		return nil
	}
	switch t.Type {
	case "constant":
		var v constantJSON
		if err := dec(&v); err != nil {
			return nil, err
		}
		return Constant{Value: v.Value}, nil
	case "diurnal":
		var v diurnalJSON
		if err := dec(&v); err != nil {
			return nil, err
		}
		return Diurnal{Mean: v.Mean, Amplitude: v.Amplitude, PeakHour: v.PeakHour}, nil
	case "weekly":
		var v weeklyJSON
		if err := dec(&v); err != nil {
			return nil, err
		}
		wd, err := sub("weekday", v.Weekday)
		if err != nil {
			return nil, err
		}
		we, err := sub("weekend", v.Weekend)
		if err != nil {
			return nil, err
		}
		return Weekly{Weekday: wd, Weekend: we}, nil
	case "steps":
		var v stepsJSON
		if err := dec(&v); err != nil {
			return nil, err
		}
		st := make([]Step, len(v.Steps))
		for i, s := range v.Steps {
			st[i] = Step{Start: time.Duration(s.Start), Value: s.Value}
		}
		return Steps{Cycle: time.Duration(v.Cycle), Steps: st}, nil
	case "piecewise_linear":
		var v piecewiseJSON
		if err := dec(&v); err != nil {
			return nil, err
		}
		pts := make([]Point, len(v.Points))
		for i, p := range v.Points {
			pts[i] = Point{T: time.Duration(p.T), V: p.V}
		}
		return PiecewiseLinear{Points: pts}, nil
	case "growth":
		var v growthJSON
		if err := dec(&v); err != nil {
			return nil, err
		}
		b, err := sub("base", v.Base)
		if err != nil {
			return nil, err
		}
		return Growth{Base: b, RatePerYear: v.RatePerYear, Compound: v.Compound}, nil
	case "sum":
		var v sumJSON
		if err := dec(&v); err != nil {
			return nil, err
		}
		if *nodes+len(v.Terms) > MaxCurveNodes {
			return nil, fmt.Errorf("workload: %w: %w: a sum of %d terms: more than MaxCurveNodes = %d curves", ErrMalformed, ErrOutOfRange, len(v.Terms), MaxCurveNodes)
		}
		terms := make([]Curve, len(v.Terms))
		for i, raw := range v.Terms {
			c, err := sub("terms["+strconv.Itoa(i)+"]", raw)
			if err != nil {
				return nil, err
			}
			terms[i] = c
		}
		return Sum{Terms: terms}, nil
	case "scale":
		var v scaleJSON
		if err := dec(&v); err != nil {
			return nil, err
		}
		c, err := sub("curve", v.Curve)
		return Scale{Curve: c, Factor: v.Factor}, err
	case "clamp":
		var v clampJSON
		if err := dec(&v); err != nil {
			return nil, err
		}
		c, err := sub("curve", v.Curve)
		return Clamp{Curve: c, Min: v.Min, Max: v.Max}, err
	case "shift":
		var v shiftJSON
		if err := dec(&v); err != nil {
			return nil, err
		}
		c, err := sub("curve", v.Curve)
		return Shift{Curve: c, Offset: time.Duration(v.Offset)}, err
	case "repeat":
		var v repeatJSON
		if err := dec(&v); err != nil {
			return nil, err
		}
		c, err := sub("curve", v.Curve)
		return Repeat{Curve: c, Cycle: time.Duration(v.Cycle)}, err
	case "window":
		var v windowJSON
		if err := dec(&v); err != nil {
			return nil, err
		}
		c, err := sub("curve", v.Curve)
		return Window{Curve: c, From: time.Duration(v.From), Until: time.Duration(v.Until)}, err
	}
	return nil, &FieldError{Field: "type", Value: echo(t.Type), Err: fmt.Errorf("%w: %w: not a curve type", ErrMalformed, ErrUnknownName)}
}
