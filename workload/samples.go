package workload

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"
)

// Observation is one observation of a time series: a value (GPU utilisation,
// GPUs busy, queries per second…) at a time.
type Observation struct {
	// Time is when the value was observed.
	Time time.Time
	// Value is the observation, finite and ≥ 0, in any unit.
	Value float64
}

// ReadSamplesCSV reads "timestamp,value" rows. A timestamp is RFC 3339
// (with or without fractional seconds) or a Unix time in seconds (an integer
// or decimal number); a value is a finite number ≥ 0. A first row whose value
// is not a number is taken as a header and skipped; blank lines are skipped.
// Timestamps must be strictly increasing and there must be at least one row.
// All problems are reported at once (errors.Join), each naming the line;
// they wrap ErrMalformed, ErrNotFinite, ErrNegative, ErrUnsorted or
// ErrEmptySamples. Times are returned in UTC. The values are returned as
// read; FromSamples turns them into a demand curve normalised to the peak.
func ReadSamplesCSV(r io.Reader) ([]Observation, error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1
	cr.TrimLeadingSpace = true
	cr.ReuseRecord = true
	var (
		out  []Observation
		errs problemList
	)
	for row := 0; ; row++ {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			errs.add(fmt.Errorf("workload: %w: %v", ErrMalformed, err)) // csv errors name the line
			break
		}
		if len(rec) == 0 {
			continue
		}
		line, _ := cr.FieldPos(0)
		if len(rec) == 1 && strings.TrimSpace(rec[0]) == "" {
			continue
		}
		if len(rec) != 2 {
			errs.add(fmt.Errorf("workload: %w: line %d: want 2 fields (timestamp,value), got %d", ErrMalformed, line, len(rec)))
			continue
		}
		v, verr := strconv.ParseFloat(strings.TrimSpace(rec[1]), 64)
		if verr != nil && row == 0 && len(out) == 0 && len(errs.errs) == 0 {
			continue // header
		}
		ts, terr := parseTimestamp(strings.TrimSpace(rec[0]))
		switch {
		case terr != nil:
			errs.add(fmt.Errorf("workload: %w: line %d: timestamp %s", ErrMalformed, line, echo(rec[0])))
			continue
		case verr != nil:
			errs.add(fmt.Errorf("workload: %w: line %d: value %s", ErrMalformed, line, echo(rec[1])))
			continue
		case math.IsNaN(v) || math.IsInf(v, 0):
			errs.add(fmt.Errorf("workload: %w: line %d: value %v", ErrNotFinite, line, v))
			continue
		case v < 0:
			errs.add(fmt.Errorf("workload: %w: line %d: value %v", ErrNegative, line, v))
			continue
		}
		if n := len(out); n > 0 && !ts.After(out[n-1].Time) {
			errs.add(fmt.Errorf("workload: %w: line %d: %s not after %s", ErrUnsorted, line,
				ts.Format(time.RFC3339Nano), out[n-1].Time.Format(time.RFC3339Nano)))
			continue
		}
		out = append(out, Observation{Time: ts, Value: v})
	}
	if len(out) == 0 && len(errs.errs) == 0 {
		errs.add(ErrEmptySamples)
	}
	if err := errs.err(); err != nil {
		return nil, err
	}
	return out, nil
}

// parseTimestamp parses RFC 3339 or Unix seconds.
func parseTimestamp(s string) (time.Time, error) {
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t.UTC(), nil
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) || math.Abs(f) > 1e11 {
		return time.Time{}, fmt.Errorf("workload: %w: timestamp %s", ErrMalformed, echo(s))
	}
	sec := math.Floor(f)
	return time.Unix(int64(sec), int64(math.Round((f-sec)*1e9))).UTC(), nil
}

// WriteSamplesCSV writes samples as "timestamp,value" rows under a
// "timestamp,value" header, timestamps in RFC 3339 with nanoseconds (UTC)
// and values in the shortest form that reads back exactly, so that
// ReadSamplesCSV returns equal samples.
func WriteSamplesCSV(w io.Writer, samples []Observation) error {
	cw := csv.NewWriter(w)
	if err := cw.Write([]string{"timestamp", "value"}); err != nil {
		return err
	}
	for _, s := range samples {
		rec := []string{s.Time.UTC().Format(time.RFC3339Nano), strconv.FormatFloat(s.Value, 'g', -1, 64)}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// FromSamples returns the PiecewiseLinear curve of a sample series
// normalised to its peak: T is the time since the first sample and V the
// value divided by the largest value (all zero if the largest is zero).
// Samples must be non-empty, strictly increasing in time, finite and ≥ 0,
// and span less than about 292 years.
func FromSamples(samples []Observation) (PiecewiseLinear, error) {
	if len(samples) == 0 {
		return PiecewiseLinear{}, fieldErr("samples", "[]", ErrEmptySamples, "")
	}
	var errs problemList
	peak := 0.0
	for i, s := range samples {
		if err := checkQuantity(fmt.Sprintf("samples[%d].value", i), s.Value); err != nil {
			errs.add(err)
		} else {
			peak = max(peak, s.Value)
		}
		if i > 0 && !s.Time.After(samples[i-1].Time) {
			errs.add(fieldErr(fmt.Sprintf("samples[%d].time", i), s.Time.Format(time.RFC3339Nano), ErrUnsorted, ""))
		}
	}
	if span := samples[len(samples)-1].Time.Sub(samples[0].Time); span == math.MaxInt64 {
		errs.add(fieldErr("samples", span, ErrOutOfRange, "span too long for a time.Duration"))
	}
	if err := errs.err(); err != nil {
		return PiecewiseLinear{}, err
	}
	pts := make([]Point, len(samples))
	for i, s := range samples {
		v := 0.0
		if peak > 0 {
			v = s.Value / peak
		}
		pts[i] = Point{T: s.Time.Sub(samples[0].Time), V: v}
	}
	return PiecewiseLinear{Points: pts}, nil
}
