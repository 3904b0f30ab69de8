package tco_test

import (
	"errors"
	"fmt"
	"github.com/google/go-cmp/cmp"
	"math"
	"testing"
	"time"

	"github.com/gputco/gputco/provider"
	"github.com/gputco/gputco/tco"
	"github.com/gputco/gputco/workload"
	"github.com/gputco/gputco/workload/workloadtest"
	"github.com/shopspring/decimal"
)

// simSpot is an 8×H100 spot offer billed per second (60 s minimum) at
// ratePerHour per node, interrupted at interruptionsPerHour per node.
func simSpot(ratePerHour int64, interruptionsPerHour float64) provider.Offer {
	return node8("spot", provider.Spot{RatePerHour: decimal.NewFromInt(ratePerHour), Increment: time.Second,
		Minimum: time.Minute, InterruptionRatePerHour: interruptionsPerHour, Notice: 2 * time.Minute})
}

// simMetered is an 8×H100 on-demand offer billed per second (60 s minimum).
func simMetered(ratePerHour int64) provider.Offer {
	return node8("on-demand", provider.PerSecond(decimal.NewFromInt(ratePerHour), time.Minute))
}

// simJob is a finite job of gpus GPUs needing hoursPerGPU hours of H100 time
// each, with the given interruption tolerance.
func simJob(gpus int, hoursPerGPU float64, in workload.Interruption) workload.Workload {
	return workload.Workload{Name: "job", Kind: workload.Training, GPUs: gpus,
		WorkGPUHours: float64(gpus) * hoursPerGPU, Interruption: in}
}

// simStats is what simBatches measures: for each figure, the grand mean of
// the batch means and its standard error.
type simStats struct {
	costMean, costSE     float64 // money
	wallMean, wallSE     float64 // hours
	finishMean, finishSE float64 // hours
}

// simMeanSE returns the mean of xs and the standard error of that mean
// estimated from the spread of xs: sd(xs)/√len(xs).
func simMeanSE(xs []float64) (mean, se float64) {
	for _, x := range xs {
		mean += x
	}
	mean /= float64(len(xs))
	ss := 0.0
	for _, x := range xs {
		ss += (x - mean) * (x - mean)
	}
	return mean, math.Sqrt(ss / float64(len(xs)-1) / float64(len(xs)))
}

// simBatches runs Simulate batches times with trials trials each and seeds
// seed, seed+1, ..., and returns the statistics of the batch means together
// with the first batch's result.
//
// Simulate reports only summaries, not the per-trial samples a standard
// error needs. The batch means are independent (different seeds) and
// identically distributed, each the mean of trials independent trials, so
// their sample standard deviation estimates σ/√trials from the data
// themselves, whatever the distribution of one trial (heavy-tailed restarts
// included), and their average is the mean of all batches·trials trials with
// standard error sd(batch means)/√batches. By the central limit theorem the
// batch means are close to normal, so (mean − expectation)/SE follows
// Student's t with batches−1 degrees of freedom: with 20 batches a deviation
// beyond 4 SE has probability below 0.1 % for a correct simulator.
func simBatches(t *testing.T, w workload.Workload, o provider.Offer, a tco.Assumptions, batches, trials int, seed uint64) (simStats, tco.Simulation) {
	t.Helper()
	var costs, walls, finishes []float64
	var first tco.Simulation
	for i := range batches {
		sim, err := tco.Simulate(w, o, a, tco.SimulateOptions{Trials: trials, Seed: seed + uint64(i)})
		if err != nil {
			t.Fatalf("Simulate(seed %d): %v", seed+uint64(i), err)
		}
		if i == 0 {
			first = sim
		}
		c, _ := sim.Cost.Mean.Float64()
		costs = append(costs, c)
		walls = append(walls, sim.WallTime.Mean.Hours())
		finishes = append(finishes, sim.Finish.Mean.Hours())
	}
	var s simStats
	s.costMean, s.costSE = simMeanSE(costs)
	s.wallMean, s.wallSE = simMeanSE(walls)
	s.finishMean, s.finishSE = simMeanSE(finishes)
	return s, first
}

// simAgree checks |mean − want| ≤ 4·se + slack, where slack absorbs the
// rounding of figures that do not vary at all (se = 0).
func simAgree(t *testing.T, what string, mean, se, want, slack float64, reason string) {
	t.Helper()
	if d := math.Abs(mean - want); d > 4*se+slack {
		t.Errorf("%s: sample mean %.6g differs from Evaluate's %.6g by %.3g = %.1f standard errors (SE %.3g); %s",
			what, mean, want, d, d/max(se, 1e-300), se, reason)
	}
}

