package tco_test

import (
	"fmt"
	"log"
	"time"

	"github.com/gputco/gputco/provider"
	"github.com/gputco/gputco/tco"
	"github.com/gputco/gputco/workload"
	"github.com/gputco/gputco/workload/workloadtest"
	"github.com/shopspring/decimal"
)

// ExampleEvaluate prices the fine-tune fixture (8 GPUs for 12 hours) on AWS
// p5 on-demand from the default catalog, with every hidden cost included.
func ExampleEvaluate() {
	catalog, err := provider.Default()
	if err != nil {
		log.Fatal(err)
	}
	offer, ok := catalog.Offers.Find("aws-p5-h100-ondemand")
	if !ok {
		log.Fatal("offer not in the default catalog")
	}
	report, err := tco.Evaluate(workloadtest.FineTune(), offer, tco.Assumptions{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("total:   ", report.Total.StringFixed(2))
	fmt.Println("explicit:", report.Explicit.StringFixed(2))
	fmt.Println("hidden:  ", report.Hidden.StringFixed(2))
	for _, c := range []provider.Category{provider.Compute, provider.Setup, provider.Storage, provider.Exit} {
		fmt.Printf("%-9s %s\n", c.String()+":", report.Line(c).StringFixed(2))
	}
	fmt.Println("deadline met:", report.DeadlineMet)
	// Output:
	// total:    4415.05
	// explicit: 660.48
	// hidden:   3754.57
	// compute:  660.48
	// setup:    3720.96
	// storage:  0.39
	// exit:     30.60
	// deadline met: true
}

// ExampleBreakEven reproduces reference-data §5a: an 8×H100 server bought
// for $300,000 and run for three years (10.2 kW colocation at $184.06 per
// kW-month, 10 % maintenance a year, 7.65 kW at full load, PUE 1.25, $0.0826
// per kWh) against AWS p5 on-demand at $55.04 per node-hour billed per
// second.
func ExampleBreakEven() {
	gpu := provider.GPU{Model: "H100 SXM", MemoryGiB: 80, BF16TFLOPS: 989, TDPWatts: 700}
	node := func(id string, p provider.Pricing) provider.Offer {
		return provider.Offer{ID: id, Provider: "example", GPU: gpu, GPUsPerNode: 8, Isolation: provider.Physical,
			Pricing: p, Availability: provider.Availability{FillProbability: 1}}
	}
	rent := node("aws-p5", provider.PerSecond(decimal.RequireFromString("55.04"), time.Minute))
	own := node("server", provider.Owned{
		PurchasePerNode: decimal.NewFromInt(300000), UsefulLifeYears: 3,
		MaxPowerKW: 7.65, ContractedPowerKW: 10.2, PUE: 1.25,
		EnergyPerKWh:               decimal.RequireFromString("0.0826"),
		ColocationPerKWMonth:       decimal.RequireFromString("184.06"),
		MaintenanceFractionPerYear: 0.10,
	})
	service := workload.Workload{Name: "8xH100", Kind: workload.Inference, GPUs: 8,
		Demand: workload.Constant{Value: 1}, Horizon: 3 * provider.Year,
		Interruption: workload.Interruption{Tolerance: workload.Stateless}}

	p, err := tco.BreakEven(service, rent, own, tco.Assumptions{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%s at u* = %.1f%%\n", p.Outcome, 100*p.Utilization)
	fmt.Printf("at u*: rent %s, own %s\n", p.Rent.StringFixed(0), p.Own.StringFixed(0))
	fmt.Printf("at full use, owning is cheaper in cash from month %d\n", p.Month)
	// Output:
	// crossover at u* = 32.1%
	// at u*: rent 464237, own 464249
	// at full use, owning is cheaper in cash from month 9
}
