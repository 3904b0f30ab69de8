package tco

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/gputco/gputco/provider"
	"github.com/shopspring/decimal"
)

// Report is the full cost of one workload on one offer. It is a value; its
// slices are not shared with anything else.
type Report struct {
	// Workload and Offer name the pair evaluated.
	Workload, Offer string
	// Currency is the offer's currency ("" means the catalog's).
	Currency string
	// Horizon is the period costed: the assumptions' or workload's horizon, or
	// for a finite job without one the time it holds capacity.
	Horizon time.Duration
	// Lines are every charge, explicit and hidden, in a stable order.
	Lines []provider.Charge
	// Total is exactly the sum of Lines; Explicit + Hidden = Total.
	Total, Explicit, Hidden decimal.Decimal
	// DiscountRatePerYear is the annual rate PresentValue uses.
	DiscountRatePerYear float64
	// PresentValue is Total discounted to the start: upfront lines at t = 0,
	// spread lines in equal parts at the end of each month, at-end lines at
	// the horizon.
	PresentValue decimal.Decimal
	// CashFlow is what is paid in each month of the horizon (the last month
	// may be partial); it sums exactly to Total.
	CashFlow []decimal.Decimal
	// BilledGPUHours is the GPU time paid for: the runs (with their billing
	// rounding) for pay-as-you-go offers, the capacity held for committed and
	// owned ones.
	BilledGPUHours float64
	// UsefulGPUHours is the GPU time the work needs at full efficiency on this
	// offer's GPU (a service's mean demand times the horizon).
	UsefulGPUHours float64
	// WorkGPUHours is the work in reference GPU-hours.
	WorkGPUHours float64
	// CostPerUsefulGPUHour is Total / UsefulGPUHours (zero without useful hours).
	CostPerUsefulGPUHour decimal.Decimal
	// CostPerWorkUnit is Total per reference GPU-hour of work (zero without work).
	CostPerWorkUnit decimal.Decimal
	// WallTime is the expected time a finite job holds its GPUs to finish,
	// with preemptions, failures and checkpoints; zero for a service.
	WallTime time.Duration
	// StartDelay is the lead time plus the expected wait for stock.
	StartDelay time.Duration
	// TransferTime is the time to move the dataset to the offer.
	TransferTime time.Duration
	// Finish is StartDelay + TransferTime + setup + WallTime.
	Finish time.Duration
	// Deadline is the workload's deadline (zero: none).
	Deadline time.Duration
	// DeadlineMet reports whether Finish ≤ Deadline (true without a deadline).
	DeadlineMet bool
	// Derivation says how the figures were derived.
	Derivation Derivation
}

// Derivation records the intermediate figures of an evaluation.
type Derivation struct {
	// Nodes and GPUs held (GPUs = Nodes × GPUsPerNode), at the peak for a service.
	Nodes, GPUs, GPUsPerNode int
	// SpeedFactor is the offer GPU's speed relative to the reference GPU.
	SpeedFactor float64
	// Efficiency is the fraction of full speed kept on the offer's interconnect.
	Efficiency float64
	// CheckpointInterval is the interval used (Daly's optimum or the
	// workload's fixed one); zero when the job does not checkpoint.
	CheckpointInterval time.Duration
	// MeanTimeToInterruption is the job-level mean time between preemptions
	// and failures combined; zero without either.
	MeanTimeToInterruption time.Duration
	// ExpectedPreemptions and ExpectedFailures are the expected numbers of
	// spot preemptions and node failures over the work or the horizon.
	ExpectedPreemptions, ExpectedFailures float64
	// BusyFraction is the mean fraction of the held capacity that is busy.
	BusyFraction float64
	// SetupHours is the engineer time to set up the environment.
	SetupHours float64
}

// finish computes the totals, cash flow, present value and unit costs.
func (r *Report) finish() {
	r.Total = provider.Total(r.Lines)
	r.Explicit, r.Hidden = provider.Split(r.Lines)
	r.CashFlow, r.PresentValue = cashFlow(r.Lines, r.Horizon, r.DiscountRatePerYear)
	r.CostPerUsefulGPUHour, r.CostPerWorkUnit = decimal.Zero, decimal.Zero
	if r.UsefulGPUHours > 0 {
		r.CostPerUsefulGPUHour = r.Total.DivRound(dec(r.UsefulGPUHours), provider.Precision)
	}
	if r.WorkGPUHours > 0 {
		r.CostPerWorkUnit = r.Total.DivRound(dec(r.WorkGPUHours), provider.Precision)
	}
}

