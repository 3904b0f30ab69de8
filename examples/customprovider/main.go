// Command customprovider shows downstream code extending gputco's models
// without forking it: a pricing mode and a demand curve defined here, read
// from JSON through the library's extension hooks, and priced by tco like the
// built-in ones.
//
//   - Tiered (tiered.go) is a pay-as-you-go mode with volume discounts: node-
//     hours over the horizon are priced in marginal tiers. Its JSON "mode" is
//     "tiered", decoded by a provider.PricingDecoder registered in
//     provider.Decoder.Modes.
//   - Launch (launch.go) is the demand of a product being launched: a base
//     daily pattern times an S-shaped adoption. Its JSON "type" is "launch",
//     decoded by a workload.CurveDecoder registered in workload.Decoder.Curves;
//     its base is any curve, decoded through the same decoder.
//
// With no arguments it adds the embedded data/offers.json (one invented
// tiered H100 offer) to the default catalog, reads data/workloads.json (a
// 64-GPU chat service whose demand is a Launch curve over 180 days), ranks
// every offer of the catalog for each workload (tco.Rank), shows how the
// tiered offer's bill and cost terms come out (tco.Evaluate, tco.CostTerms),
// and places the whole scenario with placement.Solve, which prices the
// downstream mode through the same terms:
//
//	go run ./examples/customprovider
//	go run ./examples/customprovider -out charts -format json
//	go run ./examples/customprovider -catalog my-offers.json -workloads my-workloads.json
//
// -catalog and -workloads are read with the same decoders, so your files may
// use "tiered" pricing and "launch" curves next to the built-in ones. With
// -out DIR it writes customprovider-demand.png (the Launch curve over the
// horizon) and customprovider-tiers.png (the tiered offer's marginal and
// average price against the volume).
package main

import (
	"context"
	_ "embed"
	"flag"
	"fmt"
	"io"
	"strconv"
	"text/tabwriter"
	"time"

	"github.com/shopspring/decimal"

	"github.com/gputco/gputco/examples/internal/cli"
	"github.com/gputco/gputco/placement"
	"github.com/gputco/gputco/provider"
	"github.com/gputco/gputco/tco"
	"github.com/gputco/gputco/workload"
)

//go:embed data/offers.json
var offersJSON []byte

//go:embed data/workloads.json
var workloadsJSON []byte

// pricingDecoder knows the example's pricing mode besides the built-in ones.
func pricingDecoder() provider.Decoder {
	return provider.Decoder{Modes: map[string]provider.PricingDecoder{"tiered": decodeTiered}}
}

// curveDecoder knows the example's curve besides the built-in ones.
func curveDecoder() workload.Decoder {
	return workload.Decoder{Curves: map[string]workload.CurveDecoder{"launch": decodeLaunch}}
}

func main() { cli.Main("customprovider", run) }

// options are the command's flags.
type options struct {
	cli.Common
	top   int
	solve bool
}

func run(stdout, stderr io.Writer, args []string) error {
	fs := flag.NewFlagSet("customprovider", flag.ContinueOnError)
	var opt options
	opt.Register(fs)
	fs.IntVar(&opt.top, "top", 8, "offers to list per workload in the table (`n`; csv and json list all)")
	fs.BoolVar(&opt.solve, "solve", true, "also place the whole scenario with placement.Solve")
	if err := opt.Parse(fs, args, stderr); err != nil {
		return err
	}
	if opt.top < 1 {
		return cli.Usagef("-top %d: want at least 1", opt.top)
	}
	cat, err := loadCatalog(opt.Common)
	if err != nil {
		return err
	}
	builtin, err := curveDecoder().Scenario(workloadsJSON)
	if err != nil {
		return fmt.Errorf("embedded workloads: %w", err)
	}
	sc, err := opt.LoadScenario(curveDecoder(), builtin)
	if err != nil {
		return err
	}
	res, err := analyse(cat, sc, opt.solve)
	if err != nil {
		return err
	}
	if err := opt.Write(stdout, output(res, opt.top)); err != nil {
		return err
	}
	if opt.Out != "" {
		paths, err := charts(res, sc, opt.Out)
		if err != nil {
			return err
		}
		for _, p := range paths {
			fmt.Fprintln(stderr, "wrote", p)
		}
	}
	return nil
}

// loadCatalog returns the user's catalog, or the default one with the
// embedded tiered offer added; both are decoded with pricingDecoder().
func loadCatalog(c cli.Common) (provider.Catalog, error) {
	if c.Catalog != "" {
		return c.LoadCatalog(pricingDecoder())
	}
	base, err := provider.Default()
	if err != nil {
		return provider.Catalog{}, err
	}
	extra, err := pricingDecoder().Catalog(offersJSON)
	if err != nil {
		return provider.Catalog{}, fmt.Errorf("embedded offers: %w", err)
	}
	return provider.Merge(base, extra)
}

