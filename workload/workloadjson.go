package workload

import (
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/shopspring/decimal"
)

// Wire form of a workload.
type (
	interconnectJSON struct {
		Fabric      Fabric      `json:"fabric"`
		Gbps        float64     `json:"gbps"`
		BelowFabric BelowFabric `json:"belowFabric"`
		Efficiency  float64     `json:"efficiency,omitempty"`
		Independent bool        `json:"independent,omitempty"`
		SingleNode  bool        `json:"singleNode,omitempty"`
		NVLink      bool        `json:"nvlink,omitempty"`
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
	gangSizesJSON struct {
		MinGPUs int `json:"minGPUs"`
		MaxGPUs int `json:"maxGPUs"`
	}
	workloadJSON struct {
		Name              string           `json:"name"`
		Kind              Kind             `json:"kind"`
		GPUs              int              `json:"gpus"`
		GangSizes         *gangSizesJSON   `json:"gangSizes,omitempty"`
		Demand            json.RawMessage  `json:"demand,omitempty"`
		WorkGPUHours      float64          `json:"workGPUHours"`
		Horizon           jsonDuration     `json:"horizon"`
		Deadline          jsonDuration     `json:"deadline"`
		CostOfDelayPerDay jsonAmount       `json:"costOfDelayPerDay"`
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
		CostOfDelayPerDay: jsonAmount(w.CostOfDelayPerDay),
		Requirements: requirementsJSON{
			MinMemoryGiB: r.MinMemoryGiB, Models: r.Models,
			Interconnect: interconnectJSON(r.Interconnect),
			MinIsolation: r.MinIsolation, Jurisdictions: r.Jurisdictions,
		},
		Interruption: interruptionJSON{w.Interruption.Tolerance, jsonDuration(w.Interruption.CheckpointTime),
			jsonDuration(w.Interruption.RestartTime), jsonDuration(w.Interruption.CheckpointInterval)},
		Data: dataJSON{w.Data.DatasetGB, locationJSON{w.Data.Location.Provider, w.Data.Location.Region},
			w.Data.CheckpointGB, w.Data.EgressGBPerMonth},
		Setup: setupJSON{w.Setup.EngineerHours},
	}
	if !w.GangSizes.IsZero() {
		v.GangSizes = &gangSizesJSON{w.GangSizes.MinGPUs, w.GangSizes.MaxGPUs}
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
	return w.decode(data, Decoder{})
}

// decode is UnmarshalJSON with the curve types of d.
func (w *Workload) decode(data []byte, d Decoder) error {
	var v workloadJSON
	if err := strictUnmarshal(data, &v); err != nil {
		return fmt.Errorf("workload: %w: %w", ErrMalformed, nested{err})
	}
	var demand Curve
	if len(v.Demand) > 0 {
		c, err := d.Curve(v.Demand)
		if err != nil {
			return fmt.Errorf("workload %s: demand: %w", echo(v.Name), err)
		}
		demand = c
	}
	r := v.Requirements
	*w = Workload{
		Name: v.Name, Kind: v.Kind, GPUs: v.GPUs, Demand: demand, WorkGPUHours: v.WorkGPUHours,
		Horizon: time.Duration(v.Horizon), Deadline: time.Duration(v.Deadline),
		CostOfDelayPerDay: decimal.Decimal(v.CostOfDelayPerDay),
		Requirements: Requirements{
			MinMemoryGiB: r.MinMemoryGiB, Models: r.Models,
			Interconnect: Interconnect(r.Interconnect),
			MinIsolation: r.MinIsolation, Jurisdictions: r.Jurisdictions,
		},
		Interruption: Interruption{v.Interruption.Tolerance, time.Duration(v.Interruption.CheckpointTime),
			time.Duration(v.Interruption.RestartTime), time.Duration(v.Interruption.CheckpointInterval)},
		Data: Data{v.Data.DatasetGB, Location{v.Data.Location.Provider, v.Data.Location.Region},
			v.Data.CheckpointGB, v.Data.EgressGBPerMonth},
		Setup: Setup{v.Setup.EngineerHours},
	}
	if g := v.GangSizes; g != nil {
		w.GangSizes = GangSizes{g.MinGPUs, g.MaxGPUs}
	}
	return nil
}

// ReadWorkload decodes one workload from JSON and validates it. Syntax
// errors wrap ErrMalformed; validation errors are as from Validate.
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
