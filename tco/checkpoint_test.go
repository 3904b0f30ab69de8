package tco

import (
	"errors"
	"math"
	"testing"
	"time"

	"pgregory.net/rapid"
)

// TestDalyPublishedCases reproduces the worked examples of Daly (2006) with
// δ = 5 min and R = 10 min. A published figure is rounded, so the tolerance
// is half a unit of its last digit; the formula is also checked, to 1e-9
// relative, against the algebraically equivalent form √(2δM)·(1 − ⅓√(δ/2M))².
func TestDalyPublishedCases(t *testing.T) {
	tests := []struct {
		name      string
		reason    string
		mtti      time.Duration
		published float64 // minutes
		halfUnit  float64 // minutes: half a unit of the published figure's last digit
	}{
		{
			name:      "M=24h",
			reason:    "Daly 2006: 117 min; the formula gives 116.69 min, which rounds to 117",
			mtti:      24 * time.Hour,
			published: 117, halfUnit: 0.5,
		},
		{
			name:      "M=6h",
			reason:    "Daly 2006: 57 min; the formula gives 56.71 min, which rounds to 57",
			mtti:      6 * time.Hour,
			published: 57, halfUnit: 0.5,
		},
		{
			name:      "M=15min",
			reason:    "Daly 2006: 9.1 min; the formula gives 9.14 min, which rounds to 9.1",
			mtti:      15 * time.Minute,
			published: 9.1, halfUnit: 0.05,
		},
	}
	const delta, restart = 5 * time.Minute, 10 * time.Minute
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := DalyInterval(delta, tt.mtti)
			if err != nil {
				t.Fatalf("DalyInterval: %v (%s)", err, tt.reason)
			}
			if d := math.Abs(got.Minutes() - tt.published); d > tt.halfUnit {
				t.Errorf("DalyInterval(%v, %v) = %.3f min, published %g ± %g (%s)",
					delta, tt.mtti, got.Minutes(), tt.published, tt.halfUnit, tt.reason)
			}
			d, m := delta.Minutes(), tt.mtti.Minutes()
			want := math.Sqrt(2*d*m) * math.Pow(1-math.Sqrt(d/(2*m))/3, 2)
			if rel := math.Abs(got.Minutes()-want) / want; rel > 1e-9 {
				t.Errorf("DalyInterval = %.9f min, closed form %.9f min (%s)", got.Minutes(), want, tt.reason)
			}
			// Daly's interval beats Young's on the wall time it minimises.
			young, err := YoungInterval(delta, tt.mtti)
			if err != nil {
				t.Fatal(err)
			}
			work := 1000 * time.Hour
			wd, err := ExpectedWallTime(work, delta, restart, tt.mtti, got)
			if err != nil {
				t.Fatal(err)
			}
			wy, err := ExpectedWallTime(work, delta, restart, tt.mtti, young)
			if err != nil {
				t.Fatal(err)
			}
			if wd > wy {
				t.Errorf("T_w(Daly %v) = %v > T_w(Young %v) = %v (%s)", got, wd, young, wy, tt.reason)
			}
		})
	}
}

