package workload

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"time"

	"github.com/gputco/gputco/internal/gpuspec"
	"github.com/shopspring/decimal"
)

// ReferenceModel is the GPU model whose speed factor is 1 by default: one
// reference GPU-hour is one hour of this GPU.
const ReferenceModel = gpuspec.ReferenceModel

// maxMoneyExponent bounds the decimal exponent of money amounts, as the
// provider package does: far beyond any real amount, far from the exponent
// overflow that makes decimal arithmetic panic.
const maxMoneyExponent = 64

// MaxGPUs bounds Workload.GPUs: 2²⁴ ≈ 16.8 million GPUs, far beyond any
// cluster, so that node and GPU counts derived from it (and their products
// with an offer's GPUs per node) never overflow an int.
const MaxGPUs = 1 << 24

// Workload is something that must run: a finite job or a service.
//
// A finite job has Demand == nil, WorkGPUHours > 0 and GPUs = the gang size
// (GPUs that must run together). A service has Demand != nil, WorkGPUHours ==
// 0, GPUs = the GPUs needed at peak demand (Demand = 1) and Horizon > 0; at
// time t it needs GPUs·Demand.At(t) GPUs.
//
// The zero value is not a valid workload (Name, Kind and GPUs are required).
// A Workload is a value: methods never mutate it; it is safe for concurrent
// reads if its Demand curve is.
type Workload struct {
	// Name identifies the workload; required, unique within a scenario.
	Name string
	// Kind says what the workload does; required.
	Kind Kind
	// GPUs is the gang size of a finite job or the peak GPUs of a service;
	// 1 to MaxGPUs.
	GPUs int
	// GangSizes, when set, is the range of gang sizes a finite job may run
	// at (GPUs is then its nominal size, within the range): a planner
	// chooses the size that meets the deadline at least cost. The zero value
	// means GPUs only.
	GangSizes GangSizes
	// Demand is the demand curve of a service as a fraction of GPUs, in [0, 1]
	// over the horizon; nil for a finite job.
	Demand Curve
	// WorkGPUHours is the total work of a finite job in reference GPU-hours
	// (hours of a GPU with speed factor 1); 0 for a service.
	WorkGPUHours float64
	// Horizon is the period over which the workload is costed, from its start.
	// Required (> 0) for a service; for a finite job zero means "until done".
	Horizon time.Duration
	// Deadline is the latest completion time of a finite job, measured from
	// its start; zero means no deadline. A deadline shorter than the work at
	// full speed is not a validation error: tco reports it.
	Deadline time.Duration
	// CostOfDelayPerDay is the cost (in the catalog's currency) of each day
	// the job finishes after its deadline, or of each day of delay in
	// starting a service; zero means none. Must be ≥ 0.
	CostOfDelayPerDay decimal.Decimal
	// Requirements restrict the offers that can run the workload.
	Requirements Requirements
	// Interruption says how the workload copes with preemption and failure.
	Interruption Interruption
	// Data describes the data the workload reads and writes.
	Data Data
	// Setup is the effort to make the environment work.
	Setup Setup
}

// GangSizes is a range of gang sizes, MinGPUs to MaxGPUs inclusive. The
// zero value is no range.
type GangSizes struct {
	MinGPUs, MaxGPUs int
}

// IsZero reports whether g is the zero value (no range).
func (g GangSizes) IsZero() bool { return g == GangSizes{} }

// Sizes returns the range's bounds, or gpus, gpus for the zero value.
func (g GangSizes) Sizes(gpus int) (lo, hi int) {
	if g.IsZero() {
		return gpus, gpus
	}
	return g.MinGPUs, g.MaxGPUs
}

