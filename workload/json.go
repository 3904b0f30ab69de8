package workload

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/shopspring/decimal"
)

// jsonDuration encodes a time.Duration as a Go duration string ("720h0m0s").
type jsonDuration time.Duration

// MarshalText writes the duration in time.Duration.String form.
func (d jsonDuration) MarshalText() ([]byte, error) { return []byte(time.Duration(d).String()), nil }

// UnmarshalText parses a duration with time.ParseDuration.
func (d *jsonDuration) UnmarshalText(b []byte) error {
	v, err := time.ParseDuration(string(b))
	if err != nil {
		// time's error quotes the whole input: echo a bounded part instead.
		return fmt.Errorf("%w: duration %s: not a Go duration such as \"90s\" or \"720h\"", ErrSyntax, echo(string(b)))
	}
	*d = jsonDuration(v)
	return nil
}

// strictUnmarshal decodes data into v, rejecting unknown fields and trailing data.
func strictUnmarshal(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return boundedError{err}
	}
	if dec.More() {
		return fmt.Errorf("%w: trailing data after JSON value", ErrSyntax)
	}
	return nil
}

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
)

// MarshalCurve encodes a built-in curve (and combinations of built-ins) as
// JSON with a "type" discriminator: "constant", "diurnal", "weekly",
// "steps", "piecewise_linear", "growth", "sum", "scale", "clamp", "shift" or
// "repeat". Durations are Go duration strings. A curve of another type is an
// error wrapping ErrUnsupportedCurve; NaN or infinite parameters are errors
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
		return nil, fmt.Errorf("%w: nil", ErrUnsupportedCurve)
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
	default:
		return nil, fmt.Errorf("%w: %T", ErrUnsupportedCurve, c)
	}
	return json.Marshal(v)
}

// MaxCurveDepth is the deepest nesting of combinators UnmarshalCurve accepts.
const MaxCurveDepth = 32

// UnmarshalCurve decodes a curve written by MarshalCurve. Unknown types and
// unknown fields are errors (wrapping ErrUnknownName or ErrSyntax), and so is
// nesting deeper than MaxCurveDepth; the curve is not validated ("null"
// decodes to a nil curve without error).
func UnmarshalCurve(data []byte) (Curve, error) { return unmarshalCurve(data, 0) }

