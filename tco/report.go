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

	"github.com/gputco/gputco/internal/payments"
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
	// Lines are every charge, explicit and hidden, in a stable order, each
	// saying whether it belongs to the offer or to the workload.
	Lines []Line
	// Total is exactly the sum of Lines; Explicit + Hidden = Total.
	Total, Explicit, Hidden decimal.Decimal
	// DiscountRatePerYear is the annual rate PresentValue uses.
	DiscountRatePerYear float64
	// PresentValue is Total discounted to the start: upfront lines at t = 0,
	// spread lines in equal parts at the end of each month, at-end lines at
	// the horizon, scheduled lines (a commitment's renewals, the part of a
	// term beyond the horizon) when their schedule pays them.
	PresentValue decimal.Decimal
	// CashFlow is what is paid in each month of the horizon (the last month
	// may be partial) and, when a commitment outlasts the horizon, in each
	// month after it until the commitment ends; it sums exactly to Total.
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
	// Coverage is, for a service, the fraction of the horizon during which
	// its capacity exists: 1 − StartDelay/Horizon, at least 0. A service
	// cannot be served before its capacity is there — an owned server's
	// 9-month procurement covers only a quarter of a one-year horizon —
	// while the lines price the whole horizon; the part not covered must be
	// bought elsewhere, or priced with the workload's CostOfDelayPerDay. It
	// is 1 for a finite job, whose Finish counts the delay.
	Coverage float64
	// TransferTime is the time to move the dataset to the offer.
	TransferTime time.Duration
	// Finish is StartDelay + TransferTime + setup + WallTime.
	Finish time.Duration
	// Deadline is the workload's deadline (zero: none).
	Deadline time.Duration
	// DeadlineMet reports whether Finish ≤ Deadline (true without a deadline).
	DeadlineMet bool
	// GPUsToMeetDeadline is, for a finite job that misses its deadline, the
	// smallest gang in whole nodes of this offer (at most 64 times the nodes
	// held, within the offer's stock limit and interconnect) whose expected
	// finish meets it, with the same start delay, transfer and setup and the
	// interruptions of the larger gang; zero when the deadline is met or no
	// such gang exists — for one, when StartDelay, TransferTime and setup
	// alone take longer than the deadline.
	GPUsToMeetDeadline int
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

// Owner says whom a report line or a cost term belongs to.
type Owner int

// Owners. The zero value is OwnerWorkload.
const (
	// OwnerWorkload: the workload's own cost — its pay-as-you-go runs, the
	// effects that lengthen them (a slower fabric, preemptions, failures),
	// its setup, data, storage, exit and delay.
	OwnerWorkload Owner = iota
	// OwnerOffer: the cost of the capacity, shared by every workload placed
	// on it — commitments, capital net of residual value, power and facility
	// of held nodes, the offer's operations staff, platform fees on committed
	// capacity, credits.
	OwnerOffer
)

// String returns "workload" or "offer".
func (o Owner) String() string {
	switch o {
	case OwnerWorkload:
		return "workload"
	case OwnerOffer:
		return "offer"
	}
	return fmt.Sprintf("Owner(%d)", int(o))
}

// MarshalText encodes o as its name.
func (o Owner) MarshalText() ([]byte, error) {
	if o != OwnerWorkload && o != OwnerOffer {
		return nil, fmt.Errorf("tco: owner %d: %w", int(o), provider.ErrUnknownName)
	}
	return []byte(o.String()), nil
}

// UnmarshalText decodes "workload" or "offer".
func (o *Owner) UnmarshalText(b []byte) error {
	switch string(b) {
	case "workload":
		*o = OwnerWorkload
	case "offer":
		*o = OwnerOffer
	default:
		return fmt.Errorf("tco: owner %s: %w", quoted(string(b)), provider.ErrUnknownName)
	}
	return nil
}

// Line is one line of a report: a charge and whom it belongs to. In JSON the
// charge's fields are inline, followed by "owner".
type Line struct {
	provider.Charge
	// Owner says whether the line belongs to the offer or to the workload.
	Owner Owner `json:"owner"`
}

