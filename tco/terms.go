package tco

import (
	"fmt"
	"math"
	"math/bits"
	"time"

	"github.com/gputco/gputco/provider"
	"github.com/gputco/gputco/workload"
	"github.com/shopspring/decimal"
)

// TermKind says what a cost term is charged per.
type TermKind int

// Kinds of cost terms. The zero value is Fixed.
const (
	// Fixed is money per node held over the horizon, whatever its use:
	// commitments, capital net of residual value, facility, idle power,
	// per-node staff — and, on pay-as-you-go capacity billed in increments
	// longer than CommitmentThreshold, the compute of a node held for the
	// horizon.
	Fixed TermKind = iota
	// Variable is money per node-hour of use: the rate, power above idle,
	// platform fees on them, and the multipliers that a slower fabric,
	// preemptions, failures and billing rounding put on billed time for this
	// workload.
	Variable
	// OneOff is money once per placement of the workload on the offer:
	// setup (engineer time and GPU time held), data transfer, storage,
	// exit, delay.
	OneOff
	// PerOffer is money once for using the offer at all, whatever the nodes
	// and the workloads on it: the offer's operations staff, and its credits
	// (negative).
	PerOffer
)

// String returns "fixed", "variable", "one-off" or "per-offer".
func (k TermKind) String() string {
	switch k {
	case Fixed:
		return "fixed"
	case Variable:
		return "variable"
	case OneOff:
		return "one-off"
	case PerOffer:
		return "per-offer"
	}
	return fmt.Sprintf("TermKind(%d)", int(k))
}

// TermLine is one line of cost terms: Amount per unit of Kind, with the
// category, label, timing and owner of the report line it comes from.
type TermLine struct {
	Category provider.Category
	Label    string
	Kind     TermKind
	Owner    Owner
	Timing   provider.Timing
	// Amount is money per node (Fixed), per node-hour of use (Variable), or
	// once (OneOff, PerOffer).
	Amount decimal.Decimal
	// Start, Span and Payments are the schedule of a Scheduled line, as
	// provider.Charge's (from the horizon's start); other timings leave
	// them zero.
	Start    provider.Duration
	Span     provider.Duration
	Payments int
}

// Use is how much of an offer a placement takes: the quantities that cost
// terms are priced at.
type Use struct {
	// Nodes is the nodes held over the whole horizon. It is fractional for
	// short commitments (billing increments above CommitmentThreshold):
	// node-equivalents, the billed node-time divided by the billed time of
	// one node held for the horizon. It is zero on pay-as-you-go capacity.
	Nodes float64
	// NodeHours is the node-hours of use: run at full efficiency, without
	// interruptions, setup or billing rounding.
	NodeHours float64
}

