package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/gputco/gputco/examples/internal/cli"
	"github.com/gputco/gputco/provider"
	"github.com/gputco/gputco/tco"
	"github.com/gputco/gputco/workload"
)

func dec(s string) decimal.Decimal { return decimal.RequireFromString(s) }

var tiered = Tiered{RatePerHour: dec("30"), Increment: time.Minute, Tiers: []Tier{
	{FromNodeHours: 2000, Discount: dec("0.15")}, {FromNodeHours: 10000, Discount: dec("0.30")},
}}

// bill is the tiered price of h node-hours computed directly.
func bill(h float64) float64 {
	first := min(h, 2000)
	second := min(max(h-2000, 0), 8000)
	third := max(h-10000, 0)
	return 30*first + 30*0.85*second + 30*0.7*third
}

// TestTieredCharges: the charges equal the tiered bill computed directly,
// grow with the volume at a falling marginal price, and scale with the rate.
func TestTieredCharges(t *testing.T) {
	prev := 0.0
	for _, h := range []float64{0, 1, 1999, 2000, 2001, 5000, 9999.5, 10000, 25000} {
		cs, err := tiered.Charges(provider.Usage{Runs: []provider.Run{{Length: time.Duration(h * float64(time.Hour)), Count: 1, Nodes: 1}}})
		if err != nil {
			t.Fatal(err)
		}
		got, _ := provider.Total(cs).Float64()
		if math.Abs(got-bill(h)) > 1e-6 {
			t.Errorf("%v node-hours: charges %v, want %v", h, got, bill(h))
		}
		if got < prev {
			t.Errorf("%v node-hours cost %v, less than a smaller volume's %v", h, got, prev)
		}
		prev = got
	}
	// Runs on several nodes and counts bill their product, rounded up per run.
	cs, err := tiered.Charges(provider.Usage{Runs: []provider.Run{{Length: 90*time.Minute + time.Second, Count: 10, Nodes: 200}}})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := provider.Total(cs), decimal.NewFromFloat(bill(91.0/60*10*200)); got.Sub(want).Abs().GreaterThan(dec("0.000001")) {
		t.Errorf("10 runs of 90m01s on 200 nodes: %s, want %s (each run billed 91 minutes)", got, want)
	}
	scaled, err := tiered.Scale(dec("2")).Charges(provider.Usage{Runs: []provider.Run{{Length: 3000 * time.Hour, Count: 1, Nodes: 1}}})
	if err != nil {
		t.Fatal(err)
	}
	if got := provider.Total(scaled); !got.Equal(decimal.NewFromFloat(2 * bill(3000))) {
		t.Errorf("scaled by 2: %s, want %v", got, 2*bill(3000))
	}
}

func TestTieredValidate(t *testing.T) {
	bad := Tiered{RatePerHour: dec("-1"), Increment: -time.Second, Tiers: []Tier{
		{FromNodeHours: 10, Discount: dec("1.5")}, {FromNodeHours: 5, Discount: dec("0.1")}, {FromNodeHours: math.NaN()},
	}}
	err := bad.Validate()
	for _, want := range []error{provider.ErrNegative, provider.ErrOutOfRange, provider.ErrNotFinite} {
		if !errors.Is(err, want) {
			t.Errorf("Validate() = %v, want it to report %v", err, want)
		}
	}
	if n := strings.Count(err.Error(), "\n") + 1; n != 5 {
		t.Errorf("%d problems reported, want 5: %v", n, err)
	}
	if _, err := bad.Charges(provider.Usage{}); err == nil {
		t.Error("Charges of an invalid pricing succeeded")
	}
}

