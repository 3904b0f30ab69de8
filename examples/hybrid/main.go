// Command hybrid places a whole portfolio of GPU workloads with
// placement.Solve — which capacity to commit (owned servers, reservations,
// monthly rentals), what to burst on on-demand and what to put on spot — and
// compares the plan with buying everything on demand and with owning
// everything.
//
// With no arguments it plans, over one year on the embedded catalog, a
// diurnal chat service (64 GPUs at peak), a batch embedding job, two
// fine-tuning jobs and a 64-GPU pre-training run, with at most 25 % of each
// workload on spot:
//
//	go run ./examples/hybrid
//	go run ./examples/hybrid -max-spot 1 -out charts     # spot without limit
//	go run ./examples/hybrid -workloads my-workloads.json -catalog my-offers.json -format json
//
// It prints the plan (placement.Plan.String: commitments, assignments,
// runners-up, cost, proven bound and gap), the spot share of the GPU-hours,
// what one more node of each stock-limited offer would save, and the plans
// restricted to pay-as-you-go on-demand offers and to owned servers. With
// -out DIR it draws hybrid.png: the GPUs held by tier over the representative
// week, stacked, against the services' demand.
//
// One epoch only: buying year by year as demand grows (placement over time)
// is not built, so -years sets one horizon for the whole plan.
package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/shopspring/decimal"

	"github.com/gputco/gputco/examples/internal/cli"
	"github.com/gputco/gputco/placement"
	"github.com/gputco/gputco/provider"
	"github.com/gputco/gputco/tco"
	"github.com/gputco/gputco/workload"
)

func main() { cli.Main("hybrid", run) }

// options are the command's flags.
type options struct {
	cli.Common
	years, maxSpot float64
	timeLimit      time.Duration
}

func run(stdout, stderr io.Writer, args []string) error {
	fs := flag.NewFlagSet("hybrid", flag.ContinueOnError)
	var opt options
	opt.Register(fs)
	fs.Float64Var(&opt.years, "years", 1, "horizon in `years` (one epoch)")
	fs.Float64Var(&opt.maxSpot, "max-spot", 0.25, "largest `fraction` of each workload's demand on spot, in (0, 1]; 0 means no limit")
	fs.DurationVar(&opt.timeLimit, "time-limit", time.Minute, "longest `duration` of each solve")
	if err := opt.Parse(fs, args, stderr); err != nil {
		return err
	}
	switch {
	case !(opt.years > 0 && opt.years <= 10):
		return cli.Usagef("-years %v: want a horizon in (0, 10]", opt.years)
	case !(opt.maxSpot >= 0 && opt.maxSpot <= 1):
		return cli.Usagef("-max-spot %v: want a fraction in [0, 1]", opt.maxSpot)
	case opt.timeLimit <= 0:
		return cli.Usagef("-time-limit %v: want a positive duration", opt.timeLimit)
	}
	cat, err := opt.LoadCatalog(provider.Decoder{})
	if err != nil {
		return err
	}
	sc, err := opt.LoadScenario(workload.Decoder{}, builtinScenario())
	if err != nil {
		return err
	}
	res, err := study(context.Background(), cat, sc, opt)
	if err != nil {
		return err
	}
	out, err := output(res)
	if err != nil {
		return err
	}
	if err := opt.Write(stdout, out); err != nil {
		return err
	}
	if opt.Out != "" {
		path, err := chart(res, sc, opt.Out)
		if err != nil {
			return err
		}
		fmt.Fprintln(stderr, "wrote", path)
	}
	return nil
}

// alternative is the plan restricted to one kind of offer.
type alternative struct {
	Name     string          `json:"name"`
	Offers   int             `json:"offers"`
	Total    decimal.Decimal `json:"total"`
	Placed   int             `json:"placed"`
	Unplaced []string        `json:"unplaced,omitempty"`
	Err      string          `json:"error,omitempty"`
}

// ownedNode is the marginal value of one more node of an owned offer.
type ownedNode struct {
	Offer string `json:"offer"`
	Held  int    `json:"held"`
	Stock int    `json:"stock"` // 0: unlimited
	// Saving is what one more node of stock saves, re-solved, when the plan
	// holds all the stock; zero otherwise (the plan could already hold it).
	Saving decimal.Decimal `json:"saving"`
}

// result is the plan and what it is compared with.
type result struct {
	Plan         placement.Plan `json:"plan"`
	SpotShare    float64        `json:"spotShare"` // of the GPU-hours placed
	Owned        []ownedNode    `json:"owned"`
	Alternatives []alternative  `json:"alternatives"`
	currency     string
}

