package provider_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/shopspring/decimal"

	"github.com/gputco/gputco/provider"
)

func byoDate(s string) time.Time {
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		panic(err)
	}
	return t
}

func byoDec(s string) decimal.Decimal { return decimal.RequireFromString(s) }

func byoAWSOptions() provider.ImportOptions {
	return provider.ImportOptions{
		Provider:   "AWS",
		AsOf:       byoDate("2026-01-15"),
		SourceName: "SkyPilot-AWS catalog excerpt",
		SourceURL:  "https://github.com/skypilot-org/skypilot-catalog",
	}
}

func byoImportTestdata(t *testing.T) provider.Catalog {
	t.Helper()
	f, err := os.Open("testdata/skypilot-aws-excerpt.csv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	c, err := provider.ImportPriceList(f, byoAWSOptions())
	if err != nil {
		t.Fatalf("ImportPriceList: %v", err)
	}
	return c
}

func TestImportPriceListTestdata(t *testing.T) {
	c := byoImportTestdata(t)
	if err := c.Validate(); err != nil {
		t.Fatalf("imported catalog does not validate: %v", err)
	}
	// 8 GPU rows, 5 of them with a spot price; the CPU-only m5.large is skipped.
	if got, want := len(c.Offers), 13; got != want {
		t.Fatalf("got %d offers, want %d", got, want)
	}
	src := provider.Source{Name: "SkyPilot-AWS catalog excerpt", URL: "https://github.com/skypilot-org/skypilot-catalog",
		AsOf: byoDate("2026-01-15")}
	h100 := provider.GPU{Model: "H100 SXM", MemoryGiB: 80, BF16TFLOPS: 989, TDPWatts: 700, Class: provider.Datacenter}
	want := []provider.Offer{
		{
			ID: "aws/p5.48xlarge/us-east-2a", Provider: "AWS", Region: "us-east-2", Jurisdiction: "US",
			GPU: h100, GPUsPerNode: 8, Pricing: provider.PerSecond(byoDec("55.04"), time.Minute),
			Availability: provider.Availability{FillProbability: 1}, Source: src,
		},
		{
			ID: "aws/p5.48xlarge/us-east-2a/spot", Provider: "AWS", Region: "us-east-2", Jurisdiction: "US",
			GPU: h100, GPUsPerNode: 8,
			Pricing: provider.Spot{RatePerHour: byoDec("11.25"), Increment: time.Second, Minimum: time.Minute,
				InterruptionRatePerHour: provider.DefaultSpotInterruptionRatePerHour, Notice: 2 * time.Minute},
			Availability: provider.Availability{FillProbability: 1},
			Source: provider.Source{Name: src.Name, URL: src.URL, AsOf: src.AsOf, Estimate: true,
				Note: "spot interruption rate is the package's default estimate of 10 % per month"},
		},
	}
	if diff := cmp.Diff(want, []provider.Offer(c.Offers[:2])); diff != "" {
		t.Errorf("first offers (-want +got):\n%s", diff)
	}
	for _, id := range []string{"aws/p5.48xlarge/us-west-2a", "aws/p4de.24xlarge/us-east-1c", "aws/p3.16xlarge/us-east-1b"} {
		if _, ok := c.Offers.Find(id + "/spot"); ok {
			t.Errorf("%s: spot offer without a spot price", id)
		}
		if _, ok := c.Offers.Find(id); !ok {
			t.Errorf("%s: missing", id)
		}
	}
	p4de, _ := c.Offers.Find("aws/p4de.24xlarge/us-east-1c")
	if p4de.GPU.Model != "A100 80GB" {
		t.Errorf("p4de GPU = %q, want A100 80GB", p4de.GPU.Model)
	}
	// The per-GPU rate is the list price divided by the GPU count: 55.04/8.
	rate, err := c.Offers[0].RatePerGPUHour(time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	if !rate.Equal(byoDec("6.88")) {
		t.Errorf("p5 per GPU-hour = %s, want 6.88", rate)
	}
}

func TestImportPriceListRoundTrip(t *testing.T) {
	c := byoImportTestdata(t)
	b, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	back, err := provider.ParseCatalog(b)
	if err != nil {
		t.Fatalf("ParseCatalog: %v", err)
	}
	if diff := cmp.Diff(c, back); diff != "" {
		t.Errorf("import → JSON → ParseCatalog changed the catalog (-imported +parsed):\n%s", diff)
	}
}

func TestImportPriceListBilling(t *testing.T) {
	tests := []struct {
		name      string
		reason    string
		provider  string
		increment time.Duration
		minimum   time.Duration
		want      provider.Metered
		note      bool
	}{
		{"aws", "AWS bills Linux per second with a 60 s minimum", "AWS", 0, 0,
			provider.Metered{Increment: time.Second, Minimum: time.Minute}, false},
		{"gcp", "names match ignoring case", "gcp", 0, 0,
			provider.Metered{Increment: time.Second, Minimum: time.Minute}, false},
		{"lambda", "Lambda bills per minute", "Lambda", 0, 0,
			provider.Metered{Increment: time.Minute, Minimum: time.Minute}, false},
		{"coreweave", "CoreWeave bills per minute", "CoreWeave", 0, 0,
			provider.Metered{Increment: time.Minute, Minimum: time.Minute}, false},
		{"runpod", "RunPod bills per second, no minimum beyond a second", "RunPod", 0, 0,
			provider.Metered{Increment: time.Second}, false},
		{"unknown", "an unknown provider is billed hourly, the coarsest rule, and says so", "Acme", 0, 0,
			provider.Metered{Increment: time.Hour, Minimum: time.Hour}, true},
		{"override increment", "an explicit increment replaces the default; a shorter default minimum gives way", "AWS", time.Hour, 0,
			provider.Metered{Increment: time.Hour}, false},
		{"override minimum", "an explicit minimum replaces the default", "AWS", 0, 5 * time.Minute,
			provider.Metered{Increment: time.Second, Minimum: 5 * time.Minute}, false},
	}
	const csv = "InstanceType,AcceleratorName,AcceleratorCount,Price,Region\nx,H100,8,10,us-east-1\n"
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts := byoAWSOptions()
			opts.Provider, opts.Increment, opts.Minimum = tt.provider, tt.increment, tt.minimum
			c, err := provider.ImportPriceList(strings.NewReader(csv), opts)
			if err != nil {
				t.Fatalf("%s: %v", tt.reason, err)
			}
			tt.want.RatePerHour = byoDec("10")
			if diff := cmp.Diff(provider.Pricing(tt.want), c.Offers[0].Pricing); diff != "" {
				t.Errorf("%s (-want +got):\n%s", tt.reason, diff)
			}
			if got := c.Offers[0].Source.Note != ""; got != tt.note {
				t.Errorf("%s: note %q", tt.reason, c.Offers[0].Source.Note)
			}
		})
	}
}