// simRounding bounds the difference between the mean billing rounding of
// the simulated runs and that of Evaluate's expected runs: one billing
// increment of every run either side bills. Evaluate bills 1 + round(expected
// interruptions) runs of a job (each node), a trial 1 + its own count; a
// service's runs are its daily runs, the same number in both. The bound is
// deterministic (it is not sampling error): ceil to the increment is not
// linear, so Evaluate's rounding of the expected runs is not the expected
// rounding of the random ones. It is a few cents here, within one or two
// standard errors, so the test would pass without it; it is there so that
// the tolerance is right, not lucky.
func simRounding(w workload.Workload, o provider.Offer, rep tco.Report) float64 {
	var m provider.Metered
	switch p := o.Pricing.(type) {
	case provider.Metered:
		m = p
	case provider.Spot:
		m = p.Metered()
	default:
		return 0
	}
	rate, _ := m.RatePerHour.Float64()
	d := rep.Derivation
	runs := float64(d.Nodes) * (2 + 2*(d.ExpectedPreemptions+d.ExpectedFailures))
	if w.IsService() {
		runs = float64(d.Nodes) * math.Max(1, math.Round(rep.Horizon.Hours()/24))
	}
	return runs * m.Increment.Hours() * rate
}

// TestSimulateAgreesWithEvaluate checks issue 4's "the sample mean agrees with
// Evaluate's expectation" statistically, for cost, wall time and time to
// finish, with the method of simBatches (20 batches of 200 trials). The cases
// have no deadline: a delay charged past a deadline is convex in the wall
// time, so its mean exceeds its value at the mean (Simulate's doc), and no
// committed horizon that a long run could overshoot.
func TestSimulateAgreesWithEvaluate(t *testing.T) {
	ckpt := workload.Interruption{Tolerance: workload.Checkpointed, CheckpointTime: 3 * time.Minute, RestartTime: 10 * time.Minute}
	stateless := workload.Interruption{Tolerance: workload.Stateless, RestartTime: 5 * time.Minute}

	failing := simMetered(30)
	failing.Hidden = provider.HiddenCosts{NodeMTBF: 50 * time.Hour, RecoveryTime: 30 * time.Minute,
		StoragePerGBMonth: decimal.RequireFromString("0.02")}
	failingJob := simJob(32, 60, ckpt)
	failingJob.Data.CheckpointGB = 500

	fragile := simMetered(30)
	fragile.Hidden = provider.HiddenCosts{NodeMTBF: 100 * time.Hour, RecoveryTime: 20 * time.Minute}

	service := node8Service()
	service.GPUs = 16
	service.Horizon = 30 * 24 * time.Hour
	service.Interruption.RestartTime = 15 * time.Minute

	scarce := simMetered(30)
	scarce.Availability.FillProbability = 0.5
	scarceDelay := simJob(8, 24, stateless)
	scarceDelay.CostOfDelayPerDay = decimal.NewFromInt(1000)

	tests := []struct {
		name   string
		w      workload.Workload
		o      provider.Offer
		a      tco.Assumptions
		reason string
	}{
		{"checkpointed job on spot", simJob(16, 40, ckpt), simSpot(20, 0.05), tco.Assumptions{},
			"two nodes preempted at 0.05/h each, Daly's interval: about 4 preemptions, each losing work since the last checkpoint and a restart"},
		{"stateless batch on spot", simJob(8, 24, stateless), simSpot(15, 0.2), tco.Assumptions{},
			"about 5 preemptions, each costing only an (interruptible) restart"},
		{"checkpointed job with node failures on metered", failingJob, failing, tco.Assumptions{},
			"four nodes failing every 50 h each, restart plus recovery; storage of checkpoints is linear in the time held"},
		{"job restarting from scratch on failing nodes", simJob(8, 20, workload.Interruption{RestartTime: 5 * time.Minute}), fragile, tco.Assumptions{},
			"no tolerance: every failure loses all work done, a heavy-tailed wall time"},
		{"service with spot preemptions", service, simSpot(20, 0.02), tco.Assumptions{Utilization: 0.6},
			"two nodes of standing capacity, busy 60 % of each day; each preemption costs a restart on a replacement node"},
		{"job waiting for stock", simJob(8, 24, stateless), scarce, tco.Assumptions{},
			"fill probability 0.5 with a daily retry: a geometric wait before the start, no cost attached"},
		{"job waiting for stock with a cost of delay", scarceDelay, scarce, tco.Assumptions{},
			"without a deadline the delay line is linear in the wait for stock, so its mean is its expectation"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			const batches, trials = 20, 200
			s, first := simBatches(t, tt.w, tt.o, tt.a, batches, trials, 1)
			rep := first.Expected
			if first.Trials != trials {
				t.Errorf("Trials = %d, want %d", first.Trials, trials)
			}
			total, _ := rep.Total.Float64()
			simAgree(t, "cost", s.costMean, s.costSE, total, simRounding(tt.w, tt.o, rep)+1e-9*math.Abs(total), tt.reason)
			simAgree(t, "wall time (h)", s.wallMean, s.wallSE, rep.WallTime.Hours(), 1e-9, tt.reason)
			simAgree(t, "time to finish (h)", s.finishMean, s.finishSE, rep.Finish.Hours(), 1e-9, tt.reason)
			if c := first.Cost; c.P50.GreaterThan(c.P90) || c.P90.GreaterThan(c.P99) {
				t.Errorf("cost quantiles not ordered: P50 %s, P90 %s, P99 %s", c.P50, c.P90, c.P99)
			}
			for _, d := range []struct {
				name string
				s    tco.DurationSummary
			}{{"wall time", first.WallTime}, {"finish", first.Finish}} {
				if d.s.P50 > d.s.P90 || d.s.P90 > d.s.P99 {
					t.Errorf("%s quantiles not ordered: P50 %v, P90 %v, P99 %v", d.name, d.s.P50, d.s.P90, d.s.P99)
				}
			}
		})
	}
}

