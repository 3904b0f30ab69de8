package gputco_test

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/gputco/gputco/provider"
	"github.com/gputco/gputco/tco"
	"github.com/gputco/gputco/workload"
	"github.com/shopspring/decimal"
)

// The README's pricing-mode snippet, verbatim: its declarations here, its
// statements in TestREADMEFlatMode (TestREADMEFlatSnippet compares them).

// README: flat mode
// Flat bills a fixed fee per node per month, whatever the use.
type Flat struct {
	FeePerNodeMonth decimal.Decimal `json:"feePerNodeMonth"`
}

func (f Flat) Mode() string { return "flat" }

func (f Flat) Validate() error {
	if f.FeePerNodeMonth.IsNegative() {
		return &provider.FieldError{Field: "feePerNodeMonth", Value: f.FeePerNodeMonth.String(), Err: provider.ErrNegative}
	}
	return nil
}

func (f Flat) Charges(u provider.Usage) ([]provider.Charge, error) {
	if err := u.Validate(); err != nil {
		return nil, err
	}
	if err := f.Validate(); err != nil {
		return nil, err
	}
	months := decimal.NewFromInt(int64(u.Horizon)).DivRound(decimal.NewFromInt(int64(provider.Month)), provider.Precision)
	amount := f.FeePerNodeMonth.Mul(decimal.NewFromInt(int64(u.Nodes))).Mul(months)
	return []provider.Charge{{Category: provider.Commitment, Label: "flat fee", Amount: amount, Timing: provider.Spread}}, nil
}

// end of README: flat mode

// flatCatalog is a catalog with one offer of the snippet's mode and one
// built-in offer.
const flatCatalog = `{
  "currency": "USD",
  "asOf": "2026-11-01",
  "offers": [
    {
      "id": "flat-8x-h100", "provider": "Example", "kind": "gpu-platform", "region": "us", "jurisdiction": "US",
      "gpu": {"model": "H100 SXM", "memoryGiB": 80, "bf16TFLOPS": 989, "tdpWatts": 700, "class": "datacenter"},
      "gpusPerNode": 8,
      "interconnect": {"fabric": "none", "gbpsPerNode": 0, "nvlink": true},
      "isolation": "dedicated",
      "pricing": {"mode": "flat", "feePerNodeMonth": "10000"},
      "availability": {"fillProbability": 1, "maxNodes": 0, "leadTime": "0s"},
      "hidden": {},
      "source": {"name": "invented for a test", "asOf": "2026-11-01"}
    },
    {
      "id": "metered-8x-h100", "provider": "Example", "kind": "gpu-platform", "region": "us", "jurisdiction": "US",
      "gpu": {"model": "H100 SXM", "memoryGiB": 80, "bf16TFLOPS": 989, "tdpWatts": 700, "class": "datacenter"},
      "gpusPerNode": 8,
      "interconnect": {"fabric": "none", "gbpsPerNode": 0, "nvlink": true},
      "isolation": "dedicated",
      "pricing": {"mode": "metered", "ratePerHour": "20", "increment": "1s", "minimum": "1m0s"},
      "availability": {"fillProbability": 1, "maxNodes": 0, "leadTime": "0s"},
      "hidden": {},
      "source": {"name": "invented for a test", "asOf": "2026-11-01"}
    }
  ]
}`

// TestREADMEFlatMode runs the snippet's decoder on a catalog that holds its
// mode next to a built-in one, and prices a service on the flat offer: two
// nodes for three months cost 2 × 3 × the monthly fee, whatever the use.
func TestREADMEFlatMode(t *testing.T) {
	data := []byte(flatCatalog)
	// README: flat decoder
	dec := provider.Decoder{Modes: map[string]provider.PricingDecoder{
		"flat": func(raw json.RawMessage, _ provider.Decoder) (provider.Pricing, error) {
			var w struct {
				Mode            string          `json:"mode"`
				FeePerNodeMonth decimal.Decimal `json:"feePerNodeMonth"`
			}
			if err := json.Unmarshal(raw, &w); err != nil {
				return nil, err
			}
			return Flat{FeePerNodeMonth: w.FeePerNodeMonth}, nil
		},
	}}
	cat, err := dec.Catalog(data) // built-in modes still work; "flat" now does too
	// end of README: flat decoder
	if err != nil {
		t.Fatal(err)
	}
	flat, ok := cat.Offers.Find("flat-8x-h100")
	if !ok {
		t.Fatal("no flat offer")
	}
	if _, ok := cat.Offers.Find("metered-8x-h100"); !ok {
		t.Fatal("the built-in offer did not decode")
	}
	svc := workload.Workload{Name: "svc", Kind: workload.Inference, GPUs: 16, Horizon: 3 * provider.Month,
		Demand: workload.Diurnal{Mean: 0.5, Amplitude: 0.5, PeakHour: 14}}
	r, err := tco.Evaluate(svc, flat, tco.Assumptions{Exclude: []provider.Category{provider.Setup}})
	if err != nil {
		t.Fatal(err)
	}
	if want := decimal.NewFromInt(2 * 3 * 10000); !r.Line(provider.Commitment).Equal(want) {
		t.Errorf("flat fee %s, want %s", r.Line(provider.Commitment), want)
	}
	if r.Horizon != 3*provider.Month || r.Derivation.Nodes != 2 {
		t.Errorf("horizon %v on %d nodes, want %v on 2", r.Horizon, r.Derivation.Nodes, time.Duration(3*provider.Month))
	}
}

// TestREADMEFlatSnippet: the README's pricing-mode snippet is this file's
// declarations and decoder, so it compiles and runs.
func TestREADMEFlatSnippet(t *testing.T) {
	sec := section(t, readme(t), "## Adding a pricing mode or a curve")
	snippets := blocks(sec, "go")
	if len(snippets) == 0 {
		t.Fatal("no Go snippet in the README's section on pricing modes")
	}
	src, err := os.ReadFile("readme_flat_test.go")
	if err != nil {
		t.Fatal(err)
	}
	region := func(name string) string {
		text := string(src)
		i, j := strings.Index(text, "// README: "+name+"\n"), strings.Index(text, "// end of README: "+name+"\n")
		if i < 0 || j < i {
			t.Fatalf("readme_flat_test.go has no region %q", name)
		}
		return text[i+len("// README: "+name+"\n") : j]
	}
	var stmts []string
	for _, l := range strings.Split(region("flat decoder"), "\n") {
		stmts = append(stmts, strings.TrimPrefix(l, "\t"))
	}
	want := strings.TrimSpace(region("flat mode")) + "\n\n" + strings.TrimSpace(strings.Join(stmts, "\n"))
	if got := strings.TrimSpace(snippets[0]); got != want {
		t.Errorf("README snippet:\n%s\nreadme_flat_test.go:\n%s", got, want)
	}
}
