package main

import (
	"time"

	"github.com/gputco/gputco/workload"
	"github.com/gputco/gputco/workload/workloadtest"
)

const day = 24 * time.Hour

// builtinScenario is the portfolio the command plans without -workloads: a
// diurnal chat service, a batch embedding job, two fine-tuning jobs and a
// pre-training run, over one year.
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
	pre.Requirements.Interconnect = workload.Interconnect{Fabric: workload.RoCE, Gbps: 3200}
	pre.Data.Location = workload.Location{}
	return workload.Scenario{Name: "hybrid", Workloads: []workload.Workload{chat, batch, ft1, ft2, pre}}
}
