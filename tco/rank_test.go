package tco_test

import (
	"errors"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/gputco/gputco/provider"
	"github.com/gputco/gputco/tco"
	"github.com/gputco/gputco/workload"
	"github.com/gputco/gputco/workload/workloadtest"
	"github.com/shopspring/decimal"
	"pgregory.net/rapid"
)

func defaultOffers(t testing.TB) []provider.Offer {
	t.Helper()
	c, err := provider.Default()
	if err != nil {
		t.Fatal(err)
	}
	return c.Offers
}

// TestRankDefaultCatalog ranks every fixture workload over the default
// catalog: every offer is either ranked or excluded; the ranked reports are
// Evaluate's, in order of present value; every exclusion is Evaluate's error,
// and a compatibility exclusion says which question failed.
func TestRankDefaultCatalog(t *testing.T) {
	offers := defaultOffers(t)
	for _, w := range workloadtest.All() {
		t.Run(w.Name, func(t *testing.T) {
			a := tco.Assumptions{DiscountRatePerYear: 0.08}
			r, err := tco.Rank(w, offers, a)
			if err != nil {
				t.Fatal(err)
			}
			if len(r.Reports)+len(r.Excluded) != len(offers) {
				t.Fatalf("%d ranked + %d excluded, want %d offers", len(r.Reports), len(r.Excluded), len(offers))
			}
			// The medical job must stay in Germany on hardware under its own
			// control: no default offer can take it, each for its requirements.
			if none := w.Name == workloadtest.MedicalName; none != (len(r.Reports) == 0) {
				t.Fatalf("%d offers ranked; want none only for %s", len(r.Reports), workloadtest.MedicalName)
			}
			byID := map[string]provider.Offer{}
			for _, o := range offers {
				byID[o.ID] = o
			}
			for i, rep := range r.Reports {
				if i > 0 && rep.PresentValue.LessThan(r.Reports[i-1].PresentValue) {
					t.Errorf("report %d (%s, PV %s) ranked after %s (PV %s)", i, rep.Offer, rep.PresentValue, r.Reports[i-1].Offer, r.Reports[i-1].PresentValue)
				}
				want, err := tco.Evaluate(w, byID[rep.Offer], a)
				if err != nil {
					t.Fatalf("%s ranked but Evaluate fails: %v", rep.Offer, err)
				}
				if diff := cmp.Diff(want, rep); diff != "" {
					t.Errorf("%s: ranked report differs from Evaluate's (-evaluate +rank):\n%s", rep.Offer, diff)
				}
			}
			for _, ex := range r.Excluded {
				_, err := tco.Evaluate(w, byID[ex.Offer], a)
				if err == nil || err.Error() != ex.Err.Error() {
					t.Errorf("%s excluded with %v, Evaluate says %v", ex.Offer, ex.Err, err)
				}
				if tco.IsCompatible(w, byID[ex.Offer]) != (tco.Compatible(w, byID[ex.Offer]) == nil) {
					t.Errorf("%s: IsCompatible disagrees with Compatible", ex.Offer)
				}
				var ce *tco.CompatibilityError
				if errors.As(ex.Err, &ce) && ce.Offer != ex.Offer {
					t.Errorf("exclusion of %s names offer %q", ex.Offer, ce.Offer)
				}
				if w.Name == workloadtest.MedicalName && (ce == nil || ce.Check != tco.CheckRequirements) {
					t.Errorf("%s excluded with %v, want a requirements error", ex.Offer, ex.Err)
				}
			}
		})
	}
}

// TestRankExcludes: an offer with too little GPU memory is excluded by the
// requirements question, one with no stock by the offered question, an
// invalid one by its validation error; offers in two currencies are an error.
func TestRankExcludes(t *testing.T) {
	w := compatJob()
	good := compatOffer()
	small := compatOffer()
	small.ID, small.GPU.MemoryGiB = "small", 40
	gone := compatOffer()
	gone.ID, gone.Availability.FillProbability = "gone", 0
	bad := compatOffer()
	bad.ID, bad.GPUsPerNode = "bad", 0
	r, err := tco.Rank(w, []provider.Offer{small, good, gone, bad}, tco.Assumptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Reports) != 1 || r.Reports[0].Offer != good.ID {
		t.Fatalf("ranked %v, want only %s", r.Reports, good.ID)
	}
	checks := map[string]tco.Check{"small": tco.CheckRequirements, "gone": tco.CheckOffered}
	for _, ex := range r.Excluded {
		var ce *tco.CompatibilityError
		switch ex.Offer {
		case "bad":
			if !errors.Is(ex.Err, provider.ErrZeroGPUs) {
				t.Errorf("invalid offer excluded with %v, want its validation error", ex.Err)
			}
		default:
			if !errors.As(ex.Err, &ce) || ce.Check != checks[ex.Offer] {
				t.Errorf("%s excluded with %v, want check %v", ex.Offer, ex.Err, checks[ex.Offer])
			}
		}
	}
	eur := compatOffer()
	eur.ID, eur.Currency = "eur", "EUR"
	usd := compatOffer()
	usd.Currency = "USD"
	if _, err := tco.Rank(w, []provider.Offer{usd, eur}, tco.Assumptions{}); !errors.Is(err, tco.ErrCurrency) {
		t.Errorf("two currencies: %v, want ErrCurrency", err)
	}
	if _, err := tco.Rank(workload.Workload{}, []provider.Offer{good}, tco.Assumptions{}); !errors.Is(err, workload.ErrRequired) {
		t.Errorf("invalid workload: %v, want its validation error", err)
	}
}