// TestSimulateTrials checks the number of trials reported, and that a
// negative number is rejected.
func TestSimulateTrials(t *testing.T) {
	w := simJob(8, 10, workload.Interruption{Tolerance: workload.Stateless, RestartTime: time.Minute})
	o := simSpot(15, 0.1)
	tests := []struct {
		name    string
		trials  int
		want    int
		wantErr error
		reason  string
	}{
		{"default", 0, tco.DefaultTrials, nil, "zero means DefaultTrials"},
		{"one", 1, 1, nil, "a single trial is its own mean and quantiles"},
		{"some", 37, 37, nil, "as asked"},
		{"negative", -1, 0, tco.ErrInvalidAssumptions, "a negative count is invalid"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sim, err := tco.Simulate(w, o, tco.Assumptions{}, tco.SimulateOptions{Trials: tt.trials, Seed: 7})
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("Simulate(Trials = %d) error = %v, want %v (%s)", tt.trials, err, tt.wantErr, tt.reason)
			}
			if sim.Trials != tt.want {
				t.Errorf("Trials = %d, want %d (%s)", sim.Trials, tt.want, tt.reason)
			}
		})
	}
}

// TestSimulatePathological checks that inputs whose simulation would never
// end in practice return an error (ErrInfeasible from the expectation, or
// ErrTooManyEvents) promptly instead of running.
func TestSimulatePathological(t *testing.T) {
	fragile := simMetered(30)
	fragile.Hidden = provider.HiddenCosts{NodeMTBF: time.Hour, RecoveryTime: 10 * time.Minute}
	scratch := workload.Interruption{RestartTime: 5 * time.Minute}
	tests := []struct {
		name   string
		w      workload.Workload
		trials int
		reason string
	}{
		{"1,000 h from scratch, hourly failures", simJob(8, 1000, scratch), 0,
			"expected wall time e^1000 h overflows: Evaluate says it cannot finish"},
		{"10 h from scratch, hourly failures", simJob(8, 10, scratch), 0,
			"expected wall time ≈ e^10 h ≈ 2.6 years, tens of thousands of failures per trial"},
		{"10 h from scratch, hourly failures, one trial", simJob(8, 10, scratch), 1,
			"still ~30,000 failures, but one trial is within the event budget, so it may run; only the time is checked"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			start := time.Now()
			_, err := tco.Simulate(tt.w, fragile, tco.Assumptions{}, tco.SimulateOptions{Trials: tt.trials})
			if elapsed := time.Since(start); elapsed > 10*time.Second {
				t.Errorf("Simulate took %v (%s)", elapsed, tt.reason)
			}
			if tt.trials == 1 {
				return
			}
			if !errors.Is(err, tco.ErrInfeasible) && !errors.Is(err, tco.ErrTooManyEvents) {
				t.Errorf("Simulate error = %v, want ErrInfeasible or ErrTooManyEvents (%s)", err, tt.reason)
			}
		})
	}
}

