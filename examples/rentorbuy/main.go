// Command rentorbuy answers "rent or buy?" for one owned server of the
// catalog: against every offer that rents the same GPU, it prints the
// utilizations at which the cheaper side changes (tco.BreakEven, all hidden
// costs included) and the ranges of utilization where owning is cheaper, the
// month from which owning has cost less cash, and both totals at the
// utilization you expect.
//
// By default it compares the embedded catalog's 8×H100 server over 3 years at
// 60 % utilization:
//
//	go run ./examples/rentorbuy
//
// Flags choose the owned offer, the horizon, the expected utilization, the
// discount rate and a catalog of your own:
//
//	go run ./examples/rentorbuy -own self-8x-a100-80gb-server -years 5 -util 0.4
//	go run ./examples/rentorbuy -catalog my-offers.json -own my-server
//
// The workload is standing capacity for one node's GPUs that runs at its peak
// for the given fraction of every day and tolerates interruptions (so spot
// offers take part, paying for their preemptions).
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

	"github.com/gputco/gputco/provider"
	"github.com/gputco/gputco/tco"
	"github.com/gputco/gputco/workload"
)

// staleAfter is the age beyond which a catalog draws a warning.
const staleAfter = 180 * 24 * time.Hour

func main() {
	if err := run(os.Stdout, os.Stderr, os.Args[1:], time.Now()); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return
		}
		fmt.Fprintln(os.Stderr, "rentorbuy:", err)
		os.Exit(1)
	}
}

// options are the command's flags.
type options struct {
	catalog, own      string
	years, util, rate float64
}

// run parses args and prints the comparison to w, warnings to warn: the
// catalog, and each offer compared, whose figures are older than staleAfter
// at now (today's date), and GPU models the GPU table does not know.
func run(w, warn io.Writer, args []string, now time.Time) error {
	fs := flag.NewFlagSet("rentorbuy", flag.ContinueOnError)
	fs.SetOutput(warn)
	var opt options
	fs.StringVar(&opt.catalog, "catalog", "", "JSON catalog `file` instead of the embedded default")
	fs.StringVar(&opt.own, "own", "self-8x-h100-server", "`ID` of the owned offer to compare")
	fs.Float64Var(&opt.years, "years", 3, "horizon in `years`")
	fs.Float64Var(&opt.util, "util", 0.6, "expected utilization, a `fraction` of each day at peak")
	fs.Float64Var(&opt.rate, "discount", 0, "annual discount `rate` for present values (0.08 is 8 %)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if !(opt.years > 0 && opt.years <= 20) {
		return fmt.Errorf("-years %v: want a horizon in (0, 20]", opt.years)
	}
	if !(opt.util > 0 && opt.util <= 1) {
		return fmt.Errorf("-util %v: want a fraction in (0, 1]", opt.util)
	}
	cat, err := load(opt.catalog)
	if err != nil {
		return err
	}
	stale := cat.Stale(now, staleAfter)
	for _, s := range stale {
		if s.Offer == "" {
			fmt.Fprintf(warn, "warning: %s; its prices may be out of date\n", s)
		}
	}
	for _, m := range cat.UnknownGPUs() {
		fmt.Fprintf(warn, "warning: GPU model %q is not in the GPU table (provider.KnownGPUs); its offers have no default speed factor\n", m)
	}
	own, ok := cat.Offers.Find(opt.own)
	if !ok {
		return fmt.Errorf("no offer %q in the catalog", opt.own)
	}
	if own.Pricing.Mode() != "owned" {
		return fmt.Errorf("offer %q is %s, not owned", own.ID, own.Pricing.Mode())
	}
	rows, skipped, err := compare(cat, own, opt)
	if err != nil {
		return err
	}
	// Warn about the offers compared whose own figures are old.
	compared := map[string]bool{own.ID: true}
	for _, r := range rows {
		compared[r.offer.ID] = true
	}
	var old []string
	for _, s := range stale {
		if compared[s.Offer] {
			old = append(old, fmt.Sprintf("%s (%s)", s.Offer, age(s)))
		}
	}
	if len(old) > 0 {
		fmt.Fprintf(warn, "warning: %d of the %d offers compared have figures older than %d days: %s; their prices may be out of date\n",
			len(old), len(compared), int(staleAfter/(24*time.Hour)), strings.Join(old, ", "))
	}
	return render(w, cat, own, opt, rows, skipped)
}

// age is the age of stale figures in days, or "undated".
func age(s provider.Stale) string {
	if s.AsOf.IsZero() {
		return "undated"
	}
	return fmt.Sprintf("%s, %d days", s.AsOf.Format(time.DateOnly), int64(s.Age/(24*time.Hour)))
}

// load returns the catalog at path, or the embedded default for "".
func load(path string) (provider.Catalog, error) {
	if path == "" {
		return provider.Default()
	}
	return provider.LoadCatalog(path)
}

// row is one rent offer compared with the owned one.
type row struct {
	offer      provider.Offer
	rate       float64 // list price per GPU-hour over the horizon
	breakEven  tco.BreakEvenPoint
	rent, owns tco.Report // at the expected utilization
}

