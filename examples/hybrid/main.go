// Command hybrid places a whole portfolio of GPU workloads with
// placement.Solve, planned over time — which capacity to commit (owned
// servers, reservations, monthly rentals) and when, what to burst on
// on-demand and what to put on spot — and compares the plan with buying
// everything on demand and with owning everything.
//
// With no arguments it plans, over one year on the embedded catalog, a
// diurnal chat service (64 GPUs at peak) that goes live in 14 days, a batch
// embedding job, two fine-tuning jobs and a pre-training run of 32 to 128
// GPUs (a gang job: one offer, one size, one window before its deadline),
// with at most 25 % of each workload on spot. With -years N the horizon is
// N yearly epochs and the service's demand grows by -growth at each
// anniversary; the plan says what to order, reserve, renew or drop in each
// year, honouring every offer's lead time (an owned server ordered today
// arrives after its procurement):
//
//	go run ./examples/hybrid
//	go run ./examples/hybrid -years 3 -growth 0.5 -out charts
//	go run ./examples/hybrid -max-spot 1                 # spot without limit
//	go run ./examples/hybrid -workloads my-workloads.json -catalog my-offers.json -format json
//
// It prints the plan (placement.Plan.String: commitments, assignments,
// runners-up, every stretch of every epoch, cost, proven bound and gap), a
// year-by-year summary (commitments started, renewed and dropped, gang
// runs, peak GPUs by tier against the services' peak demand), the spot
// share of the GPU-hours, what one more node of each stock-limited offer
// would save, and the plans restricted to pay-as-you-go on-demand offers and
// to owned servers. With -out DIR it draws hybrid.png: for every stretch of
// a month or more, the GPUs used by tier over its representative period
// (-period, a day by default: the built-in demand is diurnal; cut into
// slices of -slice, an hour), stacked, against the services' demand.
package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
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
	years, maxSpot, growth float64
	period, slice          time.Duration
	timeLimit              time.Duration
}

func run(stdout, stderr io.Writer, args []string) error {
	fs := flag.NewFlagSet("hybrid", flag.ContinueOnError)
	var opt options
	opt.Register(fs)
	fs.Float64Var(&opt.years, "years", 1, "horizon in `years`, planned in yearly epochs (the last may be partial)")
	fs.Float64Var(&opt.growth, "growth", 0.5, "growth of every service's demand at each anniversary, as a `fraction` (0.5 = +50 % a year), > -1")
	fs.DurationVar(&opt.period, "period", day, "representative `period` of every stretch: 24h (diurnal demand) or 168h (weekly)")
	fs.DurationVar(&opt.slice, "slice", time.Hour, "`length` of the period's slices, whole hours dividing -period (longer: a coarser, faster plan)")
	fs.Float64Var(&opt.maxSpot, "max-spot", 0.25, "largest `fraction` of each workload's demand on spot, in (0, 1]; 0 means no limit")
	fs.DurationVar(&opt.timeLimit, "time-limit", time.Minute, "longest `duration` of each solve")
	if err := opt.Parse(fs, args, stderr); err != nil {
		return err
	}
	if err := opt.check(); err != nil {
		return err
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
		path, err := chart(res, opt.Out)
		if err != nil {
			return err
		}
		fmt.Fprintln(stderr, "wrote", path)
	}
	return nil
}