func TestImportPriceListOptions(t *testing.T) {
	const csv = "Region,Price,AcceleratorCount,AcceleratorName,InstanceType,SpotPrice\n" +
		"europe-west4,12.5,4,L4,g2-standard-48,4\n" +
		"asia-east1,12.5,4,L4,g2-standard-48,\n"
	opts := provider.ImportOptions{
		Provider: "GCP", Kind: provider.GeneralCloud, Isolation: provider.Dedicated, Currency: "EUR",
		AsOf:                        time.Date(2026, 3, 1, 23, 30, 0, 0, time.FixedZone("X", -5*3600)),
		SpotInterruptionRatePerHour: 0.001, FillProbability: 0.5,
		Jurisdiction: func(r string) string {
			if r == "europe-west4" {
				return "NL"
			}
			return "?"
		},
	}
	c, err := provider.ImportPriceList(strings.NewReader(csv), opts)
	if err != nil {
		t.Fatal(err)
	}
	if c.Currency != "EUR" || !c.AsOf.Equal(byoDate("2026-03-01")) {
		t.Errorf("catalog currency %q, as of %v: want EUR, 2026-03-01 (the date in its own zone)", c.Currency, c.AsOf)
	}
	if len(c.Offers) != 3 {
		t.Fatalf("got %d offers, want 3", len(c.Offers))
	}
	spot := c.Offers[1]
	if spot.ID != "gcp/g2-standard-48/europe-west4/spot" || spot.Jurisdiction != "NL" || spot.Isolation != provider.Dedicated ||
		spot.Availability.FillProbability != 0.5 || spot.Source.Estimate || spot.Source.Name != "GCP price list" {
		t.Errorf("spot offer not configured by the options: %+v", spot)
	}
	if s := spot.Pricing.(provider.Spot); s.InterruptionRatePerHour != 0.001 || s.Notice != 30*time.Second {
		t.Errorf("spot pricing %+v: want rate 0.001 and GCP's 30 s notice", s)
	}
	if c.Offers[2].Jurisdiction != "?" || c.Offers[2].ID != "gcp/g2-standard-48/asia-east1" {
		t.Errorf("zone-less row: %+v", c.Offers[2])
	}
}