func unmarshalCurve(data []byte, depth int) (Curve, error) {
	if depth > MaxCurveDepth {
		return nil, fmt.Errorf("%w: curves nested deeper than %d", ErrSyntax, MaxCurveDepth)
	}
	sub := func(data []byte) (Curve, error) { return unmarshalCurve(data, depth+1) }
	if bytes.Equal(bytes.TrimSpace(data), []byte("null")) {
		return nil, nil
	}
	var t curveType
	if err := json.Unmarshal(data, &t); err != nil {
		return nil, fmt.Errorf("%w: curve: %w", ErrSyntax, err)
	}
	dec := func(v any) error {
		if err := strictUnmarshal(data, v); err != nil {
			return fmt.Errorf("%w: %s curve: %w", ErrSyntax, t.Type, err)
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
		wd, err := sub(v.Weekday)
		if err != nil {
			return nil, err
		}
		we, err := sub(v.Weekend)
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
		b, err := sub(v.Base)
		if err != nil {
			return nil, err
		}
		return Growth{Base: b, RatePerYear: v.RatePerYear, Compound: v.Compound}, nil
	case "sum":
		var v sumJSON
		if err := dec(&v); err != nil {
			return nil, err
		}
		terms := make([]Curve, len(v.Terms))
		for i, raw := range v.Terms {
			c, err := sub(raw)
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
		c, err := sub(v.Curve)
		return Scale{Curve: c, Factor: v.Factor}, err
	case "clamp":
		var v clampJSON
		if err := dec(&v); err != nil {
			return nil, err
		}
		c, err := sub(v.Curve)
		return Clamp{Curve: c, Min: v.Min, Max: v.Max}, err
	case "shift":
		var v shiftJSON
		if err := dec(&v); err != nil {
			return nil, err
		}
		c, err := sub(v.Curve)
		return Shift{Curve: c, Offset: time.Duration(v.Offset)}, err
	case "repeat":
		var v repeatJSON
		if err := dec(&v); err != nil {
			return nil, err
		}
		c, err := sub(v.Curve)
		return Repeat{Curve: c, Cycle: time.Duration(v.Cycle)}, err
	}
	return nil, fmt.Errorf("%w: curve type %s", ErrUnknownName, echo(t.Type))
}

// Wire form of a workload.
type (
	interconnectJSON struct {
		Fabric      Fabric      `json:"fabric"`
		Gbps        float64     `json:"gbps"`
		BelowFabric BelowFabric `json:"belowFabric"`
		Efficiency  float64     `json:"efficiency,omitempty"`
	}
	requirementsJSON struct {
		MinMemoryGiB  float64            `json:"minMemoryGiB"`
		Models        map[string]float64 `json:"models,omitempty"`
		Interconnect  interconnectJSON   `json:"interconnect"`
		MinIsolation  Isolation          `json:"minIsolation"`
		Jurisdictions []string           `json:"jurisdictions,omitempty"`
	}
	interruptionJSON struct {
		Tolerance          Tolerance    `json:"tolerance"`
		CheckpointTime     jsonDuration `json:"checkpointTime"`
		RestartTime        jsonDuration `json:"restartTime"`
		CheckpointInterval jsonDuration `json:"checkpointInterval"`
	}
	locationJSON struct {
		Provider string `json:"provider,omitempty"`
		Region   string `json:"region,omitempty"`
	}
	dataJSON struct {
		DatasetGB        float64      `json:"datasetGB"`
		Location         locationJSON `json:"location"`
		CheckpointGB     float64      `json:"checkpointGB"`
		EgressGBPerMonth float64      `json:"egressGBPerMonth"`
	}
	setupJSON struct {
		EngineerHours float64 `json:"engineerHours"`
	}
	workloadJSON struct {
		Name              string           `json:"name"`
		Kind              Kind             `json:"kind"`
		GPUs              int              `json:"gpus"`
		Demand            json.RawMessage  `json:"demand,omitempty"`
		WorkGPUHours      float64          `json:"workGPUHours"`
		Horizon           jsonDuration     `json:"horizon"`
		Deadline          jsonDuration     `json:"deadline"`
		CostOfDelayPerDay decimal.Decimal  `json:"costOfDelayPerDay"`
		Requirements      requirementsJSON `json:"requirements"`
		Interruption      interruptionJSON `json:"interruption"`
		Data              dataJSON         `json:"data"`
		Setup             setupJSON        `json:"setup"`
	}
)

// MarshalJSON encodes w with camelCase field names (as the provider package does), durations as Go
// duration strings, money as a decimal string, enumerations by name and the
// demand curve as by MarshalCurve. It does not validate w: invalid
// enumerations, NaN or infinite numbers and non-built-in curves are errors.
func (w Workload) MarshalJSON() ([]byte, error) {
	r := w.Requirements
	v := workloadJSON{
		Name: w.Name, Kind: w.Kind, GPUs: w.GPUs, WorkGPUHours: w.WorkGPUHours,
		Horizon: jsonDuration(w.Horizon), Deadline: jsonDuration(w.Deadline),
		CostOfDelayPerDay: w.CostOfDelayPerDay,
		Requirements: requirementsJSON{
			MinMemoryGiB: r.MinMemoryGiB, Models: r.Models,
			Interconnect: interconnectJSON{r.Interconnect.Fabric, r.Interconnect.Gbps, r.Interconnect.BelowFabric, r.Interconnect.Efficiency},
			MinIsolation: r.MinIsolation, Jurisdictions: r.Jurisdictions,
		},
		Interruption: interruptionJSON{w.Interruption.Tolerance, jsonDuration(w.Interruption.CheckpointTime),
			jsonDuration(w.Interruption.RestartTime), jsonDuration(w.Interruption.CheckpointInterval)},
		Data: dataJSON{w.Data.DatasetGB, locationJSON{w.Data.Location.Provider, w.Data.Location.Region},
			w.Data.CheckpointGB, w.Data.EgressGBPerMonth},
		Setup: setupJSON{w.Setup.EngineerHours},
	}
	if w.Demand != nil {
		b, err := MarshalCurve(w.Demand)
		if err != nil {
			return nil, fmt.Errorf("workload %s: demand: %w", echo(w.Name), err)
		}
		v.Demand = b
	}
	return json.Marshal(v)
}

// UnmarshalJSON decodes a workload written by MarshalJSON, rejecting unknown
// fields. Omitted fields take their zero values. It does not validate: use
// ReadWorkload, or call Validate. On error *w is unchanged.
func (w *Workload) UnmarshalJSON(data []byte) error {
	var v workloadJSON
	if err := strictUnmarshal(data, &v); err != nil {
		return fmt.Errorf("%w: %w", ErrSyntax, err)
	}
	var demand Curve
	if len(v.Demand) > 0 {
		c, err := UnmarshalCurve(v.Demand)
		if err != nil {
			return fmt.Errorf("workload %s: demand: %w", echo(v.Name), err)
		}
		demand = c
	}
	r := v.Requirements
	*w = Workload{
		Name: v.Name, Kind: v.Kind, GPUs: v.GPUs, Demand: demand, WorkGPUHours: v.WorkGPUHours,
		Horizon: time.Duration(v.Horizon), Deadline: time.Duration(v.Deadline),
		CostOfDelayPerDay: v.CostOfDelayPerDay,
		Requirements: Requirements{
			MinMemoryGiB: r.MinMemoryGiB, Models: r.Models,
			Interconnect: Interconnect{r.Interconnect.Fabric, r.Interconnect.Gbps, r.Interconnect.BelowFabric, r.Interconnect.Efficiency},
			MinIsolation: r.MinIsolation, Jurisdictions: r.Jurisdictions,
		},
		Interruption: Interruption{v.Interruption.Tolerance, time.Duration(v.Interruption.CheckpointTime),
			time.Duration(v.Interruption.RestartTime), time.Duration(v.Interruption.CheckpointInterval)},
		Data: Data{v.Data.DatasetGB, Location{v.Data.Location.Provider, v.Data.Location.Region},
			v.Data.CheckpointGB, v.Data.EgressGBPerMonth},
		Setup: Setup{v.Setup.EngineerHours},
	}
	return nil
}

// Scenario is a named list of workloads, the unit that is loaded, saved and
// handed to the placement solver. The zero value is an empty scenario.
type Scenario struct {
	// Name describes the scenario; optional.
	Name string `json:"name,omitempty"`
	// Workloads are the workloads; names must be unique.
	Workloads []Workload `json:"workloads"`
}

// Validate returns the errors.Join of every problem of every workload (field
// paths prefixed "workloads[i]") and of duplicate workload names (nil if none).
func (s Scenario) Validate() error {
	var errs problemList
	seen := make(map[string]int, len(s.Workloads))
	for i, w := range s.Workloads {
		prefix := fmt.Sprintf("workloads[%d]", i)
		errs.addAll(prefixErrors(prefix, w.Validate()))
		if j, dup := seen[w.Name]; dup && w.Name != "" {
			errs.add(fieldErr(prefix+".name", w.Name, ErrDuplicate, fmt.Sprintf("also workloads[%d]", j)))
		} else {
			seen[w.Name] = i
		}
	}
	return errs.err()
}

// UnmarshalJSON decodes a scenario, rejecting unknown fields; it does not validate.
func (s *Scenario) UnmarshalJSON(data []byte) error {
	var v struct {
		Name      string     `json:"name"`
		Workloads []Workload `json:"workloads"`
	}
	if err := strictUnmarshal(data, &v); err != nil {
		return err
	}
	*s = Scenario{Name: v.Name, Workloads: v.Workloads}
	return nil
}

// readAll reads r into memory with an error wrapping ErrSyntax on failure.
func readAll(r io.Reader) ([]byte, error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("%w: read: %w", ErrSyntax, err)
	}
	return b, nil
}

// ReadWorkload decodes one workload from JSON and validates it. Syntax
// errors wrap ErrSyntax; validation errors are as from Validate.
func ReadWorkload(r io.Reader) (Workload, error) {
	b, err := readAll(r)
	if err != nil {
		return Workload{}, err
	}
	var w Workload
	if err := strictUnmarshal(b, &w); err != nil {
		return Workload{}, wrapSyntax(err)
	}
	if err := w.Validate(); err != nil {
		return Workload{}, err
	}
	return w, nil
}

// WriteWorkload validates wl and writes it as indented JSON.
func WriteWorkload(w io.Writer, wl Workload) error {
	if err := wl.Validate(); err != nil {
		return err
	}
	return writeJSON(w, wl)
}

// ReadScenario decodes a scenario from JSON and validates it.
func ReadScenario(r io.Reader) (Scenario, error) {
	b, err := readAll(r)
	if err != nil {
		return Scenario{}, err
	}
	var s Scenario
	if err := strictUnmarshal(b, &s); err != nil {
		return Scenario{}, wrapSyntax(err)
	}
	if err := s.Validate(); err != nil {
		return Scenario{}, err
	}
	return s, nil
}

// WriteScenario validates s and writes it as indented JSON.
func WriteScenario(w io.Writer, s Scenario) error {
	if err := s.Validate(); err != nil {
		return err
	}
	return writeJSON(w, s)
}

func writeJSON(w io.Writer, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// wrapSyntax makes sure a decoding error wraps ErrSyntax (enumeration and
// curve errors keep their own sentinel too).
func wrapSyntax(err error) error {
	if errors.Is(err, ErrSyntax) {
		return err
	}
	return fmt.Errorf("%w: %w", ErrSyntax, err)
}
