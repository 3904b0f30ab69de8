package workload_test

import (
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/gputco/gputco/workload"
	"github.com/gputco/gputco/workload/workloadtest"
	"github.com/shopspring/decimal"
)

func TestValidate(t *testing.T) {
	tests := []struct {
		name   string
		reason string
		edit   func(w *workload.Workload)
		field  string // expected field path in the message; "" means valid
		want   error
	}{
		{"valid", "the fixture is valid as is", func(*workload.Workload) {}, "", nil},
		{"no name", "a workload must be named", func(w *workload.Workload) { w.Name = "" }, "name", workload.ErrRequired},
		{"zero kind", "the kind has no default", func(w *workload.Workload) { w.Kind = 0 }, "kind", workload.ErrUnknownName},
		{"zero gpus", "a gang needs GPUs", func(w *workload.Workload) { w.GPUs = 0 }, "gpus", workload.ErrOutOfRange},
		{"NaN work", "NaN is never a quantity", func(w *workload.Workload) { w.WorkGPUHours = math.NaN() }, "workGPUHours", workload.ErrNotFinite},
		{"inf work", "infinite work never finishes", func(w *workload.Workload) { w.WorkGPUHours = math.Inf(1) }, "workGPUHours", workload.ErrNotFinite},
		{"negative work", "work is a quantity", func(w *workload.Workload) { w.WorkGPUHours = -1 }, "workGPUHours", workload.ErrNegative},
		{"no work", "a finite job needs work", func(w *workload.Workload) { w.WorkGPUHours = 0 }, "workGPUHours", workload.ErrRequired},
		{"negative horizon", "durations are ≥ 0", func(w *workload.Workload) { w.Horizon = -time.Hour }, "horizon", workload.ErrNegative},
		{"negative deadline", "durations are ≥ 0", func(w *workload.Workload) { w.Deadline = -time.Hour }, "deadline", workload.ErrNegative},
		{"tight deadline", "a deadline below the work at full speed is for tco to report", func(w *workload.Workload) { w.Deadline = time.Minute }, "", nil},
		{"negative delay cost", "money amounts here are ≥ 0", func(w *workload.Workload) { w.CostOfDelayPerDay = decimal.NewFromInt(-1) }, "costOfDelayPerDay", workload.ErrNegative},
		{"NaN memory", "NaN is never a quantity", func(w *workload.Workload) { w.Requirements.MinMemoryGiB = math.NaN() }, "requirements.minMemoryGiB", workload.ErrNotFinite},
		{"zero speed", "a model that makes no progress is not acceptable", func(w *workload.Workload) { w.Requirements.Models["H200"] = 0 }, "requirements.models[H200]", workload.ErrOutOfRange},
		{"NaN speed", "NaN is never a factor", func(w *workload.Workload) { w.Requirements.Models["H200"] = math.NaN() }, "requirements.models[H200]", workload.ErrNotFinite},
		{"bad fabric", "enumerations are closed", func(w *workload.Workload) { w.Requirements.Interconnect.Fabric = 9 }, "requirements.interconnect.fabric", workload.ErrUnknownName},
		{"negative gbps", "bandwidth is a quantity", func(w *workload.Workload) { w.Requirements.Interconnect.Gbps = -5 }, "requirements.interconnect.gbps", workload.ErrNegative},
		{"slower without efficiency", "the slower policy needs its efficiency", func(w *workload.Workload) {
			w.Requirements.Interconnect.BelowFabric, w.Requirements.Interconnect.Efficiency = workload.Slower, 0
		}, "requirements.interconnect.efficiency", workload.ErrOutOfRange},
		{"bad isolation", "enumerations are closed", func(w *workload.Workload) { w.Requirements.MinIsolation = -1 }, "requirements.minIsolation", workload.ErrUnknownName},
		{"duplicate jurisdiction", "a list of places names each once", func(w *workload.Workload) { w.Requirements.Jurisdictions = []string{"DE", "DE"} }, "requirements.jurisdictions[1]", workload.ErrDuplicate},
		{"checkpointed without checkpoint time", "Daly's formula needs δ > 0", func(w *workload.Workload) { w.Interruption.CheckpointTime = 0 }, "interruption.checkpointTime", workload.ErrRequired},
		{"negative restart", "durations are ≥ 0", func(w *workload.Workload) { w.Interruption.RestartTime = -1 }, "interruption.restartTime", workload.ErrNegative},
		{"bad tolerance", "enumerations are closed", func(w *workload.Workload) { w.Interruption.Tolerance = 3 }, "interruption.tolerance", workload.ErrUnknownName},
		{"negative dataset", "sizes are ≥ 0", func(w *workload.Workload) { w.Data.DatasetGB = -1 }, "data.datasetGB", workload.ErrNegative},
		{"inf egress", "sizes are finite", func(w *workload.Workload) { w.Data.EgressGBPerMonth = math.Inf(1) }, "data.egressGBPerMonth", workload.ErrNotFinite},
		{"NaN setup", "NaN is never a quantity", func(w *workload.Workload) { w.Setup.EngineerHours = math.NaN() }, "setup.engineerHours", workload.ErrNotFinite},
		{"service without horizon", "a service is costed over a horizon", func(w *workload.Workload) {
			w.WorkGPUHours, w.Demand, w.Horizon = 0, workload.Constant{Value: 1}, 0
		}, "horizon", workload.ErrZeroPeriod},
		{"service with work", "work and demand exclude each other", func(w *workload.Workload) {
			w.Demand, w.Horizon = workload.Constant{Value: 1}, time.Hour
		}, "workGPUHours", workload.ErrConflict},
		{"demand above peak", "demand is a fraction of the GPUs", func(w *workload.Workload) {
			w.WorkGPUHours, w.Demand, w.Horizon = 0, workload.Scale{Curve: workload.Constant{Value: 1}, Factor: 2}, time.Hour
		}, "demand", workload.ErrDemand},
		{"invalid demand curve", "the curve's own Validate is called", func(w *workload.Workload) {
			w.WorkGPUHours, w.Demand, w.Horizon = 0, workload.Diurnal{Mean: 0.2, Amplitude: 0.5}, time.Hour
		}, "demand.amplitude", workload.ErrOutOfRange},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := workloadtest.Medical()
			w.Requirements.Models = workload.DefaultSpeedFactors()
			tt.edit(&w)
			err := w.Validate()
			if tt.want == nil {
				if err != nil {
					t.Fatalf("Validate() = %v, want nil (%s)", err, tt.reason)
				}
				return
			}
			if !errors.Is(err, tt.want) {
				t.Fatalf("Validate() = %v, want errors.Is %v (%s)", err, tt.want, tt.reason)
			}
			var fe *workload.FieldError
			if !errors.As(err, &fe) {
				t.Fatalf("Validate() = %v, want a *FieldError", err)
			}
			if !strings.Contains(err.Error(), "workload: "+tt.field+" = ") {
				t.Errorf("Validate() = %q, want the field %q named (%s)", err, tt.field, tt.reason)
			}
		})
	}
}