func TestJurisdictionFromRegion(t *testing.T) {
	for region, want := range map[string]string{
		"us-east-1": "US", "us-central1": "US", "eu-west-1": "EU", "europe-west4": "EU",
		"asia-east1": "", "eastus": "", "": "", "useast": "",
	} {
		if got := provider.JurisdictionFromRegion(region); got != want {
			t.Errorf("JurisdictionFromRegion(%q) = %q, want %q", region, got, want)
		}
	}
}

func TestKnownAcceleratorsFresh(t *testing.T) {
	a := provider.KnownAccelerators()
	delete(a, "H100")
	if _, ok := provider.KnownAccelerators()["H100"]; !ok {
		t.Fatal("KnownAccelerators shares state between calls")
	}
	for name, g := range provider.KnownAccelerators() {
		o := provider.Offer{ID: name, GPU: g, GPUsPerNode: 1, Pricing: provider.Hourly(decimal.Zero)}
		if err := o.Validate(); err != nil || g.MemoryGiB <= 0 || g.BF16TFLOPS <= 0 || g.TDPWatts <= 0 {
			t.Errorf("%s: incomplete spec %+v: %v", name, g, err)
		}
	}
}

// byoRowErrs returns the *RowErrors of err, in order.
func byoRowErrs(t *testing.T, err error) []*provider.RowError {
	t.Helper()
	var out []*provider.RowError
	var walk func(error)
	walk = func(e error) {
		if j, ok := e.(interface{ Unwrap() []error }); ok {
			for _, x := range j.Unwrap() {
				walk(x)
			}
			return
		}
		var re *provider.RowError
		if errors.As(e, &re) {
			out = append(out, re)
		}
	}
	walk(err)
	return out
}

func TestImportPriceListBadRows(t *testing.T) {
	const head = "InstanceType,AcceleratorName,AcceleratorCount,Price,SpotPrice,Region,AvailabilityZone\n"
	const good = "p5.48xlarge,H100,8,55.04,11.25,us-east-1,us-east-1a\n"
	type bad struct {
		line   int
		column string
		err    error
	}
	tests := []struct {
		name   string
		reason string
		csv    string
		want   []bad
		good   int // offers kept with KeepGoodRows
	}{
		{"unknown accelerator", "specs are never guessed", head + good + "trn1.32xlarge,Trainium,16,21.5,,us-east-1,us-east-1a\n",
			[]bad{{3, "AcceleratorName", provider.ErrUnknownAccelerator}}, 2},
		{"every bad row at once", "two bad rows, two errors, each with its own line",
			head + "x,H100,8,abc,,us-east-1,a\n" + good + "y,H100,8,-1,,us-east-1,b\n",
			[]bad{{2, "Price", provider.ErrMalformed}, {4, "Price", provider.ErrNegative}}, 2},
		{"several problems in one row", "all problems of a row are reported",
			head + "x,H100,0.5,1e3,NaN,,a\n",
			[]bad{{2, "AcceleratorCount", provider.ErrOutOfRange}, {2, "Region", provider.ErrMissing},
				{2, "Price", provider.ErrMalformed}, {2, "SpotPrice", provider.ErrMalformed}}, 0},
		{"no price", "a row needs an on-demand or a spot price", head + "x,H100,8,,,us-east-1,a\n",
			[]bad{{2, "Price", provider.ErrMissing}}, 0},
		{"missing count", "an accelerator without a count", head + "x,H100,,1,,us-east-1,a\n",
			[]bad{{2, "AcceleratorCount", provider.ErrMissing}}, 0},
		{"infinite count", "NaN and Inf are not numbers", head + "x,H100,Inf,1,,us-east-1,a\n",
			[]bad{{2, "AcceleratorCount", provider.ErrNotFinite}}, 0},
		{"field count", "a short row is reported, not padded", head + "x,H100,8\n" + good,
			[]bad{{2, "", provider.ErrFieldCount}}, 2},
		{"duplicate", "the same instance in the same zone twice", head + good + good,
			[]bad{{3, "", provider.ErrDuplicateID}}, 2},
		{"bare quote", "a CSV syntax error is a bad row, the rest is read", head + "x,H\"100,8,1,,us-east-1,a\n" + good,
			[]bad{{2, "", provider.ErrMalformed}}, 2},
		{"line numbers count quoted newlines", "a field spanning lines moves later rows down",
			head + "\"p5\n48xlarge\",H100,8,1,,us-east-1,a\nx,H100,8,oops,,us-east-1,a\n",
			[]bad{{4, "Price", provider.ErrMalformed}}, 1},
		{"missing column", "Price is required in the header", "InstanceType,AcceleratorName,AcceleratorCount,Region\n",
			[]bad{{1, "", provider.ErrMissingColumn}}, 0},
		{"empty input", "no header at all", "", []bad{{1, "", provider.ErrMissingColumn}}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, keep := range []bool{false, true} {
				opts := byoAWSOptions()
				opts.KeepGoodRows = keep
				c, err := provider.ImportPriceList(strings.NewReader(tt.csv), opts)
				if err == nil {
					t.Fatalf("%s: no error", tt.reason)
				}
				got := byoRowErrs(t, err)
				if len(got) != len(tt.want) {
					t.Fatalf("%s: got %d row errors, want %d: %v", tt.reason, len(got), len(tt.want), err)
				}
				for i, w := range tt.want {
					if got[i].Line != w.line || got[i].Column != w.column || !errors.Is(got[i], w.err) {
						t.Errorf("%s: error %d = line %d column %q (%v), want line %d column %q wrapping %v",
							tt.reason, i, got[i].Line, got[i].Column, got[i], w.line, w.column, w.err)
					}
				}
				wantOffers := 0
				if keep {
					wantOffers = tt.good
				}
				if len(c.Offers) != wantOffers {
					t.Errorf("%s: KeepGoodRows=%v: %d offers, want %d", tt.reason, keep, len(c.Offers), wantOffers)
				}
			}
		})
	}
}