// TestTieredJSON: the mode round-trips through provider.MarshalPricing and
// the decoder hook; the zero Decoder does not know it; unknown fields are errors.
func TestTieredJSON(t *testing.T) {
	data, err := provider.MarshalPricing(tiered)
	if err != nil {
		t.Fatal(err)
	}
	back, err := pricingDecoder().Pricing(data)
	if err != nil {
		t.Fatal(err)
	}
	bt, ok := back.(Tiered)
	if !ok || !bt.RatePerHour.Equal(tiered.RatePerHour) || bt.Increment != tiered.Increment || len(bt.Tiers) != 2 ||
		!bt.Tiers[1].Discount.Equal(dec("0.3")) || bt.Tiers[1].FromNodeHours != 10000 {
		t.Errorf("round trip gave %#v", back)
	}
	if _, err := (provider.Decoder{}).Pricing(data); err == nil {
		t.Error("the zero Decoder decoded a tiered pricing")
	}
	if _, err := pricingDecoder().Pricing([]byte(`{"mode":"tiered","ratePerHour":"1","increment":"1m","tiers":[],"oops":1}`)); err == nil {
		t.Error("an unknown field was accepted")
	}
	// A whole catalog with the mode saves and loads.
	cat, err := loadCatalog(cli.Common{})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := cat.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	again, err := pricingDecoder().Catalog(b.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if len(again.Offers) != len(cat.Offers) {
		t.Errorf("catalog round trip: %d offers, want %d", len(again.Offers), len(cat.Offers))
	}
}

// TestLaunch: the curve's closed form at its floor, midpoint and plateau,
// and its JSON round trip through the curve hook and workload.WriteScenario.
func TestLaunch(t *testing.T) {
	l := Launch{Base: workload.Constant{Value: 0.8}, Floor: 0.1, Midpoint: 60 * 24 * time.Hour, Width: 10 * 24 * time.Hour}
	if got := l.At(l.Midpoint); math.Abs(got-0.8*0.55) > 1e-12 {
		t.Errorf("At(midpoint) = %v, want base × (floor + (1−floor)/2) = %v", got, 0.8*0.55)
	}
	if got := l.At(0); math.Abs(got-0.8*(0.1+0.9/(1+math.Exp(6)))) > 1e-12 {
		t.Errorf("At(0) = %v", got)
	}
	if got := l.At(365 * 24 * time.Hour); math.Abs(got-0.8) > 1e-6 {
		t.Errorf("At(1 year) = %v, want the base 0.8", got)
	}
	if !math.IsNaN((Launch{}).At(0)) || (Launch{}).Validate() == nil {
		t.Error("the zero Launch is neither NaN nor invalid")
	}
	sc, err := curveDecoder().Scenario(workloadsJSON)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := workload.WriteScenario(&b, sc); err != nil {
		t.Fatal(err)
	}
	again, err := curveDecoder().Scenario(b.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	got, ok := again.Workloads[0].Demand.(Launch)
	if !ok || got != sc.Workloads[0].Demand {
		t.Errorf("scenario round trip: %#v, want %#v", again.Workloads[0].Demand, sc.Workloads[0].Demand)
	}
	if _, err := workload.ReadScenario(bytes.NewReader(workloadsJSON)); !errors.Is(err, workload.ErrUnknownName) {
		t.Errorf("ReadScenario without the hook: %v, want ErrUnknownName", err)
	}
	bad := strings.Replace(string(workloadsJSON), `"floor": 0.1`, `"floor": 1.5`, 1)
	if _, err := curveDecoder().Scenario([]byte(bad)); err == nil || !strings.Contains(err.Error(), "floor") {
		t.Errorf("a floor above 1: %v, want the curve's validation error", err)
	}
}

// TestRankTiered: on the default data the tiered offer is ranked among the
// others, its compute lines are its tiered bill of the node-hours billed, and
// with its tiers removed it costs exactly what a metered offer at its list
// rate does — the oracle that the hooks price it as tco prices a built-in.
func TestRankTiered(t *testing.T) {
	cat, err := loadCatalog(cli.Common{})
	if err != nil {
		t.Fatal(err)
	}
	sc, err := curveDecoder().Scenario(workloadsJSON)
	if err != nil {
		t.Fatal(err)
	}
	res, err := analyse(cat, sc, false)
	if err != nil {
		t.Fatal(err)
	}
	w := res.Workloads[0]
	if len(w.Custom) != 1 || w.Custom[0].Offer != "example-h100-tiered" {
		t.Fatalf("custom offers %+v, want example-h100-tiered", w.Custom)
	}
	if !slices.IsSortedFunc(w.Ranking, func(a, b ranked) int { return a.PresentValue.Cmp(b.PresentValue) }) {
		t.Error("ranking not by present value")
	}
	c := w.Custom[0]
	compute := decimal.Zero
	for _, l := range c.Lines {
		if l.Category == provider.Compute {
			compute = compute.Add(l.Amount)
		}
	}
	// The compute lines bill the node-hours of use; setup GPU time and
	// recovery are priced apart, as differences of the same bill.
	if got := compute.InexactFloat64(); got <= 0.7*30*c.BilledNodeHours || got >= 30*c.BilledNodeHours {
		t.Errorf("compute %v for %v node-hours billed: want between the deepest discount and the list rate", got, c.BilledNodeHours)
	}
	if f := c.VariablePerNodeHour.InexactFloat64(); f <= 21 || f >= 30 {
		t.Errorf("cost term per node-hour %v: want between the deepest tier (21) and the list rate (30)", f)
	}

	o, _ := cat.Offers.Find("example-h100-tiered")
	flat := o
	flat.Pricing = Tiered{RatePerHour: dec("30"), Increment: time.Minute}
	metered := o
	metered.Pricing = provider.Metered{RatePerHour: dec("30"), Increment: time.Minute}
	wl := sc.Workloads[0]
	rf, err := tco.Evaluate(wl, flat, tco.Assumptions{})
	if err != nil {
		t.Fatal(err)
	}
	rm, err := tco.Evaluate(wl, metered, tco.Assumptions{})
	if err != nil {
		t.Fatal(err)
	}
	if d := rf.Total.Sub(rm.Total).Abs(); d.GreaterThan(dec("0.01")) {
		t.Errorf("tiered without tiers %s, metered at the same rate %s", rf.Total, rm.Total)
	}
	if !c.Total.LessThan(rf.Total) {
		t.Errorf("with tiers %s, not below without %s", c.Total, rf.Total)
	}
	// The terms at the workload's own use give Evaluate's total.
	terms, err := tco.CostTerms(wl, o, tco.Assumptions{})
	if err != nil {
		t.Fatal(err)
	}
	cost, err := terms.Cost(terms.Own)
	if err != nil {
		t.Fatal(err)
	}
	if d := cost.Sub(c.Total).Abs(); d.GreaterThan(dec("0.01")) {
		t.Errorf("terms at own use %s, Evaluate %s", cost, c.Total)
	}
}

func TestRunFormats(t *testing.T) {
	var out, stderr bytes.Buffer
	if err := run(&out, &stderr, []string{"-solve=false"}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"RANK  OFFER", "example-h100-tiered", "← mode defined in this example",
		"compute from 10,000 node-hours, 30% off", "cost terms:"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, out.String())
		}
	}
	out.Reset()
	if err := run(&out, &stderr, []string{"-format", "csv", "-solve=false"}); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&out).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	custom := 0
	for _, r := range rows[1:] {
		if r[8] == "true" {
			custom++
		}
	}
	if len(rows) < 10 || custom != 1 {
		t.Errorf("%d CSV rows, %d of a custom mode", len(rows), custom)
	}
	out.Reset()
	if err := run(&out, &stderr, []string{"-format", "json", "-solve=false"}); err != nil {
		t.Fatal(err)
	}
	var v struct {
		Workloads []struct{ Custom []struct{ Offer string } }
	}
	if err := json.Unmarshal(out.Bytes(), &v); err != nil || len(v.Workloads) != 1 || len(v.Workloads[0].Custom) != 1 {
		t.Errorf("JSON: %v, %+v", err, v)
	}
}