// validate reports a range that is not 1 ≤ MinGPUs ≤ gpus ≤ MaxGPUs ≤
// MaxGPUs, or a range on a service.
func (g GangSizes) validate(gpus int, service bool) []error {
	if g.IsZero() {
		return nil
	}
	var errs []error
	if service {
		return []error{fieldErr("gangSizes", fmt.Sprintf("%d..%d", g.MinGPUs, g.MaxGPUs), ErrConflict, "a service has no gang")}
	}
	if g.MinGPUs < 1 || g.MinGPUs > MaxGPUs {
		errs = append(errs, fieldErr("gangSizes.minGPUs", g.MinGPUs, ErrOutOfRange, fmt.Sprintf("must be in [1, MaxGPUs = %d]", MaxGPUs)))
	}
	if g.MaxGPUs < 1 || g.MaxGPUs > MaxGPUs {
		errs = append(errs, fieldErr("gangSizes.maxGPUs", g.MaxGPUs, ErrOutOfRange, fmt.Sprintf("must be in [1, MaxGPUs = %d]", MaxGPUs)))
	}
	if len(errs) == 0 && (gpus < g.MinGPUs || gpus > g.MaxGPUs) {
		errs = append(errs, fieldErr("gangSizes", fmt.Sprintf("%d..%d", g.MinGPUs, g.MaxGPUs), ErrConflict,
			fmt.Sprintf("gpus = %d must be within the range", gpus)))
	}
	return errs
}

// IsService reports whether w is a service (it has a demand curve).
func (w Workload) IsService() bool { return w.Demand != nil }

// Requirements restrict the offers that can run a workload. The zero value
// accepts every model of the default speed table, any isolation and
// jurisdiction, and any fabric — but a finite job's gang that spans nodes
// needs one (see Interconnect.Independent).
type Requirements struct {
	// MinMemoryGiB is the minimum memory per GPU in GiB; 0 = no minimum.
	MinMemoryGiB float64
	// Models maps each acceptable GPU model (catalog names such as
	// "H100 SXM") to its speed factor for this workload, relative to the
	// reference (1 = as fast as the reference GPU). Empty means every model of
	// DefaultSpeedFactors is acceptable with its default factor. Factors must
	// be finite and > 0.
	Models map[string]float64
	// Interconnect is the minimum node-to-node interconnect for a gang that
	// spans nodes, and whether the gang may span nodes at all; it does not
	// apply to single-node work, nor to a service's replicas.
	Interconnect Interconnect
	// MinIsolation is the weakest acceptable isolation; the zero value, Shared, accepts all.
	MinIsolation Isolation
	// Jurisdictions lists the jurisdictions (for example "EU", "US", "DE")
	// where the workload and its data may run; empty = anywhere.
	Jurisdictions []string
}

// Interconnect is the minimum interconnect of a finite job's gang. The zero
// value asks only that a gang spanning nodes has a fabric between them
// (any but NoFabric): GPUs of one gang talk to each other.
type Interconnect struct {
	// Fabric is the slowest acceptable fabric; NoFabric = no requirement.
	Fabric Fabric
	// Gbps is the minimum node-to-node bandwidth per node in Gbit/s; 0 = no minimum.
	Gbps float64
	// BelowFabric is what happens on an offer below Fabric or Gbps:
	// Incompatible (the zero value) excludes it, Slower runs at Efficiency.
	BelowFabric BelowFabric
	// Efficiency is the fraction of full speed kept on a slower interconnect,
	// in (0, 1]; used, and required, only when BelowFabric == Slower.
	Efficiency float64
	// Independent says the gang's GPUs do not talk to each other across
	// nodes (independent shards), so the gang may span nodes that have no
	// fabric. Without it, such nodes are incompatible, whatever Fabric says.
	Independent bool
	// SingleNode says the gang must run within one node.
	SingleNode bool
	// NVLink says the GPUs within a node must be linked by NVLink/NVSwitch.
	NVLink bool
}

// Interruption is the interruption tolerance of a workload. The zero value
// tolerates no interruption.
type Interruption struct {
	// Tolerance is none, checkpointed or stateless.
	Tolerance Tolerance
	// CheckpointTime is the time to write one checkpoint (δ in Daly's
	// formula); required (> 0) when Tolerance == Checkpointed.
	CheckpointTime time.Duration
	// RestartTime is the time to resume after an interruption (R):
	// reprovisioning, loading the checkpoint or model, warming up. ≥ 0.
	RestartTime time.Duration
	// CheckpointInterval is a fixed interval between checkpoints (τ); zero
	// means "use the optimal interval" (tco computes Daly's estimate).
	CheckpointInterval time.Duration
}