func TestImportPriceListBadOptions(t *testing.T) {
	const csv = "InstanceType,AcceleratorName,AcceleratorCount,Price,Region\nx,H100,8,10,us-east-1\n"
	tests := []struct {
		name   string
		reason string
		opts   provider.ImportOptions
		want   error
	}{
		{"no provider", "offer IDs and billing need a provider", provider.ImportOptions{AsOf: byoDate("2026-01-01")}, provider.ErrMissing},
		{"no date", "a catalog must be dated", provider.ImportOptions{Provider: "AWS"}, provider.ErrMissing},
		{"bad currency", "ISO 4217 codes only", provider.ImportOptions{Provider: "AWS", AsOf: byoDate("2026-01-01"), Currency: "usd"}, provider.ErrMalformed},
		{"minimum below increment", "as Metered.Validate", provider.ImportOptions{Provider: "X", AsOf: byoDate("2026-01-01"), Increment: time.Hour, Minimum: time.Minute}, provider.ErrMinimumBelowIncrement},
		{"fill probability", "a probability is at most 1", provider.ImportOptions{Provider: "AWS", AsOf: byoDate("2026-01-01"), FillProbability: 2}, provider.ErrOutOfRange},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.opts.KeepGoodRows = true
			c, err := provider.ImportPriceList(strings.NewReader(csv), tt.opts)
			if !errors.Is(err, tt.want) {
				t.Errorf("%s: err = %v, want %v", tt.reason, err, tt.want)
			}
			if len(c.Offers) != 0 {
				t.Errorf("%s: bad options returned offers", tt.reason)
			}
		})
	}
}

func FuzzImportPriceList(f *testing.F) {
	seed, err := os.ReadFile("testdata/skypilot-aws-excerpt.csv")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(seed, true)
	f.Add([]byte("InstanceType,AcceleratorName,AcceleratorCount,Price,Region\nx,H100,8,10,us-east-1\n"), false)
	f.Add([]byte("InstanceType,AcceleratorName,AcceleratorCount,Price,Region\n\"x\n,T4,1e308,-0,us\n"), true)
	f.Fuzz(func(t *testing.T, data []byte, keep bool) {
		opts := byoAWSOptions()
		opts.KeepGoodRows = keep
		c, err := provider.ImportPriceList(bytes.NewReader(data), opts)
		if err == nil || keep {
			if verr := c.Validate(); verr != nil && len(c.Offers) > 0 {
				t.Fatalf("imported offers do not validate: %v", verr)
			}
		}
		if err != nil && !keep && len(c.Offers) > 0 {
			t.Fatal("offers returned with an error without KeepGoodRows")
		}
	})
}