func TestValidateReportsEverything(t *testing.T) {
	w := workload.Workload{
		GPUs:         -1,
		WorkGPUHours: math.NaN(),
		Data:         workload.Data{DatasetGB: -1, CheckpointGB: math.Inf(-1)},
	}
	err := w.Validate()
	for _, field := range []string{"name", "kind", "gpus", "workGPUHours", "data.datasetGB", "data.checkpointGB"} {
		if !strings.Contains(err.Error(), "workload: "+field+" = ") {
			t.Errorf("error does not name %s:\n%v", field, err)
		}
	}
	if n := len(err.(interface{ Unwrap() []error }).Unwrap()); n != 6 {
		t.Errorf("got %d joined errors, want 6:\n%v", n, err)
	}
}

func TestScenarioDuplicateNames(t *testing.T) {
	s := workload.Scenario{Workloads: []workload.Workload{workloadtest.FineTune(), workloadtest.FineTune()}}
	err := s.Validate()
	if !errors.Is(err, workload.ErrDuplicate) || !strings.Contains(err.Error(), "workloads[1].name") {
		t.Errorf("Validate() = %v, want a duplicate name at workloads[1]", err)
	}
}

func TestSpeedFactor(t *testing.T) {
	tests := []struct {
		name   string
		reason string
		req    workload.Requirements
		model  string
		want   float64
		ok     bool
	}{
		{"reference", "the H100 SXM is the reference", workload.Requirements{}, "H100 SXM", 1, true},
		{"A100 default", "312/989 dense BF16 TFLOPS", workload.Requirements{}, "A100 80GB", 312.0 / 989, true},
		{"V100 default", "125/989 tensor FP16 TFLOPS", workload.Requirements{}, "V100", 125.0 / 989, true},
		{"unknown default", "models outside the default table are not acceptable", workload.Requirements{}, "TPU v5", 0, false},
		{"explicit", "the workload's own factor wins", workload.Requirements{Models: map[string]float64{"L40S": 0.5}}, "L40S", 0.5, true},
		{"explicit excludes", "a list excludes models not on it", workload.Requirements{Models: map[string]float64{"L40S": 0.5}}, "H100 SXM", 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := tt.req.SpeedFactor(tt.model)
			if ok != tt.ok || math.Abs(got-tt.want) > 1e-12 {
				t.Errorf("SpeedFactor(%q) = %v, %v; want %v, %v (%s)", tt.model, got, ok, tt.want, tt.ok, tt.reason)
			}
		})
	}
	d := workload.DefaultSpeedFactors()
	d["H100 SXM"] = 42
	if f, _ := (workload.Requirements{}).SpeedFactor("H100 SXM"); f != 1 {
		t.Errorf("modifying DefaultSpeedFactors' map changed the default: %v", f)
	}
}