// ranked is one offer in a workload's ranking.
type ranked struct {
	Rank                 int
	Offer, Mode          string
	Total, PresentValue  decimal.Decimal
	Hidden               decimal.Decimal
	CostPerUsefulGPUHour decimal.Decimal
	Custom               bool // priced by a mode defined outside the library
}

// custom is the bill and the cost terms of a workload on an offer whose
// pricing the library does not define.
type custom struct {
	Offer               string
	Rank                int
	Lines               []tco.Line
	Total               decimal.Decimal
	BilledNodeHours     float64
	VariablePerNodeHour decimal.Decimal
	OneOff, PerOffer    decimal.Decimal
	ListRatePerHour     decimal.Decimal
}

// workloadResult is the study of one workload.
type workloadResult struct {
	Workload   string
	GPUs       int
	Horizon    string
	MeanDemand float64
	PeakDemand float64
	Ranking    []ranked
	Excluded   int
	Custom     []custom
}

// placed is where placement.Solve puts one workload.
type placed struct {
	Workload string
	Offers   []string
	Tiers    []string
	Cost     decimal.Decimal
}

// result is what the command prints and draws.
type result struct {
	Currency  string
	Workloads []workloadResult
	// Plan summarises placement.Solve on the whole scenario and catalog.
	PlanTotal, PlanBound decimal.Decimal
	PlanStatus           string
	Placed               []placed
	Unplaced             []string
	// tiered are the catalog's offers priced by Tiered, for the chart.
	tiered []provider.Offer
}

// builtin reports whether the library defines mode.
func builtin(mode string) bool {
	switch mode {
	case "metered", "spot", "reserved", "owned", "credit":
		return true
	}
	return false
}

// analyse ranks every workload on every offer and details the offers of
// downstream modes.
func analyse(cat provider.Catalog, sc workload.Scenario, solve bool) (result, error) {
	res := result{Currency: cat.Currency}
	for _, o := range cat.Offers {
		if _, ok := provider.As[Tiered](o.Pricing); ok {
			res.tiered = append(res.tiered, o)
		}
	}
	var a tco.Assumptions
	for _, w := range sc.Workloads {
		wr := workloadResult{Workload: w.Name, GPUs: w.GPUs, Horizon: span(w.Horizon)}
		if w.IsService() {
			p, err := workload.Sample(w.Demand, w.Horizon, 0)
			if err != nil {
				return res, fmt.Errorf("%s: demand: %w", w.Name, err)
			}
			wr.MeanDemand, wr.PeakDemand = p.Mean(), p.Peak()
		}
		prep, err := tco.Prepare(w, a)
		if err != nil {
			return res, cli.Usagef("workload %s: %w", w.Name, err)
		}
		rk, err := prep.Rank(cat.Offers)
		if err != nil {
			return res, fmt.Errorf("ranking %s: %w", w.Name, err)
		}
		wr.Excluded = len(rk.Excluded)
		for i, r := range rk.Reports {
			o, _ := cat.Offers.Find(r.Offer)
			mode := o.Pricing.Mode()
			wr.Ranking = append(wr.Ranking, ranked{Rank: i + 1, Offer: r.Offer, Mode: mode, Total: r.Total,
				PresentValue: r.PresentValue, Hidden: r.Hidden, CostPerUsefulGPUHour: r.CostPerUsefulGPUHour,
				Custom: !builtin(mode)})
			if builtin(mode) {
				continue
			}
			terms, err := prep.Terms(o)
			if err != nil {
				return res, fmt.Errorf("%s on %s: terms: %w", w.Name, o.ID, err)
			}
			c := custom{Offer: o.ID, Rank: i + 1, Lines: r.Lines, Total: r.Total,
				BilledNodeHours: r.BilledGPUHours / float64(o.GPUsPerNode), VariablePerNodeHour: terms.VariablePerNodeHour,
				OneOff: terms.OneOff, PerOffer: terms.PerOffer}
			if t, ok := provider.As[Tiered](o.Pricing); ok {
				c.ListRatePerHour = t.RatePerHour
			}
			wr.Custom = append(wr.Custom, c)
		}
		res.Workloads = append(res.Workloads, wr)
	}
	if !solve {
		return res, nil
	}
	// The whole scenario placed at once: the solver prices the downstream
	// mode through the same cost terms. A launch does not repeat, so the
	// solver's representative period is the whole horizon, in hourly slices
	// (a week repeated would show it only its first week).
	var horizon time.Duration
	for _, w := range sc.Workloads {
		horizon = max(horizon, w.Horizon)
	}
	opts := placement.Options{TimeLimit: time.Minute}
	if horizon > 0 {
		opts.Period, opts.Slices = horizon, max(1, min(int(horizon/time.Hour), placement.MaxSlices))
	}
	plan, err := placement.Solve(context.Background(), placement.Problem{Workloads: sc.Workloads, Offers: cat.Offers,
		Assumptions: tco.Assumptions{Horizon: horizon}, Options: opts})
	if err != nil {
		return res, fmt.Errorf("placing the scenario: %w", err)
	}
	res.PlanTotal, res.PlanBound, res.PlanStatus = plan.Total, plan.Bound, plan.Status.String()
	for _, a := range plan.Assignments {
		p := placed{Workload: a.Workload, Cost: a.Cost}
		for _, u := range a.Uses {
			p.Offers, p.Tiers = append(p.Offers, u.Offer), append(p.Tiers, u.Tier.String())
		}
		res.Placed = append(res.Placed, p)
	}
	for _, u := range plan.Unplaced {
		res.Unplaced = append(res.Unplaced, u.Workload)
	}
	return res, nil
}