// total returns the sum of the lines' amounts.
func total(lines []Line) decimal.Decimal {
	t := decimal.Zero
	for _, l := range lines {
		t = t.Add(l.Amount)
	}
	return t
}

// finish computes the totals, cash flow, present value and unit costs on the
// monthly schedule s of the report's horizon.
func (r *Report) finish(s *schedule) error {
	var explicit, hidden, upfront, spread, atEnd decimal.Decimal
	var scheduled []provider.Charge
	for _, l := range r.Lines {
		if l.Category.Hidden() {
			hidden = hidden.Add(l.Amount)
		} else {
			explicit = explicit.Add(l.Amount)
		}
		switch {
		case l.Timing == provider.Upfront || s.horizon <= 0:
			upfront = upfront.Add(l.Amount)
		case l.Timing == provider.AtEnd:
			atEnd = atEnd.Add(l.Amount)
		case l.Timing == provider.Scheduled:
			scheduled = append(scheduled, l.Charge)
		default:
			spread = spread.Add(l.Amount)
		}
	}
	r.Explicit, r.Hidden, r.Total = explicit, hidden, explicit.Add(hidden)
	r.CashFlow, r.PresentValue = s.cashFlow(upfront, spread, atEnd)
	if len(scheduled) > 0 {
		r.CashFlow, r.PresentValue = s.addScheduled(r.CashFlow, r.PresentValue, scheduled)
	}
	r.CostPerUsefulGPUHour, r.CostPerWorkUnit = decimal.Zero, decimal.Zero
	var q quantities
	// A quantity that is not finite is recorded in q (and priced as zero):
	// never divide by it.
	if h := q.dec("useful GPU-hours", r.UsefulGPUHours); r.UsefulGPUHours > 0 && !h.IsZero() {
		r.CostPerUsefulGPUHour = r.Total.DivRound(h, provider.Precision)
	}
	if h := q.dec("work GPU-hours", r.WorkGPUHours); r.WorkGPUHours > 0 && !h.IsZero() {
		r.CostPerWorkUnit = r.Total.DivRound(h, provider.Precision)
	}
	return q.err
}

// schedule is the monthly calendar of a horizon at a discount rate. Months
// are provider.Month long, at most 3,600 of them; every month but the last is
// a whole month, the last holds the rest of the horizon. It keeps the
// discount factor at each month's end and at the horizon.
type schedule struct {
	horizon time.Duration
	months  int
	// hours is the horizon in hours (set when there are whole months).
	hours decimal.Decimal
	// month is the hours of a whole month.
	month decimal.Decimal
	// factors are the discount factors at each month's end (nil without
	// discounting); wholeFactors sums those of the whole months.
	factors      []decimal.Decimal
	wholeFactors decimal.Decimal
	end          decimal.Decimal
	// rate is the annual discount rate.
	rate float64
}

// maxMonths bounds the months of a cash flow (300 years).
const maxMonths = 12 * 300

// newSchedule returns the schedule of horizon at the annual rate.
func newSchedule(horizon time.Duration, rate float64) *schedule {
	months := int(math.Ceil(horizon.Hours() / provider.Month.Hours()))
	months = max(1, min(months, maxMonths))
	s := &schedule{horizon: horizon, months: months, month: hoursPerMonth, end: decimal.NewFromInt(1), wholeFactors: decimal.Zero, rate: rate}
	if months > 1 {
		s.hours = dec(horizon.Hours())
	}
	if rate == 0 {
		return s
	}
	discount := func(t time.Duration) decimal.Decimal {
		if t <= 0 {
			return decimal.NewFromInt(1)
		}
		return dec(math.Pow(1+rate, -t.Hours()/provider.Year.Hours()))
	}
	s.factors = make([]decimal.Decimal, months)
	for m := range months {
		s.factors[m] = discount(min(time.Duration(m+1)*provider.Month, horizon))
		if m < months-1 {
			s.wholeFactors = s.wholeFactors.Add(s.factors[m])
		}
	}
	s.end = discount(horizon)
	return s
}

