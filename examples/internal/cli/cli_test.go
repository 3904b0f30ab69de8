package cli

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"github.com/gputco/gputco/provider"
	"github.com/gputco/gputco/workload"
)

func TestMoney(t *testing.T) {
	tests := []struct {
		amount, currency, want string
		reason                 string
	}{
		{"0", "USD", "$0.00", "zero keeps its cents"},
		{"999.994", "USD", "$999.99", "rounded to cents, no separator below a thousand"},
		{"1234567.891", "USD", "$1,234,567.89", "a separator every three digits"},
		{"-12", "EUR", "-€12.00", "the sign before the symbol"},
		{"-0.001", "USD", "$0.00", "a negative amount that rounds to zero has no sign"},
		{"100000", "CHF", "CHF 100,000.00", "an ISO code where no symbol is known"},
		{"123456", "GBP", "£123,456.00", "exactly six digits"},
	}
	for _, tt := range tests {
		if got := Money(decimal.RequireFromString(tt.amount), tt.currency); got != tt.want {
			t.Errorf("Money(%s, %s) = %q, want %q: %s", tt.amount, tt.currency, got, tt.want, tt.reason)
		}
	}
	if got := MoneyFixed(decimal.RequireFromString("1234567.5"), "USD", 0); got != "$1,234,568" {
		t.Errorf("MoneyFixed(1234567.5, 0) = %q, want $1,234,568", got)
	}
}

func TestMoneyTicks(t *testing.T) {
	for _, tick := range (MoneyTicks{Currency: "USD"}).Ticks(0, 250000) {
		if tick.Label != "" && !strings.HasPrefix(tick.Label, "$") {
			t.Errorf("tick %v labelled %q, want a $ amount", tick.Value, tick.Label)
		}
		if tick.Value == 100000 && tick.Label != "$100,000" {
			t.Errorf("tick 100000 labelled %q, want $100,000", tick.Label)
		}
	}
}

func TestExit(t *testing.T) {
	tests := []struct {
		name   string
		err    error
		status int
		reason string
	}{
		{"ok", nil, 0, "success"},
		{"help", fmt.Errorf("parse: %w", flag.ErrHelp), 0, "-h is not a failure"},
		{"usage", Usagef("-years %v: want (0, 20]", 0), 2, "bad flags exit 2"},
		{"joined usage", &UsageError{errors.Join(errors.New("a"), errors.New("b"))}, 2, "several problems, one line"},
		{"other", errors.New("disk full"), 1, "a failure that is not the user's input"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stderr bytes.Buffer
			if got := Exit("x", &stderr, tt.err); got != tt.status {
				t.Errorf("status %d, want %d: %s", got, tt.status, tt.reason)
			}
			if n := strings.Count(stderr.String(), "\n"); tt.status != 0 && n != 1 {
				t.Errorf("%d lines on stderr, want 1: %q", n, stderr.String())
			}
		})
	}
}

func TestParseAndLoad(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte(`{"currency":"USD"`), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		args   []string
		load   bool
		reason string
	}{
		{"unknown flag", []string{"-nope"}, false, "the flag package's error"},
		{"bad format", []string{"-format", "xml"}, false, "only table, csv and json"},
		{"positional", []string{"extra"}, false, "flags only"},
		{"missing catalog", []string{"-catalog", filepath.Join(dir, "none.json")}, true, "a file that is not there"},
		{"broken catalog", []string{"-catalog", bad}, true, "malformed JSON"},
		{"missing workloads", []string{"-workloads", filepath.Join(dir, "none.json")}, true, "a file that is not there"},
		{"broken workloads", []string{"-workloads", bad}, true, "not a scenario"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var c Common
			fs := flag.NewFlagSet("x", flag.ContinueOnError)
			c.Register(fs)
			err := c.Parse(fs, tt.args, &bytes.Buffer{})
			if err == nil && tt.load {
				_, err = c.LoadCatalog(provider.Decoder{})
				if err == nil {
					_, err = c.LoadScenario(workload.Decoder{}, workload.Scenario{})
				}
			}
			var u *UsageError
			if !errors.As(err, &u) {
				t.Fatalf("error %v, want a *UsageError: %s", err, tt.reason)
			}
		})
	}
}

func TestWriteFormats(t *testing.T) {
	o := Output{
		Table:  func(w io.Writer) error { _, err := io.WriteString(w, "TABLE\n"); return err },
		Header: []string{"a", "b"},
		Rows:   [][]string{{"1", "x,y"}},
		JSON:   map[string]int{"a": 1},
	}
	want := map[string]string{
		"table": "TABLE\n",
		"csv":   "a,b\n1,\"x,y\"\n",
		"json":  "{\n  \"a\": 1\n}\n",
	}
	for _, f := range Formats() {
		var b bytes.Buffer
		if err := (Common{Format: f}).Write(&b, o); err != nil {
			t.Fatal(err)
		}
		if b.String() != want[f] {
			t.Errorf("format %s wrote %q, want %q", f, b.String(), want[f])
		}
	}
}
