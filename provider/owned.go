package provider

import (
	"math"
	"time"

	"github.com/shopspring/decimal"
)

// maxLifeYears bounds the useful life so that schedules stay small.
const maxLifeYears = 100

// Owned is hardware bought and operated by the user (capital expense). Its
// charges take the cash view: the purchase is paid upfront and what a node
// is worth at the horizon's end comes back as a negative Residual line — its
// market resale value when Resale has a curve (label "resale value at
// market"), otherwise its book value (label "residual at book value").
// Schedule and BookValue give the accounting view, whatever Resale says.
//
// Hardware held beyond its useful life stays in service at its salvage value:
// it depreciates no further, and power, facility, maintenance and staff go on.
//
// The zero Owned is invalid: UsefulLifeYears must be at least 1.
type Owned struct {
	// PurchasePerNode is the price of one node (server or workstation).
	PurchasePerNode decimal.Decimal
	// UsefulLifeYears is the depreciation life, in whole years (1 to 100).
	UsefulLifeYears int
	// SalvagePerNode is the value of a node at the end of its useful life; at
	// most PurchasePerNode.
	SalvagePerNode decimal.Decimal
	// Method is the depreciation method; the zero value is StraightLine.
	Method Depreciation

	// IdlePowerKW is the electrical draw of an idle node, in kW.
	IdlePowerKW float64
	// MaxPowerKW is the draw of a fully busy node, in kW; at least IdlePowerKW.
	// The draw at busy fraction b is IdlePowerKW + (MaxPowerKW − IdlePowerKW)·b.
	MaxPowerKW float64
	// ContractedPowerKW is the power per node that colocation bills, in kW;
	// zero means MaxPowerKW.
	ContractedPowerKW float64
	// PUE is the facility's power usage effectiveness (≥ 1); zero means 1.
	PUE float64
	// EnergyPerKWh is the price of one kWh at the meter.
	EnergyPerKWh decimal.Decimal
	// ColocationPerKWMonth is the colocation price per contracted kW per month.
	ColocationPerKWMonth decimal.Decimal
	// MaintenanceFractionPerYear is hardware support and spares per year, as a
	// fraction of PurchasePerNode (0.10 is 10 %/yr).
	MaintenanceFractionPerYear float64
	// StaffFTEPerNode is the operations staff a node needs, in full-time
	// equivalents.
	StaffFTEPerNode float64
	// StaffCostPerYear is the loaded cost of one full-time engineer per year.
	StaffCostPerYear decimal.Decimal
	// ProcurementLeadTime is the time from order to a node in service. It is
	// not billed by Charges; the tco package prices the delay.
	ProcurementLeadTime time.Duration
	// Resale is the market resale curve credited in the cash view at the
	// horizon's end; the zero Resale credits the book value instead.
	Resale Resale
}

// Mode returns "owned".
func (o Owned) Mode() string { return "owned" }

// Validate reports every problem of o: negative amounts, a salvage above the
// price, a life outside 1..100 years, NaN/Inf/negative power, PUE below 1,
// fractions outside [0, 1] and negative durations.
func (o Owned) Validate() error {
	var p problems
	p.money("purchasePerNode", o.PurchasePerNode)
	p.money("salvagePerNode", o.SalvagePerNode)
	if moneyInBounds(o.SalvagePerNode) && moneyInBounds(o.PurchasePerNode) && o.SalvagePerNode.GreaterThan(o.PurchasePerNode) {
		p.add("salvagePerNode", o.SalvagePerNode.String(), ErrSalvageAbovePrice)
	}
	switch {
	case o.UsefulLifeYears == 0:
		p.add("usefulLifeYears", o.UsefulLifeYears, ErrMissing)
	case o.UsefulLifeYears < 0:
		p.add("usefulLifeYears", o.UsefulLifeYears, ErrNegative)
	case o.UsefulLifeYears > maxLifeYears:
		p.add("usefulLifeYears", o.UsefulLifeYears, ErrOutOfRange)
	}
	if !enumValid(depreciationNames, o.Method) {
		p.add("depreciation", int(o.Method), ErrUnknownName)
	}
	p.quantity("idlePowerKW", o.IdlePowerKW, 0, math.MaxFloat64)
	p.quantity("maxPowerKW", o.MaxPowerKW, 0, math.MaxFloat64)
	if finite(o.IdlePowerKW) && finite(o.MaxPowerKW) && o.MaxPowerKW < o.IdlePowerKW {
		p.add("maxPowerKW", o.MaxPowerKW, ErrOutOfRange)
	}
	p.quantity("contractedPowerKW", o.ContractedPowerKW, 0, math.MaxFloat64)
	if o.PUE != 0 {
		p.quantity("pue", o.PUE, 1, 10)
	}
	p.money("energyPerKWh", o.EnergyPerKWh)
	p.money("colocationPerKWMonth", o.ColocationPerKWMonth)
	p.quantity("maintenanceFractionPerYear", o.MaintenanceFractionPerYear, 0, 1)
	p.quantity("staffFTEPerNode", o.StaffFTEPerNode, 0, math.MaxFloat64)
	p.money("staffCostPerYear", o.StaffCostPerYear)
	p.duration("procurementLeadTime", o.ProcurementLeadTime)
	o.Resale.validate(&p, "resale")
	return p.err()
}