// cashFlow spreads the sums of the upfront, spread and at-end lines over the
// months of the schedule and discounts them: upfront lines fall at t = 0
// (all lines do for a horizon ≤ 0), spread lines in parts proportional to each
// month's length at the month's end (each whole month's part rounded at
// provider.Precision, the last month taking the rest, so that the parts sum
// exactly to the spread amount), at-end lines at the horizon. The present
// value is rounded at provider.Precision.
func (s *schedule) cashFlow(upfront, spread, atEnd decimal.Decimal) ([]decimal.Decimal, decimal.Decimal) {
	whole := s.months - 1
	part := decimal.Zero // of every whole month
	if whole > 0 && !spread.IsZero() {
		part = spread.Mul(s.month).DivRound(s.hours, provider.Precision)
	}
	last := spread.Sub(part.Mul(decimal.NewFromInt(int64(whole))))
	flow := make([]decimal.Decimal, s.months)
	for m := range whole {
		flow[m] = part
	}
	flow[whole] = last.Add(atEnd)
	flow[0] = flow[0].Add(upfront)
	var pv decimal.Decimal
	if s.factors == nil {
		pv = upfront.Add(spread).Add(atEnd)
	} else {
		pv = upfront.Add(part.Mul(s.wholeFactors)).Add(last.Mul(s.factors[whole])).Add(atEnd.Mul(s.end))
	}
	return flow, pv.Round(provider.Precision)
}

// discountAt returns the discount factor at time t from the start.
func (s *schedule) discountAt(t time.Duration) decimal.Decimal {
	if s.rate == 0 || t <= 0 {
		return decimal.NewFromInt(1)
	}
	return dec(math.Pow(1+s.rate, -t.Hours()/provider.Year.Hours()))
}

// addScheduled adds Scheduled charges to a cash flow and its present value:
// each payment of a charge with Payments ≥ 1 falls in the month holding its
// time and is discounted from that time (when there are more payments than
// months, those of one month are summed and discounted from the month's
// end); a charge with Payments = 0 is paid over [Start, Start + Span) in
// parts proportional to each month's share, each at the end of its part.
// The flow grows past the horizon as far as the schedules reach (at most
// maxMonths). Parts are rounded at provider.Precision, the last part of a
// charge taking the rest, so that the flow still sums exactly to the total.
func (s *schedule) addScheduled(flow []decimal.Decimal, pv decimal.Decimal, cs []provider.Charge) ([]decimal.Decimal, decimal.Decimal) {
	month := provider.Month
	put := func(m int, amount decimal.Decimal, at time.Duration) {
		m = max(0, min(m, maxMonths-1))
		for len(flow) <= m {
			flow = append(flow, decimal.Zero)
		}
		flow[m] = flow[m].Add(amount)
		pv = pv.Add(amount.Mul(s.discountAt(at)))
	}
	for _, c := range cs {
		for _, p := range payments.Parts(c) {
			put(int(p.Month/month), p.Amount, p.At)
		}
	}
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
// its category, whether it is hidden, its owner, its timing and its amount rounded to
// cents, then the totals and the derived figures.
func (r Report) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s on %s over %s\n", r.Workload, r.Offer, fmtDuration(r.Horizon))
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "CATEGORY\tLINE\tKIND\tOWNER\tTIMING\tAMOUNT\t")
	for _, l := range r.Lines {
		kind := "explicit"
		if l.Category.Hidden() {
			kind = "hidden"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t\n", l.Category, l.Label, kind, l.Owner, l.Timing, l.Amount.StringFixed(2))
	}
	fmt.Fprintf(tw, "\texplicit\t\t\t\t%s\t\n", r.Explicit.StringFixed(2))
	fmt.Fprintf(tw, "\thidden\t\t\t\t%s\t\n", r.Hidden.StringFixed(2))
	fmt.Fprintf(tw, "\ttotal\t\t\t\t%s\t\n", r.Total.StringFixed(2))
	fmt.Fprintf(tw, "\tpresent value at %.1f%%/yr\t\t\t\t%s\t\n", r.DiscountRatePerYear*100, r.PresentValue.StringFixed(2))
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
	if r.StartDelay > 0 && r.Coverage < 1 {
		fmt.Fprintf(&b, "capacity from %s: only %.1f%% of the horizon is served\n", fmtDuration(r.StartDelay), r.Coverage*100)
	}
	fmt.Fprintf(&b, "finish after %s", fmtDuration(r.Finish))
	if r.Deadline > 0 {
		if r.DeadlineMet {
			fmt.Fprintf(&b, "; deadline %s met", fmtDuration(r.Deadline))
		} else {
			fmt.Fprintf(&b, "; deadline %s MISSED by %s (start delay %s + transfer %s + setup %s + wall %s)",
				fmtDuration(r.Deadline), fmtDuration(r.Finish-r.Deadline), fmtDuration(r.StartDelay),
				fmtDuration(r.TransferTime), fmtDuration(hoursToDuration(d.SetupHours)), fmtDuration(r.WallTime))
			if r.GPUsToMeetDeadline > 0 {
				fmt.Fprintf(&b, "; %d GPUs would meet it", r.GPUsToMeetDeadline)
			} else {
				b.WriteString("; no larger gang on this offer meets it")
			}
		}
	}
	b.WriteString("\n")
	return b.String()
}

