package workload

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"strings"
	"testing"
	"time"
)

// Regression tests of issue 14: inputs at the extremes that once wrapped
// around, overflowed or took unbounded work.

// TestShiftBeyondDurationRange: a shift whose t + Offset overflows
// time.Duration once wrapped around to a negative time and returned the
// wrong step. A periodic curve is evaluated at the right phase (checked
// against big-integer arithmetic); an aperiodic one gives NaN, which
// analysis reports.
func TestShiftBeyondDurationRange(t *testing.T) {
	const year = 8760 * time.Hour
	week := Steps{Cycle: Week, Steps: []Step{{0, 0.1}, {30 * time.Hour, 0.7}, {100 * time.Hour, 0.4}, {150 * time.Hour, 1}}}
	for _, tt := range []struct {
		name      string
		offset, t time.Duration
	}{
		{"+200y at 99y", 200 * year, 99 * year},
		{"+200y at 250y", 200 * year, 250 * year},
		{"-200y at -99y", -200 * year, -99*year - 5*time.Hour},
		{"max offset at max t", math.MaxInt64, math.MaxInt64},
	} {
		sum := new(big.Int).Add(big.NewInt(int64(tt.t)), big.NewInt(int64(tt.offset)))
		ph := new(big.Int).Mod(sum, big.NewInt(int64(Week))) // Euclidean: in [0, Week)
		want := week.At(time.Duration(ph.Int64()))
		if got := (Shift{Curve: week, Offset: tt.offset}).At(tt.t); got != want {
			t.Errorf("%s: At = %v, want %v (phase %v of the week)", tt.name, got, want, time.Duration(ph.Int64()))
		}
	}
	aperiodic := Shift{Curve: Steps{Steps: []Step{{0, 0.2}, {time.Hour, 0.9}}}, Offset: 200 * year}
	if got := aperiodic.At(99 * year); !math.IsNaN(got) {
		t.Errorf("aperiodic curve beyond the Duration range: At = %v, want NaN", got)
	}
	if got := aperiodic.At(50 * year); got != 0.9 {
		t.Errorf("aperiodic curve within range: At = %v, want 0.9", got)
	}
	if _, err := Sample(aperiodic, 100*year, 100); !errors.Is(err, ErrDemand) {
		t.Errorf("Sample of an unrepresentable shift: %v, want ErrDemand", err)
	}
}

// TestGPUsBound: GPUs = MaxInt once passed validation, and node and GPU
// counts derived from it overflowed to negative numbers downstream.
func TestGPUsBound(t *testing.T) {
	w := Workload{Name: "big", Kind: Training, WorkGPUHours: 1}
	for _, tt := range []struct {
		gpus int
		ok   bool
	}{{1, true}, {MaxGPUs, true}, {MaxGPUs + 1, false}, {math.MaxInt, false}} {
		w.GPUs = tt.gpus
		err := w.Validate()
		if tt.ok != (err == nil) || !tt.ok && !errors.Is(err, ErrOutOfRange) {
			t.Errorf("GPUs = %d: Validate = %v, want ok = %v (ErrOutOfRange otherwise)", tt.gpus, err, tt.ok)
		}
		if !tt.ok && err != nil && !strings.Contains(err.Error(), "MaxGPUs") {
			t.Errorf("GPUs = %d: %q does not name the limit", tt.gpus, err)
		}
	}
}

// leaves returns the errors joined at the top of err.
func leaves(err error) []error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		return j.Unwrap()
	}
	if err == nil {
		return nil
	}
	return []error{err}
}

// checkCapped checks that err lists MaxProblems problems followed by a
// *MoreProblemsError of more, within perProblem bytes of message a problem.
func checkCapped(t *testing.T, what string, err error, more, perProblem int) {
	t.Helper()
	ls := leaves(err)
	if len(ls) != MaxProblems+1 {
		t.Fatalf("%s: %d errors listed, want MaxProblems + 1 = %d", what, len(ls), MaxProblems+1)
	}
	var mp *MoreProblemsError
	if !errors.As(ls[len(ls)-1], &mp) || mp.More != more || !errors.Is(err, ErrTooManyProblems) {
		t.Errorf("%s: last error %v, want a *MoreProblemsError of %d", what, ls[len(ls)-1], more)
	}
	s := fmt.Sprint(more)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	if !strings.Contains(err.Error(), "and "+s+" more problems") {
		t.Errorf("%s: message does not count %s more problems", what, s)
	}
	if n := len(err.Error()); n > perProblem*(MaxProblems+1) {
		t.Errorf("%s: message of %d bytes, want at most %d", what, n, perProblem*(MaxProblems+1))
	}
}

