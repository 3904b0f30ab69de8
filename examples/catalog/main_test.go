package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gputco/gputco/provider"
)

var (
	headerRE = regexp.MustCompile(`^OFFER +KIND +GPU +MODE +\$/GPU-H +AS OF +AGE$`)
	rowRE    = regexp.MustCompile(`^\S+ +\S+ +\d+× .+ +\S+ +\$\d+\.\d{2} +(\d{4}-\d{2}-\d{2}) +(\d+) days( stale)?$`)
)

// today is a fixed "now" shortly after the default catalog's date.
var today = time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)

func TestRunDefaultCatalog(t *testing.T) {
	var out bytes.Buffer
	if err := run(&out, io.Discard, nil, today); err != nil {
		t.Fatalf("run() error: %v", err)
	}
	lines := strings.Split(strings.TrimRight(out.String(), "\n"), "\n")
	if !headerRE.MatchString(lines[0]) {
		t.Errorf("header = %q, want it to match %s", lines[0], headerRE)
	}
	rows := 0
	for _, l := range lines[1:] {
		m := rowRE.FindStringSubmatch(l)
		if m == nil {
			t.Errorf("row %q does not match %s", l, rowRE)
			continue
		}
		// The age is today's distance from the figures' date, and past 180
		// days the row is marked stale.
		asOf, err := time.Parse(time.DateOnly, m[1])
		if err != nil {
			t.Fatal(err)
		}
		age := int(today.Sub(asOf) / (24 * time.Hour))
		if m[2] != strconv.Itoa(age) || (m[3] != "") != (age > 180) {
			t.Errorf("row %q: age %s days%s, want %d days, stale %v", l, m[2], m[3], age, age > 180)
		}
		rows++
	}
	if rows < 25 {
		t.Errorf("printed %d rows, want at least 25", rows)
	}
}

func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestRunCatalogFlag(t *testing.T) {
	valid := `{"currency":"USD","asOf":"2026-11-01","offers":[{"id":"mine","provider":"me","kind":"self-hosted",
	"region":"home","jurisdiction":"US","gpu":{"model":"RTX 4090","memoryGiB":24,"bf16TFLOPS":165,"tdpWatts":450,
	"class":"consumer"},"gpusPerNode":2,"interconnect":{"fabric":"none","gbpsPerNode":0,"nvlink":false},
	"isolation":"physical","pricing":{"mode":"metered","ratePerHour":"1.00","increment":"1h0m0s","minimum":"1h0m0s"},
	"availability":{"fillProbability":1,"maxNodes":1,"leadTime":"0s"},"hidden":{"setupHours":0,"egressPerGB":"0",
	"ingressPerGB":"0","storagePerGBMonth":"0","transferGbps":0,"nodeMTBF":"0s","recoveryTime":"0s",
	"platformFeeFraction":0,"staffFTE":0,"staffCostPerYear":"0"},"source":{"name":"me","asOf":"2026-11-01"}}]}`
	negative := strings.Replace(valid, `"ratePerHour":"1.00"`, `"ratePerHour":"-1.00"`, 1)
	tests := []struct {
		name    string
		reason  string
		args    []string
		wantOut string // substring of the output on success
		wantErr string // substring of the error; "" means success
		errIs   error
	}{
		{
			name: "user catalog", reason: "-catalog prints the file's offers, priced per GPU",
			args: []string{"-catalog", writeFile(t, "ok.json", valid)}, wantOut: "$0.50", // $1.00 per node-hour over 2 GPUs
		},
		{
			name: "missing file", reason: "a file that does not exist is a clean error naming it",
			args: []string{"-catalog", filepath.Join(t.TempDir(), "nope.json")}, wantErr: "nope.json", errIs: fs.ErrNotExist,
		},
		{
			name: "invalid catalog", reason: "a negative price fails validation and names the field",
			args: []string{"-catalog", writeFile(t, "neg.json", negative)}, wantErr: "pricing.ratePerHour", errIs: provider.ErrNegative,
		},
		{
			name: "not JSON", reason: "a syntax error is reported, not a panic",
			args: []string{"-catalog", writeFile(t, "junk.json", "{oops")}, wantErr: "junk.json",
		},
		{
			name: "stray argument", reason: "positional arguments are a usage error",
			args: []string{"extra"}, wantErr: "unexpected argument",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			err := run(&out, io.Discard, tc.args, today)
			if tc.wantErr == "" {
				if err != nil {
					t.Fatalf("run(%q) error: %v (%s)", tc.args, err, tc.reason)
				}
				if !strings.Contains(out.String(), tc.wantOut) {
					t.Errorf("output lacks %q (%s):\n%s", tc.wantOut, tc.reason, out.String())
				}
				return
			}
			if err == nil {
				t.Fatalf("run(%q) succeeded, want an error containing %q (%s)", tc.args, tc.wantErr, tc.reason)
			}
			if !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("error = %q, want it to contain %q (%s)", err, tc.wantErr, tc.reason)
			}
			if tc.errIs != nil && !errors.Is(err, tc.errIs) {
				t.Errorf("error = %v, want errors.Is(err, %v) (%s)", err, tc.errIs, tc.reason)
			}
		})
	}
}