// Terms are the linear cost terms of one prepared workload on one offer —
// what a placement solver needs to price assignments exactly as Evaluate
// does. With every line summed by kind, the cost of a use u is
//
//	Cost(u) = FixedPerNode·u.Nodes + VariablePerNodeHour·u.NodeHours + OneOff + PerOffer
//
// and Cost(Own), the workload alone on the offer as Evaluate prices it,
// equals Evaluate's Total up to the rounding of one line per category (the
// package's property test checks it for every built-in mode). PerOffer is
// paid once per offer used; credits are in it, as what they take off this
// workload's charges alone — spread over several workloads a credit may take
// off more, up to its amount.
//
// Lines whose Owner is OwnerOffer (Fixed and PerOffer lines, and the fees
// on them) are shared by every workload on the same capacity; OwnerWorkload
// lines are the workload's own.
//
// The terms cover Evaluate's horizon: the assumptions' or the workload's, or
// for a finite job without one the time it holds capacity. To compare or
// share capacity between workloads, prepare them all with the same
// Assumptions.Horizon.
type Terms struct {
	// Workload, Offer and Currency name the pair and its money.
	Workload, Offer, Currency string
	// Horizon is the period the terms cover: Evaluate's report horizon.
	Horizon time.Duration
	// Lines are the terms line by line.
	Lines []TermLine
	// FixedPerNode, VariablePerNodeHour, OneOff and PerOffer sum the lines
	// of each kind.
	FixedPerNode, VariablePerNodeHour, OneOff, PerOffer decimal.Decimal
	// Committed says nodes are paid for while held, whatever their use:
	// reserved terms, owned hardware, modes that are not pay-as-you-go, and
	// pay-as-you-go billed in increments longer than CommitmentThreshold.
	Committed bool
	// Term is the length of one commitment (a reservation's term, a long
	// billing increment); zero means the whole horizon (owned hardware) or,
	// when not Committed, none.
	Term time.Duration
	// Increment and Minimum are a pay-as-you-go offer's billing increment
	// and minimum billed time of a run (zero for committed modes).
	Increment, Minimum time.Duration
	// GPUsPerNode is the offer's node size; SpeedFactor the workload's speed
	// on the offer's GPU relative to the reference GPU; Efficiency the
	// fraction of speed kept on its interconnect (below 1 on a slower fabric).
	GPUsPerNode int
	SpeedFactor float64
	Efficiency  float64
	// Stretch is, on capacity billed per node-hour, the billed node-hours
	// per node-hour of use before setup (≥ 1: a slower fabric, preemptions,
	// failures, billing rounding, idle gaps held); it is part of
	// VariablePerNodeHour already. It is 1 for committed capacity.
	Stretch float64
	// Interruptible says the capacity may be taken back (spot-like).
	Interruptible bool
	// MaxNodes is the offer's stock limit (zero: none stated) and
	// FillProbability the chance a request is filled.
	MaxNodes        int
	FillProbability float64
	// StartDelay is the lead time plus the expected wait for stock; Ready
	// that plus the transfer in and the setup: when the workload's work
	// can start on the offer (Evaluate's Finish less its WallTime).
	StartDelay, Ready time.Duration
	// Own is the workload's own use alone on the offer, as Evaluate prices
	// it; Nodes is its gang or peak for committed capacity.
	Own Use
}

// Cost returns the cost of use u: FixedPerNode·u.Nodes +
// VariablePerNodeHour·u.NodeHours + OneOff + PerOffer. A quantity of u that
// is NaN or infinite is an error wrapping ErrNotFinite.
func (t Terms) Cost(u Use) (decimal.Decimal, error) {
	var q quantities
	c := t.OneOff.Add(t.PerOffer)
	if u.Nodes != 0 {
		c = c.Add(t.FixedPerNode.Mul(q.dec("nodes", u.Nodes)))
	}
	if u.NodeHours != 0 {
		c = c.Add(t.VariablePerNodeHour.Mul(q.dec("node-hours", u.NodeHours)))
	}
	if q.err != nil {
		return decimal.Zero, q.err
	}
	return c, nil
}

// Terms returns the cost terms of the prepared workload on o (see Terms). It
// validates o and checks Compatible, as Evaluate does, and returns the same
// errors.
func (p *Prepared) Terms(o provider.Offer) (Terms, error) {
	m, err := p.newModel(o, false)
	if err != nil {
		return Terms{}, err
	}
	return m.terms()
}

// CostTerms is Prepare(w, a) followed by Terms(o).
func CostTerms(w workload.Workload, o provider.Offer, a Assumptions) (Terms, error) {
	p, err := prepare(w, a, &o)
	if err != nil {
		return Terms{}, err
	}
	m, err := p.newModel(o, true)
	if err != nil {
		return Terms{}, err
	}
	return m.terms()
}

