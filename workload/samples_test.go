package workload

import (
	"bytes"
	"errors"
	"math"
	"strings"
	"testing"
	"time"
)

func TestReadSamplesCSV(t *testing.T) {
	in := "timestamp,gpu_util\n2026-01-05T00:00:00Z,20\n2026-01-05T01:00:00Z,80\n\n2026-01-05T02:00:00Z,40\n"
	obs, err := ReadSamplesCSV(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	c, err := FromSamples(obs)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Points) != 3 || c.Points[1].V != 1 || c.Points[0].V != 0.25 || c.Points[2].T != 2*time.Hour {
		t.Errorf("unexpected curve %+v", c.Points)
	}
	unix, err := ReadSamplesCSV(strings.NewReader("1767571200,1\n1767574800.5,2\n"))
	if err != nil || unix[1].Time.Sub(unix[0].Time) != time.Hour+500*time.Millisecond {
		t.Errorf("unix timestamps: %v, %v", unix, err)
	}
}

func TestReadSamplesCSVErrors(t *testing.T) {
	tests := []struct {
		name   string
		reason string
		in     string
		want   error
	}{
		{"empty", "no rows", "", ErrEmptySamples},
		{"header only", "no data rows", "timestamp,value\n", ErrEmptySamples},
		{"unsorted", "time must increase", "2026-01-05T01:00:00Z,1\n2026-01-05T00:00:00Z,1\n", ErrUnsorted},
		{"repeated", "strictly increasing", "10,1\n10,2\n", ErrUnsorted},
		{"NaN", "NaN is not an observation", "10,1\n11,NaN\n", ErrNotFinite},
		{"negative", "demand is ≥ 0", "10,1\n11,-3\n", ErrNegative},
		{"bad timestamp", "RFC 3339 or Unix seconds", "10,1\nyesterday,3\n", ErrMalformed},
		{"three fields", "timestamp,value only", "10,1,2\n", ErrMalformed},
	}
	for _, tt := range tests {
		if _, err := ReadSamplesCSV(strings.NewReader(tt.in)); !errors.Is(err, tt.want) {
			t.Errorf("%s: %v, want %v (%s)", tt.name, err, tt.want, tt.reason)
		}
	}
	if _, err := FromSamples(nil); !errors.Is(err, ErrEmptySamples) {
		t.Errorf("FromSamples(nil) = %v", err)
	}
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	if _, err := FromSamples([]Observation{{now, 1}, {now, math.Inf(1)}}); !errors.Is(err, ErrUnsorted) || !errors.Is(err, ErrNotFinite) {
		t.Errorf("FromSamples reports every problem: %v", err)
	}
}

func TestWriteSamplesCSV(t *testing.T) {
	t0 := time.Date(2026, 3, 1, 12, 0, 0, 123, time.UTC)
	obs := []Observation{{t0, 0.1}, {t0.Add(time.Hour), 1.0 / 3}, {t0.Add(2 * time.Hour), 7e-300}}
	var buf bytes.Buffer
	if err := WriteSamplesCSV(&buf, obs); err != nil {
		t.Fatal(err)
	}
	got, err := ReadSamplesCSV(&buf)
	if err != nil {
		t.Fatal(err)
	}
	for i := range obs {
		if !got[i].Time.Equal(obs[i].Time) || got[i].Value != obs[i].Value {
			t.Errorf("row %d: %v, want %v", i, got[i], obs[i])
		}
	}
}
