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
// offers take part, paying for their preemptions). With -workloads FILE (a
// JSON scenario) the workload named by -workload, or the file's first, is
// compared instead, at its peak GPUs.
//
// After the main table it prints where owning is cheaper over 1, 3 and 5
// years (-horizons), and the explicit and hidden cost of every option at the
// expected utilization. -format csv or json prints the same figures for
// spreadsheets and programs; -out DIR draws rentorbuy.png, the present value
// of every option against utilization from 10 to 100 %, break-evens marked.
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

// staleAfter is the age beyond which a catalog draws a warning.
const staleAfter = 180 * 24 * time.Hour

func main() {
	now := time.Now()
	cli.Main("rentorbuy", func(stdout, stderr io.Writer, args []string) error { return run(stdout, stderr, args, now) })
}

// options are the command's flags.
type options struct {
	cli.Common
	own, workload     string
	years, util, rate float64
	horizons          []float64
}

// run parses args and prints the comparison to w, warnings to warn: the
// catalog, and each offer compared, whose figures are older than staleAfter
// at now (today's date), and GPU models the GPU table does not know.
func run(w, warn io.Writer, args []string, now time.Time) error {
	fs := flag.NewFlagSet("rentorbuy", flag.ContinueOnError)
	var opt options
	opt.Register(fs)
	fs.StringVar(&opt.own, "own", "self-8x-h100-server", "`ID` of the owned offer to compare")
	fs.StringVar(&opt.workload, "workload", "", "`name` of the workload in -workloads (default: the first)")
	fs.Float64Var(&opt.years, "years", 3, "horizon in `years`")
	fs.Float64Var(&opt.util, "util", 0.6, "expected utilization, a `fraction` of each day at peak")
	fs.Float64Var(&opt.rate, "discount", 0, "annual discount `rate` for present values (0.08 is 8 %)")
	horizons := fs.String("horizons", "1,3,5", "comma-separated `years` for the table of break-evens by horizon")
	if err := opt.Parse(fs, args, warn); err != nil {
		return err
	}
	if !(opt.years > 0 && opt.years <= 20) {
		return cli.Usagef("-years %v: want a horizon in (0, 20]", opt.years)
	}
	if !(opt.util > 0 && opt.util <= 1) {
		return cli.Usagef("-util %v: want a fraction in (0, 1]", opt.util)
	}
	if !(opt.rate >= -0.5 && opt.rate <= 10) {
		return cli.Usagef("-discount %v: want a rate in [-0.5, 10]", opt.rate)
	}
	for _, f := range strings.Split(*horizons, ",") {
		y, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		if err != nil || !(y > 0 && y <= 20) {
			return cli.Usagef("-horizons %q: want years in (0, 20], separated by commas", *horizons)
		}
		opt.horizons = append(opt.horizons, y)
	}
	if len(opt.horizons) > 6 {
		return cli.Usagef("-horizons %q: at most 6 horizons", *horizons)
	}
	cat, err := opt.LoadCatalog(provider.Decoder{})
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
		return cli.Usagef("-own: no offer %q in the catalog", opt.own)
	}
	if own.Pricing.Mode() != "owned" {
		return cli.Usagef("-own: offer %q is %s, not owned", own.ID, own.Pricing.Mode())
	}
	wl, err := chooseWorkload(opt, own)
	if err != nil {
		return err
	}
	rows, skipped, err := compare(cat, own, wl, opt)
	if err != nil {
		return err
	}
	byHorizon, err := horizonTable(cat, own, wl, opt, rows)
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
	res := study{cat: cat, own: own, opt: opt, w: wl, rows: rows, skipped: skipped, byHorizon: byHorizon}
	if err := opt.Write(w, output(res)); err != nil {
		return err
	}
	if opt.Out != "" {
		path, err := chart(res, wl)
		if err != nil {
			return err
		}
		fmt.Fprintln(warn, "wrote", path)
	}
	return nil
}

