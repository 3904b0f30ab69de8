package tco_test

import (
	"errors"
	"math"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/gputco/gputco/provider"
	"github.com/gputco/gputco/tco"
	"github.com/shopspring/decimal"
	"pgregory.net/rapid"
)

// termsPricingGen draws every built-in mode — evalPricingGen's, metered
// billing by the day or the week (short commitments), and a credit around any
// of them.
func termsPricingGen(t *rapid.T) provider.Pricing {
	var p provider.Pricing
	if rapid.IntRange(0, 5).Draw(t, "long increment") == 0 {
		inc := []time.Duration{24 * time.Hour, 7 * 24 * time.Hour}[rapid.IntRange(0, 1).Draw(t, "increment")]
		p = provider.Metered{RatePerHour: evalMoney(t, 10000, "rate per node-hour (cents)"), Increment: inc, Minimum: inc}
	} else {
		p = evalPricingGen(t)
	}
	if _, credited := p.(provider.Credit); !credited && rapid.IntRange(0, 4).Draw(t, "credit") == 0 {
		p = provider.Credit{Base: p, Amount: evalMoney(t, 100000000, "credit (cents)")}
	}
	return p
}

// termsCaseGen draws a job or a service on an offer of any built-in mode.
var termsCaseGen = rapid.Custom(func(t *rapid.T) evalCase {
	p := termsPricingGen(t)
	_, spot := provider.As[provider.Interruptible](p)
	o := evalOfferGen(t, p)
	if rapid.Bool().Draw(t, "service") {
		return evalCase{w: evalServiceGen(t), o: o, a: evalAssumptionsGen(t, true)}
	}
	return evalCase{w: evalJobGen(t, spot), o: o, a: evalAssumptionsGen(t, false)}
})

// termsTolerance is the rounding of one line per category: each category's
// terms may differ from its report lines by the rounding of a coefficient at
// provider.Precision times the quantity it is charged on, and by a few
// float64 roundings of the quantities (node-equivalents, busy hours): 10⁻¹²
// of the total per category (the worst seen over 3,000 cases is 1.5·10⁻¹³).
func termsTolerance(r tco.Report) decimal.Decimal {
	cats := map[provider.Category]bool{}
	for _, l := range r.Lines {
		cats[l.Category] = true
	}
	per := decimal.New(1, -12).Mul(decimal.Max(decimal.NewFromInt(1), r.Total.Abs()))
	return per.Mul(decimal.NewFromInt(int64(len(cats) + 1)))
}

// propTermsAtOwnUse: for every built-in mode and random workloads, the cost
// terms priced at the workload's own use equal Evaluate's total within the
// rounding of one line per category; the sums by kind are the sums of the
// lines; Prepared.Evaluate gives Evaluate's report.
func propTermsAtOwnUse(t *rapid.T) {
	c := termsCaseGen.Draw(t, "case")
	r := evalMust(t, c)
	p, err := tco.Prepare(c.w, c.a)
	if err != nil {
		t.Fatalf("Prepare: %v", err)
	}
	terms, err := p.Terms(c.o)
	if err != nil {
		t.Fatalf("Terms: %v", err)
	}
	got, err := terms.Cost(terms.Own)
	if err != nil {
		t.Fatalf("Cost(%+v): %v", terms.Own, err)
	}
	if tol := termsTolerance(r); !within(got, r.Total, tol) {
		t.Fatalf("terms at own use %+v cost %s, Evaluate's total %s (off by %s, tolerance %s)\nterms: %+v\nreport:\n%s",
			terms.Own, got, r.Total, got.Sub(r.Total), tol, terms, r)
	}
	sums := map[tco.TermKind]decimal.Decimal{}
	for _, l := range terms.Lines {
		sums[l.Kind] = sums[l.Kind].Add(l.Amount)
		if (l.Kind == tco.Fixed || l.Kind == tco.PerOffer) != (l.Owner == tco.OwnerOffer) && l.Category != provider.Fees {
			t.Fatalf("line %+v: fixed and per-offer lines belong to the offer, the others to the workload", l)
		}
	}
	for k, want := range map[tco.TermKind]decimal.Decimal{tco.Fixed: terms.FixedPerNode, tco.Variable: terms.VariablePerNodeHour, tco.OneOff: terms.OneOff, tco.PerOffer: terms.PerOffer} {
		if !sums[k].Equal(want) {
			t.Fatalf("%s lines sum to %s, field says %s", k, sums[k], want)
		}
	}
	if want := r.Finish - r.WallTime; r.Finish < math.MaxInt64/2 && terms.Ready != want {
		t.Fatalf("Ready %v, Evaluate's Finish %v less its wall time %v is %v", terms.Ready, r.Finish, r.WallTime, want)
	}
	if !terms.Committed && (terms.Own.Nodes != 0 || !terms.FixedPerNode.IsZero()) {
		t.Fatalf("pay-as-you-go terms hold %v nodes at %s fixed per node", terms.Own.Nodes, terms.FixedPerNode)
	}
	pr, err := p.Evaluate(c.o)
	if err != nil {
		t.Fatalf("Prepared.Evaluate: %v", err)
	}
	if diff := cmp.Diff(r, pr); diff != "" {
		t.Fatalf("Prepared.Evaluate differs from Evaluate (-evaluate +prepared):\n%s", diff)
	}
}

