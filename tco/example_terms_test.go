package tco_test

import (
	"errors"
	"fmt"
	"log"

	"github.com/gputco/gputco/provider"
	"github.com/gputco/gputco/tco"
	"github.com/gputco/gputco/workload/workloadtest"
)

// ExampleRank ranks the chat-inference fixture (64 GPUs at peak, diurnal,
// one year) over the default catalog at 8 % a year: the three cheapest
// offers by present value, and how many offers were excluded and why.
func ExampleRank() {
	catalog, err := provider.Default()
	if err != nil {
		log.Fatal(err)
	}
	ranking, err := tco.Rank(workloadtest.ChatInference(), catalog.Offers, tco.Assumptions{DiscountRatePerYear: 0.08})
	if err != nil {
		log.Fatal(err)
	}
	for _, r := range ranking.Reports[:3] {
		fmt.Printf("%-30s %12s\n", r.Offer, r.PresentValue.StringFixed(2))
	}
	checks := map[tco.Check]int{} // by the first question each failed
	for _, ex := range ranking.Excluded {
		var ce *tco.CompatibilityError
		if errors.As(ex.Err, &ce) {
			checks[ce.Check]++
		}
	}
	fmt.Printf("%d ranked, %d excluded: %d by requirements, %d by fit\n", len(ranking.Reports), len(ranking.Excluded),
		checks[tco.CheckRequirements], checks[tco.CheckFit])
	// Output:
	// aws-p4d-a100-40gb-spot            242586.61
	// aws-p5-h100-spot                  536170.23
	// aws-p5en-h200-spot                882213.04
	// 23 ranked, 15 excluded: 8 by requirements, 7 by fit
}

// ExamplePrepared_Terms prepares the chat service once and splits its cost
// on an owned server, a one-year reservation and on-demand capacity into the
// linear terms a placement solver consumes; at the service's own use the
// terms cost what Evaluate says.
func ExamplePrepared_Terms() {
	catalog, err := provider.Default()
	if err != nil {
		log.Fatal(err)
	}
	p, err := tco.Prepare(workloadtest.ChatInference(), tco.Assumptions{})
	if err != nil {
		log.Fatal(err)
	}
	for _, id := range []string{"self-8x-h100-server", "aws-p5-h100-reserved-1y", "aws-p5-h100-ondemand"} {
		offer, _ := catalog.Offers.Find(id)
		t, err := p.Terms(offer)
		if err != nil {
			log.Fatal(err)
		}
		report, err := p.Evaluate(offer)
		if err != nil {
			log.Fatal(err)
		}
		cost, err := t.Cost(t.Own)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%s: committed %v, fixed %s per node, variable %s per node-hour, one-off %s\n",
			id, t.Committed, t.FixedPerNode.StringFixed(2), t.VariablePerNodeHour.StringFixed(2), t.OneOff.StringFixed(2))
		fmt.Printf("  own use %d nodes, %.0f node-hours: %s = Evaluate %s\n",
			int(t.Own.Nodes), t.Own.NodeHours, cost.StringFixed(2), report.Total.StringFixed(2))
	}
	// Output:
	// self-8x-h100-server: committed true, fixed 135208.94 per node, variable 0.73 per node-hour, one-off 13072.00
	//   own use 8 nodes, 45747 node-hours: 1150585.69 = Evaluate 1150585.69
	// aws-p5-h100-reserved-1y: committed true, fixed 284468.74 per node, variable 0.00 per node-hour, one-off 7854.90
	//   own use 8 nodes, 45747 node-hours: 2283604.79 = Evaluate 2283604.79
	// aws-p5-h100-ondemand: committed false, fixed 0.00 per node, variable 55.05 per node-hour, one-off 18422.58
	//   own use 0 nodes, 45747 node-hours: 2536736.29 = Evaluate 2536736.29
}