// cashFlow spreads lines over the months of horizon and discounts them:
// upfront lines fall at t = 0, spread lines in parts proportional to each
// month's length at the month's end, at-end lines at the horizon.
func cashFlow(lines []provider.Charge, horizon time.Duration, rate float64) ([]decimal.Decimal, decimal.Decimal) {
	months := int(math.Ceil(horizon.Hours() / provider.Month.Hours()))
	months = max(1, min(months, 12*300))
	upfront, spread, atEnd := decimal.Zero, decimal.Zero, decimal.Zero
	for _, c := range lines {
		switch {
		case c.Timing == provider.Upfront || horizon <= 0:
			upfront = upfront.Add(c.Amount)
		case c.Timing == provider.AtEnd:
			atEnd = atEnd.Add(c.Amount)
		default:
			spread = spread.Add(c.Amount)
		}
	}
	discount := func(t time.Duration) decimal.Decimal {
		if rate == 0 || t <= 0 {
			return decimal.NewFromInt(1)
		}
		return dec(math.Pow(1+rate, -t.Hours()/8760))
	}
	flow := make([]decimal.Decimal, months)
	flow[0] = upfront
	for m := 1; m < months; m++ {
		flow[m] = decimal.Zero
	}
	pv := upfront
	left := spread
	hours := dec(horizon.Hours())
	for m := range months {
		part := left
		if m < months-1 {
			share := dec(min(provider.Month, horizon-time.Duration(m)*provider.Month).Hours())
			part = spread.Mul(share).DivRound(hours, provider.Precision)
		}
		left = left.Sub(part)
		flow[m] = flow[m].Add(part)
		if rate == 0 {
			pv = pv.Add(part)
		} else {
			pv = pv.Add(part.Mul(discount(min(time.Duration(m+1)*provider.Month, horizon))))
		}
	}
	flow[months-1] = flow[months-1].Add(atEnd)
	pv = pv.Add(atEnd.Mul(discount(horizon)))
	return flow, pv.Round(provider.Precision)
}

// Line returns the sum of the lines of category c.
func (r Report) Line(c provider.Category) decimal.Decimal {
	t := decimal.Zero
	for _, l := range r.Lines {
		if l.Category == c {
			t = t.Add(l.Amount)
		}
	}
	return t
}

// String renders the report as an aligned text table: one row per line with
// its category, whether it is hidden, its timing and its amount rounded to
// cents, then the totals and the derived figures.
func (r Report) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s on %s over %s\n", r.Workload, r.Offer, fmtDuration(r.Horizon))
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "CATEGORY\tLINE\tKIND\tTIMING\tAMOUNT\t")
	for _, l := range r.Lines {
		kind := "explicit"
		if l.Category.Hidden() {
			kind = "hidden"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t\n", l.Category, l.Label, kind, l.Timing, l.Amount.StringFixed(2))
	}
	fmt.Fprintf(tw, "\texplicit\t\t\t%s\t\n", r.Explicit.StringFixed(2))
	fmt.Fprintf(tw, "\thidden\t\t\t%s\t\n", r.Hidden.StringFixed(2))
	fmt.Fprintf(tw, "\ttotal\t\t\t%s\t\n", r.Total.StringFixed(2))
	fmt.Fprintf(tw, "\tpresent value at %.1f%%/yr\t\t\t%s\t\n", r.DiscountRatePerYear*100, r.PresentValue.StringFixed(2))
	tw.Flush()
	d := r.Derivation
	fmt.Fprintf(&b, "GPUs %d on %d nodes; speed %.3f; efficiency %.2f; busy %.1f%%\n",
		d.GPUs, d.Nodes, d.SpeedFactor, d.Efficiency, d.BusyFraction*100)
	fmt.Fprintf(&b, "billed %.1f GPU-h, useful %.1f GPU-h; %s per useful GPU-h, %s per reference GPU-h\n",
		r.BilledGPUHours, r.UsefulGPUHours, r.CostPerUsefulGPUHour.StringFixed(2), r.CostPerWorkUnit.StringFixed(2))
	if r.WallTime > 0 {
		fmt.Fprintf(&b, "wall time %s (checkpoint every %s, %.2f preemptions, %.2f failures expected)\n",
			fmtDuration(r.WallTime), fmtDuration(d.CheckpointInterval), d.ExpectedPreemptions, d.ExpectedFailures)
	}
	fmt.Fprintf(&b, "finish after %s", fmtDuration(r.Finish))
	if r.Deadline > 0 {
		verdict := "met"
		if !r.DeadlineMet {
			verdict = "MISSED"
		}
		fmt.Fprintf(&b, "; deadline %s %s", fmtDuration(r.Deadline), verdict)
	}
	b.WriteString("\n")
	return b.String()
}

// fmtDuration prints a duration in days and hours, or minutes when short.
func fmtDuration(d time.Duration) string {
	switch {
	case d >= 48*time.Hour:
		return fmt.Sprintf("%.1fd", d.Hours()/24)
	case d >= time.Hour:
		return fmt.Sprintf("%.1fh", d.Hours())
	}
	return fmt.Sprintf("%.1fmin", d.Minutes())
}