// terms splits the model's bill into linear terms.
func (m *model) terms() (Terms, error) {
	o := m.o
	d := m.rep.Derivation
	t := Terms{
		Workload: m.w.Name, Offer: o.ID, Currency: o.Currency, Horizon: m.rep.Horizon,
		GPUsPerNode: o.GPUsPerNode, SpeedFactor: d.SpeedFactor, Efficiency: d.Efficiency,
		Interruptible: m.pr.interruptible, MaxNodes: o.Availability.MaxNodes,
		FillProbability: o.Availability.FillProbability, StartDelay: m.rep.StartDelay,
		Ready:     satAdd(m.rep.StartDelay, m.rep.TransferTime, hoursToDuration(m.setupHours)),
		Committed: m.committedCapacity(), Stretch: 1,
		Own: Use{NodeHours: m.useNodeHours},
	}
	if mt := m.pr.metering; mt != nil {
		t.Increment, t.Minimum = mt.Granularity()
		if t.Committed {
			t.Term = m.pr.granularity()
		}
	} else if c, ok := provider.As[provider.Committer](o.Pricing); ok {
		t.Term = c.Commitment()
	}
	b := termsBuilder{m: m, t: &t, lines: make([]TermLine, 0, 16), credited: len(m.pr.wrappers) > 0}
	if m.useNodeHours > 0 {
		b.use = dec(m.useNodeHours)
	}
	if h := o.Hidden.PlatformFeeFraction; h > 0 && m.a.includes(provider.Fees) {
		b.fee = dec(h)
	}
	var err error
	if lin, ok := m.pr.base.(provider.Linear); ok {
		err = b.fromRates(lin)
	} else {
		err = b.fromCharges()
	}
	if err != nil {
		return Terms{}, err
	}
	if err := b.credits(); err != nil {
		return Terms{}, err
	}
	if err := b.hidden(); err != nil {
		return Terms{}, err
	}
	t.Lines = b.lines
	t.FixedPerNode, t.VariablePerNodeHour, t.OneOff, t.PerOffer = decimal.Zero, decimal.Zero, decimal.Zero, decimal.Zero
	for _, l := range t.Lines {
		switch l.Kind {
		case Fixed:
			t.FixedPerNode = t.FixedPerNode.Add(l.Amount)
		case Variable:
			t.VariablePerNodeHour = t.VariablePerNodeHour.Add(l.Amount)
		case OneOff:
			t.OneOff = t.OneOff.Add(l.Amount)
		case PerOffer:
			t.PerOffer = t.PerOffer.Add(l.Amount)
		}
	}
	return t, nil
}

// termsBuilder collects the lines of one pair's terms.
type termsBuilder struct {
	m     *model
	t     *Terms
	lines []TermLine
	// use is the node-hours of use as a decimal (zero without use), fee the
	// platform fee fraction (zero when none or excluded).
	use, fee decimal.Decimal
	// credited says the offer has wrappers (credits); pricing then collects
	// the pricing's lines at the workload's own use, which they apply to.
	credited bool
	pricing  []provider.Charge
}

// add appends a line of a non-zero amount.
func (b *termsBuilder) add(c provider.Category, label string, k TermKind, owner Owner, tm provider.Timing, amount decimal.Decimal) {
	if !amount.IsZero() {
		b.lines = append(b.lines, TermLine{Category: c, Label: label, Kind: k, Owner: owner, Timing: tm, Amount: amount})
	}
}

// addFixed appends the Fixed line of a charge per node of an offer, with
// the charge's schedule when it is Scheduled.
func (b *termsBuilder) addFixed(c provider.Charge, amount decimal.Decimal) {
	if !amount.IsZero() {
		b.lines = append(b.lines, TermLine{Category: c.Category, Label: c.Label, Kind: Fixed, Owner: OwnerOffer, Timing: c.Timing, Amount: amount,
			Start: c.Start, Span: c.Span, Payments: c.Payments})
	}
}

// variable adds an amount at the workload's own use as a line per node-hour
// of use, or once when there is no use.
func (b *termsBuilder) variable(c provider.Category, label string, tm provider.Timing, atUse decimal.Decimal) {
	if b.use.IsZero() {
		b.add(c, label, OneOff, OwnerWorkload, tm, atUse)
		return
	}
	b.add(c, label, Variable, OwnerWorkload, tm, atUse.DivRound(b.use, provider.Precision))
}

// fees adds the platform fee on a line of a charge of category c, of kind k
// (fees are charged on compute and commitments).
func (b *termsBuilder) fees(c provider.Category, label string, k TermKind, amount decimal.Decimal) {
	if b.fee.IsZero() || c != provider.Compute && c != provider.Commitment {
		return
	}
	switch k {
	case Variable:
		b.variable(provider.Fees, "platform fee on "+label, provider.Spread, amount.Mul(b.fee))
	case Fixed:
		b.add(provider.Fees, "platform fee on "+label, Fixed, OwnerOffer, provider.Spread, amount.Mul(b.fee))
	default:
		b.add(provider.Fees, "platform fee on "+label, k, OwnerWorkload, provider.Spread, amount.Mul(b.fee))
	}
}