// compare evaluates every offer of the owned GPU model against own.
func compare(cat provider.Catalog, own provider.Offer, opt options) ([]row, []string, error) {
	horizon := time.Duration(opt.years * float64(provider.Year))
	w := workload.Workload{
		Name: fmt.Sprintf("%d× %s", own.GPUsPerNode, own.GPU.Model), Kind: workload.Inference,
		GPUs: own.GPUsPerNode, Demand: workload.Constant{Value: 1}, Horizon: horizon,
		Interruption: workload.Interruption{Tolerance: workload.Stateless, RestartTime: 10 * time.Minute},
	}
	a := tco.Assumptions{Horizon: horizon, DiscountRatePerYear: opt.rate, Utilization: opt.util}
	var rows []row
	var skipped []string
	for _, o := range cat.Offers.GPU(own.GPU.Model) {
		if o.ID == own.ID || o.Pricing.Mode() == "owned" {
			continue
		}
		be, err := tco.BreakEven(w, o, own, a)
		if err != nil {
			skipped = append(skipped, fmt.Sprintf("%s: %v", o.ID, err))
			continue
		}
		rent, err := tco.Evaluate(w, o, a)
		if err != nil {
			return nil, nil, err
		}
		owns, err := tco.Evaluate(w, own, a)
		if err != nil {
			return nil, nil, err
		}
		rate, err := o.RatePerGPUHour(horizon)
		if err != nil {
			return nil, nil, err
		}
		f, _ := rate.Float64()
		rows = append(rows, row{offer: o, rate: f, breakEven: be, rent: rent, owns: owns})
	}
	if len(rows) == 0 {
		return nil, skipped, fmt.Errorf("no offer rents %s to compare with %q", own.GPU.Model, own.ID)
	}
	slices.SortFunc(rows, func(a, b row) int {
		return cmp.Or(cmp.Compare(a.breakEven.Utilization, b.breakEven.Utilization), cmp.Compare(a.offer.ID, b.offer.ID))
	})
	return rows, skipped, nil
}

// render prints the comparison table.
func render(w io.Writer, cat provider.Catalog, own provider.Offer, opt options, rows []row, skipped []string) error {
	fmt.Fprintf(w, "Rent or buy %d× %s over %g years at %.0f%% utilization (catalog of %s, %s)\n",
		own.GPUsPerNode, own.GPU.Model, opt.years, opt.util*100, cat.AsOf.Format(time.DateOnly), cat.Currency)
	fmt.Fprintf(w, "Owning %s: %s total at %.0f%%, hidden costs included\n",
		own.ID, rows[0].owns.PresentValue.StringFixed(0), opt.util*100)
	for _, l := range rows[0].owns.Lines {
		if l.Category == provider.Residual {
			fmt.Fprintf(w, "Credited at the end: %s %s", l.Label, l.Amount.Neg().StringFixed(0))
			if p, ok := own.Pricing.(provider.Owned); ok && !p.Resale.IsZero() && p.Resale.Estimate {
				fmt.Fprint(w, " (an estimate)")
			}
			fmt.Fprintln(w)
		}
	}
	if own := rows[0].owns; own.Coverage < 1 {
		fmt.Fprintf(w, "Capacity from month %.1f (lead time and expected stock wait): owning serves only %.1f%% of the horizon;\n"+
			"the totals price all of it, so rent until then or set a cost of delay\n",
			own.StartDelay.Hours()/provider.Month.Hours(), own.Coverage*100)
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "RENT OFFER\tMODE\t$/GPU-H\tBREAK-EVEN\tOWN CHEAPER AT\tOWN CHEAPER FROM\tRENT @%.0f%%\tOWN @%.0f%%\tVERDICT\n", opt.util*100, opt.util*100)
	for _, r := range rows {
		be := r.breakEven
		cross, where := crossings(be), ownRanges(be)
		month := "never"
		if be.Month > 0 {
			month = fmt.Sprintf("month %d", be.Month)
		}
		verdict := "rent"
		if r.owns.PresentValue.LessThan(r.rent.PresentValue) {
			verdict = "buy"
		}
		fmt.Fprintf(tw, "%s\t%s\t$%.2f\t%s\t%s\t%s\t%s\t%s\t%s\n", r.offer.ID, r.offer.Pricing.Mode(), r.rate,
			cross, where, month, r.rent.PresentValue.StringFixed(0), r.owns.PresentValue.StringFixed(0), verdict)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, s := range skipped {
		fmt.Fprintf(w, "skipped %s\n", s)
	}
	return nil
}

// crossings lists the utilizations at which the cheaper side changes, or
// "none".
func crossings(be tco.BreakEvenPoint) string {
	if len(be.Crossings) == 0 {
		return "none"
	}
	parts := make([]string, len(be.Crossings))
	for i, c := range be.Crossings {
		parts[i] = fmt.Sprintf("%.1f%%", c.Utilization*100)
	}
	return strings.Join(parts, ",")
}

// ownRanges says at which utilizations owning is cheaper: "always",
// "never", "≥35.1%", "<90.5%" or "20.0-45.0%" ranges joined by commas.
func ownRanges(be tco.BreakEvenPoint) string {
	var parts []string
	for _, r := range be.Ranges {
		if r.Cheaper != tco.OwnSide {
			continue
		}
		switch {
		case r.From == 0 && r.To == 1:
			return "always"
		case r.From == 0:
			parts = append(parts, fmt.Sprintf("<%.1f%%", r.To*100))
		case r.To == 1:
			parts = append(parts, fmt.Sprintf(">%.1f%%", r.From*100))
		default:
			parts = append(parts, fmt.Sprintf("%.1f-%.1f%%", r.From*100, r.To*100))
		}
	}
	if len(parts) == 0 {
		return "never"
	}
	return strings.Join(parts, ",")
}
