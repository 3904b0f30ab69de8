package provider_test

import (
	"encoding/json"
	"errors"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/gputco/gputco/provider"
)

// jsonPaths returns the path of every value in the JSON encoding of v, as
// the package names fields in errors: keys dotted, indices in brackets.
// Objects and arrays are listed as well as their members.
func jsonPaths(t *testing.T, v any) map[string]any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("marshal: %v", err)
	}
	var tree any
	if err := json.Unmarshal(b, &tree); err != nil {
		t.Fatalf("unmarshal: %v", err)
	}
	paths := make(map[string]any)
	var walk func(prefix string, v any)
	walk = func(prefix string, v any) {
		if prefix != "" {
			paths[prefix] = v
		}
		switch x := v.(type) {
		case map[string]any:
			for k, c := range x {
				if prefix == "" {
					walk(k, c)
				} else {
					walk(prefix+"."+k, c)
				}
			}
		case []any:
			for i, c := range x {
				walk(prefix+"["+strconv.Itoa(i)+"]", c)
			}
		}
	}
	walk("", tree)
	return paths
}

// TestFieldNamesAreJSONKeys: an offer built in Go with every field wrong,
// for every built-in mode, reports each problem under a path that exists in
// the JSON encoding of an offer of the same shape (the oracle: encoding/json
// run over the offer, not the package's list of names), one distinct path
// per field broken.
func TestFieldNamesAreJSONKeys(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	neg := usd("-1")
	resale := provider.Resale{Points: []provider.ResalePoint{{Age: provider.Year, Fraction: 0.7}, {Age: 2 * provider.Year, Fraction: 0.5}}}
	owned := validOwned()
	owned.Resale = resale

	// Every field of an offer that validation checks, broken one closure
	// at a time: the reported paths must be as many as the closures.
	offerBreaks := []func(*provider.Offer){
		func(o *provider.Offer) { o.ID = "" },
		func(o *provider.Offer) { o.Kind = 7 },
		func(o *provider.Offer) { o.GPU.Model = "" },
		func(o *provider.Offer) { o.GPU.MemoryGiB = -1 },
		func(o *provider.Offer) { o.GPU.BF16TFLOPS = nan },
		func(o *provider.Offer) { o.GPU.TDPWatts = -inf },
		func(o *provider.Offer) { o.GPU.Class = 9 },
		func(o *provider.Offer) { o.GPUsPerNode = 0 },
		func(o *provider.Offer) { o.Interconnect.Fabric = 9 },
		func(o *provider.Offer) { o.Interconnect.GbpsPerNode = inf },
		func(o *provider.Offer) { o.Isolation = 9 },
		func(o *provider.Offer) { o.Availability.FillProbability = 1.5 },
		func(o *provider.Offer) { o.Availability.MaxNodes = -1 },
		func(o *provider.Offer) { o.Availability.LeadTime = -time.Hour },
		func(o *provider.Offer) { o.Hidden.SetupHours = -1 },
		func(o *provider.Offer) { o.Hidden.EgressPerGB = neg },
		func(o *provider.Offer) { o.Hidden.IngressPerGB = neg },
		func(o *provider.Offer) { o.Hidden.StoragePerGBMonth = neg },
		func(o *provider.Offer) { o.Hidden.TransferGbps = nan },
		func(o *provider.Offer) { o.Hidden.NodeMTBF = -time.Hour },
		func(o *provider.Offer) { o.Hidden.RecoveryTime = -time.Hour },
		func(o *provider.Offer) { o.Hidden.PlatformFeeFraction = 2 },
		func(o *provider.Offer) { o.Hidden.StaffFTE = -1 },
		func(o *provider.Offer) { o.Hidden.StaffCostPerYear = neg },
	}
	tests := []struct {
		name   string
		shape  provider.Pricing // valid, of the shape of the broken one
		broken provider.Pricing // every field wrong
		fields int              // fields broken in the pricing
	}{
		{"metered in a credit",
			provider.Credit{Base: provider.PerSecond(usd("2"), time.Minute), Amount: usd("5")},
			provider.Credit{Base: provider.Metered{RatePerHour: neg, Increment: -time.Second, Minimum: -time.Second}, Amount: neg}, 4},
		{"metered minimum below increment",
			provider.Hourly(usd("2")), provider.Metered{RatePerHour: usd("2"), Increment: time.Hour, Minimum: time.Minute}, 1},
		{"spot",
			provider.Spot{RatePerHour: usd("1"), Increment: time.Second, Minimum: time.Minute, InterruptionRatePerHour: 0.01, Notice: time.Minute},
			provider.Spot{RatePerHour: neg, Increment: -1, Minimum: -1, InterruptionRatePerHour: nan, Notice: -1}, 5},
		{"reserved",
			provider.Reserved{Term: provider.Year, UpfrontPerNode: usd("1"), RecurringPerHour: usd("1")},
			provider.Reserved{Term: 0, UpfrontPerNode: neg, RecurringPerHour: neg}, 3},
		{"owned", owned, provider.Owned{
			PurchasePerNode: neg, SalvagePerNode: neg, UsefulLifeYears: -1, Method: 9, IdlePowerKW: -1, MaxPowerKW: nan,
			ContractedPowerKW: inf, PUE: 0.5, EnergyPerKWh: neg, ColocationPerKWMonth: neg, MaintenanceFractionPerYear: 2,
			StaffFTEPerNode: -1, StaffCostPerYear: neg, ProcurementLeadTime: -1,
			Resale: provider.Resale{Points: []provider.ResalePoint{{Age: 0, Fraction: 1.5}, {Age: -1, Fraction: nan}}},
		}, 18},
		{"owned salvage above price", validOwned(), func() provider.Owned {
			o := validOwned()
			o.SalvagePerNode = o.PurchasePerNode.Add(usd("1"))
			return o
		}(), 1},
		{"credit without base", provider.Credit{Amount: usd("1")}, provider.Credit{Amount: usd("1")}, 1},
		{"no pricing", nil, nil, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			shape := validOffer("shape")
			shape.Pricing = tt.shape
			keys := jsonPaths(t, shape)

			broken := validOffer("broken")
			for _, f := range offerBreaks {
				f(&broken)
			}
			broken.Pricing = tt.broken
			seen := make(map[string]bool)
			for _, fe := range fieldErrors(t, broken.Validate()) {
				if _, ok := keys[fe.Field]; !ok {
					t.Errorf("%v: field %q is not a key of the offer's JSON", fe, fe.Field)
				}
				if fe.Offer != "" {
					t.Errorf("%v: names offer %q, want none (the broken offer has no id)", fe, fe.Offer)
				}
				if !strings.HasPrefix(fe.Error(), "provider: "+fe.Field+" ") && !strings.HasPrefix(fe.Error(), "provider: "+fe.Field+":") {
					t.Errorf("message %q does not start with the field %q", fe.Error(), fe.Field)
				}
				seen[fe.Field] = true
			}
			if want := len(offerBreaks) + tt.fields; len(seen) != want {
				fields := make([]string, 0, len(seen))
				for f := range seen {
					fields = append(fields, f)
				}
				slices.Sort(fields)
				t.Errorf("%d fields reported, want %d (one per field broken): %q", len(seen), want, fields)
			}
		})
	}
}