// propIsCompatible: IsCompatible(w, o) is Compatible(w, o) == nil on random
// jobs, services and offers, and it does not allocate.
func propIsCompatible(t *rapid.T) {
	c := termsCaseGen.Draw(t, "case")
	o := c.o
	o.GPU.MemoryGiB = float64(rapid.IntRange(16, 141).Draw(t, "GPU memory"))
	o.Isolation = provider.Isolation(rapid.IntRange(0, 2).Draw(t, "isolation"))
	o.Interconnect.Fabric = provider.Fabric(rapid.IntRange(0, 3).Draw(t, "fabric"))
	o.Jurisdiction = rapid.SampledFrom([]string{"US", "EU", ""}).Draw(t, "jurisdiction")
	o.Availability.MaxNodes = rapid.IntRange(0, 4).Draw(t, "max nodes")
	w := c.w
	w.Requirements.MinMemoryGiB = float64(rapid.IntRange(0, 100).Draw(t, "min memory"))
	w.Requirements.MinIsolation = workload.Isolation(rapid.IntRange(0, 2).Draw(t, "min isolation"))
	w.Requirements.Interconnect.Fabric = workload.Fabric(rapid.IntRange(0, 3).Draw(t, "min fabric"))
	if rapid.Bool().Draw(t, "jurisdictions") {
		w.Requirements.Jurisdictions = []string{"EU"}
	}
	if rapid.Bool().Draw(t, "no interruptions") {
		w.Interruption.Tolerance = workload.NoTolerance
	}
	if got, want := tco.IsCompatible(w, o), tco.Compatible(w, o) == nil; got != want {
		t.Fatalf("IsCompatible = %v, Compatible says %v (%v)", got, want, tco.Compatible(w, o))
	}
}

func TestIsCompatible(t *testing.T) { rapid.Check(t, propIsCompatible) }
func FuzzIsCompatible(f *testing.F) { f.Fuzz(rapid.MakeFuzz(propIsCompatible)) }

// TestIsCompatibleAllocates nothing, for a compatible and an incompatible
// pair, under a credit, with default speed factors.
func TestIsCompatibleAllocatesNothing(t *testing.T) {
	w := workloadtest.ChatInference()
	offers := defaultOffers(t)
	o := compatOffer()
	o.Pricing = provider.Credit{Base: o.Pricing, Amount: decimal.NewFromInt(10)}
	offers = append(offers, o)
	for _, o := range offers {
		if n := testing.AllocsPerRun(100, func() { tco.IsCompatible(w, o) }); n != 0 {
			t.Errorf("IsCompatible(%s, %s) allocates %v times", w.Name, o.ID, n)
		}
	}
}

// TestPreparedConcurrent prices one Prepared from several goroutines at once
// (run with -race): each gets the reports a single goroutine gets.
func TestPreparedConcurrent(t *testing.T) {
	offers := defaultOffers(t)
	p, err := tco.Prepare(workloadtest.ChatInference(), tco.Assumptions{DiscountRatePerYear: 0.05})
	if err != nil {
		t.Fatal(err)
	}
	want, err := p.Rank(offers)
	if err != nil {
		t.Fatal(err)
	}
	got := make([]tco.Ranking, 4)
	errs := make([]error, len(got))
	var wg sync.WaitGroup
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[i], errs[i] = p.Rank(offers)
		}()
	}
	wg.Wait()
	for i := range got {
		if errs[i] != nil {
			t.Fatal(errs[i])
		}
		if diff := cmp.Diff(want.Reports, got[i].Reports); diff != "" {
			t.Errorf("goroutine %d: reports differ (-sequential +concurrent):\n%s", i, diff)
		}
		if len(got[i].Excluded) != len(want.Excluded) {
			t.Errorf("goroutine %d: %d excluded, want %d", i, len(got[i].Excluded), len(want.Excluded))
		}
	}
}
