package payments

import (
	"testing"
	"time"

	"github.com/gputco/gputco/provider"
	"github.com/shopspring/decimal"
	"pgregory.net/rapid"
)

// propParts: the parts of a charge sum exactly to its amount, each at a
// time within [Start, Start + Span] and in a month no later than its time;
// equal payments number Payments (one without a span or payments).
func propParts(t *rapid.T) {
	c := provider.Charge{Timing: provider.Scheduled,
		Amount:   decimal.New(rapid.Int64Range(0, 1e12).Draw(t, "cents"), -2),
		Start:    provider.Duration(time.Duration(rapid.Int64Range(0, 5*8760).Draw(t, "start hours")) * time.Hour),
		Span:     provider.Duration(time.Duration(rapid.Int64Range(0, 5*8760).Draw(t, "span hours")) * time.Hour),
		Payments: rapid.IntRange(0, 40).Draw(t, "payments")}
	ps := Parts(c)
	sum := decimal.Zero
	start, end := time.Duration(c.Start), time.Duration(c.Start)+time.Duration(c.Span)
	for _, p := range ps {
		sum = sum.Add(p.Amount)
		if p.At < start || p.At > end || p.Month > p.At {
			t.Fatalf("part %+v outside [%v, %v] or in a later month", p, start, end)
		}
	}
	if !sum.Equal(c.Amount) {
		t.Fatalf("parts sum to %s, want %s", sum, c.Amount)
	}
	switch {
	case c.Payments >= 1 && len(ps) != c.Payments:
		t.Fatalf("%d parts, want %d payments", len(ps), c.Payments)
	case c.Payments == 0 && c.Span == 0 && len(ps) != 1:
		t.Fatalf("%d parts without a span, want 1", len(ps))
	}
}

func TestParts(t *testing.T) { rapid.Check(t, propParts) }

func FuzzParts(f *testing.F) { f.Fuzz(rapid.MakeFuzz(propParts)) }
