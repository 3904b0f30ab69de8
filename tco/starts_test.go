package tco_test

import (
	"errors"
	"strconv"
	"testing"
	"time"

	"github.com/gputco/gputco/provider"
	"github.com/gputco/gputco/tco"
	"github.com/gputco/gputco/workload"
	"github.com/shopspring/decimal"
	"pgregory.net/rapid"
)

// monthlyTier is a downstream mode priced by the calendar of the horizon:
// in each month of it (provider.Month, 730 h, from the horizon's start) the
// first allowance node-hours cost first per node-hour and the rest rest. It
// implements provider.Pricing alone, so it can price only from the start
// times the runs of a Usage carry.
type monthlyTier struct {
	first, rest decimal.Decimal
	allowance   time.Duration // node-time per month at the first rate
}

func (monthlyTier) Mode() string { return "test-monthly-tier" }

func (p monthlyTier) Validate() error {
	if p.first.IsNegative() || p.rest.IsNegative() || p.allowance < 0 {
		return errors.New("monthly tier: negative price or allowance")
	}
	return nil
}

func (p monthlyTier) Charges(u provider.Usage) ([]provider.Charge, error) {
	if err := u.Validate(); err != nil {
		return nil, err
	}
	perMonth := map[time.Duration]time.Duration{} // month index → node-time used in it
	for _, r := range u.Runs {
		for i := range r.Count {
			for s, e := r.StartOf(i), r.StartOf(i)+r.Length; s < e; {
				m := s / provider.Month
				end := min(e, (m+1)*provider.Month)
				perMonth[m] += (end - s) * time.Duration(r.Nodes)
				s = end
			}
		}
	}
	used := make([]time.Duration, 0, len(perMonth))
	for _, d := range perMonth {
		used = append(used, d)
	}
	return []provider.Charge{{Category: provider.Compute, Label: "tiered compute", Amount: p.price(used), Timing: provider.Spread}}, nil
}

// price prices the node-time used in each month.
func (p monthlyTier) price(used []time.Duration) decimal.Decimal {
	hour := decimal.NewFromInt(int64(time.Hour))
	total := decimal.Zero
	for _, d := range used {
		in := min(d, p.allowance)
		total = total.Add(p.first.Mul(decimal.NewFromInt(int64(in))).DivRound(hour, provider.Precision)).
			Add(p.rest.Mul(decimal.NewFromInt(int64(d-in))).DivRound(hour, provider.Precision))
	}
	return total
}

