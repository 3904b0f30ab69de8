package placement_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/gputco/gputco/placement"
	"github.com/gputco/gputco/provider"
	"github.com/gputco/gputco/workload"
	"github.com/shopspring/decimal"
)

// portfolio is a seeded random portfolio: services with diurnal demand and
// offset peaks, checkpointed batch jobs with deadlines, compliance classes
// (jurisdictions) that share offers, reserved, on-demand and spot offers
// with stock limits and node sizes of 1, 2 or 8 GPUs. Hidden costs are on
// (setup, data and the rest) unless bareCosts.
func portfolio(seed uint64, services, jobs, offers int, period time.Duration, bareCosts bool) placement.Problem {
	r := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	juris := []string{"US", "EU", "DE"}
	gpns := []int{1, 2, 8}
	var os []provider.Offer
	for k := range offers {
		gpn := gpns[r.IntN(len(gpns))]
		j := juris[r.IntN(len(juris))]
		id := fmt.Sprintf("o%d", k)
		stock := 0
		if r.Float64() < 0.7 {
			stock = 1 + r.IntN(12)
		}
		base := 2 + 2*r.Float64() // on-demand $/GPU-h
		var pr provider.Pricing
		switch x := r.Float64(); {
		case x < 0.4:
			pr = provider.Reserved{Term: provider.Year, RecurringPerHour: money(base * (0.45 + 0.2*r.Float64()) * float64(gpn))}
		case x < 0.75:
			pr = provider.ProRata(money(base * float64(gpn)))
		default:
			pr = provider.Spot{RatePerHour: money(base * (0.3 + 0.2*r.Float64()) * float64(gpn)), InterruptionRatePerHour: 0.002}
		}
		o := provider.Offer{ID: id, Provider: "p", Region: j + "-1", Jurisdiction: j, Currency: "USD", GPU: h100,
			GPUsPerNode: gpn, Isolation: provider.Dedicated, Pricing: pr,
			Availability: provider.Availability{FillProbability: 0.8 + 0.2*r.Float64(), MaxNodes: stock}}
		os = append(os, o)
	}
	// Every class can use some unlimited on-demand offer.
	for _, j := range juris {
		os = append(os, provider.Offer{ID: "od-" + j, Provider: "p", Region: j + "-1", Jurisdiction: j, Currency: "USD",
			GPU: h100, GPUsPerNode: 1, Isolation: provider.Dedicated, Pricing: provider.ProRata(money(4.5)),
			Availability: provider.Availability{FillProbability: 1}})
	}
	classes := [][]string{nil, {"EU", "DE"}, {"DE"}}
	var ws []workload.Workload
	for i := range services {
		mean := 0.4 + 0.3*r.Float64()
		d, _ := workload.NewDiurnal(mean, min(mean, 1-mean)*(0.5+0.5*r.Float64()), float64(r.IntN(24)))
		w := workload.Workload{Name: fmt.Sprintf("svc%d", i), Kind: workload.Inference, GPUs: 2 + r.IntN(15), Demand: d,
			Horizon: provider.Year, Interruption: workload.Interruption{Tolerance: workload.Stateless},
			Setup: workload.Setup{EngineerHours: float64(r.IntN(8))}}
		w.Requirements.Jurisdictions = classes[r.IntN(len(classes))]
		ws = append(ws, w)
	}
	for i := range jobs {
		w := workload.Workload{Name: fmt.Sprintf("job%d", i), Kind: workload.Batch, GPUs: 4 + r.IntN(13),
			WorkGPUHours: float64(200 + r.IntN(3000)),
			Interruption: workload.Interruption{Tolerance: workload.Checkpointed, CheckpointTime: 5 * time.Minute},
			Setup:        workload.Setup{EngineerHours: float64(r.IntN(4))}}
		if r.Float64() < 0.5 {
			w.Deadline = time.Duration(7+r.IntN(300)) * 24 * time.Hour
		}
		w.Requirements.Jurisdictions = classes[r.IntN(len(classes))]
		w.Requirements.Interconnect.Independent = true
		ws = append(ws, w)
	}
	a := bare()
	if !bareCosts {
		a.Exclude = nil
	}
	return placement.Problem{Workloads: ws, Offers: os, Assumptions: a, Options: placement.Options{Period: period}}
}

func money(v float64) decimal.Decimal { return decimal.NewFromFloat(v).Round(4) }