// ExampleSimulate draws the cost and wall time of a checkpointed training
// job on spot capacity: 16 H100s for 40 hours, preempted about four times.
// The seed makes the result reproducible.
func ExampleSimulate() {
	job := workload.Workload{Name: "train", Kind: workload.Training, GPUs: 16, WorkGPUHours: 16 * 40,
		Interruption: workload.Interruption{Tolerance: workload.Checkpointed,
			CheckpointTime: 3 * time.Minute, RestartTime: 10 * time.Minute}}
	spot := provider.Offer{ID: "h100-spot", Provider: "cloud", GPU: provider.GPU{Model: "H100 SXM", MemoryGiB: 80},
		GPUsPerNode: 8, Interconnect: provider.Interconnect{Fabric: provider.InfiniBand, GbpsPerNode: 3200},
		Pricing: provider.Spot{RatePerHour: decimal.NewFromInt(20), Increment: time.Second, Minimum: time.Minute,
			InterruptionRatePerHour: 0.05},
		Availability: provider.Availability{FillProbability: 1}}
	sim, err := tco.Simulate(job, spot, tco.Assumptions{}, tco.SimulateOptions{Trials: 10000, Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("expected: $%s, %.0f h\n", sim.Expected.Total.StringFixed(0), sim.Expected.WallTime.Hours())
	fmt.Printf("cost:     P50 $%s, P90 $%s\n", sim.Cost.P50.StringFixed(0), sim.Cost.P90.StringFixed(0))
	fmt.Printf("wall:     P50 %.0f h, P90 %.0f h\n", sim.WallTime.P50.Hours(), sim.WallTime.P90.Hours())
	// Output:
	// expected: $1801, 45 h
	// cost:     P50 $1793, P90 $1885
	// wall:     P50 45 h, P90 47 h
}

// BenchmarkSimulateService measures 10,000 trials of the chat-inference
// service (64 GPUs at peak on a diurnal curve for a year) on spot capacity.
func BenchmarkSimulateService(b *testing.B) {
	w := workloadtest.ChatInference()
	o := simSpot(20, provider.DefaultSpotInterruptionRatePerHour)
	opts := tco.SimulateOptions{Trials: 10000, Seed: 1}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := tco.Simulate(w, o, tco.Assumptions{}, opts); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(opts.Trials)*float64(b.N)/b.Elapsed().Seconds(), "trials/s")
}

// TestSimulateSeeded: the same seed gives the same simulation, twice over
// (trials run in order on one goroutine, so nothing else can change it), and
// another seed gives other samples.
func TestSimulateSeeded(t *testing.T) {
	job := workload.Workload{Name: "ckpt", Kind: workload.Training, GPUs: 16, WorkGPUHours: 16 * 40,
		Interruption: workload.Interruption{Tolerance: workload.Checkpointed,
			CheckpointTime: 3 * time.Minute, RestartTime: 10 * time.Minute}}
	svc := node8Service()
	svc.Horizon = 30 * 24 * time.Hour
	svc.Interruption.RestartTime = 15 * time.Minute
	spot := node8("spot", provider.Spot{RatePerHour: decimal.NewFromInt(20), Increment: time.Second,
		Minimum: time.Minute, InterruptionRatePerHour: 0.05})
	for _, w := range []workload.Workload{job, svc} {
		opts := tco.SimulateOptions{Trials: 500, Seed: 42}
		first, err := tco.Simulate(w, spot, tco.Assumptions{}, opts)
		if err != nil {
			t.Fatal(err)
		}
		again, err := tco.Simulate(w, spot, tco.Assumptions{}, opts)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(first, again); diff != "" {
			t.Errorf("%s: same seed, other result (-first +again):\n%s", w.Name, diff)
		}
		opts.Seed = 43
		other, err := tco.Simulate(w, spot, tco.Assumptions{}, opts)
		if err != nil {
			t.Fatal(err)
		}
		if other.Cost.Mean.Equal(first.Cost.Mean) {
			t.Errorf("%s: seeds 42 and 43 give the same mean cost %s: the seed is not used", w.Name, first.Cost.Mean)
		}
	}
}
