package placement_test

import (
	"context"
	"fmt"
	"log"
	"time"

	"github.com/gputco/gputco/placement"
	"github.com/gputco/gputco/provider"
	"github.com/gputco/gputco/tco"
	"github.com/gputco/gputco/workload"
	"github.com/shopspring/decimal"
)

// Planning over time: owned servers are the cheapest base for a steady
// service, but take nine months to arrive; the plan orders them now and
// bridges on monthly rentals until they do. A training run of 128 to 512
// GPUs due in two months cannot wait for them, as the servers arrive after
// its deadline: it rents 22 more monthly nodes for the first month alone
// and runs on 176 GPUs, for less than on demand.
func ExampleSolve_overTime() {
	gpu := provider.GPU{Model: "H100 SXM", MemoryGiB: 80, BF16TFLOPS: 989, TDPWatts: 700}
	offer := func(id string, p provider.Pricing) provider.Offer {
		return provider.Offer{ID: id, Provider: "example", Currency: "USD", GPU: gpu, GPUsPerNode: 8,
			Isolation: provider.Physical, Pricing: p, Availability: provider.Availability{FillProbability: 1},
			Interconnect: provider.Interconnect{Fabric: provider.InfiniBand, GbpsPerNode: 3200, NVLink: true}}
	}
	own := offer("own", provider.Owned{PurchasePerNode: decimal.NewFromInt(250000), UsefulLifeYears: 4,
		MaxPowerKW: 7, IdlePowerKW: 2, PUE: 1.3, EnergyPerKWh: decimal.RequireFromString("0.09"),
		ProcurementLeadTime: 9 * provider.Month})
	month := offer("monthly", provider.Reserved{Term: provider.Month, RecurringPerHour: decimal.NewFromInt(24)})
	cloud := offer("on-demand", provider.ProRata(decimal.NewFromInt(40)))
	chat := workload.Workload{Name: "chat", Kind: workload.Inference, GPUs: 32, Demand: workload.Constant{Value: 1},
		Horizon: 2 * provider.Year, Interruption: workload.Interruption{Tolerance: workload.Stateless}}
	train := workload.Workload{Name: "train", Kind: workload.Training, GPUs: 256, WorkGPUHours: 256 * 24 * 20,
		Deadline: 60 * 24 * time.Hour, GangSizes: workload.GangSizes{MinGPUs: 128, MaxGPUs: 512},
		Requirements: workload.Requirements{Interconnect: workload.Interconnect{Fabric: provider.InfiniBand}}}

	p := placement.Problem{
		Workloads: []workload.Workload{chat, train},
		Offers:    []provider.Offer{own, month, cloud},
		Assumptions: tco.Assumptions{Horizon: 2 * provider.Year, Exclude: []provider.Category{provider.Recovery,
			provider.Setup, provider.DataTransfer, provider.Staff}},
		Options: placement.Options{OverTime: true, Period: 24 * time.Hour, Slices: 4},
	}
	plan, err := placement.Solve(context.Background(), p)
	if err != nil {
		log.Fatal(err)
	}
	for _, e := range plan.Epochs {
		fmt.Printf("year %d, months %.0f–%.0f:", e.Epoch+1, e.Start.Hours()/provider.Month.Hours(), e.End.Hours()/provider.Month.Hours())
		for _, h := range e.Held {
			fmt.Printf(" %d × %s", h.Nodes, h.Offer)
		}
		fmt.Println()
	}
	for _, c := range plan.Commitments {
		for _, h := range c.Held {
			if c.Offer == "own" {
				fmt.Printf("buy %d × own: order month %.0f, arrival month %.0f\n", h.Nodes, h.Order.Hours()/provider.Month.Hours(), h.Start.Hours()/provider.Month.Hours())
			}
		}
	}
	g := plan.Assignments[1].Gang
	fmt.Printf("train: %d GPUs on %s, days %.0f–%.0f\n", g.GPUs, g.Offer, g.Start.Hours()/24, g.Finish.Hours()/24)
	fmt.Println(plan.Status)
	// Output:
	// year 1, months 0–1: 26 × monthly
	// year 1, months 1–9: 4 × monthly
	// year 1, months 9–12: 4 × own
	// year 2, months 12–24: 4 × own
	// buy 4 × own: order month 0, arrival month 9
	// train: 176 GPUs on monthly, days 0–29
	// optimal
}
