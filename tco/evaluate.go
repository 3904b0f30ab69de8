package tco

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/gputco/gputco/provider"
	"github.com/gputco/gputco/workload"
	"github.com/shopspring/decimal"
)

// Evaluate returns the full cost of running w on o under a.
//
// A finite job runs its gang of w.GPUs on ⌈GPUs/GPUsPerNode⌉ nodes for
// WorkGPUHours/(speed·GPUs·efficiency) hours (speed from the workload's
// requirements, efficiency below 1 only on an interconnect slower than
// required), stretched by spot preemptions and node failures per Daly's
// checkpoint/restart model (checkpointed work, at the workload's fixed
// interval or Daly's optimum), by restarts only (stateless work), or by
// restarts from scratch (work that tolerates no interruption). A service holds
// the nodes its demand curve needs in every slice (the peak of each slice of
// workload.Discretize, sampled once by Prepare at Assumptions.Step): pay-as-you-go
// offers bill the runs of each node, committed and owned offers bill the
// nodes that cover the peak, and owned servers burn power by utilization.
//
// Each effect is priced as the difference it makes to the offer's bill and
// shown as its own line: inefficiency, preemption, recovery and setup GPU
// time. The other hidden costs — setup engineering, data transfer, storage,
// staff, platform fees, exit and delay — are priced from the offer's
// hidden-cost profile. Report.Total is exactly the sum of the lines.
//
// Evaluate validates w, o and a, and checks Compatible; it returns every
// problem joined. It does not modify its arguments.
//
// Evaluate is Prepare(w, a) followed by Prepared.Evaluate(o); to price one
// workload on many offers, prepare it once.
func Evaluate(w workload.Workload, o provider.Offer, a Assumptions) (Report, error) {
	p, err := prepare(w, a, &o)
	if err != nil {
		return Report{}, err
	}
	return p.evaluate(o, true)
}

// Evaluate returns the full cost of running the prepared workload on o, as
// the package-level Evaluate does. It validates o and checks Compatible; it
// does not modify o.
func (p *Prepared) Evaluate(o provider.Offer) (Report, error) { return p.evaluate(o, false) }

// evaluate is Evaluate; validated says o is known to be valid.
func (p *Prepared) evaluate(o provider.Offer, validated bool) (Report, error) {
	m, err := p.newModel(o, validated)
	if err != nil {
		return Report{}, err
	}
	if err := m.price(); err != nil {
		return Report{}, err
	}
	return m.rep, nil
}

// moves reports whether the dataset must be moved to the offer: it lives
// with another provider or in another region (names compared without case).
func (m *model) moves() bool {
	loc := m.w.Data.Location
	if m.w.Data.DatasetGB == 0 || loc.Provider == "" {
		return false
	}
	return !strings.EqualFold(loc.Provider, m.o.Provider) || !strings.EqualFold(loc.Region, m.o.Region)
}

// committedCapacity reports whether the offer's pricing bills capacity
// rather than use — committed modes, and pay-as-you-go modes billed in
// increments longer than CommitmentThreshold — so that its lines belong to
// the offer, shared by every workload on that capacity.
func (m *model) committedCapacity() bool {
	return !m.pr.payAsYouGo() || m.pr.granularity() > CommitmentThreshold
}