// WriteCSV writes the report's lines as CSV for spreadsheets, with a header
// row "workload,offer,category,label,kind,timing,amount" and one row per line;
// amounts are full-precision decimals.
func (r Report) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	if err := cw.Write([]string{"workload", "offer", "category", "label", "kind", "timing", "amount"}); err != nil {
		return err
	}
	for _, l := range r.Lines {
		kind := "explicit"
		if l.Category.Hidden() {
			kind = "hidden"
		}
		if err := cw.Write([]string{r.Workload, r.Offer, l.Category.String(), l.Label, kind, l.Timing.String(), l.Amount.String()}); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

type derivationJSON struct {
	Nodes                  int               `json:"nodes"`
	GPUs                   int               `json:"gpus"`
	GPUsPerNode            int               `json:"gpusPerNode"`
	SpeedFactor            float64           `json:"speedFactor"`
	Efficiency             float64           `json:"efficiency"`
	CheckpointInterval     provider.Duration `json:"checkpointInterval"`
	MeanTimeToInterruption provider.Duration `json:"meanTimeToInterruption"`
	ExpectedPreemptions    float64           `json:"expectedPreemptions"`
	ExpectedFailures       float64           `json:"expectedFailures"`
	BusyFraction           float64           `json:"busyFraction"`
	SetupHours             float64           `json:"setupHours"`
}

type reportJSON struct {
	Workload             string            `json:"workload"`
	Offer                string            `json:"offer"`
	Currency             string            `json:"currency,omitempty"`
	Horizon              provider.Duration `json:"horizon"`
	Lines                []provider.Charge `json:"lines"`
	Total                decimal.Decimal   `json:"total"`
	Explicit             decimal.Decimal   `json:"explicit"`
	Hidden               decimal.Decimal   `json:"hidden"`
	DiscountRatePerYear  float64           `json:"discountRatePerYear"`
	PresentValue         decimal.Decimal   `json:"presentValue"`
	CashFlow             []decimal.Decimal `json:"cashFlowByMonth"`
	BilledGPUHours       float64           `json:"billedGPUHours"`
	UsefulGPUHours       float64           `json:"usefulGPUHours"`
	WorkGPUHours         float64           `json:"workGPUHours"`
	CostPerUsefulGPUHour decimal.Decimal   `json:"costPerUsefulGPUHour"`
	CostPerWorkUnit      decimal.Decimal   `json:"costPerWorkUnit"`
	WallTime             provider.Duration `json:"wallTime"`
	StartDelay           provider.Duration `json:"startDelay"`
	TransferTime         provider.Duration `json:"transferTime"`
	Finish               provider.Duration `json:"finish"`
	Deadline             provider.Duration `json:"deadline"`
	DeadlineMet          bool              `json:"deadlineMet"`
	Derivation           derivationJSON    `json:"derivation"`
}

// MarshalJSON writes the report with money as decimal strings and durations
// as Go duration strings.
func (r Report) MarshalJSON() ([]byte, error) {
	d := r.Derivation
	return json.Marshal(reportJSON{
		Workload: r.Workload, Offer: r.Offer, Currency: r.Currency, Horizon: provider.Duration(r.Horizon),
		Lines: r.Lines, Total: r.Total, Explicit: r.Explicit, Hidden: r.Hidden,
		DiscountRatePerYear: r.DiscountRatePerYear, PresentValue: r.PresentValue, CashFlow: r.CashFlow,
		BilledGPUHours: r.BilledGPUHours, UsefulGPUHours: r.UsefulGPUHours, WorkGPUHours: r.WorkGPUHours,
		CostPerUsefulGPUHour: r.CostPerUsefulGPUHour, CostPerWorkUnit: r.CostPerWorkUnit,
		WallTime: provider.Duration(r.WallTime), StartDelay: provider.Duration(r.StartDelay),
		TransferTime: provider.Duration(r.TransferTime), Finish: provider.Duration(r.Finish),
		Deadline: provider.Duration(r.Deadline), DeadlineMet: r.DeadlineMet,
		Derivation: derivationJSON{
			Nodes: d.Nodes, GPUs: d.GPUs, GPUsPerNode: d.GPUsPerNode, SpeedFactor: d.SpeedFactor,
			Efficiency: d.Efficiency, CheckpointInterval: provider.Duration(d.CheckpointInterval),
			MeanTimeToInterruption: provider.Duration(d.MeanTimeToInterruption),
			ExpectedPreemptions:    d.ExpectedPreemptions, ExpectedFailures: d.ExpectedFailures,
			BusyFraction: d.BusyFraction, SetupHours: d.SetupHours,
		},
	})
}
