// Package workloadtest provides canonical, deterministic workloads for tests
// and examples: an LLM pre-training run, a fine-tuning job, a chat-inference
// service, a batch embedding job, a development notebook and a medical-imaging
// training job with data-residency and isolation constraints.
//
// Every function returns a fresh, valid value (no shared state), so callers
// may modify what they get. The figures are plausible round numbers, not
// measurements.
package workloadtest

import (
	"time"

	"github.com/gputco/gputco/workload"
	"github.com/shopspring/decimal"
)

// Names of the fixture workloads.
const (
	PretrainName      = "llm-pretrain"
	FineTuneName      = "fine-tune"
	ChatInferenceName = "chat-inference"
	BatchEmbedName    = "batch-embedding"
	DevNotebookName   = "dev-notebook"
	MedicalName       = "medical-imaging"
)

const day = 24 * time.Hour

// Pretrain is an LLM pre-training run: a gang of 512 GPUs for 30 days of
// work (512·720 = 368,640 reference GPU-hours), 80 GiB per GPU, H100 SXM or
// H200 only, InfiniBand at 3,200 Gbps per node (incompatible below),
// dedicated nodes, checkpointed (5 min to write, 15 min to restart), 45-day
// deadline, 50 TB dataset in AWS us-east-1, 2 TB checkpoints, delay cost
// 20,000 per day.
func Pretrain() workload.Workload {
	return workload.Workload{
		Name:              PretrainName,
		Kind:              workload.Training,
		GPUs:              512,
		WorkGPUHours:      512 * 30 * 24,
		Horizon:           60 * day,
		Deadline:          45 * day,
		CostOfDelayPerDay: decimal.NewFromInt(20000),
		Requirements: workload.Requirements{
			MinMemoryGiB: 80,
			Models:       map[string]float64{"H100 SXM": 1, "H200": 1},
			Interconnect: workload.Interconnect{Fabric: workload.InfiniBand, Gbps: 3200},
			MinIsolation: workload.Dedicated,
		},
		Interruption: workload.Interruption{
			Tolerance:      workload.Checkpointed,
			CheckpointTime: 5 * time.Minute,
			RestartTime:    15 * time.Minute,
		},
		Data: workload.Data{
			DatasetGB:        50000,
			Location:         workload.Location{Provider: "aws", Region: "us-east-1"},
			CheckpointGB:     2000,
			EgressGBPerMonth: 100,
		},
		Setup: workload.Setup{EngineerHours: 80},
	}
}

// FineTune is a fine-tuning job: 8 GPUs together for 12 hours (96 reference
// GPU-hours), due within 48 hours, 80 GiB per GPU on H100 SXM, H200 or
// A100 80GB at their default speed factors, checkpointed (2 min / 5 min).
func FineTune() workload.Workload {
	d := workload.DefaultSpeedFactors()
	return workload.Workload{
		Name:         FineTuneName,
		Kind:         workload.FineTuning,
		GPUs:         8,
		WorkGPUHours: 8 * 12,
		Deadline:     48 * time.Hour,
		Requirements: workload.Requirements{
			MinMemoryGiB: 80,
			Models:       map[string]float64{"H100 SXM": d["H100 SXM"], "H200": d["H200"], "A100 80GB": d["A100 80GB"]},
		},
		Interruption: workload.Interruption{
			Tolerance:      workload.Checkpointed,
			CheckpointTime: 2 * time.Minute,
			RestartTime:    5 * time.Minute,
		},
		Data:  workload.Data{DatasetGB: 200, CheckpointGB: 140, EgressGBPerMonth: 10},
		Setup: workload.Setup{EngineerHours: 8},
	}
}

// ChatDemand is the chat service's demand: a diurnal curve with daily mean
// 0.6 and amplitude 0.4 (trough 0.2 at 02:00, peak 1 at 14:00).
func ChatDemand() workload.Diurnal {
	return workload.Diurnal{Mean: 0.6, Amplitude: 0.4, PeakHour: 14}
}

