package placement

import (
	"slices"
	"time"

	"github.com/gputco/gputco/provider"
	"github.com/gputco/gputco/tco"
	"github.com/shopspring/decimal"
)

// shortCommitment reports whether t is a short commitment: pay-as-you-go
// capacity billed in increments (or with a minimum) longer than
// tco.CommitmentThreshold but shorter than the horizon, which tco.Terms
// prices as a fraction of a node held for the horizon (fixed lines,
// fractional Own.Nodes).
func shortCommitment(t tco.Terms, horizon time.Duration) bool {
	if !t.Committed || t.Increment == 0 && t.Minimum == 0 {
		return false
	}
	return t.Term > 0 && t.Term < horizon
}

// perUse turns the terms of a short commitment into pay-as-you-go terms
// priced at the workload's own billing: each fixed line becomes a variable
// line of amount·Own.Nodes/Own.NodeHours, so the workload's own use costs
// exactly what tco.Evaluate bills for it (the billed node-time of its runs,
// rounded to increments and minimums) — the rounding of its billing is a
// stretch of its own, as on hourly billing. Terms that are not a short
// commitment are returned unchanged.
func perUse(t tco.Terms, horizon time.Duration) tco.Terms {
	if !shortCommitment(t, horizon) {
		return t
	}
	// The billed share of one node held for the horizon, per node-hour of
	// use; without use, a node held throughout.
	per := decimal.NewFromInt(1).DivRound(decimal.NewFromFloat(horizon.Hours()), provider.Precision)
	if t.Own.NodeHours > 0 && t.Own.Nodes > 0 {
		per = decimal.NewFromFloat(t.Own.Nodes).DivRound(decimal.NewFromFloat(t.Own.NodeHours), 2*provider.Precision)
	}
	out := t
	out.Lines = make([]tco.TermLine, len(t.Lines))
	out.FixedPerNode, out.VariablePerNodeHour = decimal.Zero, decimal.Zero
	for i, l := range t.Lines {
		if l.Kind == tco.Fixed {
			l.Kind, l.Owner = tco.Variable, tco.OwnerWorkload
			l.Amount = l.Amount.Mul(per).Round(2 * provider.Precision)
		}
		if l.Kind == tco.Variable {
			out.VariablePerNodeHour = out.VariablePerNodeHour.Add(l.Amount)
		}
		out.Lines[i] = l
	}
	out.Committed, out.Term = false, 0
	if t.Own.NodeHours > 0 {
		// Billed node-hours (the fraction of a node held, each held for the
		// horizon rounded up to whole increments) per node-hour of use.
		held := heldHours(t.Increment, t.Minimum, horizon)
		out.Stretch = t.Own.Nodes * held / t.Own.NodeHours
	}
	out.Own.Nodes = 0
	return out
}

// heldHours is the billed hours of one node held for the horizon, billed in
// increments with a minimum: max(minimum, ⌈horizon/increment⌉·increment).
func heldHours(increment, minimum, horizon time.Duration) float64 {
	billed := horizon
	if increment > 0 {
		n := horizon / increment
		if horizon%increment != 0 {
			n++
		}
		billed = n * increment
	}
	return max(billed, minimum).Hours()
}

// busyPerUse returns a service's terms on o with each rate per busy
// node-hour (an owned server's energy above idle) at the rate itself per
// node-hour of use. tco spreads such a rate over the whole nodes a lone
// service holds in each slice (busy node-hours per node-hour held, below 1
// when demand is a fraction of a node, and varying with the curve's
// shape); in the plan a service's use is its demand in GPUs, every one of
// them busy, so the rate applies as it is. The two agree when each slice
// needs whole nodes. Terms without such a rate are returned unchanged.
func busyPerUse(t tco.Terms, o provider.Offer, horizon time.Duration) tco.Terms {
	lin, ok := provider.As[provider.Linear](o.Pricing)
	if !ok {
		return t
	}
	rates, err := lin.Rates(horizon)
	if err != nil {
		return t
	}
	var lines []tco.TermLine
	for _, r := range rates {
		if r.Basis != provider.PerBusyNodeHour {
			continue
		}
		for i, l := range t.Lines {
			if l.Kind != tco.Variable || l.Category != r.Category || l.Label != r.Label || l.Amount.Equal(r.Amount) {
				continue
			}
			if lines == nil {
				lines = slices.Clone(t.Lines)
			}
			t.VariablePerNodeHour = t.VariablePerNodeHour.Sub(l.Amount).Add(r.Amount)
			lines[i].Amount = r.Amount
		}
	}
	if lines != nil {
		t.Lines = lines
	}
	return t
}

// sharedEgress turns a service's monthly egress (the one-off line of data
// transfer spread over the horizon: the data it sends out per month) into
// a variable line of amount/Own.NodeHours, so that a service split over
// offers pays it once, each use its share of the node-hours of its own
// use alone, rather than in full on every offer it uses. Terms without
// such a line, or without node-hours of their own, are returned unchanged.
func sharedEgress(t tco.Terms) tco.Terms {
	hours := decimal.NewFromFloat(t.Own.NodeHours)
	if t.Own.NodeHours <= 0 {
		return t
	}
	var lines []tco.TermLine
	for i, l := range t.Lines {
		if l.Kind != tco.OneOff || l.Category != provider.DataTransfer || l.Timing != provider.Spread || l.Amount.IsZero() {
			continue
		}
		if lines == nil {
			lines = slices.Clone(t.Lines)
		}
		per := l.Amount.DivRound(hours, 2*provider.Precision)
		t.OneOff = t.OneOff.Sub(l.Amount)
		t.VariablePerNodeHour = t.VariablePerNodeHour.Add(per)
		lines[i].Kind, lines[i].Amount = tco.Variable, per
	}
	if lines != nil {
		t.Lines = lines
	}
	return t
}