// fmtDuration prints a duration precisely enough to compare it with
// another: minutes below an hour, hours with one decimal below ten days,
// days with one decimal (and the hours) beyond.
func fmtDuration(d time.Duration) string {
	switch {
	case d >= 240*time.Hour:
		return fmt.Sprintf("%.1fd (%.0fh)", d.Hours()/24, d.Hours())
	case d >= time.Hour:
		return fmt.Sprintf("%.1fh", d.Hours())
	}
	return fmt.Sprintf("%.1fmin", d.Minutes())
}

// WriteCSV writes the report's lines as CSV for spreadsheets, with a header
// row "workload,offer,category,label,kind,owner,timing,amount" and one row per
// line; amounts are full-precision decimals.
func (r Report) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	if err := cw.Write([]string{"workload", "offer", "category", "label", "kind", "owner", "timing", "amount"}); err != nil {
		return err
	}
	for _, l := range r.Lines {
		kind := "explicit"
		if l.Category.Hidden() {
			kind = "hidden"
		}
		if err := cw.Write([]string{r.Workload, r.Offer, l.Category.String(), l.Label, kind, l.Owner.String(), l.Timing.String(), l.Amount.String()}); err != nil {
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
	Lines                []Line            `json:"lines"`
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
	Coverage             float64           `json:"coverage"`
	TransferTime         provider.Duration `json:"transferTime"`
	Finish               provider.Duration `json:"finish"`
	Deadline             provider.Duration `json:"deadline"`
	DeadlineMet          bool              `json:"deadlineMet"`
	GPUsToMeetDeadline   int               `json:"gpusToMeetDeadline,omitempty"`
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
		WallTime: provider.Duration(r.WallTime), StartDelay: provider.Duration(r.StartDelay), Coverage: r.Coverage,
		TransferTime: provider.Duration(r.TransferTime), Finish: provider.Duration(r.Finish),
		Deadline: provider.Duration(r.Deadline), DeadlineMet: r.DeadlineMet, GPUsToMeetDeadline: r.GPUsToMeetDeadline,
		Derivation: derivationJSON{
			Nodes: d.Nodes, GPUs: d.GPUs, GPUsPerNode: d.GPUsPerNode, SpeedFactor: d.SpeedFactor,
			Efficiency: d.Efficiency, CheckpointInterval: provider.Duration(d.CheckpointInterval),
			MeanTimeToInterruption: provider.Duration(d.MeanTimeToInterruption),
			ExpectedPreemptions:    d.ExpectedPreemptions, ExpectedFailures: d.ExpectedFailures,
			BusyFraction: d.BusyFraction, SetupHours: d.SetupHours,
		},
	})
}