// TestRunStartsPriceMonthlyTiers: a mode that prices the first node-hours of
// each month at one rate and the rest at another is priced from the start
// times tco gives the runs, for a service at a utilization (a run from the
// start of each day), a service following a daily step schedule (each
// demand level from its hour of the day) and a finite job (its runs one
// after the other), and the compute line equals a brute-force computation
// that walks the horizon hour by hour from the workload's own definition:
// the nodes busy in each hour, summed per month and priced.
func TestRunStartsPriceMonthlyTiers(t *testing.T) {
	tier := monthlyTier{first: decimal.NewFromInt(10), rest: decimal.NewFromInt(4), allowance: 200 * time.Hour}
	day := 24 * time.Hour
	schedule := workload.Steps{Cycle: day, Steps: []workload.Step{
		{Start: 0, Value: 0}, {Start: 8 * time.Hour, Value: 0.5}, {Start: 12 * time.Hour, Value: 1},
		{Start: 18 * time.Hour, Value: 0.5}, {Start: 20 * time.Hour, Value: 0},
	}}
	job := evalJob(8, 8*1000) // 1,000 h on one node: two months
	job.Interruption = workload.Interruption{Tolerance: workload.Stateless}
	tests := []struct {
		name, reason string
		w            workload.Workload
		a            tco.Assumptions
		hours        int             // of the horizon
		busy         func(h int) int // nodes busy in hour h, from the workload's definition
	}{
		{
			name: "duty cycle", reason: "a run of 6 h from the start of each of 120 days on 2 nodes",
			w: evalService(16, workload.Constant{Value: 1}, 120*day), a: tco.Assumptions{Utilization: 0.25}, hours: 120 * 24,
			busy: func(h int) int {
				if h%24 < 6 {
					return 2
				}
				return 0
			},
		},
		{
			name: "daily steps", reason: "2 nodes from 8:00 to 20:00, 2 more from 12:00 to 18:00, every day for 90 days",
			w: evalService(32, schedule, 90*day), hours: 90 * 24,
			busy: func(h int) int {
				return int(32*schedule.At(time.Duration(h)*time.Hour)/8 + 0.5)
			},
		},
		{
			name: "job", reason: "one node busy from the horizon's start for 1,000 h",
			w: job, hours: 1000,
			busy: func(h int) int {
				if h < 1000 {
					return 1
				}
				return 0
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := evalOffer("tiered", tier)
			r, err := tco.Evaluate(tt.w, o, tt.a)
			if err != nil {
				t.Fatal(err)
			}
			perMonth := map[int]time.Duration{}
			for h := range tt.hours {
				perMonth[h/int(provider.Month/time.Hour)] += time.Duration(tt.busy(h)) * time.Hour
			}
			var used []time.Duration
			for _, d := range perMonth {
				used = append(used, d)
			}
			want := tier.price(used)
			if got := r.Line(provider.Compute); !got.Equal(want) {
				t.Errorf("compute %s, want %s hour by hour (%s)", got, want, tt.reason)
			}
			// Placed back to back from the horizon's start, as runs without
			// start times are, the same runs would cost another amount (but
			// for the job, whose runs are back to back).
			packed := tier.price(packedMonths(r.Derivation.Nodes, tt.busy, tt.hours))
			if tt.name != "job" && packed.Equal(want) {
				t.Errorf("packed runs cost %s too: the case does not depend on start times", packed)
			}
		})
	}
}

// packedMonths returns the node-time per month of the busy node-hours of a
// horizon moved to its start, one node-hour after the other on each node.
func packedMonths(nodes int, busy func(int) int, hours int) []time.Duration {
	total := 0
	for h := range hours {
		total += busy(h)
	}
	perMonth := map[int]time.Duration{}
	month := int(provider.Month / time.Hour)
	for n := range nodes {
		share := total / nodes
		if n < total%nodes {
			share++
		}
		for h := range share {
			perMonth[h/month] += time.Hour
		}
	}
	out := make([]time.Duration, 0, len(perMonth))
	for _, d := range perMonth {
		out = append(out, d)
	}
	return out
}

// TestRunStartOf: runs without start times (the zero Start and Every) are
// back to back from the horizon's start; Every spaces them; StartOf
// saturates; negative start times are invalid usage.
func TestRunStartOf(t *testing.T) {
	r := provider.Run{Length: time.Hour, Count: 3, Nodes: 1}
	if got := []time.Duration{r.StartOf(0), r.StartOf(1), r.StartOf(2)}; got[1] != time.Hour || got[2] != 2*time.Hour || got[0] != 0 {
		t.Errorf("back-to-back starts %v, want 0, 1h, 2h", got)
	}
	r.Start, r.Every = 30*time.Minute, 24*time.Hour
	if got := r.StartOf(2); got != 30*time.Minute+48*time.Hour {
		t.Errorf("StartOf(2) = %v, want 48h30m", got)
	}
	r.Every = time.Duration(1 << 62)
	if got := r.StartOf(4); got != time.Duration(1<<63-1) {
		t.Errorf("StartOf beyond the largest duration = %v, want it saturated", got)
	}
	bad := provider.Usage{Horizon: time.Hour, Runs: []provider.Run{{Length: time.Minute, Count: 1, Nodes: 1, Start: -1, Every: -1}}}
	if err := bad.Validate(); !errors.Is(err, provider.ErrInvalidUsage) || !errors.Is(err, provider.ErrNegative) {
		t.Errorf("negative start and spacing: %v, want ErrInvalidUsage and ErrNegative", err)
	}
}

