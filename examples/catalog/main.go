// Command catalog prints a GPU offer catalog as a table: one row per offer
// with its provider kind, GPUs, pricing mode, effective price per GPU-hour and
// the date of its figures, sorted by GPU model and then by price.
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
package main

import (
	"cmp"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/shopspring/decimal"

	"github.com/gputco/gputco/provider"
)

// horizon is the period over which the effective price is computed.
const horizon = 3 * provider.Year

// staleAfter is the age beyond which a catalog draws a warning.
const staleAfter = 180 * 24 * time.Hour

func main() {
	if err := run(os.Stdout, os.Args[1:], time.Now()); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return
		}
		fmt.Fprintln(os.Stderr, "catalog:", err)
		os.Exit(1)
	}
}

// run parses args, loads the catalog and prints it to w; warnings go to
// standard error. now is today's date, for the staleness warning.
func run(w io.Writer, args []string, now time.Time) error {
	fs := flag.NewFlagSet("catalog", flag.ContinueOnError)
	fs.SetOutput(os.Stderr)
	path := fs.String("catalog", "", "JSON catalog `file` to print instead of the embedded default")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q (use -catalog FILE)", fs.Arg(0))
	}
	cat, err := load(*path)
	if err != nil {
		return err
	}
	return printCatalog(w, os.Stderr, cat, now)
}

// load returns the catalog at path, or the embedded default for "".
func load(path string) (provider.Catalog, error) {
	if path == "" {
		cat, err := provider.Default()
		if err != nil {
			return provider.Catalog{}, fmt.Errorf("embedded default catalog: %w", err)
		}
		return cat, nil
	}
	cat, err := provider.LoadCatalog(path)
	if err != nil {
		return provider.Catalog{}, fmt.Errorf("loading %s: %w", path, err)
	}
	return cat, nil
}

// row is one line of the table.
type row struct {
	id, kind, gpus, mode string
	model                string
	rate                 decimal.Decimal
	asOf                 time.Time
	stale                bool
}

// printCatalog writes cat to w as an aligned table, and to warn a one-line
// warning when the catalog is older than staleAfter at now, one when any
// offer's figures are (those offers are marked stale in the table), and one
// for each GPU model the GPU table does not know.
func printCatalog(w, warn io.Writer, cat provider.Catalog, now time.Time) error {
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
			return fmt.Errorf("offer %s: %w", o.ID, err)
		}
		rows = append(rows, row{
			id: o.ID, kind: o.Kind.String(), gpus: fmt.Sprintf("%d× %s", o.GPUsPerNode, o.GPU.Model),
			mode: describe(o.Pricing), model: o.GPU.Model, rate: rate, asOf: o.Source.AsOf, stale: stale[o.ID],
		})
	}
	slices.SortStableFunc(rows, func(a, b row) int {
		return cmp.Or(cmp.Compare(a.model, b.model), a.rate.Cmp(b.rate), cmp.Compare(a.id, b.id))
	})

	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "OFFER\tKIND\tGPU\tMODE\t$/GPU-H\tAS OF")
	for _, r := range rows {
		asOf := r.asOf.Format(time.DateOnly)
		if r.asOf.IsZero() {
			asOf = cat.AsOf.Format(time.DateOnly)
		}
		if r.stale {
			asOf += " stale"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n",
			r.id, r.kind, r.gpus, r.mode, money(cat.Currency, r.rate), asOf)
	}
	return tw.Flush()
}

// money formats an amount rounded to cents: "$12.34" in US dollars, "12.34 EUR"
// in any other currency.
func money(currency string, d decimal.Decimal) string {
	if currency == "USD" {
		return "$" + d.StringFixed(2)
	}
	return d.StringFixed(2) + " " + currency
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
