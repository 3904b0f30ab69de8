package placement

import (
	"github.com/gputco/gputco/provider"
	"github.com/gputco/gputco/tco"
	"github.com/shopspring/decimal"
)

// stretchSplit is how tco.Evaluate divides a pair's variable compute at its
// own use: the compute line of the terms carries the stretch of billed time
// by a slower fabric, preemptions and failures (tco.Terms.Stretch), which
// Evaluate reports as hidden lines of their own.
type stretchSplit struct {
	line   int // index of the variable compute line in the terms
	shares []stretchShare
}

// stretchShare is one hidden stage's share of the variable compute line.
type stretchShare struct {
	category provider.Category
	label    string
	frac     decimal.Decimal
}

// stretchCategories are the hidden stages folded into the variable compute
// line of tco.Terms.
var stretchCategories = []provider.Category{provider.Inefficiency, provider.Preemption, provider.Recovery}

// stretchOf returns the split of pair q's variable compute line (t: its
// terms, termsOf's), nil when the terms have no stretch, more than one
// variable compute line, or Evaluate's lines do not add up to the line at
// the workload's own use (then the plan keeps the line whole).
func (in *instance) stretchOf(q int, t tco.Terms) *stretchSplit {
	pr := &in.pairs[q]
	if t.Stretch <= 1 || t.Own.NodeHours <= 0 {
		return nil
	}
	line := -1
	for i, l := range t.Lines {
		if l.Kind == tco.Variable && l.Category == provider.Compute {
			if line >= 0 {
				return nil
			}
			line = i
		}
	}
	if line < 0 {
		return nil
	}
	free := in.os[pr.k].o
	free.Availability.MaxNodes = 0
	rep, err := in.ws[pr.w].prep.Evaluate(free)
	if err != nil {
		return nil
	}
	compute, stages := decimal.Zero, decimal.Zero
	var shares []stretchShare
	for _, l := range rep.Lines {
		switch {
		case l.Category == provider.Compute:
			compute = compute.Add(l.Amount)
		case isStretch(l.Category) && l.Owner == tco.OwnerWorkload && l.Amount.IsPositive():
			stages = stages.Add(l.Amount)
			shares = append(shares, stretchShare{category: l.Category, label: l.Label, frac: l.Amount})
		}
	}
	whole := compute.Add(stages)
	atOwn := t.Lines[line].Amount.Mul(decimal.NewFromFloat(t.Own.NodeHours))
	if len(shares) == 0 || !whole.IsPositive() {
		return nil
	}
	if d, _ := atOwn.Sub(whole).Abs().Div(whole).Float64(); d > 1e-9 {
		return nil
	}
	for i := range shares {
		shares[i].frac = shares[i].frac.DivRound(whole, 2*provider.Precision)
	}
	return &stretchSplit{line: line, shares: shares}
}

// isStretch reports whether c is a stage of stretchCategories.
func isStretch(c provider.Category) bool {
	for _, s := range stretchCategories {
		if c == s {
			return true
		}
	}
	return false
}

// split divides the amount of the variable compute line l into the compute
// proper and the hidden stages' lines; their amounts sum to amount exactly.
func (s *stretchSplit) split(l tco.TermLine, amount decimal.Decimal) []tco.Line {
	out := make([]tco.Line, 0, 1+len(s.shares))
	rest := amount
	for _, sh := range s.shares {
		part := amount.Mul(sh.frac).Round(provider.Precision)
		rest = rest.Sub(part)
		out = append(out, tco.Line{Charge: provider.Charge{Category: sh.category, Label: sh.label, Amount: part, Timing: provider.Spread},
			Owner: tco.OwnerWorkload})
	}
	return append([]tco.Line{line(l, rest)}, out...)
}
