package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gputco/gputco/examples/internal/cli"
	"github.com/gputco/gputco/provider"
)

var today = time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)

func TestRunDefault(t *testing.T) {
	var out, warn bytes.Buffer
	if err := run(&out, &warn, []string{"-horizons", "3"}, today); err != nil {
		t.Fatal(err)
	}
	text := out.String()
	if !regexp.MustCompile(`(?m)^RENT OFFER +MODE +\$/GPU-H +BREAK-EVEN`).MatchString(text) {
		t.Fatalf("no table header in:\n%s", text)
	}
	// The AWS on-demand H100 row breaks even at a utilization between the
	// reference-data §5a figure without hidden costs (32 %) and 50 %: hidden
	// costs of renting and owning differ, but not by that much.
	m := regexp.MustCompile(`(?m)^aws-p5-h100-ondemand +metered +\$6\.88 +([0-9.]+)%`).FindStringSubmatch(text)
	if m == nil {
		t.Fatalf("no aws-p5-h100-ondemand row with a crossover in:\n%s", text)
	}
	// The cash view credits the server's market resale value, and says so.
	if !strings.Contains(text, "Credited at the end: resale value at market ") || !strings.Contains(text, "(an estimate)") {
		t.Errorf("no line saying the market resale value is credited, in:\n%s", text)
	}
	// The server's 9-month procurement: the first quarter of the 3 years is
	// not served by owning.
	if !strings.Contains(text, "Capacity from month 9.0 (lead time and expected stock wait): owning serves only 75.0% of the horizon") {
		t.Errorf("no line saying what owning serves, in:\n%s", text)
	}
	// The catalog is fresh, but most offers' own figures are not: the AWS
	// on-demand price dates from June 2025.
	if w := warn.String(); strings.Contains(w, "catalog dated") ||
		!strings.Contains(w, "offers compared have figures older than 180 days") ||
		!strings.Contains(w, "aws-p5-h100-ondemand (2025-06-01, ") {
		t.Errorf("want a warning about stale offers and none about the catalog, got %q", w)
	}
}

// TestRunFreshOffers: offers whose figures are recent draw no warning.
func TestRunFreshOffers(t *testing.T) {
	cat, err := provider.Default()
	if err != nil {
		t.Fatal(err)
	}
	for i := range cat.Offers {
		cat.Offers[i].Source.AsOf = cat.AsOf
	}
	path := filepath.Join(t.TempDir(), "fresh.json")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := cat.WriteJSON(f); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	var out, warn bytes.Buffer
	if err := run(&out, &warn, []string{"-catalog", path, "-years", "1", "-horizons", "1"}, today); err != nil {
		t.Fatal(err)
	}
	if warn.Len() != 0 {
		t.Errorf("unexpected warning for fresh offers: %s", warn.String())
	}
}

// TestRunVerdictAgreesWithRanges: in every row, the verdict at the expected
// utilization is "buy" exactly when the utilization lies in a range where
// owning is cheaper (at 30, 60 and 95 %; 60 % only in -short mode). The AWS 3-year reservation row once
// read "always" and "never" side by side: owning won at the lowest
// utilization only.
func TestRunVerdictAgreesWithRanges(t *testing.T) {
	utils := []string{"0.3", "0.6", "0.95"}
	if raceEnabled || testing.Short() {
		utils = []string{"0.6"}
	}
	for _, util := range utils {
		var out, warn bytes.Buffer
		if err := run(&out, &warn, []string{"-util", util, "-horizons", "3"}, today); err != nil {
			t.Fatal(err)
		}
		u, _ := strconv.ParseFloat(util, 64)
		rows := regexp.MustCompile(`(?m)^([a-z0-9-]+) +[a-z]+ +\$[0-9.]+ +\S+ +(\S+) +(?:month [0-9]+|never) +\$[0-9,]+ +\$[0-9,]+ +(buy|rent)$`).FindAllStringSubmatch(out.String(), -1)
		if len(rows) < 5 {
			t.Fatalf("-util %s: %d rows parsed in:\n%s", util, len(rows), out.String())
		}
		for _, m := range rows {
			if inRanges(t, m[2], u*100) != (m[3] == "buy") {
				t.Errorf("-util %s: %s: owning cheaper at %s but verdict %s", util, m[1], m[2], m[3])
			}
		}
	}
}

// inRanges reports whether pct lies in the ranges printed by ownRanges.
func inRanges(t *testing.T, s string, pct float64) bool {
	t.Helper()
	switch s {
	case "always":
		return true
	case "never":
		return false
	}
	for _, r := range strings.Split(s, ",") {
		r = strings.TrimSuffix(r, "%")
		var lo, hi float64
		switch {
		case strings.HasPrefix(r, "<"):
			lo, hi = 0, parse(t, r[1:])
		case strings.HasPrefix(r, ">"):
			lo, hi = parse(t, r[1:]), 100
		default:
			a, b, ok := strings.Cut(r, "-")
			if !ok {
				t.Fatalf("range %q", r)
			}
			lo, hi = parse(t, a), parse(t, b)
		}
		if pct >= lo && pct <= hi {
			return true
		}
	}
	return false
}

func parse(t *testing.T, s string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestRunErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte(`{"currency":"USD"`), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		args   []string
		reason string
	}{
		{"unknown offer", []string{"-own", "nope"}, "the owned offer must exist"},
		{"not owned", []string{"-own", "aws-p5-h100-ondemand"}, "the offer to compare must be owned"},
		{"bad utilization", []string{"-util", "1.5"}, "utilization is a fraction"},
		{"bad years", []string{"-years", "0"}, "the horizon must be positive"},
		{"missing catalog", []string{"-catalog", filepath.Join(dir, "none.json")}, "a missing file is an error"},
		{"broken catalog", []string{"-catalog", bad}, "malformed JSON is an error"},
		{"extra argument", []string{"x"}, "no positional arguments"},
		{"bad format", []string{"-format", "pdf"}, "table, csv or json"},
		{"bad horizons", []string{"-horizons", "1,x"}, "years separated by commas"},
		{"unknown workload", []string{"-workload", "nope"}, "the workload must exist"},
		{"unknown flag", []string{"-nope"}, "the flag package's error"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, warn bytes.Buffer
			err := run(&out, &warn, tt.args, today)
			if err == nil {
				t.Fatalf("run(%q) succeeded; %s", tt.args, tt.reason)
			}
			var stderr bytes.Buffer
			if status := cli.Exit("rentorbuy", &stderr, err); status != 2 || strings.Count(stderr.String(), "\n") != 1 {
				t.Errorf("run(%q): status %d, %q; want a one-line usage error, status 2", tt.args, status, stderr.String())
			}
		})
	}
}

func TestRunStaleWarning(t *testing.T) {
	cat, err := provider.Default()
	if err != nil {
		t.Fatal(err)
	}
	var out, warn bytes.Buffer
	if err := run(&out, &warn, []string{"-years", "1", "-horizons", "1"}, cat.AsOf.Add(200*24*time.Hour)); err != nil {
		t.Fatal(err)
	}
	if strings.Count(warn.String(), "warning: provider: catalog dated") != 1 {
		t.Errorf("want one staleness warning about the catalog, got %q", warn.String())
	}
}