func TestYoungInterval(t *testing.T) {
	tests := []struct {
		name          string
		reason        string
		delta, mtti   time.Duration
		want          time.Duration
		wantErr       error
		wantErrsCount int
	}{
		{name: "daly-24h", reason: "√(2·5·1440) = 120 min exactly", delta: 5 * time.Minute, mtti: 24 * time.Hour, want: 120 * time.Minute},
		{name: "square", reason: "√(2·2·4) h = 4 h", delta: 2 * time.Hour, mtti: 4 * time.Hour, want: 4 * time.Hour},
		{name: "tiny", reason: "√(2·1·1) ns rounds to 1 ns", delta: 1, mtti: 1, want: 1},
		{name: "zero-delta", reason: "a free checkpoint has no optimum interval", delta: 0, mtti: time.Hour, wantErr: ErrInvalidCheckpoint, wantErrsCount: 1},
		{name: "both-bad", reason: "every problem is reported", delta: -time.Second, mtti: 0, wantErr: ErrInvalidCheckpoint, wantErrsCount: 2},
		{name: "overflow", reason: "√2·MaxDuration does not fit", delta: math.MaxInt64, mtti: math.MaxInt64, wantErr: ErrDurationOverflow, wantErrsCount: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := YoungInterval(tt.delta, tt.mtti)
			checkSentinel(t, err, tt.wantErr, tt.wantErrsCount, tt.reason)
			if tt.wantErr == nil && got != tt.want {
				t.Errorf("YoungInterval(%v, %v) = %v, want %v (%s)", tt.delta, tt.mtti, got, tt.want, tt.reason)
			}
		})
	}
}

func TestDalyInterval(t *testing.T) {
	tests := []struct {
		name          string
		reason        string
		delta, mtti   time.Duration
		want          time.Duration
		wantErr       error
		wantErrsCount int
	}{
		{name: "delta=2M", reason: "δ ≥ 2M gives M", delta: 2 * time.Hour, mtti: time.Hour, want: time.Hour},
		{name: "delta>2M", reason: "δ ≥ 2M gives M", delta: 5 * time.Hour, mtti: time.Hour, want: time.Hour},
		{name: "huge-mtti", reason: "2M would overflow int64; δ < 2M so the formula applies and fits",
			delta: math.MaxInt64, mtti: math.MaxInt64, want: time.Duration(math.Round(math.Sqrt2 * math.Pow(1-math.Sqrt(0.5)/3, 2) * math.MaxInt64))},
		{name: "negative-mtti", reason: "M must be positive", delta: time.Minute, mtti: -time.Hour, wantErr: ErrInvalidCheckpoint, wantErrsCount: 1},
		{name: "zero-mtti", reason: "no interruptions: no optimum interval", delta: time.Minute, mtti: 0, wantErr: ErrInvalidCheckpoint, wantErrsCount: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := DalyInterval(tt.delta, tt.mtti)
			checkSentinel(t, err, tt.wantErr, tt.wantErrsCount, tt.reason)
			if tt.wantErr != nil {
				return
			}
			// The huge case loses float precision; allow 1e-12 relative.
			if diff := math.Abs(float64(got - tt.want)); diff > 1e-12*float64(tt.want) {
				t.Errorf("DalyInterval(%v, %v) = %v, want %v (%s)", tt.delta, tt.mtti, got, tt.want, tt.reason)
			}
		})
	}
}

