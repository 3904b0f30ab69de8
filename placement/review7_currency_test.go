package placement_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/gputco/gputco/placement"
	"github.com/gputco/gputco/provider"
	"github.com/gputco/gputco/workload"
)

// TestReview7CatalogCurrency: provider.Offer.Currency "empty means the
// catalog's", and every offer of provider.Default() has it empty (the
// catalog says USD). Problem.Offers are "one currency", checked by
// ErrCurrency — but Solve skips empty currencies: a default-catalog-style
// offer (Currency "", i.e. USD) next to an offer in EUR passes, and the
// plan adds their amounts (a service on both: 2 × 8 760 USD + 2.5 × 8 760
// EUR = 39 420, reported as EUR). With only catalog offers Plan.Currency is
// empty, so Plan.String prints "total 622201.80 , bound …" (examples/
// hybrid's first line, docs/output/hybrid.txt) and the JSON has no
// "currency". Expected: ErrCurrency (or ErrInvalid) when an offer without
// a currency meets one with, and the catalog's currency known to the plan.
// Severity: medium for the mixed sum (a total in two currencies), low for
// the empty currency.
func TestReview7CatalogCurrency(t *testing.T) {
	w := steady("svc", 16, 1)
	w.Horizon = provider.Year
	usd := onDemand("usd", "2", 8, 1)
	usd.Currency = ""
	eur := onDemand("eur", "2.5", 8, 1)
	eur.Currency = "EUR"
	plan, err := placement.Solve(context.Background(), placement.Problem{Workloads: []workload.Workload{w},
		Offers: []provider.Offer{usd, eur}, Assumptions: bare(), Options: placement.Options{Period: 24 * time.Hour, Slices: 2}})
	if err == nil {
		t.Errorf("offers in \"\" (a catalog's currency) and EUR: no error; plan total %s %s over %d uses", plan.Total, plan.Currency, len(plan.Assignments[0].Uses))
	} else if !errors.Is(err, placement.ErrCurrency) && !errors.Is(err, placement.ErrInvalid) {
		t.Errorf("err %v, want ErrCurrency", err)
	}
	usd2 := usd
	usd2.ID = "usd2"
	plan, err = placement.Solve(context.Background(), placement.Problem{Workloads: []workload.Workload{w},
		Offers: []provider.Offer{usd, usd2}, Assumptions: bare(), Options: placement.Options{Period: 24 * time.Hour, Slices: 2}})
	if err != nil {
		t.Fatal(err)
	}
	if first := strings.SplitN(plan.String(), "\n", 2)[0]; strings.Contains(first, " , ") {
		t.Errorf("String: %q (Currency %q)", first, plan.Currency)
	}
}