// TestDecodedFieldNamesAreJSONKeys: in a catalog file, every value of every
// built-in mode's offer replaced by a wrong one (a number by −1, an amount
// or a duration by its negative, any other string by "bogus") is reported,
// when it is a problem at all, under its own path; and every path an error
// names is a key of the file. Values whose syntax is wrong are reported as
// malformed.
func TestDecodedFieldNamesAreJSONKeys(t *testing.T) {
	for name, p := range builtinPricings() {
		o := validOffer("o")
		o.Pricing = p
		if own, ok := p.(provider.Owned); ok {
			own.Resale = provider.Resale{Points: []provider.ResalePoint{{Age: provider.Year, Fraction: 0.7}}}
			o.Pricing = own
		}
		keys := jsonPaths(t, o)
		for path, v := range keys {
			var bad any
			switch x := v.(type) {
			case float64:
				bad = -1.0
			case string:
				if _, err := decimal.NewFromString(x); err == nil {
					bad = "-1"
				} else if _, err := time.ParseDuration(x); err == nil {
					bad = "-1h"
				} else {
					bad = "bogus"
				}
			default:
				continue // objects, arrays, booleans, null
			}
			doc := catalogWith(t, o, path, bad)
			_, err := provider.ParseCatalog(doc)
			if err == nil {
				continue // a wrong value that is still valid, as a region "bogus"
			}
			fes := fieldErrors(t, err)
			if len(fes) == 0 {
				if !errors.Is(err, provider.ErrMalformed) {
					t.Errorf("%s: %s = %v: %v, want a *FieldError or a malformed value", name, path, bad, err)
				}
				continue
			}
			named := false
			for _, fe := range fes {
				if _, ok := keys[fe.Field]; !ok || fe.Offer != "o" {
					t.Errorf("%s: %s = %v: %v does not name a key of offer \"o\"'s JSON", name, path, bad, fe)
				}
				named = named || fe.Field == path
			}
			if !named {
				t.Errorf("%s: %s = %v: no problem names the field: %v", name, path, bad, err)
			}
		}
	}
}