func TestExpectedWallTime(t *testing.T) {
	h := time.Hour
	tests := []struct {
		name                            string
		reason                          string
		work, delta, restart, mtti, tau time.Duration
		want                            time.Duration
		tolerance                       time.Duration
		wantErr                         error
		wantErrsCount                   int
	}{
		{name: "no-interruptions", reason: "mtti == 0: T_s + (T_s/τ)·δ exactly: 100 h + 100·6 min",
			work: 100 * h, delta: 6 * time.Minute, restart: h, mtti: 0, tau: h, want: 110 * h},
		{name: "zero-work", reason: "no work takes no time", work: 0, delta: time.Minute, restart: h, mtti: h, tau: h, want: 0},
		{name: "hand-computed", reason: "M=1h, R=0, τ+δ=1h, T_s/τ=2: 2·(e−1) h",
			work: h, delta: 30 * time.Minute, restart: 0, mtti: h, tau: 30 * time.Minute,
			want: time.Duration(2 * (math.E - 1) * float64(h)), tolerance: 1},
		{name: "restart-factor", reason: "R = M multiplies by e: 2·e·(e−1) h",
			work: h, delta: 30 * time.Minute, restart: h, mtti: h, tau: 30 * time.Minute,
			want: time.Duration(2 * math.E * (math.E - 1) * float64(h)), tolerance: 2},
		{name: "all-negative", reason: "every problem is reported, tau ≤ 0 too",
			work: -1, delta: -1, restart: -1, mtti: -1, tau: 0, wantErr: ErrInvalidCheckpoint, wantErrsCount: 5},
		{name: "exp-overflow", reason: "(τ+δ)/M = 3.6e12 overflows e^x",
			work: h, delta: h, restart: 0, mtti: 1, tau: h, wantErr: ErrDurationOverflow, wantErrsCount: 1},
		{name: "result-overflow", reason: "e^x is finite but the wall time exceeds 292 years",
			work: 1000 * 24 * h, delta: 0, restart: 0, mtti: h, tau: 100 * h, wantErr: ErrDurationOverflow, wantErrsCount: 1},
		{name: "segments-overflow", reason: "T_s/τ·δ exceeds the largest duration without interruptions",
			work: math.MaxInt64, delta: h, restart: 0, mtti: 0, tau: 1, wantErr: ErrDurationOverflow, wantErrsCount: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ExpectedWallTime(tt.work, tt.delta, tt.restart, tt.mtti, tt.tau)
			checkSentinel(t, err, tt.wantErr, tt.wantErrsCount, tt.reason)
			if tt.wantErr != nil {
				return
			}
			if diff := got - tt.want; diff < -tt.tolerance || diff > tt.tolerance {
				t.Errorf("ExpectedWallTime = %v, want %v ± %v (%s)", got, tt.want, tt.tolerance, tt.reason)
			}
		})
	}
}

func TestStatelessWallTime(t *testing.T) {
	h := time.Hour
	tests := []struct {
		name                         string
		reason                       string
		work, restart, mtti, taskLen time.Duration
		want                         time.Duration
		tolerance                    time.Duration
		wantErr                      error
		wantErrsCount                int
	}{
		{name: "no-interruptions", reason: "mtti == 0: exactly the work", work: 10 * h, restart: h, mtti: 0, taskLen: h, want: 10 * h},
		{name: "divisible", reason: "taskLen == 0 loses only restarts: T_s·e^{R/M}",
			work: 10 * h, restart: h, mtti: h, taskLen: 0, want: time.Duration(10 * math.E * float64(h)), tolerance: 1},
		{name: "one-task", reason: "R=0, L=M=T_s: M·(e−1)",
			work: h, restart: 0, mtti: h, taskLen: h, want: time.Duration((math.E - 1) * float64(h)), tolerance: 1},
		{name: "long-task-clipped", reason: "a task longer than the work is the whole work",
			work: h, restart: 0, mtti: h, taskLen: 100 * h, want: time.Duration((math.E - 1) * float64(h)), tolerance: 1},
		{name: "negative", reason: "every problem is reported", work: -1, restart: -1, mtti: -1, taskLen: -1,
			wantErr: ErrInvalidCheckpoint, wantErrsCount: 4},
		{name: "overflow", reason: "R/M = 3.6e12 overflows", work: h, restart: h, mtti: 1, taskLen: 0,
			wantErr: ErrDurationOverflow, wantErrsCount: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := StatelessWallTime(tt.work, tt.restart, tt.mtti, tt.taskLen)
			checkSentinel(t, err, tt.wantErr, tt.wantErrsCount, tt.reason)
			if tt.wantErr != nil {
				return
			}
			if diff := got - tt.want; diff < -tt.tolerance || diff > tt.tolerance {
				t.Errorf("StatelessWallTime = %v, want %v ± %v (%s)", got, tt.want, tt.tolerance, tt.reason)
			}
		})
	}
}

