package tco_test

import (
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/gputco/gputco/provider"
	"github.com/gputco/gputco/tco"
	"github.com/gputco/gputco/workload"
	"pgregory.net/rapid"
)

// rv3Duration draws a duration: tiny, ordinary, huge or an extreme.
func rv3Duration(t *rapid.T, name string) time.Duration {
	return time.Duration(rapid.OneOf(
		rapid.Int64Range(-10, 10),
		rapid.Int64Range(1, int64(1000*time.Hour)),
		rapid.Int64Range(int64(1000*time.Hour), math.MaxInt64),
		rapid.SampledFrom([]int64{math.MaxInt64, math.MinInt64, 1, int64(time.Hour), int64(time.Minute)}),
	).Draw(t, name))
}

// review3ClosedForms: YoungInterval and DalyInterval are their documented
// formulas (to float precision, at least 1 ns) or an error; the expected
// wall times are never below the work (to float precision).
func review3ClosedForms(t *rapid.T) {
	d, m := rv3Duration(t, "delta"), rv3Duration(t, "mtti")
	y, err := tco.YoungInterval(d, m)
	if err == nil {
		want := math.Max(1, math.Sqrt(2*float64(d)*float64(m)))
		if math.Abs(float64(y)-want) > 1e-9*want+1 {
			t.Fatalf("YoungInterval(%v, %v) = %v, want %g ns", d, m, y, want)
		}
	} else if d > 0 && m > 0 && !errors.Is(err, tco.ErrDurationOverflow) {
		t.Fatalf("YoungInterval(%v, %v): %v", d, m, err)
	}
	if dl, err := tco.DalyInterval(d, m); err == nil {
		fd, fm := float64(d), float64(m)
		want := fm
		if fd < 2*fm {
			r := fd / (2 * fm)
			want = math.Sqrt(2*fd*fm)*(1+math.Sqrt(r)/3+r/9) - fd
		}
		want = math.Max(1, want)
		if math.Abs(float64(dl)-want) > 1e-9*want+1 {
			t.Fatalf("DalyInterval(%v, %v) = %v, want %g ns", d, m, dl, want)
		}
	}
	w, r, tau := rv3Duration(t, "work"), rv3Duration(t, "restart"), rv3Duration(t, "tau")
	if ew, err := tco.ExpectedWallTime(w, d, r, m, tau); err == nil && float64(ew) < float64(w)*(1-1e-12) {
		t.Fatalf("ExpectedWallTime(%v, δ %v, R %v, M %v, τ %v) = %v, below the work", w, d, r, m, tau, ew)
	}
	if sw, err := tco.StatelessWallTime(w, r, m, tau); err == nil && float64(sw) < float64(w)*(1-1e-12) {
		t.Fatalf("StatelessWallTime(%v, R %v, M %v, L %v) = %v, below the work", w, r, m, tau, sw)
	}
}

func TestReview3ClosedForms(t *testing.T) { rapid.Check(t, review3ClosedForms) }
func FuzzReview3ClosedForms(f *testing.F) { f.Fuzz(rapid.MakeFuzz(review3ClosedForms)) }

// rv3Scenario is the README's workloads example.
const rv3Scenario = `{
  "name": "my team",
  "workloads": [
    {
      "name": "fine-tune", "kind": "fine-tuning", "gpus": 8, "workGPUHours": 96, "deadline": "48h",
      "requirements": {"minMemoryGiB": 80, "models": {"H100 SXM": 1, "A100 80GB": 0.315}},
      "interruption": {"tolerance": "checkpointed", "checkpointTime": "2m", "restartTime": "5m"},
      "data": {"datasetGB": 200, "checkpointGB": 140}
    },
    {
      "name": "chat", "kind": "inference", "gpus": 64, "horizon": "8760h",
      "demand": {"type": "diurnal", "mean": 0.6, "amplitude": 0.4, "peakHour": 14},
      "requirements": {"minMemoryGiB": 40},
      "interruption": {"tolerance": "stateless", "restartTime": "3m"},
      "data": {"datasetGB": 150, "egressGBPerMonth": 5000},
      "setup": {"engineerHours": 40}
    }
  ]
}
`

// TestReview3RankMatchesEvaluate: on the default catalog and the README's
// scenario (a fine-tuning job and a chat service), under default, discounted
// and one-year assumptions, Rank holds every offer once — a report exactly
// when tco.Evaluate succeeds, with Evaluate's total — sorted by present
// value.
func TestReview3RankMatchesEvaluate(t *testing.T) {
	cat, err := provider.Default()
	if err != nil {
		t.Fatal(err)
	}
	sc, err := workload.ReadScenario(strings.NewReader(rv3Scenario))
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range []tco.Assumptions{{}, {DiscountRatePerYear: 0.08}, {Horizon: provider.Year}} {
		for _, w := range sc.Workloads {
			r, err := tco.Rank(w, cat.Offers, a)
			if err != nil {
				t.Fatal(err)
			}
			if len(r.Reports)+len(r.Excluded) != len(cat.Offers) {
				t.Errorf("%s: %d + %d != %d", w.Name, len(r.Reports), len(r.Excluded), len(cat.Offers))
			}
			byID := map[string]tco.Report{}
			for i, rep := range r.Reports {
				byID[rep.Offer] = rep
				if i > 0 && rep.PresentValue.LessThan(r.Reports[i-1].PresentValue) {
					t.Errorf("%s: not sorted at %d", w.Name, i)
				}
			}
			for _, o := range cat.Offers {
				rep, err := tco.Evaluate(w, o, a)
				got, ok := byID[o.ID]
				if (err == nil) != ok {
					t.Errorf("%s on %s: Evaluate err %v, in ranking %v", w.Name, o.ID, err, ok)
					continue
				}
				if ok && !rep.Total.Equal(got.Total) {
					t.Errorf("%s on %s: Evaluate %s, Rank %s", w.Name, o.ID, rep.Total, got.Total)
				}
			}
		}
	}
}