// Data describes the data a workload moves. The zero value is a workload
// without data to speak of.
type Data struct {
	// DatasetGB is the size of the input dataset in GB (10⁹ bytes); ≥ 0.
	DatasetGB float64
	// Location is where the dataset lives now; moving it elsewhere costs
	// egress at the source and transfer time. Zero value: nowhere in particular
	// (no transfer charged).
	Location Location
	// CheckpointGB is the size of one checkpoint in GB; ≥ 0.
	CheckpointGB float64
	// EgressGBPerMonth is the data the workload sends out per month in GB
	// (results, responses, replication); ≥ 0.
	EgressGBPerMonth float64
}

// Location is a place where data lives: a provider and a region. Both are
// free-form strings matching the catalog; empty Provider means unknown.
type Location struct {
	// Provider is the provider name as in the catalog (for example "aws", "on-prem").
	Provider string
	// Region is the provider's region name.
	Region string
}

// Setup is the effort to make a workload's environment work on a new offer.
// The offer's hidden-cost profile may override it per provider kind.
type Setup struct {
	// EngineerHours is the engineer time to set up the environment; ≥ 0.
	EngineerHours float64
}

// DefaultSpeedFactors returns a fresh map of the default speed factors of
// every GPU model the module knows (the table behind
// provider.KnownGPUs): each model's dense BF16 tensor TFLOPS (tensor FP16
// for the V100 and T4) divided by the H100 SXM's 989, so H100 SXM and H200
// are 1, A100 40GB and 80GB ≈ 0.315, V100 ≈ 0.126, L40S ≈ 0.366 and RTX 4090
// ≈ 0.167. DefaultSpeedBasis says so per model. The caller may modify the map.
func DefaultSpeedFactors() map[string]float64 {
	tab := gpuspec.Table()
	m := make(map[string]float64, len(tab))
	for _, s := range tab {
		m[s.Model] = s.SpeedFactor
	}
	return m
}

// DefaultSpeedBasis returns what the default speed factor of model rests on,
// e.g. "dense BF16 tensor TFLOPS (vendor datasheet) / 989 of the H100 SXM;
// compute-bound work only", or "" for a model without a default.
func DefaultSpeedBasis(model string) string {
	s, _ := gpuspec.Lookup(model)
	return s.SpeedBasis
}

func defaultSpeed(model string) (float64, bool) {
	s, ok := gpuspec.Lookup(model)
	return s.SpeedFactor, ok
}

// SpeedFactor returns the speed of model for this workload relative to the
// reference GPU and whether the model is acceptable. With an empty Models
// list every model of DefaultSpeedFactors is acceptable at its default factor.
func (r Requirements) SpeedFactor(model string) (float64, bool) {
	if len(r.Models) == 0 {
		return defaultSpeed(model)
	}
	f, ok := r.Models[model]
	return f, ok
}

// AllowsJurisdiction reports whether the workload may run in jurisdiction j:
// true when Jurisdictions is empty or lists j.
func (r Requirements) AllowsJurisdiction(j string) bool {
	if len(r.Jurisdictions) == 0 {
		return true
	}
	for _, a := range r.Jurisdictions {
		if a == j {
			return true
		}
	}
	return false
}