// timePortfolio is portfolio planned over time: a horizon in epochs of
// epoch (the last may be partial), services whose demand grows by up to
// 60 % a year, reservations of a month, a year or three, provisioning lead
// times of 1 to 6 months on some offers and an owned offer per jurisdiction
// with a procurement lead time of 3 to 9 months; gangs training runs of 8
// to 24 GPUs, half of them with a range of sizes, most with a deadline,
// and InfiniBand on most offers. slices is the slices of a day.
func timePortfolio(seed uint64, services, jobs, gangs, offers, slices int, horizon, epoch time.Duration, bareCosts bool) placement.Problem {
	p := portfolio(seed, services, jobs, offers, 24*time.Hour, bareCosts)
	r := rand.New(rand.NewPCG(seed, 0x2545f4914f6cdd1d))
	p.Assumptions.Horizon = horizon
	p.Options.Epoch, p.Options.Slices = epoch, slices
	for i := range p.Workloads {
		w := &p.Workloads[i]
		if w.IsService() {
			// Sized for the demand at the horizon's end: GPUs at peak then.
			g := 0.6 * r.Float64()
			end := math.Pow(1+g, p.Assumptions.Horizon.Hours()/provider.Year.Hours())
			w.Demand = workload.Growth{Base: workload.Scale{Curve: w.Demand, Factor: 1 / end}, RatePerYear: g, Compound: true}
			w.GPUs = int(math.Ceil(float64(w.GPUs) * end))
			w.Horizon = p.Assumptions.Horizon
		}
	}
	terms := []time.Duration{provider.Month, provider.Year, 3 * provider.Year}
	for i := range p.Offers {
		o := &p.Offers[i]
		if res, ok := o.Pricing.(provider.Reserved); ok {
			res.Term = terms[r.IntN(len(terms))]
			o.Pricing = res
		}
		if r.Float64() < 0.3 && !strings.HasPrefix(o.ID, "od-") {
			o.Availability.LeadTime = time.Duration(1+r.IntN(6)) * provider.Month
		}
	}
	for _, j := range []string{"US", "EU", "DE"} {
		gpn := []int{2, 8}[r.IntN(2)]
		own := provider.Owned{PurchasePerNode: money(float64(gpn) * (18000 + 10000*r.Float64())), UsefulLifeYears: 4,
			IdlePowerKW: 0.3 * float64(gpn), MaxPowerKW: 0.9 * float64(gpn), PUE: 1.3, EnergyPerKWh: money(0.1),
			MaintenanceFractionPerYear: 0.05, ProcurementLeadTime: time.Duration(3+r.IntN(7)) * provider.Month,
			Resale: provider.Resale{Points: []provider.ResalePoint{{Age: 4 * provider.Year, Fraction: 0.15}}}}
		stock := 0
		if r.Float64() < 0.5 {
			stock = 2 + r.IntN(6)
		}
		p.Offers = append(p.Offers, provider.Offer{ID: "own-" + j, Provider: "self", Region: j + "-1", Jurisdiction: j,
			Currency: "USD", GPU: h100, GPUsPerNode: gpn, Isolation: provider.Dedicated, Pricing: own,
			Availability: provider.Availability{FillProbability: 1, MaxNodes: stock}})
	}
	for i := range p.Offers {
		if r.Float64() < 0.7 {
			p.Offers[i].Interconnect = provider.Interconnect{Fabric: provider.InfiniBand, GbpsPerNode: 1600}
		}
	}
	for i := range gangs {
		gpus := 8 * (1 + r.IntN(3))
		w := workload.Workload{Name: fmt.Sprintf("gang%d", i), Kind: workload.Training, GPUs: gpus,
			WorkGPUHours: float64(gpus) * 24 * float64(3+r.IntN(40)),
			Requirements: workload.Requirements{Interconnect: workload.Interconnect{Fabric: provider.InfiniBand}},
			Setup:        workload.Setup{EngineerHours: float64(r.IntN(8))}}
		if r.IntN(2) == 0 {
			w.GangSizes = workload.GangSizes{MinGPUs: gpus / 2, MaxGPUs: 2 * gpus}
		}
		if r.Float64() < 0.7 {
			w.Deadline = time.Duration(30+r.IntN(300)) * 24 * time.Hour
		}
		p.Workloads = append(p.Workloads, w)
	}
	return p
}
