package tco

import (
	"time"

	"github.com/gputco/gputco/provider"
)

// CommitmentThreshold is the longest billing granularity — the larger of a
// pay-as-you-go mode's billing increment and minimum charge — at which its
// cost is a price per node-hour. A mode billed by the day or the week is a
// short commitment instead: a node started is paid for the whole increment,
// so Terms treats it as committed capacity with that term.
const CommitmentThreshold = time.Hour

// pricing is an offer's pricing resolved once through the provider's
// interfaces: the innermost mode, the wrappers (credits) around it, and what
// tco needs to know about it.
type pricing struct {
	// base is the innermost pricing, wrappers the ones around it, outermost
	// first.
	base     provider.Pricing
	wrappers []provider.Wrapper
	// metering is set for pay-as-you-go modes; nil means committed.
	metering provider.Metering
	// runsFree says the base's charges do not depend on the runs of a
	// usage (a provider.Committer).
	runsFree bool
	// interruptible says the provider may take capacity back; rate is the
	// interruptions per node-hour.
	interruptible bool
	rate          float64
}

// resolve looks p up through the provider's interfaces. p is valid.
func resolve(p provider.Pricing) pricing {
	r := pricing{}
	r.base, r.wrappers = provider.Unwrap(p)
	r.metering, _ = provider.As[provider.Metering](p)
	_, r.runsFree = r.base.(provider.Committer)
	if i, ok := provider.As[provider.Interruptible](p); ok {
		r.interruptible = true
		r.rate, _ = i.Interruptions()
	}
	return r
}

// interruptible reports whether p's capacity may be taken back at any moment.
func interruptible(p provider.Pricing) bool {
	_, ok := provider.As[provider.Interruptible](p)
	return ok
}

// payAsYouGo reports whether the pricing bills runs rather than capacity held.
func (p *pricing) payAsYouGo() bool { return p.metering != nil }

// granularity returns the larger of the billing increment and minimum of a
// pay-as-you-go pricing (zero for committed ones).
func (p *pricing) granularity() time.Duration {
	if p.metering == nil {
		return 0
	}
	inc, minimum := p.metering.Granularity()
	return max(inc, minimum)
}

// billedNodeHours returns the node-hours a usage pays for: for pay-as-you-go
// pricing its runs with their billing increments and minimums, otherwise the
// nodes held for the horizon.
func (p *pricing) billedNodeHours(u provider.Usage) float64 {
	if p.metering == nil {
		return u.Horizon.Hours() * float64(u.Nodes)
	}
	h := 0.0
	for _, r := range u.Runs {
		h += p.metering.BilledDuration(r.Length).Hours() * float64(r.Count) * float64(r.Nodes)
	}
	return h
}