// Validate returns nil if w is valid, otherwise the errors.Join of every
// problem found, each a *FieldError naming the field (JSON path) and the bad
// value and wrapping one of the package's sentinels. It never panics and
// does not modify w. A service's demand curve is checked with the curve's own
// Validate method if it has one and sampled over the horizon — over one
// period when the curve is periodic with a shorter period — at hourly
// resolution or finer: NaN, infinite, negative or above-1 demand is an error.
func (w Workload) Validate() error {
	var errs problemList
	add := func(err error) {
		if err != nil {
			errs.add(err)
		}
	}
	if w.Name == "" {
		add(fieldErr("name", `""`, ErrMissing, ""))
	}
	if !w.Kind.Valid() {
		add(fieldErr("kind", w.Kind, ErrUnknownName, "training, fine-tuning, inference, batch or development"))
	}
	switch {
	case w.GPUs <= 0:
		add(fieldErr("gpus", w.GPUs, ErrOutOfRange, "must be > 0"))
	case w.GPUs > MaxGPUs:
		add(fieldErr("gpus", w.GPUs, ErrOutOfRange, fmt.Sprintf("at most MaxGPUs = %d", MaxGPUs)))
	}
	add(checkDuration("horizon", w.Horizon))
	add(checkDuration("deadline", w.Deadline))
	switch d := w.CostOfDelayPerDay; {
	case d.Exponent() > maxMoneyExponent || d.Exponent() < -maxMoneyExponent:
		// d.String() would print billions of digits for such exponents.
		add(fieldErr("costOfDelayPerDay", fmt.Sprintf("%se%d", d.Coefficient(), d.Exponent()), ErrOutOfRange,
			fmt.Sprintf("decimal exponent beyond ±%d", maxMoneyExponent)))
	case d.IsNegative():
		add(fieldErr("costOfDelayPerDay", d, ErrNegative, ""))
	}
	if w.Demand == nil {
		if err := checkQuantity("workGPUHours", w.WorkGPUHours); err != nil {
			add(err)
		} else if w.WorkGPUHours == 0 {
			add(fieldErr("workGPUHours", w.WorkGPUHours, ErrMissing, "a finite job needs work > 0, a service a demand curve"))
		}
	} else {
		if w.WorkGPUHours != 0 {
			add(fieldErr("workGPUHours", w.WorkGPUHours, ErrConflict, "a service with a demand curve has no finite work"))
		}
		if w.Horizon <= 0 {
			add(fieldErr("horizon", w.Horizon, ErrZeroPeriod, "a service needs a horizon > 0"))
		} else {
			add(validateDemand(w.Demand, w.Horizon))
		}
	}
	for _, err := range w.GangSizes.validate(w.GPUs, w.Demand != nil) {
		add(err)
	}
	errs.addAll(prefixErrors("requirements", w.Requirements.Validate()))
	errs.addAll(prefixErrors("interruption", w.Interruption.Validate()))
	errs.addAll(prefixErrors("data", w.Data.Validate()))
	if err := checkQuantity("engineerHours", w.Setup.EngineerHours); err != nil {
		errs.addAll(prefixErrors("setup", err))
	}
	return errs.err()
}

// validateDemand checks a service's demand curve over the horizon.
func validateDemand(c Curve, horizon time.Duration) error {
	if err := validateCurve(c); err != nil {
		return errors.Join(prefixErrors("demand", err)...)
	}
	// A periodic curve repeats (At(t+p) == At(t)): one period tells all.
	span := horizon
	if per := c.Period(); per > 0 && per < horizon {
		span = per
	}
	n := int(math.Ceil(float64(span) / float64(time.Hour)))
	p, err := Sample(c, span, min(max(n, 1), MaxSamples))
	if err != nil {
		return fieldErr("demand", fmt.Sprintf("%T", c), ErrDemand, err.Error())
	}
	if pk := p.Peak(); pk > 1+1e-9 {
		return fieldErr("demand", pk, ErrDemand, "peak above 1: demand is a fraction of the workload's GPUs")
	}
	return nil
}

