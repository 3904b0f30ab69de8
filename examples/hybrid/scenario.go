package main

import (
	"math"
	"time"

	"github.com/gputco/gputco/provider"
	"github.com/gputco/gputco/workload"
	"github.com/gputco/gputco/workload/workloadtest"
)

const day = 24 * time.Hour

// builtinScenario is the portfolio the command plans without -workloads: a
// diurnal chat service (64 GPUs at peak in its first year), a batch
// embedding job, two fine-tuning jobs and a pre-training run of 32 to 128
// GPUs due in 60 days.
//
// The pre-training run is checkpointed, so it survives interruptions, but
// one run of synchronous data-parallel training cannot span two providers
// or change width every hour: its gang sizes make it a gang job, run on one
// offer at one size for one window (placement's "Gang jobs").
func builtinScenario() workload.Scenario {
	chat := workloadtest.ChatInference()
	batch := workloadtest.BatchEmbed()
	batch.GPUs = 16
	ft1 := workloadtest.FineTune()
	ft1.Name, ft1.Deadline = "fine-tune-a", 14*day
	ft2 := workloadtest.FineTune()
	ft2.Name, ft2.WorkGPUHours, ft2.Deadline = "fine-tune-b", 8*36, 30*day
	pre := workloadtest.Pretrain()
	pre.Name, pre.GPUs, pre.WorkGPUHours, pre.Deadline, pre.Horizon = "pretrain-8b", 64, 64*21*24, 60*day, 0
	pre.GangSizes = workload.GangSizes{MinGPUs: 32, MaxGPUs: 128}
	pre.Requirements.Interconnect = workload.Interconnect{Fabric: workload.RoCE, Gbps: 3200}
	pre.Data.Location = workload.Location{}
	return workload.Scenario{Name: "hybrid", Workloads: []workload.Workload{chat, batch, ft1, ft2, pre}}
}

// grown returns the scenario with every service running over horizon,
// idle before launch (study passes the longest lead time of the catalog's
// on-demand offers: a plan over time needs capacity to exist before a
// service uses it, and samples a stretch's demand at its start, so the
// launch must be where a stretch starts — an offer's lead time — for the
// plan to see it) and its demand growing by rate at each anniversary of
// the plan's start: its curve is the original one times (1 + rate)^⌊t/year⌋,
// and its GPUs the peak of its last year (the curve scaled down to match),
// so its first year is the workload as given. The jobs are unchanged.
func grown(sc workload.Scenario, horizon time.Duration, rate float64, launch time.Duration) workload.Scenario {
	out := sc
	out.Workloads = append([]workload.Workload(nil), sc.Workloads...)
	last := math.Ceil(horizon.Hours()/provider.Year.Hours()) - 1
	for i := range out.Workloads {
		w := &out.Workloads[i]
		if !w.IsService() {
			continue
		}
		peak := max(1, int(math.Ceil(float64(w.GPUs)*math.Pow(1+rate, max(0, last))-1e-9)))
		w.Demand = growing{base: w.Demand, rate: rate, launch: launch, scale: float64(w.GPUs) / float64(peak)}
		w.GPUs, w.Horizon = peak, horizon
	}
	return out
}

// growing is a service's demand over several years: 0 before launch, then
// scale · base · (1 + rate)^⌊t / year⌋ — a step at each anniversary, so a
// plan over yearly epochs, which samples each epoch's demand at its start,
// sees exactly the demand of the whole epoch.
type growing struct {
	base   workload.Curve
	rate   float64
	launch time.Duration
	scale  float64
}

// At returns the demand at t.
func (g growing) At(t time.Duration) float64 {
	if t < g.launch {
		return 0
	}
	years := math.Floor(t.Hours() / provider.Year.Hours())
	return min(1, g.scale*g.base.At(t)*math.Pow(1+g.rate, max(0, years)))
}

// Period returns the base curve's period when nothing changes over time,
// else 0.
func (g growing) Period() time.Duration {
	if g.launch == 0 && g.rate == 0 {
		return g.base.Period()
	}
	return 0
}