// ChatInference is a chat-inference service: 64 GPUs at peak following
// ChatDemand over a one-year (8,760 h) horizon, stateless (3 min restart),
// 40 GiB per GPU, any default model with enough memory, 5 TB egress a month.
func ChatInference() workload.Workload {
	return workload.Workload{
		Name:         ChatInferenceName,
		Kind:         workload.Inference,
		GPUs:         64,
		Demand:       ChatDemand(),
		Horizon:      8760 * time.Hour,
		Requirements: workload.Requirements{MinMemoryGiB: 40},
		Interruption: workload.Interruption{Tolerance: workload.Stateless, RestartTime: 3 * time.Minute},
		Data:         workload.Data{DatasetGB: 150, EgressGBPerMonth: 5000},
		Setup:        workload.Setup{EngineerHours: 40},
	}
}

// BatchEmbed is a batch embedding job: 2,000 reference GPU-hours on gangs of
// 8 GPUs, spot-tolerant and stateless (2 min restart), 24 GiB per GPU, any
// default model, due within 7 days; 2 TB dataset in GCS europe-west4.
func BatchEmbed() workload.Workload {
	return workload.Workload{
		Name:         BatchEmbedName,
		Kind:         workload.Batch,
		GPUs:         8,
		WorkGPUHours: 2000,
		Deadline:     7 * day,
		Requirements: workload.Requirements{MinMemoryGiB: 24},
		Interruption: workload.Interruption{Tolerance: workload.Stateless, RestartTime: 2 * time.Minute},
		Data: workload.Data{
			DatasetGB:        2000,
			Location:         workload.Location{Provider: "gcp", Region: "europe-west4"},
			EgressGBPerMonth: 500,
		},
		Setup: workload.Setup{EngineerHours: 4},
	}
}

// DevDemand is the notebook's demand: 1 on weekdays from 09:00 to 18:00,
// 0 otherwise (45 of 168 hours a week).
func DevDemand() workload.Weekly {
	return workload.Weekly{
		Weekday: workload.Steps{Cycle: day, Steps: []workload.Step{{Start: 0, Value: 0}, {Start: 9 * time.Hour, Value: 1}, {Start: 18 * time.Hour, Value: 0}}},
		Weekend: workload.Constant{Value: 0},
	}
}

// DevNotebook is a development notebook: 1 GPU following DevDemand over a
// 90-day horizon, 24 GiB, any default model, not interruptible.
func DevNotebook() workload.Workload {
	return workload.Workload{
		Name:         DevNotebookName,
		Kind:         workload.Development,
		GPUs:         1,
		Demand:       DevDemand(),
		Horizon:      90 * day,
		Requirements: workload.Requirements{MinMemoryGiB: 24},
		Data:         workload.Data{DatasetGB: 50},
		Setup:        workload.Setup{EngineerHours: 2},
	}
}

// Medical is a medical-imaging training job whose data may not leave
// Germany: 16 GPUs for 5 days of work (1,920 reference GPU-hours), 48 GiB,
// jurisdiction "DE" only, physical isolation, RoCE at 400 Gbps or a slower
// fabric at 70 % efficiency, checkpointed (3 min / 10 min), 14-day deadline,
// 8 TB dataset on premises in a Berlin hospital.
func Medical() workload.Workload {
	return workload.Workload{
		Name:         MedicalName,
		Kind:         workload.Training,
		GPUs:         16,
		WorkGPUHours: 16 * 5 * 24,
		Deadline:     14 * day,
		Requirements: workload.Requirements{
			MinMemoryGiB:  48,
			Interconnect:  workload.Interconnect{Fabric: workload.RoCE, Gbps: 400, BelowFabric: workload.Slower, Efficiency: 0.7},
			MinIsolation:  workload.Physical,
			Jurisdictions: []string{"DE"},
		},
		Interruption: workload.Interruption{
			Tolerance:      workload.Checkpointed,
			CheckpointTime: 3 * time.Minute,
			RestartTime:    10 * time.Minute,
		},
		Data: workload.Data{
			DatasetGB:    8000,
			Location:     workload.Location{Provider: "on-prem", Region: "berlin"},
			CheckpointGB: 30,
		},
		Setup: workload.Setup{EngineerHours: 24},
	}
}

// All returns every fixture workload in a fixed order.
func All() []workload.Workload {
	return []workload.Workload{Pretrain(), FineTune(), ChatInference(), BatchEmbed(), DevNotebook(), Medical()}
}

// Scenario returns All as a scenario named "canonical".
func Scenario() workload.Scenario {
	return workload.Scenario{Name: "canonical", Workloads: All()}
}