// age is the age of stale figures in days, or "undated".
func age(s provider.Stale) string {
	if s.AsOf.IsZero() {
		return "undated"
	}
	return fmt.Sprintf("%s, %d days", s.AsOf.Format(time.DateOnly), int64(s.Age/(24*time.Hour)))
}

// standing is the built-in workload: standing capacity for one node of own.
func standing(own provider.Offer) workload.Workload {
	return workload.Workload{
		Name: fmt.Sprintf("%d× %s", own.GPUsPerNode, own.GPU.Model), Kind: workload.Inference,
		GPUs: own.GPUsPerNode, Demand: workload.Constant{Value: 1}, Horizon: provider.Year,
		Interruption: workload.Interruption{Tolerance: workload.Stateless, RestartTime: 10 * time.Minute},
	}
}

// chooseWorkload returns the workload -workloads and -workload name, or the
// built-in one.
func chooseWorkload(opt options, own provider.Offer) (workload.Workload, error) {
	sc, err := opt.LoadScenario(workload.Decoder{}, workload.Scenario{Workloads: []workload.Workload{standing(own)}})
	if err != nil {
		return workload.Workload{}, err
	}
	if opt.workload == "" {
		if len(sc.Workloads) == 0 {
			return workload.Workload{}, cli.Usagef("-workloads %s: no workloads", opt.Workloads)
		}
		return sc.Workloads[0], nil
	}
	for _, w := range sc.Workloads {
		if w.Name == opt.workload {
			return w, nil
		}
	}
	return workload.Workload{}, cli.Usagef("-workload: no workload %q in the scenario", opt.workload)
}

// row is one rent offer compared with the owned one.
type row struct {
	offer      provider.Offer
	rate       float64 // list price per GPU-hour over the horizon
	breakEven  tco.BreakEvenPoint
	rent, owns tco.Report // at the expected utilization
}

// years returns y years as a duration.
func years(y float64) time.Duration { return time.Duration(y * float64(provider.Year)) }

// compare evaluates every offer of the owned GPU model against own.
func compare(cat provider.Catalog, own provider.Offer, w workload.Workload, opt options) ([]row, []string, error) {
	horizon := years(opt.years)
	w.Horizon = horizon
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
			skipped = append(skipped, fmt.Sprintf("%s: %v", o.ID, err))
			continue
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
		return nil, skipped, cli.Usagef("no offer rents %s to compare with %q (%s)", own.GPU.Model, own.ID, strings.Join(skipped, "; "))
	}
	slices.SortFunc(rows, func(a, b row) int {
		return cmp.Or(cmp.Compare(a.breakEven.Utilization, b.breakEven.Utilization), cmp.Compare(a.offer.ID, b.offer.ID))
	})
	return rows, skipped, nil
}

// study is everything the command prints and draws.
type study struct {
	cat       provider.Catalog
	own       provider.Offer
	opt       options
	w         workload.Workload
	rows      []row
	skipped   []string
	byHorizon []horizonRow
}

// horizonRow is one rent offer's break-even at every horizon of -horizons.
type horizonRow struct {
	offer string
	// points are the break-evens by horizon; err the reason there is none.
	points []tco.BreakEvenPoint
	errs   []error
}

// horizonTable computes the break-even of every compared offer at every
// horizon of opt.horizons.
func horizonTable(cat provider.Catalog, own provider.Offer, w workload.Workload, opt options, rows []row) ([]horizonRow, error) {
	out := make([]horizonRow, 0, len(rows))
	for _, r := range rows {
		hr := horizonRow{offer: r.offer.ID}
		for _, y := range opt.horizons {
			if y == opt.years { // the main table's
				hr.points, hr.errs = append(hr.points, r.breakEven), append(hr.errs, nil)
				continue
			}
			wl := w
			wl.Horizon = years(y)
			a := tco.Assumptions{Horizon: wl.Horizon, DiscountRatePerYear: opt.rate, Utilization: opt.util}
			be, err := tco.BreakEven(wl, r.offer, own, a)
			hr.points, hr.errs = append(hr.points, be), append(hr.errs, err)
		}
		out = append(out, hr)
	}
	return out, nil
}