const byoOffersCSV = `id,provider,kind,region,jurisdiction,gpu_model,gpus_per_node,fabric,gbps_per_node,nvlink,isolation,mode,rate_per_hour,increment,minimum,interruption_rate_per_hour,notice,term,upfront_per_node,recurring_per_hour,purchase_per_node,useful_life_years,salvage_per_node,depreciation,idle_power_kw,max_power_kw,pue,energy_per_kwh,colocation_per_kw_month,maintenance_fraction_per_year,credit,fill_probability,max_nodes,lead_time,egress_per_gb,node_mtbf,source_name,source_as_of,source_estimate
lambda-8xh100,Lambda,gpu-platform,us-east-1,US,H100 SXM,8,infiniband,3200,true,dedicated,metered,31.92,1m,1m,,,,,,,,,,,,,,,,,1,,10m,0,,SkyPilot-Lambda,2026-01-10,false
runpod-h100-spot,RunPod,gpu-platform,,,H100 SXM,1,none,,,shared,spot,1.50,1s,,0.0005,0s,,,,,,,,,,,,,,,0.8,4,,0.05,,RunPod spot,2026-02-01,true
aws-p5-1y,AWS,general-cloud,us-east-1,US,H100 SXM,8,infiniband,3200,true,dedicated,reserved,,,,,,1y,,43.16,,,,,,,,,,,,1,,,0.09,,NextPlatform,2024-05-01,true
own-8xh100,self,self-hosted,fra,DE,H100 SXM,8,infiniband,3200,true,physical,owned,,,,,,,,,300000,5,0,straight-line,2.5,10.2,1.25,0.0826,184.06,0.10,5000,1,16,180d,,8760h,reference-data §5a,2026-03-01,true
`

func TestImportOffers(t *testing.T) {
	c, err := provider.ImportOffers(strings.NewReader(byoOffersCSV), provider.OfferImportOptions{})
	if err != nil {
		t.Fatalf("ImportOffers: %v", err)
	}
	if c.Currency != "USD" || !c.AsOf.Equal(byoDate("2024-05-01")) {
		t.Errorf("catalog %s as of %v: want USD as of the oldest offer, 2024-05-01", c.Currency, c.AsOf)
	}
	if len(c.Offers) != 4 {
		t.Fatalf("got %d offers, want 4", len(c.Offers))
	}
	wantLambda := provider.Offer{
		ID: "lambda-8xh100", Provider: "Lambda", Kind: provider.GPUPlatform, Region: "us-east-1", Jurisdiction: "US",
		GPU:         provider.KnownAccelerators()["H100"],
		GPUsPerNode: 8, Interconnect: provider.Interconnect{Fabric: provider.InfiniBand, GbpsPerNode: 3200, NVLink: true},
		Isolation: provider.Dedicated, Pricing: provider.PerMinute(byoDec("31.92")),
		Availability: provider.Availability{FillProbability: 1, LeadTime: 10 * time.Minute},
		Hidden:       provider.HiddenCosts{EgressPerGB: decimal.Zero},
		Source:       provider.Source{Name: "SkyPilot-Lambda", AsOf: byoDate("2026-01-10")},
	}
	if diff := cmp.Diff(wantLambda, c.Offers[0]); diff != "" {
		t.Errorf("metered row (-want +got):\n%s", diff)
	}
	if r := c.Offers[2].Pricing.(provider.Reserved); r.Term != provider.Year || !r.RecurringPerHour.Equal(byoDec("43.16")) {
		t.Errorf("reserved row: %+v", r)
	}
	cr, ok := c.Offers[3].Pricing.(provider.Credit)
	if !ok || !cr.Amount.Equal(byoDec("5000")) {
		t.Fatalf("owned row with a credit: %#v", c.Offers[3].Pricing)
	}
	if ow := cr.Base.(provider.Owned); ow.UsefulLifeYears != 5 || ow.PUE != 1.25 || !ow.ColocationPerKWMonth.Equal(byoDec("184.06")) {
		t.Errorf("owned base: %+v", ow)
	}
	// Round trip through JSON.
	b, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	back, err := provider.ParseCatalog(b)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(c, back); diff != "" {
		t.Errorf("ImportOffers → JSON → ParseCatalog (-imported +parsed):\n%s", diff)
	}
}