func TestCharts(t *testing.T) {
	dir := t.TempDir()
	if err := run(&bytes.Buffer{}, &bytes.Buffer{}, []string{"-out", dir, "-solve=false"}); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"customprovider-demand.png", "customprovider-tiers.png"} {
		path := filepath.Join(dir, name)
		if err := cli.CheckPNG(path, 500, 300); err != nil {
			t.Error(err)
		}
		if fi, err := os.Stat(path); err != nil || fi.Size() < 10_000 {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// TestOwnFiles: the user's files are read with the same hooks.
func TestOwnFiles(t *testing.T) {
	dir := t.TempDir()
	cat := filepath.Join(dir, "offers.json")
	wl := filepath.Join(dir, "workloads.json")
	if err := os.WriteFile(cat, offersJSON, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(wl, workloadsJSON, 0o644); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := run(&out, &bytes.Buffer{}, []string{"-catalog", cat, "-workloads", wl, "-solve=false"}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "1 offers can run it, 0 cannot") {
		t.Errorf("the user's one-offer catalog was not used:\n%s", out.String())
	}
	broken := filepath.Join(dir, "broken.json")
	if err := os.WriteFile(broken, []byte(strings.Replace(string(offersJSON), `"discount": "0.15"`, `"discount": "1.15"`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	err := run(&out, &stderr, []string{"-catalog", broken})
	if status := cli.Exit("customprovider", &stderr, err); status != 2 || !strings.Contains(stderr.String(), "pricing.tiers[0].discount") {
		t.Errorf("a discount above 1: status %d, %q", status, stderr.String())
	}
}

// TestSolve: placed together, the scenario costs no more than its best
// single offer alone (invariant 10), and the plan is proven optimal.
func TestSolve(t *testing.T) {
	if raceEnabled {
		t.Skip("a solve over 4,320 hourly slices takes minutes under the race detector; the plain pass runs it")
	}
	cat, err := loadCatalog(cli.Common{})
	if err != nil {
		t.Fatal(err)
	}
	sc, err := curveDecoder().Scenario(workloadsJSON)
	if err != nil {
		t.Fatal(err)
	}
	res, err := analyse(cat, sc, true)
	if err != nil {
		t.Fatal(err)
	}
	best := res.Workloads[0].Ranking[0]
	if res.PlanStatus != "optimal" || res.PlanBound.GreaterThan(res.PlanTotal) || len(res.Placed) != 1 {
		t.Fatalf("plan %s, total %s, bound %s, placed %+v", res.PlanStatus, res.PlanTotal, res.PlanBound, res.Placed)
	}
	if res.PlanTotal.GreaterThan(best.Total.Add(decimal.NewFromInt(1))) {
		t.Errorf("plan %s above the best single offer alone, %s at %s", res.PlanTotal, best.Offer, best.Total)
	}
}