// price turns the stages and the hidden-cost profile into lines.
func (m *model) price() error {
	base, err := m.charges(m.stages[0].usage)
	if err != nil {
		return err
	}
	owner := OwnerWorkload
	if m.committedCapacity() {
		owner = OwnerOffer
	}
	lines := make([]Line, 0, len(base)+len(m.stages)+10)
	for _, c := range base {
		lines = append(lines, Line{Charge: c, Owner: owner})
	}
	prev, last := provider.Total(base), base
	for i, s := range m.stages[1:] {
		if m.pr.runsFree && sameHolding(s.usage, m.stages[i].usage) {
			continue // the same bill: a committed mode does not bill runs
		}
		cs, err := m.charges(s.usage)
		if err != nil {
			return err
		}
		t := provider.Total(cs)
		// A stage can only add cost; a difference below zero is rounding in
		// the pricing's float quantities (or a non-monotone custom pricing).
		if diff := t.Sub(prev); diff.IsPositive() {
			lines = append(lines, Line{Charge: provider.Charge{Category: s.category, Label: s.label, Amount: diff, Timing: provider.Spread}, Owner: OwnerWorkload})
			prev = t
		}
		last = cs
	}
	if lines, err = m.withCredits(lines); err != nil {
		return err
	}
	lines, err = m.otherLines(lines, m.holdHours, last, m.rep.StartDelay, m.rep.Finish)
	if err != nil {
		return err
	}
	m.rep.Lines = lines
	return m.rep.finish(m.p.discounts(m.rep.Horizon))
}

// sameHolding reports whether two usages hold the same capacity: the same
// horizon, nodes and busy fraction (their runs may differ).
func sameHolding(a, b provider.Usage) bool {
	return a.Horizon == b.Horizon && a.Nodes == b.Nodes && a.BusyFraction == b.BusyFraction
}

// charges returns the charges of the offer's base pricing (inside any
// credits) for u, without the lines of excluded hidden categories (owned
// pricing carries its own staff line, for one). withCredits applies the
// credits afterwards, once, to all the pricing's lines.
func (m *model) charges(u provider.Usage) ([]provider.Charge, error) {
	cs, err := m.pr.base.Charges(u)
	if err == nil {
		err = provider.CheckCharges(cs) // a custom pricing's amounts are bounded as inputs are
	}
	if err != nil || len(m.a.Exclude) == 0 {
		return cs, err
	}
	kept := cs[:0:0]
	for _, c := range cs {
		if m.a.includes(c.Category) {
			kept = append(kept, c)
		}
	}
	return kept, nil
}

// withCredits applies the offer's wrappers (credits), innermost first, to
// the pricing's lines; the lines they add belong to the offer. What a
// wrapper returns is bounded as a pricing's charges are.
func (m *model) withCredits(lines []Line) ([]Line, error) {
	if len(m.pr.wrappers) == 0 {
		return lines, nil
	}
	cs := make([]provider.Charge, len(lines))
	for i, l := range lines {
		cs[i] = l.Charge
	}
	for i := len(m.pr.wrappers) - 1; i >= 0; i-- {
		cs = m.pr.wrappers[i].Apply(cs)
		if err := provider.CheckCharges(cs); err != nil {
			return nil, err
		}
	}
	out := make([]Line, len(cs))
	for i, c := range cs {
		out[i] = Line{Charge: c, Owner: OwnerOffer}
		if i < len(lines) {
			out[i].Owner = lines[i].Owner
		}
	}
	return out, nil
}