// Schedule returns the depreciation of one node in each year of its useful
// life, per Method. The amounts are ≥ 0 and sum exactly to
// PurchasePerNode − SalvagePerNode. It returns nil for an invalid life, a
// salvage above the price or amounts beyond MaxExponent.
func (o Owned) Schedule() []decimal.Decimal {
	n := o.UsefulLifeYears
	if n < 1 || n > maxLifeYears || !moneyInBounds(o.SalvagePerNode) || !moneyInBounds(o.PurchasePerNode) ||
		o.SalvagePerNode.GreaterThan(o.PurchasePerNode) {
		return nil
	}
	base := o.PurchasePerNode.Sub(o.SalvagePerNode)
	out := make([]decimal.Decimal, n)
	switch o.Method {
	case DoubleDeclining:
		rate := decimal.NewFromInt(2).DivRound(decimal.NewFromInt(int64(n)), Precision)
		book := o.PurchasePerNode
		for y := range n {
			left := book.Sub(o.SalvagePerNode)
			dep := decimal.Max(book.Mul(rate).Round(Precision),
				left.DivRound(decimal.NewFromInt(int64(n-y)), Precision))
			if y == n-1 || dep.GreaterThan(left) {
				dep = left
			}
			out[y] = dep
			book = book.Sub(dep)
		}
	case SumOfYearsDigits:
		sum := decimal.NewFromInt(int64(n * (n + 1) / 2))
		var acc decimal.Decimal
		for y := range n {
			if y == n-1 {
				out[y] = base.Sub(acc)
				break
			}
			out[y] = base.Mul(decimal.NewFromInt(int64(n-y))).DivRound(sum, Precision)
			acc = acc.Add(out[y])
		}
	default: // StraightLine
		per := base.DivRound(decimal.NewFromInt(int64(n)), Precision)
		for y := range n {
			out[y] = per
		}
		out[n-1] = base.Sub(per.Mul(decimal.NewFromInt(int64(n - 1))))
	}
	return out
}

// BookValue returns the book value of one node at age t: PurchasePerNode at
// t ≤ 0, SalvagePerNode from the end of the useful life on, and in between the
// price less the depreciation of the whole years elapsed and a pro-rata share
// of the current year's. It never rises with t.
func (o Owned) BookValue(t time.Duration) decimal.Decimal {
	n := o.UsefulLifeYears
	if n < 1 || n > maxLifeYears || !moneyInBounds(o.SalvagePerNode) || !moneyInBounds(o.PurchasePerNode) ||
		o.SalvagePerNode.GreaterThan(o.PurchasePerNode) {
		return decimal.Zero // as Schedule: no schedule for an invalid life or salvage
	}
	if t <= 0 {
		return o.PurchasePerNode
	}
	full := int(t / Year)
	if full >= n {
		return o.SalvagePerNode
	}
	frac := decimal.NewFromInt(int64(t%Year)).DivRound(nsPerYear, Precision)
	if o.Method == StraightLine {
		// Schedule's straight line, without building it: per a year, the
		// rest of the base in the last year.
		base := o.PurchasePerNode.Sub(o.SalvagePerNode)
		per := base.DivRound(decimal.NewFromInt(int64(n)), Precision)
		cur := per
		if full == n-1 {
			cur = base.Sub(per.Mul(decimal.NewFromInt(int64(n - 1))))
		}
		book := o.PurchasePerNode.Sub(per.Mul(decimal.NewFromInt(int64(full))))
		return book.Sub(cur.Mul(frac).Round(Precision))
	}
	sched := o.Schedule()
	book := o.PurchasePerNode
	for _, d := range sched[:full] {
		book = book.Sub(d)
	}
	return book.Sub(sched[full].Mul(frac).Round(Precision))
}

// Charges prices u.Nodes nodes held for u.Horizon at mean busy fraction
// u.BusyFraction; runs are ignored. Lines, in order:
//   - Capital "purchase": PurchasePerNode·Nodes, Upfront;
//   - Power "energy": Nodes·(Idle + (Max − Idle)·busy)·PUE·hours·EnergyPerKWh, Spread;
//   - Facility "colocation": Nodes·ContractedPowerKW·ColocationPerKWMonth·hours/730, Spread;
//   - Facility "maintenance": Nodes·PurchasePerNode·MaintenanceFractionPerYear·hours/8760, Spread;
//   - Staff "operations staff": Nodes·StaffFTEPerNode·StaffCostPerYear·hours/8760, Spread;
//   - Residual "resale value at market": −Nodes·PurchasePerNode·Resale.Fraction(Horizon),
//     AtEnd, when Resale has a curve; otherwise Residual "residual at book value":
//     −Nodes·BookValue(Horizon), AtEnd.
func (o Owned) Charges(u Usage) ([]Charge, error) {
	if err := u.Validate(); err != nil {
		return nil, err
	}
	if err := o.Validate(); err != nil {
		return nil, err
	}
	return o.charges(u), nil
}