// priced records a pricing line at the workload's own use for the credits.
func (b *termsBuilder) priced(c provider.Category, label string, tm provider.Timing, amount func() decimal.Decimal) {
	if b.credited {
		b.pricing = append(b.pricing, provider.Charge{Category: c, Label: label, Amount: amount(), Timing: tm})
	}
}

// fromRates adds the lines of a Linear pricing: per node held (Fixed), per
// busy node-hour (Variable, at the workload's busy hours per hour of use),
// and per billed node-hour (Variable at the billed hours per hour of use, or
// Fixed for a short commitment; the billed setup time is OneOff).
func (b *termsBuilder) fromRates(lin provider.Linear) error {
	m, t := b.m, b.t
	final := m.stages[len(m.stages)-1].usage
	pre := m.stages[m.preSetup].usage
	rates, err := lin.Rates(final.Horizon)
	if err != nil {
		return err
	}
	if err := provider.CheckRates(rates); err != nil {
		return err
	}
	var busy, billedPre, billedFinal decimal.Decimal
	for _, r := range rates {
		switch {
		case r.Basis == provider.PerBusyNodeHour && busy.IsZero():
			busy = dec(float64(final.Nodes) * final.BusyFraction).Mul(hoursDec(final.Horizon))
		case r.Basis == provider.PerBilledNodeHour && billedFinal.IsZero():
			billedPre, billedFinal = m.billedHours(pre), m.billedHours(final)
		}
	}
	// held is the billed hours of one node held for the horizon, for a
	// short commitment (a pay-as-you-go mode billed in long increments).
	held := decimal.Zero
	if m.pr.metering != nil && t.Committed {
		held = hoursDec(m.pr.metering.BilledDuration(final.Horizon))
	}
	switch {
	case !held.IsZero():
		t.Own.Nodes, _ = billedPre.DivRound(held, provider.Precision).Float64()
	case m.pr.metering == nil:
		t.Own.Nodes = float64(m.nodes)
	case !b.use.IsZero() && !billedPre.IsZero():
		t.Stretch, _ = billedPre.DivRound(b.use, provider.Precision).Float64()
	}
	nodes := decimal.NewFromInt(int64(m.nodes))
	for _, r := range rates {
		if !m.a.includes(r.Category) {
			continue
		}
		switch r.Basis {
		case provider.PerNode:
			b.addFixed(provider.Charge{Category: r.Category, Label: r.Label, Timing: r.Timing, Start: r.Start, Span: r.Span, Payments: r.Payments}, r.Amount)
			b.fees(r.Category, r.Label, Fixed, r.Amount)
			b.priced(r.Category, r.Label, r.Timing, func() decimal.Decimal { return r.Amount.Mul(nodes) })
		case provider.PerBusyNodeHour:
			atUse := r.Amount.Mul(busy)
			b.variable(r.Category, r.Label, r.Timing, atUse)
			b.fees(r.Category, r.Label, Variable, atUse)
			b.priced(r.Category, r.Label, r.Timing, func() decimal.Decimal { return atUse })
		case provider.PerBilledNodeHour:
			atUse, setup := r.Amount.Mul(billedPre), r.Amount.Mul(billedFinal.Sub(billedPre))
			if held.IsZero() {
				b.variable(r.Category, r.Label, r.Timing, atUse)
				b.fees(r.Category, r.Label, Variable, atUse)
			} else { // a node held, in whole increments
				b.add(r.Category, r.Label, Fixed, OwnerOffer, r.Timing, r.Amount.Mul(held))
				b.fees(r.Category, r.Label, Fixed, r.Amount.Mul(held))
			}
			b.add(provider.Setup, "GPU time held during setup", OneOff, OwnerWorkload, r.Timing, setup)
			b.fees(r.Category, "setup GPU time", OneOff, setup)
			b.priced(r.Category, r.Label, r.Timing, func() decimal.Decimal { return atUse.Add(setup) })
		}
	}
	return nil
}