// TestProblemsCapped: 10⁶ unsorted CSV samples gave a 106 MB message; every
// validation and read lists MaxProblems problems and counts the rest.
func TestProblemsCapped(t *testing.T) {
	const rows = 20_000
	var b strings.Builder
	b.WriteString("timestamp,value\n")
	for range rows {
		b.WriteString("2026-01-01T00:00:00Z,1\n")
	}
	_, err := ReadSamplesCSV(strings.NewReader(b.String()))
	checkCapped(t, "ReadSamplesCSV", err, rows-1-MaxProblems, 200)

	pts := make([]Point, 10_000) // all at t = 0: every point after the first is out of order
	checkCapped(t, "PiecewiseLinear.Validate", PiecewiseLinear{Points: pts}.Validate(), len(pts)-1-MaxProblems, 200)
	w := Workload{Name: "svc", Kind: Inference, GPUs: 8, Horizon: Week, Demand: PiecewiseLinear{Points: pts}}
	checkCapped(t, "Workload.Validate", w.Validate(), len(pts)-1-MaxProblems, 200)

	steps := make([]Step, 10_000)
	checkCapped(t, "Steps.Validate", Steps{Steps: steps}.Validate(), len(steps)-1-MaxProblems, 200)
	// Counts of the terms' own capped lists add up.
	bad := PiecewiseLinear{Points: pts}
	checkCapped(t, "Sum.Validate", Add(bad, bad, bad).Validate(), 3*(len(pts)-1)-MaxProblems, 200)

	s := Scenario{Workloads: make([]Workload, 1000)}
	const perWorkload = 3 // name, kind, gpus; a zero workload has no work either
	if err := (Workload{}).Validate(); len(leaves(err)) != perWorkload+1 {
		t.Fatalf("a zero workload has %d problems, want %d: %v", len(leaves(err)), perWorkload+1, err)
	}
	checkCapped(t, "Scenario.Validate", s.Validate(), (perWorkload+1)*1000-MaxProblems, 200)
}

// TestEchoedValuesCut: a 50 MB field was echoed whole in its error; messages
// quote at most MaxEchoBytes of a value or field path.
func TestEchoedValuesCut(t *testing.T) {
	huge := strings.Repeat("x", 1<<20)
	checkShort := func(what string, err error) {
		t.Helper()
		if err == nil {
			t.Fatalf("%s: no error", what)
		}
		if msg := err.Error(); len(msg) > 2000 || !strings.Contains(msg, "…") {
			t.Errorf("%s: message of %d bytes (%.200s), want the value cut", what, len(msg), msg)
		}
	}
	w := Workload{Name: huge, Kind: Training, GPUs: 8, WorkGPUHours: 1}
	checkShort("duplicate name", Scenario{Workloads: []Workload{w, w}}.Validate())
	w.Requirements.Models = map[string]float64{huge: -1}
	checkShort("model name in the field path", w.Validate())
	checkShort("unknown kind", new(Kind).UnmarshalText([]byte(huge)))
	_, err := UnmarshalCurve([]byte(`{"type":"` + huge + `"}`))
	checkShort("unknown curve type", err)
	_, err = UnmarshalCurve([]byte(`{"type":"shift","curve":null,"offset":"` + huge + `"}`))
	checkShort("duration", err)
	_, err = UnmarshalCurve([]byte(`{"type":"constant","` + huge + `":1}`))
	checkShort("unknown JSON field", err)
	_, err = ReadSamplesCSV(strings.NewReader("2026-01-01T00:00:00Z,1\n" + huge + ",1\n"))
	checkShort("CSV timestamp", err)
	_, err = ReadSamplesCSV(strings.NewReader("2026-01-01T00:00:00Z,1\n2026-01-02T00:00:00Z," + huge + "\n"))
	checkShort("CSV value", err)
}

