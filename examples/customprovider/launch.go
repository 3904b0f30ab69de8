package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/gputco/gputco/workload"
)

// Launch is a demand curve defined outside the library: the demand of a
// product being launched, its Base curve (the daily pattern of a mature
// service) times an S-shaped adoption that grows from Floor at the start to 1
// along a logistic curve centred on Midpoint, Width being the time from 27 %
// to 73 % of the way (one logistic unit each side):
//
//	At(t) = Base.At(t) · (Floor + (1 − Floor) · σ((t − Midpoint)/Width)),
//	σ(x) = 1/(1 + e^(−x)).
//
// It is not periodic, so tco samples it over the whole horizon. It stays in
// [0, 1] when Base does.
type Launch struct {
	Base            workload.Curve
	Floor           float64
	Midpoint, Width time.Duration
}

// At returns the demand at t; NaN without a base or a positive width (which
// Validate reports), as the library's curves do for invalid parameters.
func (l Launch) At(t time.Duration) float64 {
	if l.Base == nil || l.Width <= 0 {
		return math.NaN()
	}
	x := float64(t-l.Midpoint) / float64(l.Width)
	adoption := l.Floor + (1-l.Floor)/(1+math.Exp(-x))
	return l.Base.At(t) * adoption
}

// Period returns 0: adoption does not repeat.
func (Launch) Period() time.Duration { return 0 }

// Validate reports a missing base, a floor outside [0, 1] and a width that is
// not positive; workload.Validate calls it, then validates Base through At.
func (l Launch) Validate() error {
	var errs []error
	if l.Base == nil {
		errs = append(errs, errors.New("launch: base: required"))
	} else if v, ok := l.Base.(interface{ Validate() error }); ok {
		if err := v.Validate(); err != nil {
			errs = append(errs, fmt.Errorf("launch: base: %w", err))
		}
	}
	if !(l.Floor >= 0 && l.Floor <= 1) {
		errs = append(errs, fmt.Errorf("launch: floor %v: want a fraction in [0, 1]", l.Floor))
	}
	if l.Width <= 0 {
		errs = append(errs, fmt.Errorf("launch: width %v: want a positive duration", l.Width))
	}
	return errors.Join(errs...)
}

// launchJSON is the wire form of Launch.
type launchJSON struct {
	Type     string          `json:"type"`
	Base     json.RawMessage `json:"base"`
	Floor    float64         `json:"floor"`
	Midpoint string          `json:"midpoint"`
	Width    string          `json:"width"`
}

// MarshalJSON writes the wire form with its "type", so that workload.MarshalCurve
// (and so workload.WriteScenario) can save it.
func (l Launch) MarshalJSON() ([]byte, error) {
	base, err := workload.MarshalCurve(l.Base)
	if err != nil {
		return nil, err
	}
	return json.Marshal(launchJSON{"launch", base, l.Floor, l.Midpoint.String(), l.Width.String()})
}

// decodeLaunch is the workload.CurveDecoder of "launch". The base curve is
// decoded with the decoder it is given, so it may be any built-in or custom
// curve, within the library's nesting and size limits.
func decodeLaunch(raw json.RawMessage, d workload.Decoder) (workload.Curve, error) {
	var w launchJSON
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&w); err != nil {
		return nil, err
	}
	mid, err := time.ParseDuration(w.Midpoint)
	if err != nil {
		return nil, fmt.Errorf("midpoint: %w", err)
	}
	width, err := time.ParseDuration(w.Width)
	if err != nil {
		return nil, fmt.Errorf("width: %w", err)
	}
	base, err := d.Curve(w.Base)
	if err != nil {
		return nil, fmt.Errorf("base: %w", err)
	}
	return Launch{Base: base, Floor: w.Floor, Midpoint: mid, Width: width}, nil
}