// fromCharges adds the lines of a pricing that is not Linear: its bill at
// the workload's own use, as a fixed cost of the nodes held when it is
// committed, otherwise per node-hour of use.
func (b *termsBuilder) fromCharges() error {
	m, t := b.m, b.t
	cs, err := m.charges(m.stages[len(m.stages)-1].usage)
	if err != nil {
		return err
	}
	perNode := t.Committed && m.nodes > 0
	if perNode {
		t.Own.Nodes = float64(m.nodes)
	}
	for _, c := range cs {
		if perNode {
			per := c.Amount.DivRound(decimal.NewFromInt(int64(m.nodes)), provider.Precision)
			b.addFixed(c, per)
			b.fees(c.Category, c.Label, Fixed, per)
		} else {
			b.variable(c.Category, c.Label, c.Timing, c.Amount)
			b.fees(c.Category, c.Label, Variable, c.Amount)
		}
		b.priced(c.Category, c.Label, c.Timing, func() decimal.Decimal { return c.Amount })
	}
	return nil
}

// credits adds what the offer's wrappers (credits) take off the pricing's
// lines at the workload's own use, once per offer.
func (b *termsBuilder) credits() error {
	if !b.credited {
		return nil
	}
	cs := b.pricing
	for i := len(b.m.pr.wrappers) - 1; i >= 0; i-- {
		cs = b.m.pr.wrappers[i].Apply(cs)
		if err := provider.CheckCharges(cs); err != nil {
			return err
		}
	}
	b.add(provider.CreditCategory, "credit", PerOffer, OwnerOffer, provider.Upfront, provider.Total(cs).Sub(provider.Total(b.pricing)))
	return nil
}

// hidden adds the lines of the hidden-cost profile: once per placement, or
// once per offer for its operations staff. (Platform fees are with the lines
// they are charged on.)
func (b *termsBuilder) hidden() error {
	m := b.m
	others, err := m.otherLines(nil, m.holdHours, nil, m.rep.StartDelay, m.rep.Finish)
	if err != nil {
		return err
	}
	for _, l := range others {
		k := OneOff
		if l.Owner == OwnerOffer {
			k = PerOffer
		}
		b.add(l.Category, l.Label, k, l.Owner, l.Timing, l.Amount)
	}
	return nil
}

// billedHours returns the billed node-hours of u's runs under the offer's
// metering, exactly, or the node-hours held for committed pricing.
func (m *model) billedHours(u provider.Usage) decimal.Decimal {
	if m.pr.metering == nil {
		return decimal.NewFromInt(int64(u.Nodes)).Mul(hoursDec(u.Horizon))
	}
	// In int64 nanoseconds while that cannot overflow, in decimals beyond.
	var ns uint64
	exact := true
	for _, r := range u.Runs {
		if r.Count <= 0 || r.Nodes <= 0 {
			continue
		}
		hi, per := bits.Mul64(uint64(m.pr.metering.BilledDuration(r.Length)), uint64(r.Count)*uint64(r.Nodes))
		sum, carry := bits.Add64(ns, per, 0)
		if hi != 0 || carry != 0 || sum > math.MaxInt64 || uint64(r.Count) > math.MaxUint32 || uint64(r.Nodes) > math.MaxUint32 {
			exact = false
			break
		}
		ns = sum
	}
	if exact {
		return hoursDec(time.Duration(ns))
	}
	total := decimal.Zero
	for _, r := range u.Runs {
		if r.Count <= 0 || r.Nodes <= 0 {
			continue
		}
		b := decimal.NewFromInt(int64(m.pr.metering.BilledDuration(r.Length)))
		total = total.Add(b.Mul(decimal.NewFromInt(int64(r.Count))).Mul(decimal.NewFromInt(int64(r.Nodes))))
	}
	return total.DivRound(nsPerHourDec, provider.Precision)
}

var nsPerHourDec = decimal.NewFromInt(int64(time.Hour))

// hoursDec returns d in hours as a decimal.
func hoursDec(d time.Duration) decimal.Decimal {
	return decimal.NewFromInt(int64(d)).DivRound(nsPerHourDec, provider.Precision)
}