// Validate returns the errors.Join of every problem in r (nil if none), each
// a *FieldError with JSON field names relative to r.
func (r Requirements) Validate() error {
	var errs problemList
	if err := checkQuantity("minMemoryGiB", r.MinMemoryGiB); err != nil {
		errs.add(err)
	}
	names := make([]string, 0, len(r.Models))
	for m := range r.Models {
		names = append(names, m)
	}
	sort.Strings(names) // deterministic error order
	for _, m := range names {
		f := r.Models[m]
		field := fmt.Sprintf("models[%s]", m)
		switch {
		case m == "":
			errs.add(fieldErr("models", `""`, ErrMissing, "model name"))
		case math.IsNaN(f) || math.IsInf(f, 0):
			errs.add(fieldErr(field, f, ErrNotFinite, ""))
		case f <= 0:
			errs.add(fieldErr(field, f, ErrOutOfRange, "speed factor must be > 0"))
		}
	}
	if !r.Interconnect.Fabric.Valid() {
		errs.add(fieldErr("interconnect.fabric", r.Interconnect.Fabric, ErrUnknownName, ""))
	}
	if err := checkQuantity("interconnect.gbps", r.Interconnect.Gbps); err != nil {
		errs.add(err)
	}
	switch r.Interconnect.BelowFabric {
	case Incompatible:
	case Slower:
		e := r.Interconnect.Efficiency
		if math.IsNaN(e) || math.IsInf(e, 0) {
			errs.add(fieldErr("interconnect.efficiency", e, ErrNotFinite, ""))
		} else if e <= 0 || e > 1 {
			errs.add(fieldErr("interconnect.efficiency", e, ErrOutOfRange, "must be in (0, 1] when belowFabric is slower"))
		}
	default:
		errs.add(fieldErr("interconnect.belowFabric", r.Interconnect.BelowFabric, ErrUnknownName, ""))
	}
	if !r.MinIsolation.Valid() {
		errs.add(fieldErr("minIsolation", r.MinIsolation, ErrUnknownName, ""))
	}
	seen := make(map[string]bool, len(r.Jurisdictions))
	for i, j := range r.Jurisdictions {
		field := fmt.Sprintf("jurisdictions[%d]", i)
		switch {
		case j == "":
			errs.add(fieldErr(field, `""`, ErrMissing, ""))
		case seen[j]:
			errs.add(fieldErr(field, j, ErrDuplicate, ""))
		}
		seen[j] = true
	}
	return errs.err()
}

// Validate returns the errors.Join of every problem in i (nil if none).
func (i Interruption) Validate() error {
	var errs problemList
	if !i.Tolerance.Valid() {
		errs.add(fieldErr("tolerance", i.Tolerance, ErrUnknownName, ""))
	}
	for _, d := range []struct {
		name string
		v    time.Duration
	}{{"checkpointTime", i.CheckpointTime}, {"restartTime", i.RestartTime}, {"checkpointInterval", i.CheckpointInterval}} {
		if err := checkDuration(d.name, d.v); err != nil {
			errs.add(err)
		}
	}
	if i.Tolerance == Checkpointed && i.CheckpointTime == 0 {
		errs.add(fieldErr("checkpointTime", i.CheckpointTime, ErrMissing, "a checkpointed workload needs a checkpoint time > 0"))
	}
	return errs.err()
}

// Validate returns the errors.Join of every problem in d (nil if none).
func (d Data) Validate() error {
	var errs problemList
	for _, q := range []struct {
		name string
		v    float64
	}{{"datasetGB", d.DatasetGB}, {"checkpointGB", d.CheckpointGB}, {"egressGBPerMonth", d.EgressGBPerMonth}} {
		if err := checkQuantity(q.name, q.v); err != nil {
			errs.add(err)
		}
	}
	return errs.err()
}

// checkQuantity reports a NaN, infinite or negative quantity.
func checkQuantity(field string, v float64) error {
	switch {
	case math.IsNaN(v) || math.IsInf(v, 0):
		return fieldErr(field, v, ErrNotFinite, "")
	case v < 0:
		return fieldErr(field, v, ErrNegative, "")
	}
	return nil
}

// checkDuration reports a negative duration.
func checkDuration(field string, d time.Duration) error {
	if d < 0 {
		return fieldErr(field, d, ErrNegative, "")
	}
	return nil
}