func TestEnumText(t *testing.T) {
	tests := []struct {
		name string
		v    interface {
			MarshalText() ([]byte, error)
		}
		want string
	}{
		{"kind", workload.FineTuning, "fine-tuning"},
		{"isolation", workload.Physical, "physical"},
		{"fabric", workload.RoCE, "roce"},
		{"no fabric", workload.NoFabric, "none"},
		{"tolerance", workload.Stateless, "stateless"},
		{"no tolerance", workload.NoTolerance, "none"},
		{"below fabric", workload.Slower, "slower"},
	}
	for _, tt := range tests {
		b, err := tt.v.MarshalText()
		if err != nil || string(b) != tt.want {
			t.Errorf("%s: MarshalText = %q, %v; want %q", tt.name, b, err, tt.want)
		}
	}
	if _, err := workload.Kind(0).MarshalText(); !errors.Is(err, workload.ErrUnknownName) {
		t.Errorf("Kind(0).MarshalText error = %v, want ErrUnknownName", err)
	}
	for _, s := range []string{"training", "fine-tuning", "inference", "batch", "development"} {
		k, err := workload.ParseKind(s)
		if err != nil || k.String() != s {
			t.Errorf("ParseKind(%q) = %v, %v", s, k, err)
		}
	}
	if _, err := workload.ParseFabric("Infiniband"); !errors.Is(err, workload.ErrUnknownName) {
		t.Errorf("ParseFabric is case-sensitive; got %v", err)
	}
	// An unknown name is reported with the names allowed.
	want := `(one of "training", "fine-tuning", "inference", "batch", "development")`
	if _, err := workload.ParseKind("trainin"); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("ParseKind(%q) error = %v, want it to list %s", "trainin", err, want)
	}
	if !(workload.Shared < workload.Dedicated && workload.Dedicated < workload.Physical) {
		t.Error("isolation order")
	}
	if !(workload.NoFabric < workload.Ethernet && workload.Ethernet < workload.RoCE && workload.RoCE < workload.InfiniBand) {
		t.Error("fabric order")
	}
}