func TestStaleWarning(t *testing.T) {
	cat, err := provider.Default()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name     string
		reason   string
		now      time.Time
		wantWarn bool
	}{
		{"fresh", "a day after the catalog date", cat.AsOf.AddDate(0, 0, 1), false},
		{"180 days", "exactly 180 days old is not yet stale", cat.AsOf.Add(staleAfter), false},
		{"181 days", "more than 180 days old is stale", cat.AsOf.AddDate(0, 0, 181), true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var out, warn bytes.Buffer
			if err := printCatalog(&out, &warn, cat, tc.now); err != nil {
				t.Fatal(err)
			}
			n := strings.Count(warn.String(), "warning: provider: catalog dated")
			if got := n > 0; got != tc.wantWarn {
				t.Errorf("warned about the catalog = %v, want %v (%s); warning: %q", got, tc.wantWarn, tc.reason, warn.String())
			}
			if n > 1 {
				t.Errorf("catalog warning repeated: %q", warn.String())
			}
		})
	}
}

// TestStaleOffers: offers whose own figures are older than 180 days are
// counted in one warning and marked in the table, however fresh the
// catalog's date.
func TestStaleOffers(t *testing.T) {
	cat, err := provider.Default()
	if err != nil {
		t.Fatal(err)
	}
	var out, warn bytes.Buffer
	if err := printCatalog(&out, &warn, cat, cat.AsOf); err != nil {
		t.Fatal(err)
	}
	want := 0
	for _, o := range cat.Offers {
		if cat.AsOf.Sub(o.Source.AsOf) > staleAfter {
			want++
		}
	}
	if want == 0 {
		t.Fatal("no stale offer in the default catalog: the test needs one")
	}
	if !strings.Contains(warn.String(), fmt.Sprintf("warning: %d of %d offers have figures older than 180 days", want, len(cat.Offers))) {
		t.Errorf("no count of %d stale offers in %q", want, warn.String())
	}
	if got := strings.Count(out.String(), " stale\n"); got != want {
		t.Errorf("%d rows marked stale, want %d:\n%s", got, want, out.String())
	}
	for i := range cat.Offers {
		cat.Offers[i].Source.AsOf = cat.AsOf
	}
	warn.Reset()
	if err := printCatalog(&out, &warn, cat, cat.AsOf); err != nil {
		t.Fatal(err)
	}
	if warn.Len() != 0 {
		t.Errorf("fresh offers: unexpected warning %q", warn.String())
	}
}

// TestUnknownGPUWarning: a GPU model the table does not know is reported
// when the catalog is loaded, not met later as an incompatibility.
func TestUnknownGPUWarning(t *testing.T) {
	cat, err := provider.Default()
	if err != nil {
		t.Fatal(err)
	}
	var out, warn bytes.Buffer
	if err := printCatalog(&out, &warn, cat, cat.AsOf); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(warn.String(), "GPU model") {
		t.Errorf("default catalog: unexpected GPU warning %q", warn.String())
	}
	cat.Offers[0].GPU.Model = "MI300X"
	warn.Reset()
	if err := printCatalog(&out, &warn, cat, cat.AsOf); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(warn.String(), `GPU model "MI300X" is not in the GPU table`) {
		t.Errorf("no warning about the unknown model, got %q", warn.String())
	}
}

func TestDescribe(t *testing.T) {
	d := provider.Metered{}.RatePerHour
	tests := []struct {
		name   string
		reason string
		p      provider.Pricing
		want   string
	}{
		{"per second", "AWS-style billing", provider.PerSecond(d, time.Minute), "metered/1s"},
		{"per minute", "Lambda-style billing", provider.PerMinute(d), "metered/1m"},
		{"hourly", "classic on-demand", provider.Hourly(d), "metered/1h"},
		{"pro rata", "zero increment", provider.ProRata(d), "metered/prorata"},
		{"1 year", "one-year commitment", provider.Reserved{Term: provider.Year}, "reserved/1y"},
		{"3 years", "three-year commitment", provider.Reserved{Term: 3 * provider.Year}, "reserved/3y"},
		{"monthly", "monthly rental", provider.Monthly(d), "reserved/1mo"},
		{"owned", "capital expense", provider.Owned{}, "owned"},
		{"credit", "credit shows its base", provider.Credit{Base: provider.PerMinute(d)}, "credit/metered/1m"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := describe(tc.p); got != tc.want {
				t.Errorf("describe(%#v) = %q, want %q (%s)", tc.p, got, tc.want, tc.reason)
			}
		})
	}
}