// otherLines appends the lines priced from the hidden-cost profile rather
// than by the offer's pricing: setup engineering, data transfer, storage,
// staff, platform fees, exit and delay. holdHours is the time capacity is
// held, last the offer's charges for the final usage (the base of platform
// fees), startDelay and finish the timeline that delay is priced from. A
// quantity that is not finite is an error, never a silent zero.
func (m *model) otherLines(lines []Line, holdHours float64, last []provider.Charge, startDelay, finish time.Duration) ([]Line, error) {
	o, w, a := m.o, m.w, m.a
	var q quantities
	h := o.Hidden
	c := &m.p.qty
	var months, years decimal.Decimal // of holdHours, when needed
	converted := false
	inMonths := func() decimal.Decimal {
		if !converted {
			months, years = m.p.monthsAndYears(&q, holdHours)
			converted = true
		}
		return months
	}
	add := func(c provider.Category, label string, amount decimal.Decimal, t provider.Timing, owner Owner) {
		if !amount.IsZero() {
			lines = append(lines, Line{Charge: provider.Charge{Category: c, Label: label, Amount: amount, Timing: t}, Owner: owner})
		}
	}
	// priced says whether a line of category c at a price is priced at all.
	priced := func(c provider.Category, price decimal.Decimal) bool { return !price.IsZero() && a.includes(c) }
	if m.setupHours > 0 && a.includes(provider.Setup) {
		add(provider.Setup, "engineer time", q.dec("setup hours", m.setupHours).Mul(a.engineerRate()), provider.Upfront, OwnerWorkload)
	}
	if m.moves() && a.includes(provider.DataTransfer) {
		add(provider.DataTransfer, "dataset transfer in", c.datasetGB.Mul(a.sourceEgress().Add(h.IngressPerGB)), provider.Upfront, OwnerWorkload)
	}
	if w.Data.EgressGBPerMonth > 0 && priced(provider.DataTransfer, h.EgressPerGB) {
		add(provider.DataTransfer, "monthly egress", c.egressGB.Mul(h.EgressPerGB).Mul(inMonths()), provider.Spread, OwnerWorkload)
	}
	stored := w.Data.DatasetGB + w.Data.CheckpointGB
	storedGB := c.storedGB
	if stored > 0 && priced(provider.Storage, h.StoragePerGBMonth) {
		add(provider.Storage, "dataset and checkpoint storage", storedGB.Mul(h.StoragePerGBMonth).Mul(inMonths()), provider.Spread, OwnerWorkload)
	}
	if h.StaffFTE > 0 && priced(provider.Staff, h.StaffCostPerYear) {
		inMonths()
		add(provider.Staff, "operations staff", q.dec("offer hidden.staffFTE", h.StaffFTE).Mul(h.StaffCostPerYear).Mul(years), provider.Spread, OwnerOffer)
	}
	if h.PlatformFeeFraction > 0 && a.includes(provider.Fees) {
		feeBase := decimal.Zero
		for _, c := range last {
			if c.Category == provider.Compute || c.Category == provider.Commitment {
				feeBase = feeBase.Add(c.Amount)
			}
		}
		owner := OwnerWorkload
		if m.committedCapacity() {
			owner = OwnerOffer
		}
		add(provider.Fees, "platform fee", feeBase.Mul(q.dec("offer hidden.platformFeeFraction", h.PlatformFeeFraction)), provider.Spread, owner)
	}
	if stored > 0 && priced(provider.Exit, h.EgressPerGB) {
		add(provider.Exit, "moving data out at the end", storedGB.Mul(h.EgressPerGB), provider.AtEnd, OwnerWorkload)
	}
	if priced(provider.Delay, w.CostOfDelayPerDay) {
		late := startDelay
		if w.Deadline > 0 && !w.IsService() {
			late = max(0, finish-w.Deadline)
		}
		add(provider.Delay, "delay", q.dec("days late", late.Hours()/24).Mul(w.CostOfDelayPerDay), provider.AtEnd, OwnerWorkload)
	}
	return lines, q.err
}

// Hours of a month and a year as decimals (provider.Month and provider.Year).
var (
	hoursPerMonth = decimal.NewFromInt(int64(provider.Month / time.Hour))
	hoursPerYear  = decimal.NewFromInt(int64(provider.Year / time.Hour))
)

// quantities converts float64 quantities to decimals and remembers the first
// that is not finite, so that NaN or ±Inf is reported, never priced as zero.
type quantities struct{ err error }

func (q *quantities) dec(what string, f float64) decimal.Decimal {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		if q.err == nil {
			q.err = fmt.Errorf("tco: %s = %v: %w", what, f, ErrNotFinite)
		}
		return decimal.Zero
	}
	return decimal.NewFromFloat(f)
}

// dec converts a finite quantity to a decimal. It panics on NaN or ±Inf, a
// programmer error: callers pass validated values.
func dec(f float64) decimal.Decimal {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		panic(fmt.Sprintf("tco: decimal of non-finite quantity %v", f))
	}
	return decimal.NewFromFloat(f)
}
