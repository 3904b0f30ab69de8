// Command compliance prices a data-residency constraint: a medical-imaging
// training job whose data must stay in Germany on physically isolated
// hardware, placed with placement.Solve next to ordinary workloads. It plans
// the portfolio twice — with the constraint and with the job's jurisdiction
// and isolation requirements lifted — and prints what the constraint costs,
// then what moving the job's 8 TB dataset to each offer would cost and take
// (tco.Evaluate's data-transfer line and transfer time).
//
// The default catalog has no German offer, so the command adds two invented,
// clearly marked ones (data/offers.json: bare-metal H100 and A100 nodes in
// Frankfurt) to it:
//
//	go run ./examples/compliance
//	go run ./examples/compliance -workload my-regulated-job -workloads my.json -catalog my-offers.json
//	go run ./examples/compliance -format json -out charts
//
// With -out DIR it draws compliance.png: the cost of each workload with and
// without the constraint.
package main

import (
	"context"
	_ "embed"
	"flag"
	"fmt"
	"io"
	"slices"
	"strconv"
	"text/tabwriter"
	"time"

	"github.com/shopspring/decimal"

	"github.com/gputco/gputco/examples/internal/cli"
	"github.com/gputco/gputco/placement"
	"github.com/gputco/gputco/provider"
	"github.com/gputco/gputco/tco"
	"github.com/gputco/gputco/workload"
	"github.com/gputco/gputco/workload/workloadtest"
)

//go:embed data/offers.json
var offersJSON []byte

func main() { cli.Main("compliance", run) }

// options are the command's flags.
type options struct {
	cli.Common
	regulated string
	years     float64
	timeLimit time.Duration
}

