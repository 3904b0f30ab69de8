package gputco_test

import (
	"encoding/json"
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gputco/gputco/provider"
	"github.com/gputco/gputco/workload"
	"github.com/shopspring/decimal"
)

// fill sets every field of v, recursively, to a non-zero value that
// validates as an enumeration (1) and as a curve (a constant), so that JSON
// encoding writes every field, omitempty ones included.
func fill(v reflect.Value) {
	switch v.Type() {
	case reflect.TypeFor[decimal.Decimal]():
		v.Set(reflect.ValueOf(decimal.NewFromInt(1)))
		return
	case reflect.TypeFor[time.Duration]():
		v.SetInt(int64(time.Hour))
		return
	case reflect.TypeFor[workload.Curve]():
		v.Set(reflect.ValueOf(workload.Constant{Value: 0.5}))
		return
	}
	switch v.Kind() {
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				fill(v.Field(i))
			}
		}
	case reflect.Int, reflect.Int64:
		v.SetInt(1)
	case reflect.Float64:
		v.SetFloat(0.5)
	case reflect.Bool:
		v.SetBool(true)
	case reflect.String:
		v.SetString("x")
	case reflect.Slice:
		s := reflect.MakeSlice(v.Type(), 1, 1)
		fill(s.Index(0))
		v.Set(s)
	case reflect.Map:
		m := reflect.MakeMap(v.Type())
		k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
		fill(k)
		fill(e)
		m.SetMapIndex(k, e)
		v.Set(m)
	}
}

// jsonKeys returns every object key of the JSON document data, at any
// depth, except below the keys in skip.
func jsonKeys(t *testing.T, data []byte, skip ...string) []string {
	t.Helper()
	var doc any
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	var walk func(any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, x := range v {
				seen[k] = true
				if !slices.Contains(skip, k) {
					walk(x)
				}
			}
		case []any:
			for _, x := range v {
				walk(x)
			}
		}
	}
	walk(doc)
	var out []string
	for k := range seen {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// spans returns the set of inline code spans of text, and of the JSON keys
// its fenced samples use.
func spans(text string) map[string]bool {
	out := map[string]bool{}
	for _, m := range regexp.MustCompile("`([^`\n]+)`").FindAllStringSubmatch(text, -1) {
		out[strings.Trim(m[1], `"`)] = true
	}
	for _, m := range regexp.MustCompile(`"(\w+)":`).FindAllStringSubmatch(text, -1) {
		out[m[1]] = true
	}
	return out
}

// TestREADMEWorkloadFields: the README's "Every field of a workload"
// paragraph names every field a workload writes in JSON, and every type and
// field of the built-in demand curves.
func TestREADMEWorkloadFields(t *testing.T) {
	sec := section(t, readme(t), "### Workloads")
	i := strings.Index(sec, "Every field of a workload")
	if i < 0 {
		t.Fatal(`README "### Workloads" has no "Every field of a workload" paragraph`)
	}
	para := sec[i:]
	if j := strings.Index(para, "\n\n"); j >= 0 {
		para = para[:j]
	}
	listed := spans(para)
	var w workload.Workload
	fill(reflect.ValueOf(&w).Elem())
	data, err := json.Marshal(w)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range jsonKeys(t, data, "demand", "models") {
		if !listed[k] {
			t.Errorf("a workload writes %q, which the README's list of fields does not name", k)
		}
	}
	curves := []workload.Curve{
		workload.Constant{}, workload.Diurnal{}, workload.Weekly{}, workload.Steps{},
		workload.PiecewiseLinear{}, workload.Growth{}, workload.Sum{}, workload.Scale{},
		workload.Clamp{}, workload.Shift{}, workload.Repeat{},
	}
	for _, c := range curves {
		v := reflect.New(reflect.TypeOf(c)).Elem()
		fill(v)
		data, err := workload.MarshalCurve(v.Interface().(workload.Curve))
		if err != nil {
			t.Fatalf("%T: %v", c, err)
		}
		var head struct{ Type string }
		if err := json.Unmarshal(data, &head); err != nil {
			t.Fatal(err)
		}
		if !listed[head.Type] {
			t.Errorf("the README does not name the curve type %q", head.Type)
		}
		for _, k := range jsonKeys(t, data) {
			if !listed[k] {
				t.Errorf("curve %q writes %q, which the README does not name", head.Type, k)
			}
		}
	}
}

// TestREADMECatalogFields: the README's "### Catalogs" section shows or
// names every field a catalog and its offers write in JSON (the pricing
// modes' fields are TestREADMEFormats's).
func TestREADMECatalogFields(t *testing.T) {
	listed := spans(section(t, readme(t), "### Catalogs"))
	cat, err := provider.Default()
	if err != nil {
		t.Fatal(err)
	}
	cat.Offers = slices.Clone(cat.Offers)
	cat.Offers[0].Currency = cat.Currency // omitted unless set
	data, err := json.Marshal(cat)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range jsonKeys(t, data, "pricing") {
		if !listed[k] {
			t.Errorf("a catalog writes %q, which the README's catalog section neither shows nor names", k)
		}
	}
}

// TestREADMEDefaultCatalog: the README's figures of the default catalog —
// its size, currency, date and how many of its offers are more than 180
// days old at that date (examples/catalog's threshold) — are the catalog's.
func TestREADMEDefaultCatalog(t *testing.T) {
	sec := section(t, readme(t), "## The default catalog")
	cat, err := provider.Default()
	if err != nil {
		t.Fatal(err)
	}
	head := fmt.Sprintf("`provider/default.json`: %d offers in %s,\ndated %s,", len(cat.Offers), cat.Currency, cat.AsOf.Format(time.DateOnly))
	if !strings.Contains(sec, head) {
		t.Errorf("README's default catalog section does not say %q", head)
	}
	stale := 0
	for _, s := range cat.Stale(cat.AsOf, 180*24*time.Hour) {
		if s.Offer != "" {
			stale++
		}
	}
	if want := fmt.Sprintf("%d of the %d default offers are", stale, len(cat.Offers)); !strings.Contains(sec, want) {
		t.Errorf("README's default catalog section does not say %q", want)
	}
}
