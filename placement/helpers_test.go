package placement_test

import (
	"time"

	"github.com/gputco/gputco/provider"
	"github.com/gputco/gputco/tco"
	"github.com/gputco/gputco/workload"
	"github.com/shopspring/decimal"
)

var h100 = provider.GPU{Model: "H100 SXM", MemoryGiB: 80, BF16TFLOPS: 989, TDPWatts: 700}

// node is an offer of gpn H100s per node priced by p, stock nodes at most
// (0: unlimited), in jurisdiction "US".
func node(id string, p provider.Pricing, gpn, stock int) provider.Offer {
	return provider.Offer{ID: id, Provider: "test", Region: "us-1", Jurisdiction: "US", Currency: "USD", GPU: h100,
		GPUsPerNode: gpn, Isolation: provider.Dedicated, Pricing: p,
		Availability: provider.Availability{FillProbability: 1, MaxNodes: stock}}
}

func dec(s string) decimal.Decimal { return decimal.RequireFromString(s) }

// onDemand is pro-rata on-demand at rate per node-hour.
func onDemand(id, rate string, gpn, stock int) provider.Offer {
	return node(id, provider.ProRata(dec(rate)), gpn, stock)
}

// reserved is a one-year reservation at rate per node-hour.
func reserved(id, rate string, gpn, stock int) provider.Offer {
	return node(id, provider.Reserved{Term: provider.Year, RecurringPerHour: dec(rate)}, gpn, stock)
}

// spot is pro-rata spot at rate, never interrupted unless rate > 0.
func spot(id, rate string, gpn, stock int, interrupt float64) provider.Offer {
	return node(id, provider.Spot{RatePerHour: dec(rate), InterruptionRatePerHour: interrupt}, gpn, stock)
}

// batch is a checkpointed job of work reference GPU-hours on up to gpus
// GPUs, due by deadline (0: none).
func batch(name string, gpus int, work float64, deadline time.Duration) workload.Workload {
	return workload.Workload{Name: name, Kind: workload.Batch, GPUs: gpus, WorkGPUHours: work, Deadline: deadline,
		Requirements: workload.Requirements{Interconnect: workload.Interconnect{Independent: true}},
		Interruption: workload.Interruption{Tolerance: workload.Checkpointed, CheckpointTime: 5 * time.Minute}}
}

// bare are assumptions without hidden costs: the explicit model only.
func bare() tco.Assumptions {
	return tco.Assumptions{Horizon: provider.Year, Exclude: []provider.Category{provider.Setup, provider.DataTransfer,
		provider.Storage, provider.Recovery, provider.Preemption, provider.Staff, provider.Fees, provider.Exit, provider.Delay,
		provider.Inefficiency}}
}
