// Command catalog prints a GPU offer catalog as a table: one row per offer
// with its provider kind, GPUs, pricing mode, effective price per GPU-hour,
// the date of its figures and their age today, sorted by GPU model and then
// by price.
//
// By default it prints the catalog embedded in the provider package:
//
//	go run ./examples/catalog
//
// With -catalog it prints a JSON catalog of your own (the format that
// provider.LoadCatalog reads and provider.Catalog.WriteJSON writes):
//
//	go run ./examples/catalog -catalog my-offers.json
//
// The price per GPU-hour is provider.Offer.RatePerGPUHour over a 3-year
// horizon, one node held and fully busy, so that reserved terms and owned
// hardware compare with pay-as-you-go rates. A catalog dated more than 180
// days before today draws a warning on standard error, and so do offers
// whose own figures are that old (they are marked stale in the table) and
// GPU models that the module's GPU table does not know.
//
// With -workloads FILE (a JSON scenario) a RUNS column counts the workloads
// each offer can run (tco.IsCompatible: requirements, fit and stock).
// -format csv or json prints the rows for spreadsheets and programs, and
// -out DIR draws catalog.png: each offer's price per GPU-hour against the age
// of its figures.
package main

import (
	"cmp"
	"flag"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/shopspring/decimal"

	"github.com/gputco/gputco/examples/internal/cli"
	"github.com/gputco/gputco/provider"
	"github.com/gputco/gputco/tco"
	"github.com/gputco/gputco/workload"
)

// horizon is the period over which the effective price is computed.
const horizon = 3 * provider.Year

// staleAfter is the age beyond which a catalog draws a warning.
const staleAfter = 180 * 24 * time.Hour

func main() {
	now := time.Now()
	cli.Main("catalog", func(stdout, stderr io.Writer, args []string) error { return run(stdout, stderr, args, now) })
}

// run parses args, loads the catalog and prints it to w; warnings go to
// warn. now is today's date, for the ages and the staleness warnings.
func run(w, warn io.Writer, args []string, now time.Time) error {
	fs := flag.NewFlagSet("catalog", flag.ContinueOnError)
	var c cli.Common
	c.Register(fs)
	if err := c.Parse(fs, args, warn); err != nil {
		return err
	}
	cat, err := c.LoadCatalog(provider.Decoder{})
	if err != nil {
		return err
	}
	sc, err := c.LoadScenario(workload.Decoder{}, workload.Scenario{})
	if err != nil {
		return err
	}
	rows, err := tabulate(warn, cat, sc, now)
	if err != nil {
		return err
	}
	if err := c.Write(w, output(cat, rows, c.Workloads != "")); err != nil {
		return err
	}
	if c.Out != "" {
		path, err := chart(cat, rows, c.Out)
		if err != nil {
			return err
		}
		fmt.Fprintln(warn, "wrote", path)
	}
	return nil
}

// row is one line of the table.
type row struct {
	ID       string          `json:"id"`
	Kind     string          `json:"kind"`
	GPUs     string          `json:"gpus"`
	Mode     string          `json:"mode"`
	Model    string          `json:"model"`
	Rate     decimal.Decimal `json:"ratePerGPUHour"`
	AsOf     string          `json:"asOf"`
	AgeDays  int             `json:"ageDays"`
	Stale    bool            `json:"stale"`
	Runs     []string        `json:"runs,omitempty"`
	Estimate bool            `json:"estimate"`
}

// printCatalog writes cat to w as an aligned table, and to warn the
// warnings of tabulate.
func printCatalog(w, warn io.Writer, cat provider.Catalog, now time.Time) error {
	rows, err := tabulate(warn, cat, workload.Scenario{}, now)
	if err != nil {
		return err
	}
	return output(cat, rows, false).Table(w)
}

