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

	"github.com/gputco/gputco/provider"
)

var today = time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)

func TestRunDefault(t *testing.T) {
	var out, warn bytes.Buffer
	if err := run(&out, &warn, nil, today); err != nil {
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
	if warn.Len() != 0 {
		t.Errorf("unexpected warning for a fresh catalog: %s", warn.String())
	}
}

// TestRunOwnCheaperBelow: against the AWS 3-year reservation the default
// server is cheaper only below about 90 % utilization — owning's power
// bill rises with use, the reservation's does not — and the table says so
// rather than "always".
func TestRunOwnCheaperBelow(t *testing.T) {
	var out, warn bytes.Buffer
	if err := run(&out, &warn, nil, today); err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^aws-p5-h100-reserved-3y +reserved +\$2\.48 +([0-9.]+)% +<([0-9.]+)% `).FindStringSubmatch(out.String())
	if m == nil {
		t.Fatalf("no aws-p5-h100-reserved-3y row with owning cheaper below a crossing in:\n%s", out.String())
	}
	u, _ := strconv.ParseFloat(m[1], 64)
	if m[1] != m[2] || u < 85 || u > 95 {
		t.Errorf("crossing %s%%, own cheaper below %s%%; want one crossing near 90.5%%", m[1], m[2])
	}
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
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, warn bytes.Buffer
			if err := run(&out, &warn, tt.args, today); err == nil {
				t.Errorf("run(%q) succeeded; %s", tt.args, tt.reason)
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
	if err := run(&out, &warn, nil, cat.AsOf.Add(200*24*time.Hour)); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(warn.String(), "out of date") || strings.Count(warn.String(), "\n") != 1 {
		t.Errorf("want a one-line staleness warning, got %q", warn.String())
	}
}
