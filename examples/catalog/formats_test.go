package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gputco/gputco/examples/internal/cli"
	"github.com/gputco/gputco/workload"
)

func TestFormats(t *testing.T) {
	var table, csvOut, jsonOut bytes.Buffer
	for _, c := range []struct {
		args []string
		out  *bytes.Buffer
	}{{nil, &table}, {[]string{"-format", "csv"}, &csvOut}, {[]string{"-format", "json"}, &jsonOut}} {
		if err := run(c.out, io.Discard, c.args, today); err != nil {
			t.Fatal(err)
		}
	}
	n := strings.Count(table.String(), "\n") - 1
	rows, err := csv.NewReader(&csvOut).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var v struct {
		Offers []struct {
			ID      string
			AgeDays int
			Stale   bool
		}
	}
	if err := json.Unmarshal(jsonOut.Bytes(), &v); err != nil {
		t.Fatal(err)
	}
	if len(rows)-1 != n || len(v.Offers) != n || n < 25 {
		t.Fatalf("table %d rows, CSV %d, JSON %d", n, len(rows)-1, len(v.Offers))
	}
	for i, o := range v.Offers {
		if rows[i+1][0] != o.ID || o.Stale != (o.AgeDays > 180) {
			t.Errorf("row %d: CSV %s, JSON %+v", i, rows[i+1][0], o)
		}
	}
}

// TestRuns: with -workloads, RUNS counts the workloads each offer can run: a
// one-GPU job that takes only H100 SXM runs on the H100 offers and on no other.
func TestRuns(t *testing.T) {
	job := workload.Workload{Name: "h100-only", Kind: workload.Training, GPUs: 1, WorkGPUHours: 80,
		Requirements: workload.Requirements{MinMemoryGiB: 80, Models: map[string]float64{"H100 SXM": 1}},
		Interruption: workload.Interruption{Tolerance: workload.Checkpointed, CheckpointTime: 1, RestartTime: 1}}
	var b bytes.Buffer
	if err := workload.WriteScenario(&b, workload.Scenario{Workloads: []workload.Workload{job}}); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "w.json")
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := run(&out, io.Discard, []string{"-workloads", path}, today); err != nil {
		t.Fatal(err)
	}
	rowRE := regexp.MustCompile(`(?m)^(\S+) +\S+ +\d+× (.+?) +\S+ +\$[\d,]+\.\d{2} +(\d+) +\d{4}-`)
	ms := rowRE.FindAllStringSubmatch(out.String(), -1)
	if len(ms) < 25 {
		t.Fatalf("%d rows with RUNS in:\n%s", len(ms), out.String())
	}
	h100 := 0
	for _, m := range ms {
		want := "0"
		if m[2] == "H100 SXM" {
			want, h100 = "1", h100+1
		}
		if m[3] != want {
			t.Errorf("%s (%s): RUNS %s, want %s", m[1], m[2], m[3], want)
		}
	}
	if h100 < 5 {
		t.Errorf("%d H100 rows", h100)
	}
}

func TestChart(t *testing.T) {
	dir := t.TempDir()
	if err := run(io.Discard, io.Discard, []string{"-out", dir}, today); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "catalog.png")
	if err := cli.CheckPNG(path, 500, 300); err != nil {
		t.Error(err)
	}
	if fi, err := os.Stat(path); err != nil || fi.Size() < 10_000 {
		t.Errorf("catalog.png: %v", err)
	}
}

func TestUsageErrors(t *testing.T) {
	for _, args := range [][]string{{"-format", "yaml"}, {"-nope"}, {"x"}, {"-catalog", "/nonexistent/c.json"}, {"-workloads", "/nonexistent/w.json"}} {
		var stderr bytes.Buffer
		err := run(io.Discard, io.Discard, args, today)
		if status := cli.Exit("catalog", &stderr, err); status != 2 || strings.Count(stderr.String(), "\n") != 1 {
			t.Errorf("run(%q): status %d, %q; want one line and status 2", args, status, stderr.String())
		}
	}
}