// tabulate returns the rows of cat sorted by GPU model and price, each with
// the workloads of sc it can run, and writes to warn a one-line warning when
// the catalog is older than staleAfter at now, one when any offer's figures
// are (those offers are marked stale), and one for each GPU model the GPU
// table does not know.
func tabulate(warn io.Writer, cat provider.Catalog, sc workload.Scenario, now time.Time) ([]row, error) {
	stale := make(map[string]bool)
	var oldest provider.Stale
	for _, s := range cat.Stale(now, staleAfter) {
		if s.Offer == "" {
			fmt.Fprintf(warn, "warning: %s; its prices may be out of date\n", s)
			continue
		}
		stale[s.Offer] = true
		if s.Age > oldest.Age {
			oldest = s
		}
	}
	if len(stale) > 0 {
		fmt.Fprintf(warn, "warning: %d of %d offers have figures older than %d days (marked stale; the oldest: %s); their prices may be out of date\n",
			len(stale), len(cat.Offers), int(staleAfter/(24*time.Hour)), strings.TrimPrefix(oldest.String(), "provider: "))
	}
	for _, m := range cat.UnknownGPUs() {
		fmt.Fprintf(warn, "warning: GPU model %q is not in the GPU table (provider.KnownGPUs); a workload can use its offers only by naming it with a speed factor\n", m)
	}
	rows := make([]row, 0, len(cat.Offers))
	for _, o := range cat.Offers {
		rate, err := o.RatePerGPUHour(horizon)
		if err != nil {
			return nil, fmt.Errorf("offer %s: %w", o.ID, err)
		}
		asOf := o.Source.AsOf
		if asOf.IsZero() {
			asOf = cat.AsOf
		}
		r := row{
			ID: o.ID, Kind: o.Kind.String(), GPUs: fmt.Sprintf("%d× %s", o.GPUsPerNode, o.GPU.Model),
			Mode: describe(o.Pricing), Model: o.GPU.Model, Rate: rate, Stale: stale[o.ID], Estimate: o.Source.Estimate,
		}
		if !asOf.IsZero() {
			r.AsOf = asOf.Format(time.DateOnly)
			r.AgeDays = int(now.Sub(asOf) / (24 * time.Hour))
		}
		for _, w := range sc.Workloads {
			if tco.IsCompatible(w, o) {
				r.Runs = append(r.Runs, w.Name)
			}
		}
		rows = append(rows, r)
	}
	slices.SortStableFunc(rows, func(a, b row) int {
		return cmp.Or(cmp.Compare(a.Model, b.Model), a.Rate.Cmp(b.Rate), cmp.Compare(a.ID, b.ID))
	})
	return rows, nil
}

// output renders the rows in the three formats; runs adds the RUNS column.
func output(cat provider.Catalog, rows []row, runs bool) cli.Output {
	table := func(w io.Writer) error {
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		head := "OFFER\tKIND\tGPU\tMODE\t$/GPU-H\t"
		if runs {
			head += "RUNS\t"
		}
		fmt.Fprintln(tw, head+"AS OF\tAGE")
		for _, r := range rows {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t", r.ID, r.Kind, r.GPUs, r.Mode, cli.Money(r.Rate, cat.Currency))
			if runs {
				fmt.Fprintf(tw, "%d\t", len(r.Runs))
			}
			age := "-"
			if r.AsOf != "" {
				age = fmt.Sprintf("%d days", r.AgeDays)
			}
			if r.Stale {
				age += " stale"
			}
			fmt.Fprintf(tw, "%s\t%s\n", cmp.Or(r.AsOf, "undated"), age)
		}
		return tw.Flush()
	}
	header := []string{"offer", "kind", "gpus", "mode", "rate_per_gpu_hour", "currency", "as_of", "age_days", "stale", "estimate", "runs"}
	var csvRows [][]string
	for _, r := range rows {
		csvRows = append(csvRows, []string{r.ID, r.Kind, r.GPUs, r.Mode, r.Rate.StringFixed(4), cat.Currency, r.AsOf,
			strconv.Itoa(r.AgeDays), strconv.FormatBool(r.Stale), strconv.FormatBool(r.Estimate), strings.Join(r.Runs, ";")})
	}
	return cli.Output{Table: table, Header: header, Rows: csvRows, JSON: struct {
		Currency string `json:"currency"`
		AsOf     string `json:"asOf"`
		Offers   []row  `json:"offers"`
	}{cat.Currency, cat.AsOf.Format(time.DateOnly), rows}}
}

// describe names a pricing mode with its billing granularity or term:
// "metered/1s", "spot/1s", "reserved/1y", "reserved/1mo", "owned",
// "credit/metered/1s". Modes the package does not know print as their Mode.
func describe(p provider.Pricing) string {
	if p == nil {
		return "-"
	}
	if w, ok := p.(provider.Wrapper); ok {
		if w.Unwrap() == nil {
			return p.Mode()
		}
		return p.Mode() + "/" + describe(w.Unwrap())
	}
	if m, ok := p.(provider.Metering); ok {
		inc, _ := m.Granularity()
		return p.Mode() + "/" + increment(inc)
	}
	if c, ok := p.(provider.Committer); ok && c.Commitment() > 0 {
		return p.Mode() + "/" + term(c.Commitment())
	}
	return p.Mode()
}

// increment names a billing increment: "1s", "1m", "1h", "1w", "prorata" for
// zero, and the Go duration string otherwise.
func increment(d time.Duration) string {
	switch d {
	case 0:
		return "prorata"
	case time.Second:
		return "1s"
	case time.Minute:
		return "1m"
	case time.Hour:
		return "1h"
	case 7 * 24 * time.Hour:
		return "1w"
	}
	return d.String()
}

// term names a commitment term in whole years ("1y", "3y") or months
// ("1mo"), and as a Go duration string otherwise.
func term(d time.Duration) string {
	switch {
	case d > 0 && d%provider.Year == 0:
		return fmt.Sprintf("%dy", d/provider.Year)
	case d > 0 && d%provider.Month == 0:
		return fmt.Sprintf("%dmo", d/provider.Month)
	}
	return d.String()
}