func TestImportOffersBadRows(t *testing.T) {
	const head = "id,gpu_model,gpus_per_node,mode,rate_per_hour,term,fill_probability,lead_time,source_as_of\n"
	tests := []struct {
		name   string
		reason string
		csv    string
		line   int
		column string
		want   error
	}{
		{"unknown column", "a typo in the header is caught", "id,gpu_model,gpus_per_node,mode,rate_per_hr\n", 1, "", provider.ErrUnknownName},
		{"missing column", "mode is required", "id,gpu_model,gpus_per_node\n", 1, "", provider.ErrMissingColumn},
		{"unknown mode", "modes are metered, spot, reserved, owned", head + "a,H100 SXM,8,leased,1,,,,\n", 2, "mode", provider.ErrUnknownMode},
		{"column of another mode", "a term on a metered offer is a mistake", head + "a,H100 SXM,8,metered,1,1y,,,\n", 2, "term", provider.ErrNotApplicable},
		{"validation maps to column", "Offer.Validate problems name their column", head + "a,H100 SXM,8,metered,1,,1.5,,\n", 2, "fill_probability", provider.ErrOutOfRange},
		{"zero GPUs", "gpus_per_node must be at least 1", head + "a,H100 SXM,0,metered,1,,,,\n", 2, "gpus_per_node", provider.ErrZeroGPUs},
		{"bad duration", "durations are Go durations or d/mo/y", head + "a,H100 SXM,8,metered,1,,,soon,\n", 2, "lead_time", provider.ErrMalformed},
		{"bad date", "dates are YYYY-MM-DD", head + "a,H100 SXM,8,metered,1,,,,01/02/2026\n", 2, "source_as_of", provider.ErrMalformed},
		{"reserved without term", "Reserved.Validate requires a term", head + "a,H100 SXM,8,reserved,,,,,2026-01-01\n", 2, "term", provider.ErrMissing},
		{"duplicate id", "IDs are unique", head + "a,H100 SXM,8,metered,1,,,,2026-01-01\na,H100 SXM,8,metered,2,,,,2026-01-01\n", 3, "id", provider.ErrDuplicateID},
		{"huge duration", "no overflow", head + "a,H100 SXM,8,metered,1,,,99999999999y,\n", 2, "lead_time", provider.ErrOutOfRange},
		{"foreign currency", "one catalog, one currency", "id,gpu_model,gpus_per_node,mode,rate_per_hour,currency\na,H100 SXM,8,metered,1,EUR\n", 2, "currency", provider.ErrCurrencyMismatch},
		{"malformed currency", "currencies are ISO 4217 codes", "id,gpu_model,gpus_per_node,mode,rate_per_hour,currency\na,H100 SXM,8,metered,1,usd\n", 2, "currency", provider.ErrMalformed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := provider.ImportOffers(strings.NewReader(tt.csv), provider.OfferImportOptions{AsOf: byoDate("2026-01-01")})
			rows := byoRowErrs(t, err)
			if len(rows) == 0 {
				t.Fatalf("%s: no row error: %v", tt.reason, err)
			}
			re := rows[0]
			if re.Line != tt.line || re.Column != tt.column || !errors.Is(re, tt.want) {
				t.Errorf("%s: got %v (line %d, column %q), want line %d column %q wrapping %v",
					tt.reason, re, re.Line, re.Column, tt.line, tt.column, tt.want)
			}
		})
	}
}

