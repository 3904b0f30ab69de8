package provider_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/gputco/gputco/provider"
)

// decodeErrorCases are catalogs broken in one place each: where the error
// must point and what it must say.
var decodeErrorCases = []struct {
	name       string
	reason     string
	json       string
	line, col  int    // 0: no position expected
	wantInText string // the offer the message names, if any
}{
	{
		name:   "syntax",
		reason: "a missing comma: the catalog's line and column",
		json:   "{\n  \"currency\": \"USD\"\n  \"asOf\": \"2026-01-01\", \"offers\": []}",
		line:   3, col: 3,
	},
	{
		name:   "type in offer",
		reason: "a string where a number goes, inside an offer: the catalog's line, and the offer's id",
		json: "{\"currency\": \"USD\", \"asOf\": \"2026-01-01\", \"offers\": [\n" +
			"  {\"id\": \"a\", \"gpusPerNode\": 1},\n" +
			"  {\"id\": \"b\",\n   \"gpusPerNode\": \"8\"}]}",
		line: 4, col: 21, wantInText: `offer "b"`,
	},
	{
		name:   "type in pricing",
		reason: "a number where a duration string goes, inside a pricing: the catalog's line",
		json: "{\"currency\": \"USD\", \"asOf\": \"2026-01-01\", \"offers\": [\n" +
			"  {\"id\": \"c\", \"pricing\": {\"mode\": \"metered\",\n" +
			"     \"increment\": 5}}]}",
		line: 3, col: 19, wantInText: `offer "c"`,
	},
	{
		name:       "value in offer",
		reason:     "an unknown name has no position, but the offer is named by its id, not its index",
		json:       `{"currency": "USD", "asOf": "2026-01-01", "offers": [{"id": "d", "kind": "cloudy"}]}`,
		wantInText: `offer "d"`,
	},
	{
		name:       "duration in pricing",
		reason:     "a duration that does not parse, in a pricing",
		json:       `{"currency": "USD", "asOf": "2026-01-01", "offers": [{"id": "e", "pricing": {"mode": "metered", "increment": "soon"}}]}`,
		wantInText: `offer "e"`,
	},
}

// TestDecodeErrorPositions: JSON syntax and type errors carry the line and
// column in the document decoded, errors about an offer name its id, and
// every message carries the package prefix once.
func TestDecodeErrorPositions(t *testing.T) {
	for _, tt := range decodeErrorCases {
		t.Run(tt.name, func(t *testing.T) {
			_, err := provider.ParseCatalog([]byte(tt.json))
			if err == nil {
				t.Fatalf("ParseCatalog succeeded; want an error (%s)", tt.reason)
			}
			if !errors.Is(err, provider.ErrMalformed) && !errors.Is(err, provider.ErrUnknownName) {
				t.Errorf("error %v wraps neither ErrMalformed nor ErrUnknownName", err)
			}
			var je *provider.JSONError
			switch {
			case tt.line == 0 && errors.As(err, &je):
				t.Errorf("unexpected position %d:%d in %v", je.Line, je.Column, err)
			case tt.line != 0 && !errors.As(err, &je):
				t.Errorf("no *JSONError in %v (%s)", err, tt.reason)
			case tt.line != 0 && (je.Line != tt.line || je.Column != tt.col):
				t.Errorf("position %d:%d, want %d:%d (%s): %v", je.Line, je.Column, tt.line, tt.col, tt.reason, err)
			}
			msg := err.Error()
			if tt.wantInText != "" && !strings.Contains(msg, tt.wantInText) {
				t.Errorf("message %q does not name %s (%s)", msg, tt.wantInText, tt.reason)
			}
			if strings.Contains(msg, "catalog offer") {
				t.Errorf("message %q numbers an offer that has an id", msg)
			}
			for _, line := range strings.Split(msg, "\n") {
				if n := strings.Count(line, "provider:"); n != 1 {
					t.Errorf("package prefix %d times in %q", n, line)
				}
			}
		})
	}
}