func TestTermsAtOwnUse(t *testing.T) { rapid.Check(t, propTermsAtOwnUse) }
func FuzzTermsAtOwnUse(f *testing.F) { f.Fuzz(rapid.MakeFuzz(propTermsAtOwnUse)) }

// within reports |a − b| ≤ tol.
func within(a, b, tol decimal.Decimal) bool { return a.Sub(b).Abs().LessThanOrEqual(tol) }

// TestTermsClosedForms checks the terms of simple pairs against their
// closed forms: a job billed per second is a price per node-hour; the same
// job billed by the week is a one-week commitment of the whole billed week;
// a reservation is its terms' price per node whatever the use; an owned
// server's power above idle is per node-hour of use.
func TestTermsClosedForms(t *testing.T) {
	rate := decimal.NewFromInt(20)
	week := 7 * 24 * time.Hour
	job := evalJob(8, 8*63) // one node of 8 GPUs for 63 hours
	owned := evalOwned()
	tests := []struct {
		name, reason string
		pricing      provider.Pricing
		committed    bool
		term         time.Duration
		fixed, vari  decimal.Decimal
		own          tco.Use
	}{
		{"per second", "63 h billed as 63 h: the rate per node-hour", provider.PerSecond(rate, time.Minute),
			false, 0, decimal.Zero, rate, tco.Use{NodeHours: 63}},
		{"weekly", "a week started is a week paid: 168 h for 63 h of use", provider.Metered{RatePerHour: rate, Increment: week, Minimum: week},
			true, week, rate.Mul(decimal.NewFromInt(168)), decimal.Zero, tco.Use{Nodes: 1, NodeHours: 63}},
		{"monthly reservation", "one month's upfront covers 63 h", provider.Monthly(decimal.NewFromInt(9000)),
			true, provider.Month, decimal.NewFromInt(9000), decimal.Zero, tco.Use{Nodes: 1, NodeHours: 63}},
		{"owned", "power above idle: (7.5 − 1.5) kW × PUE 1.2 × $0.10 per busy node-hour", owned,
			true, 0, decimal.Zero, decimal.RequireFromString("0.72"), tco.Use{Nodes: 1, NodeHours: 63}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			terms, err := tco.CostTerms(job, evalOffer("o", tt.pricing), tco.Assumptions{})
			if err != nil {
				t.Fatal(err)
			}
			if terms.Committed != tt.committed || terms.Term != tt.term {
				t.Errorf("committed %v term %v, want %v %v (%s)", terms.Committed, terms.Term, tt.committed, tt.term, tt.reason)
			}
			if !within(terms.VariablePerNodeHour, tt.vari, decimal.New(1, -12)) {
				t.Errorf("variable %s per node-hour, want %s (%s)", terms.VariablePerNodeHour, tt.vari, tt.reason)
			}
			if tt.name != "owned" && !within(terms.FixedPerNode, tt.fixed, decimal.New(1, -12)) {
				t.Errorf("fixed %s per node, want %s (%s)", terms.FixedPerNode, tt.fixed, tt.reason)
			}
			if math.Abs(terms.Own.Nodes-tt.own.Nodes) > 1e-12 || math.Abs(terms.Own.NodeHours-tt.own.NodeHours) > 1e-9 {
				t.Errorf("own use %+v, want %+v (%s)", terms.Own, tt.own, tt.reason)
			}
			if terms.GPUsPerNode != 8 || terms.SpeedFactor != 1 || terms.Efficiency != 1 || terms.Stretch != 1 {
				t.Errorf("node %d GPUs, speed %v, efficiency %v, stretch %v; want 8, 1, 1, 1", terms.GPUsPerNode, terms.SpeedFactor, terms.Efficiency, terms.Stretch)
			}
		})
	}
	if _, err := (tco.Terms{}).Cost(tco.Use{Nodes: math.NaN()}); !errors.Is(err, tco.ErrNotFinite) {
		t.Errorf("Cost of NaN nodes: %v, want ErrNotFinite", err)
	}
	var zero tco.Prepared
	if _, err := zero.Terms(evalOffer("o", provider.Hourly(rate))); !errors.Is(err, tco.ErrNotPrepared) {
		t.Errorf("zero Prepared: %v, want ErrNotPrepared", err)
	}
}