func TestImportOffersKeepGoodRows(t *testing.T) {
	csv := "id,gpu_model,gpus_per_node,mode,rate_per_hour\na,H100 SXM,8,metered,1\nb,H100 SXM,8,metered,x\nc,L40S,1,metered,0.9\n"
	c, err := provider.ImportOffers(strings.NewReader(csv), provider.OfferImportOptions{AsOf: byoDate("2026-01-01"), KeepGoodRows: true})
	if err == nil || len(c.Offers) != 2 || c.Offers[1].ID != "c" {
		t.Fatalf("got %d offers, err %v: want a and c with an error for line 3", len(c.Offers), err)
	}
	c, err = provider.ImportOffers(strings.NewReader(csv), provider.OfferImportOptions{AsOf: byoDate("2026-01-01")})
	if err == nil || len(c.Offers) != 0 {
		t.Fatalf("without KeepGoodRows: %d offers, err %v", len(c.Offers), err)
	}
	if _, err := provider.ImportOffers(strings.NewReader("id,gpu_model,gpus_per_node,mode\n"), provider.OfferImportOptions{}); !errors.Is(err, provider.ErrMissing) {
		t.Errorf("no rows and no date: err = %v, want ErrMissing", err)
	}
}

func FuzzImportOffers(f *testing.F) {
	f.Add([]byte(byoOffersCSV), true)
	f.Add([]byte("id,gpu_model,gpus_per_node,mode,rate_per_hour,credit\na,H100 SXM,8,metered,1,2\n"), false)
	f.Fuzz(func(t *testing.T, data []byte, keep bool) {
		c, err := provider.ImportOffers(bytes.NewReader(data), provider.OfferImportOptions{AsOf: byoDate("2026-01-01"), KeepGoodRows: keep})
		if err == nil {
			if verr := c.Validate(); verr != nil {
				t.Fatalf("imported catalog does not validate: %v", verr)
			}
		}
		if err != nil && !keep && len(c.Offers) > 0 {
			t.Fatal("offers returned with an error without KeepGoodRows")
		}
	})
}

// byoPriceList returns a generated price list of n GPU rows.
func byoPriceList(n int) []byte {
	accels := []string{"H100", "A100", "A100-80GB", "V100", "L4", "T4"}
	var b bytes.Buffer
	b.WriteString("InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,Price,SpotPrice,Region,AvailabilityZone\n")
	for i := range n {
		fmt.Fprintf(&b, "g%d.48xlarge,%s,8.0,192.0,2048.0,%d.%02d,", i, accels[i%len(accels)], 10+i%90, i%100)
		if i%2 == 0 {
			fmt.Fprintf(&b, "%d.%02d", 1+i%9, i%100)
		}
		fmt.Fprintf(&b, ",us-east-%d,us-east-%da\n", 1+i%2, 1+i%2)
	}
	return b.Bytes()
}

func benchmarkImportPriceList(b *testing.B, n int) {
	data := byoPriceList(n)
	opts := byoAWSOptions()
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		c, err := provider.ImportPriceList(bytes.NewReader(data), opts)
		if err != nil || len(c.Offers) != n+(n+1)/2 {
			b.Fatalf("%d offers, %v", len(c.Offers), err)
		}
	}
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}

func BenchmarkImportPriceList50k(b *testing.B) { benchmarkImportPriceList(b, 50_000) }

func ExampleImportPriceList() {
	const list = `InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,Price,SpotPrice,Region,AvailabilityZone
p5.48xlarge,H100,8.0,192.0,2048.0,55.04,11.25,us-east-2,us-east-2a
p4d.24xlarge,A100,8.0,96.0,1152.0,21.957642,,us-east-1,us-east-1b
m5.large,,,2.0,8.0,0.096,,us-east-1,us-east-1a
`
	c, err := provider.ImportPriceList(strings.NewReader(list), provider.ImportOptions{
		Provider: "AWS",
		AsOf:     time.Date(2025, 7, 1, 0, 0, 0, 0, time.UTC),
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, o := range c.Offers {
		rate, _ := o.RatePerGPUHour(time.Hour)
		fmt.Printf("%-32s %-6s %-9s %s/GPU-hour\n", o.ID, o.Pricing.Mode(), o.GPU.Model, rate.StringFixed(2))
	}
	now := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	for _, s := range c.Stale(now, 180*24*time.Hour) {
		if s.Offer == "" {
			fmt.Println(s)
		}
	}
	// Output:
	// aws/p5.48xlarge/us-east-2a       metered H100 SXM  6.88/GPU-hour
	// aws/p5.48xlarge/us-east-2a/spot  spot   H100 SXM  1.41/GPU-hour
	// aws/p4d.24xlarge/us-east-1b      metered A100 40GB 2.74/GPU-hour
	// provider: catalog dated 2025-07-01 is 243 days old
}