// checkSentinel checks that err wraps want and joins count problems (count is
// ignored when want is nil).
func checkSentinel(t *testing.T, err, want error, count int, reason string) {
	t.Helper()
	if want == nil {
		if err != nil {
			t.Fatalf("unexpected error %v (%s)", err, reason)
		}
		return
	}
	if !errors.Is(err, want) {
		t.Fatalf("error %v, want one wrapping %v (%s)", err, want, reason)
	}
	n := 1
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		n = len(j.Unwrap())
	}
	if n != count {
		t.Errorf("error joins %d problems, want %d: %v (%s)", n, count, err, reason)
	}
}

// checkpointCase is one drawn set of checkpoint parameters: δ in [1 s, 1000 s],
// δ/M in [1e-6, 10^maxRatioExp], R ≤ M, δ/10 ≤ τ ≤ M (or τ = δ/10 when
// δ/10 > M), work in [1 h, 1000 h]. No exponent exceeds a few units and the
// wall time stays far below the largest duration.
type checkpointCase struct {
	work, delta, restart, mtti, tau time.Duration
}

func checkpointGen(maxRatioExp float64) *rapid.Generator[checkpointCase] {
	return rapid.Custom(func(t *rapid.T) checkpointCase {
		delta := math.Pow(10, rapid.Float64Range(0, 3).Draw(t, "log10 checkpoint seconds"))
		ratio := math.Pow(10, rapid.Float64Range(-6, maxRatioExp).Draw(t, "log10 delta/mtti"))
		mtti := delta / ratio
		restart := mtti * rapid.Float64Range(0, 1).Draw(t, "restart/mtti")
		lo := math.Log10(min(delta/10, mtti))
		tau := math.Pow(10, rapid.Float64Range(lo, math.Log10(mtti)).Draw(t, "log10 tau seconds"))
		work := math.Pow(10, rapid.Float64Range(0, 3).Draw(t, "log10 work hours")) * 3600
		sec := func(s float64) time.Duration { return time.Duration(math.Round(s * 1e9)) }
		return checkpointCase{work: sec(work), delta: sec(delta), restart: sec(restart), mtti: sec(mtti), tau: max(sec(tau), 1)}
	})
}

// wallGE reports a ≥ b within 2 ns plus 1e-12 relative (float rounding of
// the formula, then rounding to whole nanoseconds).
func wallGE(a, b time.Duration) bool {
	return float64(a) >= float64(b)-2-1e-12*math.Abs(float64(b))
}

func mustWallTime(t *rapid.T, c checkpointCase) time.Duration {
	w, err := ExpectedWallTime(c.work, c.delta, c.restart, c.mtti, c.tau)
	if err != nil {
		t.Fatalf("ExpectedWallTime(%+v): %v", c, err)
	}
	return w
}

// propDalyLocalMinimum: for δ/M ≤ 0.01 Daly's τ is within 1e-4 of the true
// optimum, so moving it by ±1 % must not lower the wall time.
func propDalyLocalMinimum(t *rapid.T) {
	c := checkpointGen(-2).Draw(t, "case")
	tau, err := DalyInterval(c.delta, c.mtti)
	if err != nil {
		t.Fatal(err)
	}
	c.tau = tau
	at := mustWallTime(t, c)
	for _, f := range []float64{0.99, 1.01} {
		c2 := c
		c2.tau = time.Duration(float64(tau) * f)
		if other := mustWallTime(t, c2); !wallGE(other, at) {
			t.Fatalf("T_w(%.2f·τ_Daly) = %v < T_w(τ_Daly = %v) = %v", f, other, tau, at)
		}
	}
}

func TestDalyLocalMinimum(t *testing.T) { rapid.Check(t, propDalyLocalMinimum) }
func FuzzDalyLocalMinimum(f *testing.F) { f.Fuzz(rapid.MakeFuzz(propDalyLocalMinimum)) }

