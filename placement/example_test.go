package placement_test

import (
	"context"
	"fmt"
	"log"

	"github.com/gputco/gputco/placement"
	"github.com/gputco/gputco/provider"
	"github.com/gputco/gputco/tco"
	"github.com/gputco/gputco/workload"
	"github.com/shopspring/decimal"
)

// An owned base plus on-demand burst for one diurnal service: owned nodes
// cover the hours of high demand enough to pay off, the rest bursts.
func ExampleSolve() {
	gpu := provider.GPU{Model: "H100 SXM", MemoryGiB: 80, BF16TFLOPS: 989, TDPWatts: 700}
	offer := func(id string, p provider.Pricing) provider.Offer {
		return provider.Offer{ID: id, Provider: "example", Currency: "USD", GPU: gpu, GPUsPerNode: 8,
			Isolation: provider.Physical, Pricing: p, Availability: provider.Availability{FillProbability: 1}}
	}
	own := offer("own-8xh100", provider.Owned{PurchasePerNode: decimal.NewFromInt(250000), UsefulLifeYears: 4,
		MaxPowerKW: 7, IdlePowerKW: 2, ContractedPowerKW: 8, PUE: 1.3,
		EnergyPerKWh: decimal.RequireFromString("0.09"), ColocationPerKWMonth: decimal.NewFromInt(150),
		MaintenanceFractionPerYear: 0.08})
	cloud := offer("cloud-8xh100", provider.ProRata(decimal.NewFromInt(40)))
	demand, err := workload.NewDiurnal(0.6, 0.35, 14) // 25 % to 95 % of peak, highest at 14:00
	if err != nil {
		log.Fatal(err)
	}
	chat := workload.Workload{Name: "chat", Kind: workload.Inference, GPUs: 64, Demand: demand,
		Horizon: provider.Year, Interruption: workload.Interruption{Tolerance: workload.Stateless}}

	p := placement.Problem{
		Workloads:   []workload.Workload{chat},
		Offers:      []provider.Offer{own, cloud},
		Assumptions: tco.Assumptions{Horizon: provider.Year},
	}
	plan, err := placement.Solve(context.Background(), p)
	if err != nil {
		log.Fatal(err)
	}
	for _, c := range plan.Commitments {
		fmt.Printf("%-13s %-5s nodes %d, peak %.1f GPUs\n", c.Offer, c.Tier, c.Nodes, c.PeakGPUs)
	}
	fmt.Println("status:", plan.Status)
	fmt.Println("total:", plan.Total.StringFixed(2))
	// Output:
	// own-8xh100    base  nodes 7, peak 56.0 GPUs
	// cloud-8xh100  burst nodes 0, peak 4.8 GPUs
	// status: optimal
	// total: 755915.71
}

// A portfolio with a compliance-bound workload: the EU service may run only
// on the EU offers, the US batch job anywhere — and fills the valleys of the
// EU reservation that the service pays for.
func ExampleSolve_compliance() {
	gpu := provider.GPU{Model: "H100 SXM", MemoryGiB: 80, BF16TFLOPS: 989, TDPWatts: 700}
	offer := func(id, jurisdiction string, p provider.Pricing, stock int) provider.Offer {
		return provider.Offer{ID: id, Provider: "example", Region: jurisdiction, Jurisdiction: jurisdiction,
			Currency: "USD", GPU: gpu, GPUsPerNode: 1, Isolation: provider.Dedicated, Pricing: p,
			Availability: provider.Availability{FillProbability: 1, MaxNodes: stock}}
	}
	offers := []provider.Offer{
		offer("eu-reserved", "EU", provider.Reserved{Term: provider.Year, RecurringPerHour: decimal.RequireFromString("2.2")}, 0),
		offer("eu-ondemand", "EU", provider.ProRata(decimal.RequireFromString("4.9")), 0),
		offer("us-ondemand", "US", provider.ProRata(decimal.RequireFromString("3.9")), 0),
	}
	demand, err := workload.NewDiurnal(0.55, 0.4, 13)
	if err != nil {
		log.Fatal(err)
	}
	eu := workload.Workload{Name: "eu-chat", Kind: workload.Inference, GPUs: 32, Demand: demand, Horizon: provider.Year,
		Requirements: workload.Requirements{Jurisdictions: []string{"EU"}},
		Interruption: workload.Interruption{Tolerance: workload.Stateless}}
	job := workload.Workload{Name: "embed", Kind: workload.Batch, GPUs: 16, WorkGPUHours: 40000,
		Requirements: workload.Requirements{Interconnect: workload.Interconnect{Independent: true}},
		Interruption: workload.Interruption{Tolerance: workload.Checkpointed, CheckpointTime: 300e9}}

	p := placement.Problem{
		Workloads:   []workload.Workload{eu, job},
		Offers:      offers,
		Assumptions: tco.Assumptions{Horizon: provider.Year},
	}
	plan, err := placement.Solve(context.Background(), p)
	if err != nil {
		log.Fatal(err)
	}
	for _, a := range plan.Assignments {
		for _, u := range a.Uses {
			fmt.Printf("%-8s on %-12s %-5s %8.0f GPU-hours\n", a.Workload, u.Offer, u.Tier, u.GPUHours)
		}
	}
	for _, c := range plan.Commitments {
		if c.Nodes > 0 {
			fmt.Printf("%s: %d nodes, %.0f %% used\n", c.Offer, c.Nodes, 100*c.Utilization)
		}
	}
	// Output:
	// eu-chat  on eu-reserved  base    137654 GPU-hours
	// eu-chat  on eu-ondemand  burst    25091 GPU-hours
	// embed    on eu-reserved  base     40000 GPU-hours
	// eu-reserved: 21 nodes, 97 % used
}