// TestDecodeErrorUnnamedOffer: an offer without an id is numbered.
func TestDecodeErrorUnnamedOffer(t *testing.T) {
	_, err := provider.ParseCatalog([]byte(`{"currency": "USD", "asOf": "2026-01-01", "offers": [{"gpusPerNode": "x"}]}`))
	if err == nil || !strings.Contains(err.Error(), "provider: catalog offer 0: offer: ") {
		t.Errorf("error %v, want it to number the offer without an id", err)
	}
}

// TestUnknownNameListsAllowed: an unknown enumeration name in a catalog is
// reported with the names that are allowed.
func TestUnknownNameListsAllowed(t *testing.T) {
	tests := []struct{ field, bad, want string }{
		{"kind", "cloudy", `(one of "general-cloud", "gpu-platform", "self-hosted")`},
		{"isolation", "private", `(one of "shared", "dedicated", "physical")`},
	}
	for _, tt := range tests {
		doc := `{"currency": "USD", "asOf": "2026-01-01", "offers": [{"id": "x", "` + tt.field + `": "` + tt.bad + `"}]}`
		_, err := provider.ParseCatalog([]byte(doc))
		if !errors.Is(err, provider.ErrUnknownName) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s %q: error %v, want ErrUnknownName listing %s", tt.field, tt.bad, err, tt.want)
		}
	}
}

// TestDurationsReadAlike: a duration reads the same in a JSON catalog and in
// the offers CSV, days, months and years included.
func TestDurationsReadAlike(t *testing.T) {
	for _, s := range []string{"90s", "720h", "3d", "1.5d", "1mo", "3y"} {
		doc := `{"currency": "USD", "asOf": "2026-01-01", "offers": [{"id": "a", "gpu": {"model": "H100 SXM", "memoryGiB": 80, "bf16TFLOPS": 989, "tdpWatts": 700},
			"gpusPerNode": 8, "pricing": {"mode": "metered", "ratePerHour": "1"}, "availability": {"fillProbability": 1, "leadTime": "` + s + `"}}]}`
		fromJSON, err := provider.ParseCatalog([]byte(doc))
		if err != nil {
			t.Fatalf("%s: ParseCatalog: %v", s, err)
		}
		csv := "id,gpu_model,gpus_per_node,mode,rate_per_hour,fill_probability,lead_time,source_as_of\na,H100 SXM,8,metered,1,1," + s + ",2026-01-01\n"
		fromCSV, err := provider.ImportOffers(strings.NewReader(csv), provider.OfferImportOptions{})
		if err != nil {
			t.Fatalf("%s: ImportOffers: %v", s, err)
		}
		j, c := fromJSON.Offers[0].Availability.LeadTime, fromCSV.Offers[0].Availability.LeadTime
		if j != c || j <= 0 {
			t.Errorf("lead time %q: JSON %v, CSV %v", s, j, c)
		}
	}
	var d provider.Duration
	if err := d.UnmarshalText([]byte("1000y")); !errors.Is(err, provider.ErrOutOfRange) {
		t.Errorf("1000y: error %v, want ErrOutOfRange", err)
	}
}

// TestCurrencyCodeMessage: a currency that is not an ISO 4217 code is
// malformed, and the message says what a code looks like.
func TestCurrencyCodeMessage(t *testing.T) {
	docs := map[string]string{
		"catalog": `{"currency": "usd", "asOf": "2026-01-01", "offers": []}`,
		"offer":   `{"currency": "USD", "asOf": "2026-01-01", "offers": [{"id": "a", "currency": "dollars"}]}`,
	}
	for name, doc := range docs {
		_, err := provider.ParseCatalog([]byte(doc))
		if !errors.Is(err, provider.ErrMalformed) || !strings.Contains(err.Error(), "three upper-case letters") {
			t.Errorf("%s: error %v, want ErrMalformed saying \"three upper-case letters\"", name, err)
		}
	}
	_, err := provider.ImportOffers(strings.NewReader("id\n"), provider.OfferImportOptions{Currency: "euro"})
	if !errors.Is(err, provider.ErrMalformed) || !strings.Contains(err.Error(), "three upper-case letters") {
		t.Errorf("ImportOffers: error %v, want ErrMalformed saying \"three upper-case letters\"", err)
	}
}