// goldenSectionMin minimises f over [lo, hi] by golden-section search: an oracle
// independent of Daly's closed form.
func goldenSectionMin(f func(float64) float64, lo, hi float64) float64 {
	g := (math.Sqrt(5) - 1) / 2
	a, b := lo, hi
	c, d := b-g*(b-a), a+g*(b-a)
	fc, fd := f(c), f(d)
	for range 200 {
		if fc < fd {
			b, d, fd = d, c, fc
			c = b - g*(b-a)
			fc = f(c)
		} else {
			a, c, fc = c, d, fd
			d = a + g*(b-a)
			fd = f(d)
		}
	}
	return (a + b) / 2
}

// propDalyNearNumericOptimum: for δ/M ≤ 0.01, Daly's τ is within 0.1 % of the
// numeric optimum of T_w and its wall time within 1e-9; Young's τ within 5 %.
func propDalyNearNumericOptimum(t *rapid.T) {
	c := checkpointGen(-2).Draw(t, "case")
	d, m, r := c.delta.Seconds(), c.mtti.Seconds(), c.restart.Seconds()
	wall := func(tau float64) float64 {
		w, err := wallSeconds(1, d, r, m, tau)
		if err != nil {
			t.Fatal(err)
		}
		return w
	}
	opt := goldenSectionMin(wall, 1e-9*m, 2*m)
	daly, young := dalySeconds(d, m), youngSeconds(d, m)
	if rel := math.Abs(daly-opt) / opt; rel > 1e-3 {
		t.Fatalf("Daly τ = %g s, numeric optimum %g s: %.2g relative", daly, opt, rel)
	}
	if rel := wall(daly)/wall(opt) - 1; rel > 1e-9 {
		t.Fatalf("T_w(Daly) exceeds the optimum by %.2g relative", rel)
	}
	if rel := math.Abs(young-opt) / opt; rel > 0.05 {
		t.Fatalf("Young τ = %g s, numeric optimum %g s: %.2g relative", young, opt, rel)
	}
}

func TestDalyNearNumericOptimum(t *testing.T) { rapid.Check(t, propDalyNearNumericOptimum) }
func FuzzDalyNearNumericOptimum(f *testing.F) {
	f.Fuzz(rapid.MakeFuzz(propDalyNearNumericOptimum))
}

// propIntervalOrder: Daly ≤ Young ≤ Daly + δ for every δ, M > 0 (for δ < 2M
// Daly = Young·(1 − ⅓√(δ/2M))²; for δ ≥ 2M Daly = M and Young ≤ δ).
func propIntervalOrder(t *rapid.T) {
	delta := time.Duration(math.Pow(10, rapid.Float64Range(0, 15).Draw(t, "log10 delta ns")))
	mtti := time.Duration(math.Pow(10, rapid.Float64Range(0, 15).Draw(t, "log10 mtti ns")))
	y, err := YoungInterval(delta, mtti)
	if err != nil {
		t.Fatal(err)
	}
	d, err := DalyInterval(delta, mtti)
	if err != nil {
		t.Fatal(err)
	}
	if d > y+1 || y > d+delta+1 {
		t.Fatalf("δ=%v M=%v: Daly %v, Young %v: want Daly ≤ Young ≤ Daly+δ", delta, mtti, d, y)
	}
}

func TestIntervalOrder(t *testing.T) { rapid.Check(t, propIntervalOrder) }
func FuzzIntervalOrder(f *testing.F) { f.Fuzz(rapid.MakeFuzz(propIntervalOrder)) }

// propWallTimeBounds: T_w ≥ T_s + (T_s/τ)·δ (the no-interruption value) ≥ T_s.
func propWallTimeBounds(t *rapid.T) {
	c := checkpointGen(0).Draw(t, "case")
	w := mustWallTime(t, c)
	free := c
	free.mtti = 0
	w0 := mustWallTime(t, free)
	if !wallGE(w, w0) || w0 < c.work {
		t.Fatalf("%+v: T_w = %v, no-interruption %v, work %v", c, w, w0, c.work)
	}
}

