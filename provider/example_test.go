package provider_test

import (
	"fmt"
	"time"

	"github.com/shopspring/decimal"

	"github.com/gputco/gputco/provider"
)

// A per-second offer at $3.60 per node-hour ($0.001 per second) with AWS's
// 60-second minimum: a 20-second run is billed the minimum, and a run of
// 90.4 seconds is rounded up to 91 seconds.
func ExamplePerSecond() {
	m := provider.PerSecond(decimal.RequireFromString("3.60"), time.Minute)
	for _, run := range []time.Duration{20 * time.Second, 90*time.Second + 400*time.Millisecond, time.Hour} {
		cs, err := m.Charges(provider.Usage{
			Horizon: time.Hour,
			Runs:    []provider.Run{{Length: run, Count: 1, Nodes: 1}},
		})
		if err != nil {
			fmt.Println(err)
			return
		}
		billedSeconds := m.BilledTime(run).Mul(decimal.NewFromInt(3600)).Round(0)
		fmt.Printf("run %-7v billed %4ss  $%s\n", run, billedSeconds, provider.Total(cs).StringFixed(4))
	}
	// Output:
	// run 20s     billed   60s  $0.0600
	// run 1m30.4s billed   91s  $0.0910
	// run 1h0m0s  billed 3600s  $3.6000
}

// The 8×H100 server of reference-data §5a held for its 3-year life and kept
// fully busy: purchase, energy, colocation and maintenance, no staff and no
// residual value. Per GPU-hour it costs $2.275, the reference figure.
func ExampleOwned_Charges() {
	server := provider.Owned{
		PurchasePerNode:            decimal.NewFromInt(300000),
		UsefulLifeYears:            3,
		Method:                     provider.StraightLine,
		MaxPowerKW:                 7.65, // 0.75 × 10.2 kW
		ContractedPowerKW:          10.2,
		PUE:                        1.25,
		EnergyPerKWh:               decimal.RequireFromString("0.0826"),
		ColocationPerKWMonth:       decimal.RequireFromString("184.06"),
		MaintenanceFractionPerYear: 0.10,
	}
	horizon := 3 * provider.Year
	cs, err := server.Charges(provider.Usage{Horizon: horizon, Nodes: 1, BusyFraction: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, c := range cs {
		fmt.Printf("%-10s %-22s %-7s %10s\n", c.Category, c.Label, c.Timing, c.Amount.StringFixed(2))
	}
	total := provider.Total(cs)
	gpuHours := decimal.NewFromInt(8 * int64(horizon/time.Hour))
	fmt.Printf("total %s, per GPU-hour %s\n", total.StringFixed(2), total.DivRound(gpuHours, 6).StringFixed(3))
	// Output:
	// capital    purchase               upfront  300000.00
	// power      energy                 spread    20757.59
	// facility   colocation             spread    67586.83
	// facility   maintenance            spread    90000.00
	// staff      operations staff       spread        0.00
	// residual   residual at book value at-end        0.00
	// total 478344.42, per GPU-hour 2.275
}

// Loading the embedded default catalog and counting its offers by provider
// kind and pricing mode.
func ExampleDefault() {
	c, err := provider.Default()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%s catalog as of %s: %d offers\n", c.Currency, c.AsOf.Format(time.DateOnly), len(c.Offers))
	for _, k := range []provider.Kind{provider.GeneralCloud, provider.GPUPlatform, provider.SelfHosted} {
		fmt.Printf("  %-14s %2d\n", k, len(c.Offers.Kind(k)))
	}
	for _, mode := range []string{"metered", "spot", "reserved", "owned", "credit"} {
		fmt.Printf("  %-14s %2d\n", mode, len(c.Offers.Mode(mode)))
	}
	// Output:
	// USD catalog as of 2026-11-30: 38 offers
	//   general-cloud  20
	//   gpu-platform   15
	//   self-hosted     3
	//   metered        17
	//   spot            5
	//   reserved       12
	//   owned           3
	//   credit          1
}