// catalogWith returns a one-offer catalog file of o with the value at path
// replaced by bad.
func catalogWith(t *testing.T, o provider.Offer, path string, bad any) []byte {
	t.Helper()
	b, err := json.Marshal(o)
	if err != nil {
		t.Fatal(err)
	}
	var tree any
	if err := json.Unmarshal(b, &tree); err != nil {
		t.Fatal(err)
	}
	var set func(node any, parts []string)
	set = func(node any, parts []string) {
		key, rest := parts[0], parts[1:]
		name, index := key, -1
		if i := strings.IndexByte(key, '['); i >= 0 {
			name = key[:i]
			index, _ = strconv.Atoi(strings.TrimSuffix(key[i+1:], "]"))
		}
		m := node.(map[string]any)
		if index >= 0 {
			arr := m[name].([]any)
			if len(rest) == 0 {
				arr[index] = bad
			} else {
				set(arr[index], rest)
			}
			return
		}
		if len(rest) == 0 {
			m[name] = bad
			return
		}
		set(m[name], rest)
	}
	set(tree, strings.Split(path, "."))
	out, err := json.Marshal(map[string]any{"currency": "USD", "asOf": "2026-11-30", "offers": []any{tree}})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestImportOffersValidationColumns: the problems that only the offer's
// validation finds (not the reading of a field) are reported under the CSV
// column of the field at fault, through a credit as well.
func TestImportOffersValidationColumns(t *testing.T) {
	const owned = "id,gpu_model,gpus_per_node,mode,purchase_per_node,useful_life_years,salvage_per_node,idle_power_kw,max_power_kw,pue,credit,source_as_of\n"
	const metered = "id,gpu_model,gpus_per_node,mode,rate_per_hour,increment,minimum,credit,source_as_of\n"
	tests := []struct {
		name, reason, csv, column string
		want                      error
	}{
		{"salvage above price", "salvage is checked against the price", owned + "a,H100 SXM,8,owned,100,5,200,1,2,1.2,,2026-01-01\n", "salvage_per_node", provider.ErrSalvageAbovePrice},
		{"no life", "an owned server needs a useful life", owned + "a,H100 SXM,8,owned,100,,0,1,2,1.2,,2026-01-01\n", "useful_life_years", provider.ErrMissing},
		{"busy below idle", "a busy node draws at least the idle power", owned + "a,H100 SXM,8,owned,100,5,0,3,2,1.2,,2026-01-01\n", "max_power_kw", provider.ErrOutOfRange},
		{"PUE below one, in a credit", "the base's problems map to its columns", owned + "a,H100 SXM,8,owned,100,5,0,1,2,0.5,10,2026-01-01\n", "pue", provider.ErrOutOfRange},
		{"minimum below increment", "a minimum shorter than the increment", metered + "a,H100 SXM,8,metered,1,1h,1m,,2026-01-01\n", "minimum", provider.ErrMinimumBelowIncrement},
		{"minimum below increment, in a credit", "through a credit too", metered + "a,H100 SXM,8,metered,1,1h,1m,5,2026-01-01\n", "minimum", provider.ErrMinimumBelowIncrement},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := provider.ImportOffers(strings.NewReader(tt.csv), provider.OfferImportOptions{})
			rows := byoRowErrs(t, err)
			if len(rows) != 1 || rows[0].Line != 2 || rows[0].Column != tt.column || !errors.Is(rows[0], tt.want) {
				t.Errorf("%s: got %v, want one problem on line 2, column %q, wrapping %v", tt.reason, err, tt.column, tt.want)
			}
		})
	}
}