func TestWallTimeBounds(t *testing.T) { rapid.Check(t, propWallTimeBounds) }
func FuzzWallTimeBounds(f *testing.F) { f.Fuzz(rapid.MakeFuzz(propWallTimeBounds)) }

// propWallTimeGrowsWithRate: a shorter mean time to interruption (higher
// rate) never lowers the wall time at a fixed τ.
func propWallTimeGrowsWithRate(t *rapid.T) {
	c := checkpointGen(0).Draw(t, "case")
	longer := c
	longer.mtti = time.Duration(min(float64(c.mtti)*math.Pow(10, rapid.Float64Range(0, 3).Draw(t, "log10 mtti factor")), 1<<62))
	short, long := mustWallTime(t, c), mustWallTime(t, longer)
	if !wallGE(short, long) {
		t.Fatalf("T_w(M=%v) = %v < T_w(M=%v) = %v", c.mtti, short, longer.mtti, long)
	}
}

func TestWallTimeGrowsWithRate(t *testing.T) { rapid.Check(t, propWallTimeGrowsWithRate) }
func FuzzWallTimeGrowsWithRate(f *testing.F) {
	f.Fuzz(rapid.MakeFuzz(propWallTimeGrowsWithRate))
}

// propWallTimeNoInterruptionLimit: as M → ∞ the wall time tends to the
// mtti == 0 value; the relative gap is about (τ+δ)/2M + R/M, so at
// M = 1e6·(τ+δ+R) (capped at 2^62 ns) it must be below twice that.
func propWallTimeNoInterruptionLimit(t *rapid.T) {
	c := checkpointGen(0).Draw(t, "case")
	free := c
	free.mtti = 0
	w0 := mustWallTime(t, free)
	c.mtti = time.Duration(min(1e6*float64(c.tau+c.delta+c.restart), 1<<62))
	w := mustWallTime(t, c)
	bound := 2*(float64(c.tau+c.delta)/(2*float64(c.mtti))+float64(c.restart)/float64(c.mtti)) + 1e-12
	if rel := float64(w-w0) / float64(w0); rel < -1e-12 || rel > bound {
		t.Fatalf("M=%v: T_w = %v, no-interruption %v (relative gap %.2g)", c.mtti, w, w0, rel)
	}
}

func TestWallTimeNoInterruptionLimit(t *testing.T) {
	rapid.Check(t, propWallTimeNoInterruptionLimit)
}
func FuzzWallTimeNoInterruptionLimit(f *testing.F) {
	f.Fuzz(rapid.MakeFuzz(propWallTimeNoInterruptionLimit))
}

// propStateless: stateless work is checkpointed work with free checkpoints at
// task boundaries; it takes at least T_s·e^{R/M} (the divisible limit) and
// longer tasks never take less time.
func propStateless(t *rapid.T) {
	c := checkpointGen(0).Draw(t, "case")
	task := c.tau
	got, err := StatelessWallTime(c.work, c.restart, c.mtti, task)
	if err != nil {
		t.Fatal(err)
	}
	c.delta = 0
	c.tau = min(task, c.work)
	if want := mustWallTime(t, c); got != want {
		t.Fatalf("StatelessWallTime = %v, ExpectedWallTime with δ=0 = %v", got, want)
	}
	divisible, err := StatelessWallTime(c.work, c.restart, c.mtti, 0)
	if err != nil {
		t.Fatal(err)
	}
	longer, err := StatelessWallTime(c.work, c.restart, c.mtti, 2*task)
	if err != nil {
		t.Fatal(err)
	}
	if !wallGE(got, divisible) || !wallGE(longer, got) || divisible < c.work {
		t.Fatalf("divisible %v, task %v → %v, task %v → %v, work %v", divisible, task, got, 2*task, longer, c.work)
	}
}

func TestStateless(t *testing.T) { rapid.Check(t, propStateless) }
func FuzzStateless(f *testing.F) { f.Fuzz(rapid.MakeFuzz(propStateless)) }
