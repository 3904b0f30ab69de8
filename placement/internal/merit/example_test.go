package merit_test

import (
	"context"
	"fmt"
	"math"

	"github.com/gputco/gputco/placement/internal/merit"
)

// day is one diurnal day: 10 GPUs at night, 20 by day, 30 in the evening.
func day() []float64 {
	d := make([]float64, 24)
	for t := range d {
		d[t] = float64(10 * (1 + t/8))
	}
	return d
}

// offers: reserved and owned capacity (fixed cost for the day), limited
// spot and unlimited on-demand.
var offers = []merit.Offer{
	{FixedPerGPU: 36, LimitGPUs: math.Inf(1), NodeGPUs: 8},                 // reserved
	{FixedPerGPU: 24, VariablePerGPUHour: 0.2, LimitGPUs: 16, NodeGPUs: 8}, // owned
	{VariablePerGPUHour: 1.5, LimitGPUs: 4},                                // spot
	{VariablePerGPUHour: 3, LimitGPUs: math.Inf(1)},                        // on-demand
}

var names = []string{"reserved", "owned", "spot", "on-demand"}

// An owned base with cloud burst for one diurnal service: the owned
// servers (stock 16 GPUs) carry the long layers, four reserved GPUs the
// rest of the base, spot and on-demand the evening peak. The stock values
// say what one more GPU of owned or spot stock would save, the slice prices
// what one more GPU of demand costs per hour at each time of day.
func ExampleSolve() {
	p := merit.Problem{DemandGPUs: day(), Offers: offers}
	s, err := merit.Solve(p)
	if err != nil {
		fmt.Println(err)
		return
	}
	for k, name := range names {
		fmt.Printf("%-9s %5.1f GPUs, one more GPU of stock saves %.2f\n", name, s.CapacityGPUs[k], s.StockValue[k])
	}
	fmt.Printf("cost %.2f\n", s.CostTotal)
	fmt.Printf("price per GPU-hour at night %.2f, by day %.2f, in the evening %.2f\n",
		s.SlicePrice[0], s.SlicePrice[8], s.SlicePrice[16])
	fmt.Printf("one more GPU of peak demand costs %.2f\n", s.LayerPrice[len(s.LayerPrice)-1])
	sc, _ := merit.Screen(p)
	fmt.Printf("screening bound %.2f (exact: %v)\n", sc.CostTotal, sc.Exact)
	// Output:
	// reserved    4.0 GPUs, one more GPU of stock saves 0.00
	// owned      16.0 GPUs, one more GPU of stock saves 7.20
	// spot        4.0 GPUs, one more GPU of stock saves 12.00
	// on-demand   6.0 GPUs, one more GPU of stock saves 0.00
	// cost 780.80
	// price per GPU-hour at night 0.20, by day 1.30, in the evening 3.00
	// one more GPU of peak demand costs 24.00
	// screening bound 648.00 (exact: false)
}

// The same pool with reserved and owned capacity in whole 8-GPU nodes: half
// a reserved node is no longer available, so the four reserved GPUs go to
// on-demand and spot moves down a layer.
func ExampleSolveNodes() {
	p := merit.Problem{DemandGPUs: day(), Offers: offers}
	s, err := merit.SolveNodes(context.Background(), p, merit.NodeOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	for k, name := range names {
		fmt.Printf("%-9s %5.1f GPUs in %d nodes\n", name, s.CapacityGPUs[k], s.Nodes[k])
	}
	fmt.Printf("cost %.2f\n", s.CostTotal)
	// Output:
	// reserved    0.0 GPUs in 0 nodes
	// owned      16.0 GPUs in 2 nodes
	// spot        4.0 GPUs in 0 nodes
	// on-demand  10.0 GPUs in 0 nodes
	// cost 787.20
}