// output renders res in the three formats; the table lists top offers.
func output(res result, top int) cli.Output {
	money := func(d decimal.Decimal) string { return cli.Money(d, res.Currency) }
	header := []string{"workload", "rank", "offer", "mode", "total", "present_value", "hidden", "cost_per_useful_gpu_hour", "custom_mode"}
	var rows [][]string
	for _, w := range res.Workloads {
		for _, r := range w.Ranking {
			rows = append(rows, []string{w.Workload, strconv.Itoa(r.Rank), r.Offer, r.Mode, r.Total.StringFixed(2),
				r.PresentValue.StringFixed(2), r.Hidden.StringFixed(2), r.CostPerUsefulGPUHour.StringFixed(4), strconv.FormatBool(r.Custom)})
		}
	}
	table := func(out io.Writer) error {
		for i, w := range res.Workloads {
			if i > 0 {
				fmt.Fprintln(out)
			}
			fmt.Fprintf(out, "%s: %d GPUs at peak over %s", w.Workload, w.GPUs, w.Horizon)
			if w.PeakDemand > 0 {
				fmt.Fprintf(out, ", mean demand %.0f%% of peak", w.MeanDemand*100)
			}
			fmt.Fprintf(out, " — %d offers can run it, %d cannot\n", len(w.Ranking), w.Excluded)
			tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
			fmt.Fprintln(tw, "RANK\tOFFER\tMODE\tPRESENT VALUE\tHIDDEN\tPER USEFUL GPU-H")
			for _, r := range w.Ranking {
				if r.Rank > top && !r.Custom {
					continue
				}
				mark := ""
				if r.Custom {
					mark = "  ← mode defined in this example"
				}
				fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s%s\n", r.Rank, r.Offer, r.Mode, money(r.PresentValue), money(r.Hidden),
					money(r.CostPerUsefulGPUHour), mark)
			}
			if err := tw.Flush(); err != nil {
				return err
			}
			for _, c := range w.Custom {
				fmt.Fprintf(out, "\n%s on %s (rank %d): %s node-hours billed\n", w.Workload, c.Offer, c.Rank,
					cli.Thousands(strconv.FormatFloat(c.BilledNodeHours, 'f', 0, 64)))
				tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
				for _, l := range c.Lines {
					fmt.Fprintf(tw, "  %s\t%s\t%s\n", l.Category, l.Label, money(l.Amount))
				}
				fmt.Fprintf(tw, "  total\t\t%s\n", money(c.Total))
				if err := tw.Flush(); err != nil {
					return err
				}
				fmt.Fprintf(out, "  cost terms: %s per node-hour of use", cli.MoneyFixed(c.VariablePerNodeHour, res.Currency, 4))
				if c.ListRatePerHour.IsPositive() {
					fmt.Fprintf(out, " (list %s: the tiers and the billing rounding averaged at this volume)", money(c.ListRatePerHour))
				}
				fmt.Fprintf(out, ", %s once per placement, %s once per offer\n", money(c.OneOff), money(c.PerOffer))
			}
		}
		if res.PlanStatus == "" {
			return nil
		}
		fmt.Fprintf(out, "\nPlaced together (placement.Solve, %s): %s, proven lower bound %s\n", res.PlanStatus, money(res.PlanTotal), money(res.PlanBound))
		for _, p := range res.Placed {
			fmt.Fprintf(out, "  %s: %s on", p.Workload, money(p.Cost))
			for i := range p.Offers {
				fmt.Fprintf(out, " %s (%s)", p.Offers[i], p.Tiers[i])
			}
			fmt.Fprintln(out)
		}
		for _, u := range res.Unplaced {
			fmt.Fprintf(out, "  %s: not placed\n", u)
		}
		return nil
	}
	return cli.Output{Table: table, Header: header, Rows: rows, JSON: res}
}

// span formats a horizon in days, or hours when not whole days.
func span(d time.Duration) string {
	if d > 0 && d%(24*time.Hour) == 0 {
		return cli.Thousands(strconv.FormatInt(int64(d/(24*time.Hour)), 10)) + " days"
	}
	return d.String()
}