// inHorizon is a downstream mode that refuses a usage with a run that starts
// before the horizon's start or ends after its end, and otherwise bills one
// unit per node-hour of the runs.
type inHorizon struct{}

func (inHorizon) Mode() string    { return "test-in-horizon" }
func (inHorizon) Validate() error { return nil }

func (inHorizon) Charges(u provider.Usage) ([]provider.Charge, error) {
	if err := u.Validate(); err != nil {
		return nil, err
	}
	var h float64
	for i, r := range u.Runs {
		if r.Count <= 0 || r.Length <= 0 || r.Nodes <= 0 {
			continue
		}
		// Durations from hours round to the nanosecond: allow one per run.
		if end := r.StartOf(r.Count-1) + r.Length; end > u.Horizon+time.Duration(r.Count) {
			return nil, errors.New("run " + strconv.Itoa(i) + " ends after the horizon: " + (end - u.Horizon).String())
		}
		h += r.Length.Hours() * float64(r.Count*r.Nodes)
	}
	return []provider.Charge{{Category: provider.Compute, Label: "node-hours", Amount: decimal.NewFromFloat(h).Round(6), Timing: provider.Spread}}, nil
}

// propRunsInHorizon: the runs tco bills for a service without setup — its
// demand levels, each from its first start in the curve's period, and the
// time lost to failures — lie within the horizon, for step schedules and
// diurnal curves of any shape, any horizon and any gang.
func propRunsInHorizon(t *rapid.T) {
	day := 24 * time.Hour
	var curve workload.Curve
	if rapid.Bool().Draw(t, "step schedule") {
		cycle := []time.Duration{day, 7 * day}[rapid.IntRange(0, 1).Draw(t, "weekly")]
		n := rapid.IntRange(1, 8).Draw(t, "steps")
		steps := []workload.Step{{Start: 0, Value: rapid.Float64Range(0, 1).Draw(t, "first value")}}
		at := time.Duration(0)
		for i := 1; i < n; i++ {
			at += time.Duration(rapid.IntRange(1, int(cycle/time.Hour)/n).Draw(t, "hours to next step")) * time.Hour
			steps = append(steps, workload.Step{Start: at, Value: rapid.Float64Range(0, 1).Draw(t, "value")})
		}
		curve = workload.Steps{Cycle: cycle, Steps: steps}
	} else {
		mean := rapid.Float64Range(0.05, 0.5).Draw(t, "mean")
		curve = workload.Diurnal{Mean: mean, Amplitude: rapid.Float64Range(0, mean).Draw(t, "amplitude"),
			PeakHour: rapid.Float64Range(0, 23.9).Draw(t, "peak hour")}
	}
	w := evalService(rapid.IntRange(1, 64).Draw(t, "peak GPUs"), curve,
		time.Duration(rapid.IntRange(1, 400).Draw(t, "horizon hours"))*time.Hour*3)
	o := evalOffer("in-horizon", inHorizon{})
	o.GPUsPerNode = []int{1, 2, 4, 8}[rapid.IntRange(0, 3).Draw(t, "GPUs per node")]
	if rapid.Bool().Draw(t, "failures") {
		o.Hidden.NodeMTBF, o.Hidden.RecoveryTime = time.Duration(rapid.IntRange(50, 5000).Draw(t, "MTBF hours"))*time.Hour, time.Hour
	}
	if _, err := tco.Evaluate(w, o, tco.Assumptions{Step: 15 * time.Minute}); err != nil {
		t.Fatalf("%v on %d GPUs per node: %v", curve, o.GPUsPerNode, err)
	}
}

func TestRunsInHorizon(t *testing.T) { rapid.Check(t, propRunsInHorizon) }
func FuzzRunsInHorizon(f *testing.F) { f.Fuzz(rapid.MakeFuzz(propRunsInHorizon)) }