// study solves the portfolio, then the portfolio on on-demand offers only
// and on owned offers only.
func study(ctx context.Context, cat provider.Catalog, sc workload.Scenario, opt options) (result, error) {
	res := result{currency: cat.Currency}
	problem := func(offers []provider.Offer) placement.Problem {
		return placement.Problem{Workloads: sc.Workloads, Offers: offers,
			Assumptions: tco.Assumptions{Horizon: time.Duration(opt.years * float64(provider.Year))},
			Options:     placement.Options{MaxSpotShare: opt.maxSpot, TimeLimit: opt.timeLimit}}
	}
	plan, err := placement.Solve(ctx, problem(cat.Offers))
	if err != nil {
		return res, fmt.Errorf("placing the portfolio: %w", err)
	}
	res.Plan = plan
	var spot, all float64
	for _, a := range plan.Assignments {
		for _, u := range a.Uses {
			all += u.GPUHours
			if u.Tier == placement.Spot {
				spot += u.GPUHours
			}
		}
	}
	if all > 0 {
		res.SpotShare = spot / all
	}
	for _, o := range cat.Offers {
		if o.Pricing.Mode() != "owned" {
			continue
		}
		on := ownedNode{Offer: o.ID, Stock: o.Availability.MaxNodes}
		for _, c := range plan.Commitments {
			if c.Offer == o.ID {
				on.Held = c.Nodes
			}
		}
		if on.Stock > 0 && on.Held >= on.Stock {
			more := append(provider.Offers(nil), cat.Offers...)
			for i := range more {
				if more[i].ID == o.ID {
					more[i].Availability.MaxNodes++
				}
			}
			p, err := placement.Solve(ctx, problem(more))
			if err != nil {
				return res, fmt.Errorf("placing with one more node of %s: %w", o.ID, err)
			}
			on.Saving = plan.Total.Sub(p.Total)
		}
		res.Owned = append(res.Owned, on)
	}
	onDemand := cat.Offers.Filter(func(o provider.Offer) bool {
		_, metered := provider.As[provider.Metering](o.Pricing)
		_, spot := provider.As[provider.Interruptible](o.Pricing)
		return metered && !spot && o.Kind != provider.SelfHosted
	})
	owned := cat.Offers.Filter(func(o provider.Offer) bool { return o.Pricing.Mode() == "owned" })
	for _, alt := range []struct {
		name   string
		offers provider.Offers
	}{{"all on-demand", onDemand}, {"all owned", owned}} {
		a := alternative{Name: alt.name, Offers: len(alt.offers)}
		if len(alt.offers) == 0 {
			a.Err = "no such offer in the catalog"
			res.Alternatives = append(res.Alternatives, a)
			continue
		}
		p, err := placement.Solve(ctx, problem(alt.offers))
		if err != nil {
			a.Err = cli.OneLine(err)
		} else {
			a.Total, a.Placed = p.Total, len(p.Assignments)
			for _, u := range p.Unplaced {
				a.Unplaced = append(a.Unplaced, u.Workload)
			}
		}
		res.Alternatives = append(res.Alternatives, a)
	}
	return res, nil
}

// output renders the result: the plan as placement prints it, then the
// spot share, the stock values and the alternatives.
func output(res result) (cli.Output, error) {
	money := func(d decimal.Decimal) string { return cli.MoneyFixed(d, res.currency, 0) }
	var b bytes.Buffer
	if err := res.Plan.WriteCSV(&b); err != nil {
		return cli.Output{}, err
	}
	rows, err := csv.NewReader(&b).ReadAll()
	if err != nil {
		return cli.Output{}, err
	}
	table := func(w io.Writer) error {
		p := res.Plan
		fmt.Fprint(w, p.String())
		fmt.Fprintf(w, "\nTotal %s, proven lower bound %s (gap %.2f%%), %s; %.0f%% of the GPU-hours on spot\n",
			money(p.Total), money(p.Bound), p.Gap*100, p.Status, res.SpotShare*100)
		for _, s := range p.Stock {
			fmt.Fprintf(w, "One more node of %s's stock would save %s (LP dual)\n", s.Offer, money(s.SavingPerNode))
		}
		for _, o := range res.Owned {
			switch {
			case o.Stock > 0 && o.Held >= o.Stock:
				fmt.Fprintf(w, "Owned %s: the plan holds all %d nodes of its stock; one more would save %s (re-solved)\n", o.Offer, o.Held, money(o.Saving))
			case o.Stock > 0:
				fmt.Fprintf(w, "Owned %s: the plan holds %d of %d nodes; one more would save nothing (the plan could hold it already)\n", o.Offer, o.Held, o.Stock)
			default:
				fmt.Fprintf(w, "Owned %s: the plan holds %d nodes of an unlimited stock; one more would save nothing (the plan could hold it already)\n", o.Offer, o.Held)
			}
		}
		fmt.Fprintln(w)
		for _, a := range res.Alternatives {
			switch {
			case a.Err != "":
				fmt.Fprintf(w, "%-14s %s\n", a.Name+":", a.Err)
			case len(a.Unplaced) > 0:
				fmt.Fprintf(w, "%-14s %s for %d workloads (%d offers); cannot place %v\n", a.Name+":", money(a.Total), a.Placed, a.Offers, a.Unplaced)
			default:
				fmt.Fprintf(w, "%-14s %s for all %d workloads (%d offers), %s more than this plan\n", a.Name+":", money(a.Total), a.Placed, a.Offers,
					money(a.Total.Sub(p.Total)))
			}
		}
		return nil
	}
	return cli.Output{Table: table, Header: rows[0], Rows: rows[1:], JSON: res}, nil
}