// check validates the flags.
func (opt options) check() error {
	switch {
	case !(opt.years > 0 && opt.years <= 10):
		return cli.Usagef("-years %v: want a horizon in (0, 10]", opt.years)
	case !(opt.growth > -1 && opt.growth <= 10):
		return cli.Usagef("-growth %v: want a yearly growth in (-1, 10]", opt.growth)
	case opt.period != day && opt.period != 7*day:
		// A stretch's period is sampled from its start, and stretches start
		// at the offers' lead times: a period shorter than a cycle of the
		// demand would sample a different part of it in each stretch.
		return cli.Usagef("-period %v: want 24h or 168h (a whole cycle of the demand)", opt.period)
	case opt.slice < time.Hour || opt.slice%time.Hour != 0 || opt.period%opt.slice != 0:
		return cli.Usagef("-slice %v: want whole hours dividing the period %v", opt.slice, opt.period)
	case !(opt.maxSpot >= 0 && opt.maxSpot <= 1):
		return cli.Usagef("-max-spot %v: want a fraction in [0, 1]", opt.maxSpot)
	case opt.timeLimit <= 0:
		return cli.Usagef("-time-limit %v: want a positive duration", opt.timeLimit)
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

// action is one decision of a year: a commitment started (bought,
// reserved, rented, renewed) or dropped, or a gang job's run.
type action struct {
	Verb  string          `json:"verb"` // buy, reserve, rent, renew, drop, run
	Offer string          `json:"offer"`
	Nodes int             `json:"nodes"`
	Order time.Duration   `json:"order"` // when it is ordered (a run: its start)
	Start time.Duration   `json:"start"` // in service (a drop: when the term ends)
	End   time.Duration   `json:"end"`   // held until (a run: its finish)
	Cost  decimal.Decimal `json:"cost"`
	Job   string          `json:"job,omitempty"` // a run's gang job
	GPUs  int             `json:"gpus,omitempty"`
	Wall  time.Duration   `json:"wall,omitempty"`
}

// year is what the plan does in one epoch.
type year struct {
	Epoch      int           `json:"epoch"`
	Start, End time.Duration `json:"-"`
	Actions    []action      `json:"actions"`
	// PeakBase, PeakBurst and PeakSpot are the most GPUs of each tier in
	// one slice of the epoch's stretches; PeakDemand the services' peak.
	PeakBase, PeakBurst, PeakSpot, PeakDemand float64
}

// result is the plan and what it is compared with.
type result struct {
	Plan placement.Plan `json:"plan"`
	// Launch is when the services go live: the longest lead time of the
	// catalog's on-demand offers (see grown).
	Launch       time.Duration `json:"launch"`
	Years        []year        `json:"years"`
	SpotShare    float64       `json:"spotShare"` // of the GPU-hours placed
	Owned        []ownedNode   `json:"owned"`
	Alternatives []alternative `json:"alternatives"`
	currency     string
	scenario     workload.Scenario
}

// problem is the placement problem of the scenario on offers, planned over
// yearly epochs.
func problem(sc workload.Scenario, offers []provider.Offer, opt options) placement.Problem {
	return placement.Problem{Workloads: sc.Workloads, Offers: offers,
		Assumptions: tco.Assumptions{Horizon: time.Duration(opt.years * float64(provider.Year))},
		Options: placement.Options{OverTime: true, Epoch: provider.Year, Period: opt.period, Slices: int(opt.period / opt.slice),
			MaxSpotShare: opt.maxSpot, TimeLimit: opt.timeLimit}}
}

// study solves the portfolio over time, summarises it year by year, then
// solves it on on-demand offers only and on owned offers only.
func study(ctx context.Context, cat provider.Catalog, sc workload.Scenario, opt options) (result, error) {
	if err := opt.check(); err != nil {
		return result{}, err
	}
	onDemand := cat.Offers.Filter(func(o provider.Offer) bool {
		_, metered := provider.As[provider.Metering](o.Pricing)
		_, spot := provider.As[provider.Interruptible](o.Pricing)
		return metered && !spot && o.Kind != provider.SelfHosted
	})
	horizon := time.Duration(opt.years * float64(provider.Year))
	launch := time.Duration(0)
	for _, o := range onDemand {
		launch = max(launch, o.LeadTime())
	}
	if launch >= horizon {
		return result{}, cli.Usagef("-years %v: the horizon %v is not longer than the lead time %v of the catalog's on-demand offers", opt.years, horizon, launch)
	}
	sc = grown(sc, horizon, opt.growth, launch)
	res := result{currency: cat.Currency, scenario: sc, Launch: launch}
	plan, err := placement.Solve(ctx, problem(sc, cat.Offers, opt))
	if errors.Is(err, context.DeadlineExceeded) {
		return res, fmt.Errorf("placing the portfolio: no plan within -time-limit %v (try a longer one, or coarser -slice): %w", opt.timeLimit, err)
	}
	if err != nil {
		return res, fmt.Errorf("placing the portfolio: %w", err)
	}
	res.Plan = plan
	res.Years = years(plan, cat.Offers, sc)
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
			p, err := placement.Solve(ctx, problem(sc, more, opt))
			if err != nil {
				return res, fmt.Errorf("placing with one more node of %s: %w", o.ID, err)
			}
			on.Saving = plan.Total.Sub(p.Total)
		}
		res.Owned = append(res.Owned, on)
	}
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
		p, err := placement.Solve(ctx, problem(sc, alt.offers, opt))
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

// years summarises the plan epoch by epoch: the commitments that start in
// each (a commitment that starts where one of the same offer ends renews
// it), those whose term ends without a successor (dropped), the gang runs
// that start in it, and the peak GPUs by tier and of the services' demand.
func years(p placement.Plan, offers []provider.Offer, sc workload.Scenario) []year {
	mode := map[string]string{}
	for _, o := range offers {
		mode[o.ID] = o.Pricing.Mode()
		if r, ok := o.Pricing.(provider.Reserved); ok && r.Term < provider.Year {
			mode[o.ID] = "rented"
		}
	}
	var out []year
	at := func(epoch int, start, end time.Duration) *year {
		for len(out) <= epoch {
			out = append(out, year{Epoch: len(out), Start: start})
		}
		y := &out[epoch]
		y.End = max(y.End, end)
		return y
	}
	for _, e := range p.Epochs {
		y := at(e.Epoch, e.Start, e.End)
		for _, s := range e.Slices {
			y.PeakBase, y.PeakBurst, y.PeakSpot = max(y.PeakBase, s.Base), max(y.PeakBurst, s.Burst), max(y.PeakSpot, s.Spot)
		}
		y.PeakDemand = max(y.PeakDemand, servicePeak(sc, e.Start, p.Period, p.Slices))
	}
	epochOf := func(t time.Duration) int {
		for _, e := range p.Epochs {
			if e.Start <= t && t < e.End {
				return e.Epoch
			}
		}
		return -1
	}
	for _, c := range p.Commitments {
		for _, h := range c.Held {
			verb := "commit"
			switch mode[c.Offer] {
			case "owned":
				verb = "buy"
			case "reserved":
				verb = "reserve"
			case "rented":
				verb = "rent"
			}
			renewed, followed := false, false
			for _, g := range c.Held {
				renewed = renewed || g.End == h.Start
				followed = followed || g.Start == h.End
			}
			if renewed && mode[c.Offer] != "owned" {
				verb = "renew"
			}
			if k := epochOf(h.Start); k >= 0 {
				y := &out[k]
				y.Actions = append(y.Actions, action{Verb: verb, Offer: c.Offer, Nodes: h.Nodes, Order: h.Order, Start: h.Start, End: h.End, Cost: h.Cost})
			}
			if k := epochOf(h.End); k >= 0 && !followed {
				y := &out[k]
				y.Actions = append(y.Actions, action{Verb: "drop", Offer: c.Offer, Nodes: h.Nodes, Start: h.End, End: h.End})
			}
		}
	}
	for _, a := range p.Assignments {
		if g := a.Gang; g != nil {
			if k := epochOf(g.Start); k >= 0 {
				y := &out[k]
				y.Actions = append(y.Actions, action{Verb: "run", Offer: g.Offer, Nodes: g.Nodes, Order: g.Start, Start: g.Start, End: g.Finish,
					Cost: a.Cost, Job: a.Workload, GPUs: g.GPUs, Wall: g.WallTime})
			}
		}
	}
	return out
}

// servicePeak is the services' demand in GPUs at the middle of each slice
// of the period from start, as the plan samples a stretch that starts
// there; its largest value.
func servicePeak(sc workload.Scenario, start, period time.Duration, slices int) float64 {
	peak := 0.0
	for _, d := range serviceDemand(sc, start, period, slices) {
		peak = max(peak, d)
	}
	return peak
}

// serviceDemand is the services' demand in GPUs at the middle of each slice
// of the period from start.
func serviceDemand(sc workload.Scenario, start, period time.Duration, slices int) []float64 {
	d := make([]float64, slices)
	if slices == 0 {
		return d
	}
	slice := period / time.Duration(slices)
	for _, w := range sc.Workloads {
		if !w.IsService() {
			continue
		}
		for i := range d {
			d[i] += float64(w.GPUs) * w.Demand.At(start+time.Duration(i)*slice+slice/2)
		}
	}
	return d
}

// days formats a time from the horizon's start in days.
func days(t time.Duration) string { return fmt.Sprintf("%.0f", t.Hours()/24) }

// output renders the result: the plan as placement prints it, then the
// year-by-year summary, the spot share, the stock values and the
// alternatives.
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
		fmt.Fprintf(w, "\nWhat to buy, year by year (days from today; the services go live on day %s):\n", days(res.Launch))
		starts := 0
		for _, y := range res.Years {
			fmt.Fprintf(w, "Year %d (days %s–%s): peak GPUs base %.0f, burst %.0f, spot %.0f; services' peak demand %.0f\n",
				y.Epoch+1, days(y.Start), days(y.End), y.PeakBase, y.PeakBurst, y.PeakSpot, y.PeakDemand)
			started := false
			for _, a := range y.Actions {
				switch a.Verb {
				case "buy":
					fmt.Fprintf(w, "  buy %d × %s: order day %s, arrives day %s, held to day %s, %s net of resale\n",
						a.Nodes, a.Offer, days(a.Order), days(a.Start), days(a.End), money(a.Cost))
				case "drop":
					fmt.Fprintf(w, "  drop %d × %s at day %s (its term ends)\n", a.Nodes, a.Offer, days(a.Start))
				case "run":
					fmt.Fprintf(w, "  run %s: %d GPUs on %d × %s, days %s–%s (%.1f days of wall time), %s\n",
						a.Job, a.GPUs, a.Nodes, a.Offer, days(a.Start), days(a.End), a.Wall.Hours()/24, money(a.Cost))
				default:
					fmt.Fprintf(w, "  %s %d × %s: order day %s, in service days %s–%s, %s\n",
						a.Verb, a.Nodes, a.Offer, days(a.Order), days(a.Start), days(a.End), money(a.Cost))
				}
				started = started || a.Verb != "drop" && a.Verb != "run"
			}
			if started {
				starts++
			}
		}
		switch {
		case len(res.Years) > 1 && starts == 0:
			fmt.Fprintln(w, "No commitment in any year: pay-as-you-go (burst and spot) costs less here than committing")
		case len(res.Years) > 1 && starts == 1:
			fmt.Fprintln(w, "Commitments start in one year only: the later years' growth runs on pay-as-you-go (burst and spot), which costs less here than committing more")
		}
		fmt.Fprintf(w, "\nTotal %s, proven lower bound %s (gap %.2f%%), %s; %.0f%% of the GPU-hours on spot\n",
			money(p.Total), money(p.Bound), p.Gap*100, p.Status, res.SpotShare*100)
		for _, s := range p.Stock {
			fmt.Fprintf(w, "One more node of %s's stock would save %s (the plan's other commitments held)\n", s.Offer, money(s.SavingPerNode))
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
			case a.Placed == 0:
				fmt.Fprintf(w, "%-14s places none of %v (%d offers)\n", a.Name+":", a.Unplaced, a.Offers)
			case len(a.Unplaced) > 0:
				fmt.Fprintf(w, "%-14s %s for %d workloads (%d offers); cannot place %v\n", a.Name+":", money(a.Total), a.Placed, a.Offers, a.Unplaced)
			case a.Total.LessThan(p.Total):
				fmt.Fprintf(w, "%-14s %s for all %d workloads (%d offers), %s less than this plan\n", a.Name+":", money(a.Total), a.Placed, a.Offers,
					money(p.Total.Sub(a.Total)))
			default:
				fmt.Fprintf(w, "%-14s %s for all %d workloads (%d offers), %s more than this plan\n", a.Name+":", money(a.Total), a.Placed, a.Offers,
					money(a.Total.Sub(p.Total)))
			}
		}
		return nil
	}
	return cli.Output{Table: table, Header: rows[0], Rows: rows[1:], JSON: res}, nil
}