// charges is Charges of a valid usage and pricing.
func (o Owned) charges(u Usage) []Charge {
	nodes := decimal.NewFromInt(int64(u.Nodes))
	perNodes := func(d decimal.Decimal) decimal.Decimal { // ×Nodes; exact
		if u.Nodes == 1 || d.IsZero() {
			return d
		}
		return d.Mul(nodes)
	}
	ns := decimal.NewFromInt(int64(u.Horizon))
	// Each time-based line is (amount per unit of time) × ns with one
	// rounding; a zero price or quantity makes a zero line.
	over := func(amount, per decimal.Decimal) decimal.Decimal {
		if amount.IsZero() || u.Horizon == 0 {
			return decimal.Zero
		}
		return amount.Mul(ns).DivRound(per, Precision)
	}
	times := func(f float64, d decimal.Decimal) decimal.Decimal {
		if f == 0 || d.IsZero() {
			return decimal.Zero
		}
		return decFloat(f).Mul(d)
	}

	pue := o.PUE
	if pue == 0 {
		pue = 1
	}
	drawKW := o.IdlePowerKW + (o.MaxPowerKW-o.IdlePowerKW)*u.BusyFraction
	energy := decimal.Zero
	if drawKW != 0 && !o.EnergyPerKWh.IsZero() {
		energy = over(perNodes(decFloat(drawKW)).Mul(decFloat(pue)).Mul(o.EnergyPerKWh), nsPerHour)
	}
	contracted := o.ContractedPowerKW
	if contracted == 0 {
		contracted = o.MaxPowerKW
	}
	colo := over(perNodes(times(contracted, o.ColocationPerKWMonth)), nsPerMonth)
	maint := over(perNodes(times(o.MaintenanceFractionPerYear, o.PurchasePerNode)), nsPerYear)
	staff := over(perNodes(times(o.StaffFTEPerNode, o.StaffCostPerYear)), nsPerYear)
	residual, residualLabel := perNodes(o.BookValue(u.Horizon)), "residual at book value"
	if !o.Resale.IsZero() {
		residual, residualLabel = perNodes(o.Resale.resaleValue(o.PurchasePerNode, u.Horizon)), "resale value at market"
	}
	return []Charge{
		{Category: Capital, Label: "purchase", Amount: perNodes(o.PurchasePerNode), Timing: Upfront},
		{Category: Power, Label: "energy", Amount: energy, Timing: Spread},
		{Category: Facility, Label: "colocation", Amount: colo, Timing: Spread},
		{Category: Facility, Label: "maintenance", Amount: maint, Timing: Spread},
		{Category: Staff, Label: "operations staff", Amount: staff, Timing: Spread},
		{Category: Residual, Label: residualLabel, Amount: residual.Neg(), Timing: AtEnd},
	}
}

// Scale returns o with every money amount (purchase, salvage, energy,
// colocation and staff cost) multiplied by k.
func (o Owned) Scale(k decimal.Decimal) Pricing {
	o.PurchasePerNode = o.PurchasePerNode.Mul(k)
	o.SalvagePerNode = o.SalvagePerNode.Mul(k)
	o.EnergyPerKWh = o.EnergyPerKWh.Mul(k)
	o.ColocationPerKWMonth = o.ColocationPerKWMonth.Mul(k)
	o.StaffCostPerYear = o.StaffCostPerYear.Mul(k)
	return o
}

// LeadTime returns the procurement lead time (see LeadTimer).
func (o Owned) LeadTime() time.Duration { return o.ProcurementLeadTime }

// Commitment returns zero: a node bought is held for the whole horizon and
// its residual value comes back at the end (see Committer).
func (o Owned) Commitment() time.Duration { return 0 }

// Rates returns the charges of one idle node held over horizon as PerNode
// rates — purchase, energy at idle, colocation, maintenance, staff and the
// residual value — followed by the Power rate "energy above idle" per busy
// node-hour, (MaxPowerKW − IdlePowerKW)·PUE·EnergyPerKWh (see Linear).
func (o Owned) Rates(horizon time.Duration) ([]Rate, error) {
	if err := ratesCheck(o, horizon); err != nil {
		return nil, err
	}
	cs := o.charges(Usage{Horizon: horizon, Nodes: 1})
	pue := o.PUE
	if pue == 0 {
		pue = 1
	}
	busy := decimal.Zero
	if above := o.MaxPowerKW - o.IdlePowerKW; above != 0 && !o.EnergyPerKWh.IsZero() {
		busy = decFloat(above).Mul(decFloat(pue)).Mul(o.EnergyPerKWh)
	}
	return append(perNode(cs), Rate{Category: Power, Label: "energy above idle", Timing: Spread, Basis: PerBusyNodeHour, Amount: busy}), nil
}

// WithEnergyPerKWh returns o at another energy price (see EnergyPricer).
func (o Owned) WithEnergyPerKWh(price decimal.Decimal) Pricing {
	o.EnergyPerKWh = price
	return o
}