func run(stdout, stderr io.Writer, args []string) error {
	fs := flag.NewFlagSet("compliance", flag.ContinueOnError)
	var opt options
	opt.Register(fs)
	fs.StringVar(&opt.regulated, "workload", workloadtest.MedicalName, "`name` of the regulated workload")
	fs.Float64Var(&opt.years, "years", 1, "horizon in `years`")
	fs.DurationVar(&opt.timeLimit, "time-limit", time.Minute, "longest `duration` of each solve")
	if err := opt.Parse(fs, args, stderr); err != nil {
		return err
	}
	if !(opt.years > 0 && opt.years <= 10) {
		return cli.Usagef("-years %v: want a horizon in (0, 10]", opt.years)
	}
	if opt.timeLimit <= 0 {
		return cli.Usagef("-time-limit %v: want a positive duration", opt.timeLimit)
	}
	cat, err := loadCatalog(opt.Common)
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
	if err := opt.Write(stdout, output(res)); err != nil {
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

// builtinScenario is the medical-imaging job next to a chat service and a
// fine-tuning job.
func builtinScenario() workload.Scenario {
	return workload.Scenario{Name: "compliance", Workloads: []workload.Workload{
		workloadtest.Medical(), workloadtest.ChatInference(), workloadtest.FineTune(),
	}}
}

// loadCatalog returns the user's catalog, or the default one with the
// embedded German offers added.
func loadCatalog(c cli.Common) (provider.Catalog, error) {
	if c.Catalog != "" {
		return c.LoadCatalog(provider.Decoder{})
	}
	base, err := provider.Default()
	if err != nil {
		return provider.Catalog{}, err
	}
	extra, err := provider.ParseCatalog(offersJSON)
	if err != nil {
		return provider.Catalog{}, fmt.Errorf("embedded offers: %w", err)
	}
	return provider.Merge(base, extra)
}

// costs are the plan's cost per workload.
type costs struct {
	Plan      placement.Plan             `json:"plan"`
	Workloads map[string]decimal.Decimal `json:"workloads"`
	// Offers names the offers each workload uses.
	Offers map[string][]string `json:"offers"`
}

// move is the cost of moving the regulated job's dataset to one offer.
type move struct {
	Offer        string          `json:"offer"`
	Jurisdiction string          `json:"jurisdiction"`
	Compliant    bool            `json:"compliant"`
	Transfer     decimal.Decimal `json:"transfer"`
	Exit         decimal.Decimal `json:"exit"`
	TransferTime string          `json:"transferTime"`
	Total        decimal.Decimal `json:"total"`
}

// result is the two plans and the moves.
type result struct {
	Currency    string          `json:"currency"`
	Regulated   string          `json:"regulated"`
	DatasetGB   float64         `json:"datasetGB"`
	With        costs           `json:"with"`
	Without     costs           `json:"without"`
	Constraint  decimal.Decimal `json:"constraintCost"` // With − Without, whole plan
	Moves       []move          `json:"moves"`
	names       []string
	requirement string
}

// study plans the scenario with and without the regulated workload's
// jurisdiction and isolation requirements.
func study(ctx context.Context, cat provider.Catalog, sc workload.Scenario, opt options) (result, error) {
	res := result{Currency: cat.Currency, Regulated: opt.regulated}
	i := slices.IndexFunc(sc.Workloads, func(w workload.Workload) bool { return w.Name == opt.regulated })
	if i < 0 {
		return res, cli.Usagef("-workload: no workload %q in the scenario", opt.regulated)
	}
	reg := sc.Workloads[i]
	if len(reg.Requirements.Jurisdictions) == 0 && reg.Requirements.MinIsolation == workload.Shared {
		return res, cli.Usagef("workload %q has no jurisdiction or isolation requirement to price", reg.Name)
	}
	res.DatasetGB = reg.Data.DatasetGB
	res.requirement = fmt.Sprintf("%v, %s isolation", reg.Requirements.Jurisdictions, reg.Requirements.MinIsolation)
	for _, w := range sc.Workloads {
		res.names = append(res.names, w.Name)
	}
	horizon := time.Duration(opt.years * float64(provider.Year))
	solve := func(ws []workload.Workload) (costs, error) {
		p, err := placement.Solve(ctx, placement.Problem{Workloads: ws, Offers: cat.Offers,
			Assumptions: tco.Assumptions{Horizon: horizon}, Options: placement.Options{TimeLimit: opt.timeLimit}})
		if err != nil {
			return costs{}, err
		}
		c := costs{Plan: p, Workloads: map[string]decimal.Decimal{}, Offers: map[string][]string{}}
		for _, a := range p.Assignments {
			c.Workloads[a.Workload] = a.Cost
			for _, u := range a.Uses {
				c.Offers[a.Workload] = append(c.Offers[a.Workload], u.Offer)
			}
		}
		for _, u := range p.Unplaced {
			return c, cli.Usagef("workload %s cannot be placed: %v", u.Workload, u.Err)
		}
		return c, nil
	}
	var err error
	if res.With, err = solve(sc.Workloads); err != nil {
		return res, fmt.Errorf("with the constraint: %w", err)
	}
	relaxed := slices.Clone(sc.Workloads)
	free := reg
	free.Requirements.Jurisdictions, free.Requirements.MinIsolation = nil, workload.Shared
	relaxed[i] = free
	if res.Without, err = solve(relaxed); err != nil {
		return res, fmt.Errorf("without the constraint: %w", err)
	}
	res.Constraint = res.With.Plan.Total.Sub(res.Without.Plan.Total)

	// Moving the dataset: the data lines of the job on every offer it could
	// run on without the constraint.
	rk, err := tco.Rank(free, cat.Offers, tco.Assumptions{Horizon: horizon})
	if err != nil {
		return res, err
	}
	for _, r := range rk.Reports {
		o, _ := cat.Offers.Find(r.Offer)
		m := move{Offer: r.Offer, Jurisdiction: o.Jurisdiction, Compliant: tco.IsCompatible(reg, o),
			Transfer: r.Line(provider.DataTransfer), Exit: r.Line(provider.Exit),
			TransferTime: r.TransferTime.Round(time.Minute).String()}
		m.Total = m.Transfer.Add(m.Exit)
		res.Moves = append(res.Moves, m)
	}
	slices.SortStableFunc(res.Moves, func(a, b move) int { return a.Total.Cmp(b.Total) })
	return res, nil
}

// output renders the result in the three formats.
func output(res result) cli.Output {
	money := func(d decimal.Decimal) string { return cli.MoneyFixed(d, res.Currency, 0) }
	header := []string{"workload", "cost_with", "cost_without", "difference", "offers_with", "offers_without"}
	var rows [][]string
	for _, n := range res.names {
		a, b := res.With.Workloads[n], res.Without.Workloads[n]
		rows = append(rows, []string{n, a.StringFixed(2), b.StringFixed(2), a.Sub(b).StringFixed(2),
			fmt.Sprint(res.With.Offers[n]), fmt.Sprint(res.Without.Offers[n])})
	}
	rows = append(rows, []string{"total", res.With.Plan.Total.StringFixed(2), res.Without.Plan.Total.StringFixed(2), res.Constraint.StringFixed(2), "", ""})
	table := func(w io.Writer) error {
		fmt.Fprintf(w, "What keeping %s in %s costs\n", res.Regulated, res.requirement)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "WORKLOAD\tWITH\tWITHOUT\tDIFFERENCE\tRUNS ON (WITH)\tRUNS ON (WITHOUT)")
		for _, n := range res.names {
			a, b := res.With.Workloads[n], res.Without.Workloads[n]
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%v\t%v\n", n, money(a), money(b), money(a.Sub(b)), res.With.Offers[n], res.Without.Offers[n])
		}
		fmt.Fprintf(tw, "total\t%s\t%s\t%s\t%s\t%s\n", money(res.With.Plan.Total), money(res.Without.Plan.Total), money(res.Constraint),
			res.With.Plan.Status, res.Without.Plan.Status)
		if err := tw.Flush(); err != nil {
			return err
		}
		fmt.Fprintf(w, "\nMoving %s's %s GB dataset to each offer it could run on without the constraint\n",
			res.Regulated, cli.Thousands(strconv.FormatFloat(res.DatasetGB, 'f', 0, 64)))
		tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "OFFER\tJURISDICTION\tCOMPLIANT\tMOVE IN\tMOVE OUT AT THE END\tTRANSFER TIME")
		for _, m := range res.Moves {
			fmt.Fprintf(tw, "%s\t%s\t%v\t%s\t%s\t%s\n", m.Offer, m.Jurisdiction, m.Compliant, money(m.Transfer), money(m.Exit), m.TransferTime)
		}
		return tw.Flush()
	}
	return cli.Output{Table: table, Header: header, Rows: rows, JSON: res}
}