// TestCurveNodesBound: a Sum of 40,000 terms over a 10⁶-hour horizon took
// 114 s to validate (terms × hourly samples). A curve has at most
// MaxCurveNodes curves in its tree, checked before any sampling.
func TestCurveNodesBound(t *testing.T) {
	terms := func(n int) []Curve {
		ts := make([]Curve, n)
		for i := range ts {
			ts[i] = Constant{Value: 1 / float64(n)}
		}
		return ts
	}
	var chain Curve = Constant{Value: 0.5}
	for range MaxCurveNodes {
		chain = Scale{Curve: chain, Factor: 1}
	}
	tests := []struct {
		name   string
		reason string
		curve  Curve
		ok     bool
	}{
		{"at the limit", "a sum and its terms are MaxCurveNodes curves", Sum{Terms: terms(MaxCurveNodes - 1)}, true},
		{"one beyond", "one more term than the limit allows", Sum{Terms: terms(MaxCurveNodes)}, false},
		{"deep chain", "nesting counts as terms do", chain, false},
		{"inside a weekly", "the limit holds for the whole tree", Weekly{Weekday: Sum{Terms: terms(40)}, Weekend: Sum{Terms: terms(40)}}, false},
		{"40,000 terms", "the input of the issue", Sum{Terms: terms(40_000)}, false},
	}
	for _, tt := range tests {
		w := Workload{Name: "svc", Kind: Inference, GPUs: 8, Horizon: 1_000_000 * time.Hour, Demand: tt.curve}
		if tt.ok {
			w.Horizon = Week // sampling a valid curve of 64 curves a million times is the bounded cost, not tested here
		}
		err := w.Validate()
		if tt.ok != (err == nil) {
			t.Errorf("%s: Validate = %v, want ok = %v (%s)", tt.name, err, tt.ok, tt.reason)
			continue
		}
		if !tt.ok && (!errors.Is(err, ErrOutOfRange) || !strings.Contains(err.Error(), "MaxCurveNodes")) {
			t.Errorf("%s: Validate = %v, want ErrOutOfRange naming MaxCurveNodes (%s)", tt.name, err, tt.reason)
		}
		if _, err := Mean(tt.curve, 1_000_000*time.Hour); !tt.ok && !errors.Is(err, ErrOutOfRange) {
			t.Errorf("%s: Mean = %v, want ErrOutOfRange (%s)", tt.name, err, tt.reason)
		}
	}
}

// TestCurveDecoderNodes: the curve decoder had no term cap; it stops at
// MaxCurveNodes curves, as validation does.
func TestCurveDecoderNodes(t *testing.T) {
	sum := func(n int) []byte {
		terms := make([]string, n)
		for i := range terms {
			terms[i] = `{"type":"constant","value":0}`
		}
		return []byte(`{"type":"sum","terms":[` + strings.Join(terms, ",") + `]}`)
	}
	if _, err := UnmarshalCurve(sum(MaxCurveNodes - 1)); err != nil {
		t.Errorf("a sum of MaxCurveNodes curves: %v", err)
	}
	for _, n := range []int{MaxCurveNodes, 40_000} {
		if _, err := UnmarshalCurve(sum(n)); !errors.Is(err, ErrOutOfRange) || !strings.Contains(err.Error(), "MaxCurveNodes") {
			t.Errorf("a sum of %d terms: %v, want ErrOutOfRange naming MaxCurveNodes", n, err)
		}
	}
	// Nested sums count as one tree.
	inner := string(sum(40))
	nested := []byte(`{"type":"sum","terms":[` + inner + `,` + inner + `]}`)
	if _, err := UnmarshalCurve(nested); !errors.Is(err, ErrOutOfRange) {
		t.Errorf("two nested sums of 40: %v, want ErrOutOfRange", err)
	}
}

// TestJSONAmountLength: costOfDelayPerDay had no length cap (decimals parse
// in quadratic time); it has MaxNumberLen, as provider's money fields do.
func TestJSONAmountLength(t *testing.T) {
	read := func(amount string) error {
		_, err := ReadWorkload(strings.NewReader(`{"name":"j","kind":"batch","gpus":1,"workGPUHours":1,"costOfDelayPerDay":` + amount + `}`))
		return err
	}
	atCap := `"1.` + strings.Repeat("0", MaxNumberLen-2) + `"`
	if err := read(atCap); err != nil {
		t.Errorf("an amount of MaxNumberLen characters: %v", err)
	}
	for _, long := range []string{`"1.` + strings.Repeat("0", MaxNumberLen-1) + `"`, strings.Repeat("9", 1_000_000)} {
		if err := read(long); !errors.Is(err, ErrOutOfRange) || !strings.Contains(err.Error(), "MaxNumberLen") {
			t.Errorf("an amount of %d characters: %.300v, want ErrOutOfRange naming MaxNumberLen", len(long), err)
		}
	}
}