// output renders the study in the three formats.
func output(s study) cli.Output {
	return cli.Output{Table: func(w io.Writer) error { return render(w, s) }, Header: csvHeader(s), Rows: csvRows(s), JSON: jsonOf(s)}
}

// render prints the comparison table.
func render(w io.Writer, s study) error {
	cat, own, opt, rows, skipped := s.cat, s.own, s.opt, s.rows, s.skipped
	money := func(d decimal.Decimal) string { return cli.MoneyFixed(d, cat.Currency, 0) }
	fmt.Fprintf(w, "Rent or buy %d× %s over %g years at %.0f%% utilization (catalog of %s, %s)\n",
		own.GPUsPerNode, own.GPU.Model, opt.years, opt.util*100, cat.AsOf.Format(time.DateOnly), cat.Currency)
	if opt.Workloads != "" {
		fmt.Fprintf(w, "Workload %s from %s: %d GPUs at peak\n", s.w.Name, opt.Workloads, s.w.GPUs)
	}
	fmt.Fprintf(w, "Owning %s: %s total at %.0f%%, hidden costs included\n",
		own.ID, money(rows[0].owns.PresentValue), opt.util*100)
	for _, l := range rows[0].owns.Lines {
		if l.Category == provider.Residual {
			fmt.Fprintf(w, "Credited at the end: %s %s", l.Label, money(l.Amount.Neg()))
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
			cross, where, month, money(r.rent.PresentValue), money(r.owns.PresentValue), verdict)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, sk := range skipped {
		fmt.Fprintf(w, "skipped %s\n", sk)
	}

	// Where owning is cheaper at each horizon.
	fmt.Fprintf(w, "\nOwning is cheaper at these utilizations, by horizon (mN: owning has cost less cash from month N, at %.0f%%)\n", opt.util*100)
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprint(tw, "RENT OFFER")
	for _, y := range opt.horizons {
		fmt.Fprintf(tw, "\t%gY", y)
	}
	fmt.Fprintln(tw)
	for _, hr := range s.byHorizon {
		fmt.Fprint(tw, hr.offer)
		for k, be := range hr.points {
			if hr.errs[k] != nil {
				fmt.Fprint(tw, "\t(not comparable)")
				continue
			}
			pay := ""
			if be.Month > 0 {
				pay = fmt.Sprintf(" (m%d)", be.Month)
			}
			fmt.Fprintf(tw, "\t%s%s", ownRanges(be), pay)
		}
		fmt.Fprintln(tw)
	}
	if err := tw.Flush(); err != nil {
		return err
	}

	// Explicit and hidden cost of every option.
	fmt.Fprintf(w, "\nExplicit and hidden cost over %g years at %.0f%% utilization (totals, undiscounted)\n", opt.years, opt.util*100)
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "OPTION\tMODE\tEXPLICIT\tHIDDEN\tTOTAL\tLARGEST HIDDEN COST")
	reports := append([]tco.Report{rows[0].owns}, make([]tco.Report, 0, len(rows))...)
	modes := []string{own.Pricing.Mode()}
	for _, r := range rows {
		reports, modes = append(reports, r.rent), append(modes, r.offer.Pricing.Mode())
	}
	for k, r := range reports {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", r.Offer, modes[k], money(r.Explicit), money(r.Hidden), money(r.Total), largestHidden(r, cat.Currency))
	}
	return tw.Flush()
}

// largestHidden names the largest hidden line of r and its amount.
func largestHidden(r tco.Report, currency string) string {
	best, amount := "", decimal.Zero
	for _, l := range r.Lines {
		if l.Category.Hidden() && l.Amount.GreaterThan(amount) {
			best, amount = l.Label, l.Amount
		}
	}
	if best == "" {
		return "none"
	}
	return fmt.Sprintf("%s %s", best, cli.MoneyFixed(amount, currency, 0))
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
