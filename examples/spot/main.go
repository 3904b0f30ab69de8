// Command spot answers "spot or on-demand?" for a fine-tuning job with a
// deadline:
//
//   - the optimal checkpoint interval on spot, Young's √(2δM) and Daly's
//     higher-order estimate, and the expected wall time at it (and at half and
//     twice it, to show the minimum);
//   - the expected cost, wall time and finish on the spot and the on-demand
//     offer (tco.Evaluate), and their Monte Carlo distribution, P50, P90 and
//     P99, with the fraction of trials that miss the deadline (tco.Simulate);
//   - greedy against Uniform Progress (tco.SimulatePolicy) across spot
//     availability levels: the mean and P90 cost and the deadline misses
//     over many seeded availability traces (tco.NewTwoStateTrace).
//
// With no arguments it runs the built-in job — 32 GPUs fine-tuning for 1,536
// H100-hours, due in 6 days — on the embedded catalog's AWS p5 spot and
// on-demand offers:
//
//	go run ./examples/spot
//	go run ./examples/spot -out charts        # also draws the cost distribution
//	go run ./examples/spot -format json
//	go run ./examples/spot -spot-mtti 50h     # what if spot nodes were reclaimed every 50 h?
//	go run ./examples/spot -workloads my.json -job my-job -spot my-spot -ondemand my-od -catalog my-offers.json
//
// With -out DIR it writes spot-cost.png (the distribution of the job's cost
// on spot, with its percentiles and the on-demand cost) and
// spot-policies.png (mean cost of each policy against spot availability).
package main

import (
	"flag"
	"fmt"
	"io"
	"slices"
	"strconv"
	"text/tabwriter"
	"time"

	"github.com/shopspring/decimal"

	"github.com/gputco/gputco/examples/internal/cli"
	"github.com/gputco/gputco/provider"
	"github.com/gputco/gputco/tco"
	"github.com/gputco/gputco/workload"
)

func main() { cli.Main("spot", run) }

// options are the command's flags.
type options struct {
	cli.Common
	job, spot, onDemand string
	spotMTTI            time.Duration
	meanOn, step        time.Duration
	traces, trials      int
	samples             int
	seed                uint64
}

// levels returns the spot availability levels the policies are compared at.
func levels() []float64 { return []float64{0.2, 0.4, 0.6, 0.8, 0.95} }

func run(stdout, stderr io.Writer, args []string) error {
	fs := flag.NewFlagSet("spot", flag.ContinueOnError)
	var opt options
	opt.Register(fs)
	fs.StringVar(&opt.job, "job", "", "`name` of the job in -workloads (default: the first finite job with a deadline)")
	fs.StringVar(&opt.spot, "spot", "aws-p5-h100-spot", "`ID` of the spot offer")
	fs.StringVar(&opt.onDemand, "ondemand", "aws-p5-h100-ondemand", "`ID` of the on-demand offer")
	fs.DurationVar(&opt.spotMTTI, "spot-mtti", 0, "what-if: mean time to interruption of one spot node (`duration`, e.g. 50h) instead of the catalog's")
	fs.DurationVar(&opt.meanOn, "mean-on", 4*time.Hour, "mean `duration` of a period with spot available, in the policy traces")
	fs.DurationVar(&opt.step, "step", 5*time.Minute, "`step` of the policy traces")
	fs.IntVar(&opt.traces, "traces", 200, "availability traces per level (`n`)")
	fs.IntVar(&opt.trials, "trials", tco.DefaultTrials, "Monte Carlo trials (`n`)")
	fs.IntVar(&opt.samples, "samples", 2000, "single-trial runs drawn in the cost chart (`n`)")
	fs.Uint64Var(&opt.seed, "seed", 1, "random `seed`")
	if err := opt.Parse(fs, args, stderr); err != nil {
		return err
	}
	switch {
	case opt.spotMTTI < 0:
		return cli.Usagef("-spot-mtti %v: want a positive duration (or 0 for the catalog's)", opt.spotMTTI)
	case opt.meanOn <= 0:
		return cli.Usagef("-mean-on %v: want a positive duration", opt.meanOn)
	case opt.step <= 0 || opt.step > opt.meanOn:
		return cli.Usagef("-step %v: want a positive duration no longer than -mean-on", opt.step)
	case opt.traces < 1 || opt.traces > 10000:
		return cli.Usagef("-traces %d: want 1 to 10000", opt.traces)
	case opt.trials < 1 || opt.trials > 1_000_000:
		return cli.Usagef("-trials %d: want 1 to 1000000", opt.trials)
	case opt.samples < 0 || opt.samples > 100_000:
		return cli.Usagef("-samples %d: want 0 to 100000", opt.samples)
	}
	cat, err := opt.LoadCatalog(provider.Decoder{})
	if err != nil {
		return err
	}
	sc, err := opt.LoadScenario(workload.Decoder{}, builtinScenario())
	if err != nil {
		return err
	}
	in, err := resolve(cat, sc, opt)
	if err != nil {
		return err
	}
	res, err := analyse(in, opt)
	if err != nil {
		return err
	}
	if err := opt.Write(stdout, output(res)); err != nil {
		return err
	}
	if opt.Out != "" {
		paths, err := charts(res, opt.Out)
		if err != nil {
			return err
		}
		for _, p := range paths {
			fmt.Fprintln(stderr, "wrote", p)
		}
	}
	return nil
}

// builtinScenario is the job the command studies without -workloads.
func builtinScenario() workload.Scenario {
	return workload.Scenario{Name: "spot", Workloads: []workload.Workload{{
		Name:              "fine-tune-70b",
		Kind:              workload.FineTuning,
		GPUs:              32,
		WorkGPUHours:      32 * 48,
		Deadline:          6 * 24 * time.Hour,
		CostOfDelayPerDay: decimal.NewFromInt(5000),
		Requirements: workload.Requirements{
			MinMemoryGiB: 80,
			Models:       map[string]float64{"H100 SXM": 1, "H200": 1},
		},
		Interruption: workload.Interruption{
			Tolerance:      workload.Checkpointed,
			CheckpointTime: 5 * time.Minute,
			RestartTime:    10 * time.Minute,
		},
		Data:  workload.Data{DatasetGB: 500, Location: workload.Location{Provider: "aws", Region: "us-east-1"}, CheckpointGB: 150},
		Setup: workload.Setup{EngineerHours: 8},
	}}}
}

// input is what the analysis runs on.
type input struct {
	currency       string
	job            workload.Workload
	spot, onDemand provider.Offer
}

// resolve finds the job and the two offers, checking that they are what the
// comparison needs.
func resolve(cat provider.Catalog, sc workload.Scenario, opt options) (input, error) {
	in := input{currency: cat.Currency}
	found := false
	for _, w := range sc.Workloads {
		if opt.job != "" && w.Name == opt.job || opt.job == "" && !w.IsService() && w.Deadline > 0 {
			in.job, found = w, true
			break
		}
	}
	switch {
	case !found && opt.job != "":
		return in, cli.Usagef("no workload %q in the scenario", opt.job)
	case !found:
		return in, cli.Usagef("the scenario has no finite job with a deadline (name one with -job)")
	case in.job.IsService():
		return in, cli.Usagef("workload %q is a service; spot compares a finite job with a deadline", in.job.Name)
	case in.job.Deadline <= 0:
		return in, cli.Usagef("workload %q has no deadline", in.job.Name)
	}
	var ok bool
	if in.spot, ok = cat.Offers.Find(opt.spot); !ok {
		return in, cli.Usagef("-spot: no offer %q in the catalog", opt.spot)
	}
	if in.onDemand, ok = cat.Offers.Find(opt.onDemand); !ok {
		return in, cli.Usagef("-ondemand: no offer %q in the catalog", opt.onDemand)
	}
	if _, ok := provider.As[provider.Interruptible](in.spot.Pricing); !ok {
		return in, cli.Usagef("-spot: offer %q is %s, not interruptible", in.spot.ID, in.spot.Pricing.Mode())
	}
	if _, ok := provider.As[provider.Interruptible](in.onDemand.Pricing); ok {
		return in, cli.Usagef("-ondemand: offer %q is interruptible; want on-demand capacity", in.onDemand.ID)
	}
	if opt.spotMTTI > 0 {
		s, ok := in.spot.Pricing.(provider.Spot)
		if !ok {
			return in, cli.Usagef("-spot-mtti: offer %q is %s; only a spot pricing can take another interruption rate", in.spot.ID, in.spot.Pricing.Mode())
		}
		in.spot.Pricing = s.WithMeanTimeToInterruption(opt.spotMTTI)
	}
	return in, nil
}

// dur is a duration that JSON shows as a Go duration string.
type dur time.Duration

func (d dur) MarshalText() ([]byte, error) { return []byte(time.Duration(d).String()), nil }

// checkpointing is the checkpoint analysis on the spot offer.
type checkpointing struct {
	Checkpoint, Restart     dur
	MeanTimeToInterruption  dur // of the job's nodes together
	Young, Daly             dur
	WallAtDaly              dur
	WallAtHalf, WallAtTwice dur
}

// option is one offer, expected and simulated.
type option struct {
	Offer, Mode              string
	Expected                 decimal.Decimal
	WallTime, Finish         dur
	DeadlineMet              bool
	Cost                     tco.Summary
	FinishP50, FinishP90     dur
	FinishP99                dur
	DeadlineMissedFraction   float64
	Explicit, Hidden         decimal.Decimal
	ExpectedPreemptions      float64
	CheckpointIntervalOnSpot dur `json:",omitempty"`
}

// policyRow is one policy at one availability level.
type policyRow struct {
	Availability         float64
	Policy               string
	MeanCost, P90Cost    decimal.Decimal
	DeadlineMisses, Runs int
	OnDemandShare        float64 // of the time held
	MeanChangeovers      float64
}

// result is everything the command prints and draws.
type result struct {
	Workload       string
	Currency       string
	GPUs           int
	WorkGPUHours   float64
	Deadline       dur
	Trials         int
	Spot, OnDemand string
	SpotNodeRate   decimal.Decimal // per node-hour
	ODNodeRate     decimal.Decimal
	Checkpointing  *checkpointing `json:",omitempty"`
	Options        []option
	PolicyJob      policyJob
	Policies       []policyRow
	// samples are single-trial costs on each offer (spot first), for the chart.
	samples [][]float64
}

// policyJob is the deadline job the policies run.
type policyJob struct {
	Work, Deadline, Changeover dur
	SpotPerHour, ODPerHour     decimal.Decimal
	MeanOn, Step               dur
	Traces                     int
	AllOnDemand                decimal.Decimal
}

// analyse runs the three studies.
func analyse(in input, opt options) (result, error) {
	w := in.job
	res := result{
		Workload: w.Name, Currency: in.currency, GPUs: w.GPUs, WorkGPUHours: w.WorkGPUHours,
		Deadline: dur(w.Deadline), Trials: opt.trials, Spot: in.spot.ID, OnDemand: in.onDemand.ID,
	}
	var a tco.Assumptions
	reports := map[string]tco.Report{}
	for _, o := range []provider.Offer{in.spot, in.onDemand} {
		sim, err := tco.Simulate(w, o, a, tco.SimulateOptions{Trials: opt.trials, Seed: opt.seed})
		if err != nil {
			return res, fmt.Errorf("%s on %s: %w", w.Name, o.ID, err)
		}
		r := sim.Expected
		reports[o.ID] = r
		res.Options = append(res.Options, option{
			Offer: o.ID, Mode: o.Pricing.Mode(), Expected: r.Total, WallTime: dur(r.WallTime), Finish: dur(r.Finish),
			DeadlineMet: r.DeadlineMet, Cost: sim.Cost,
			FinishP50: dur(sim.Finish.P50), FinishP90: dur(sim.Finish.P90), FinishP99: dur(sim.Finish.P99),
			DeadlineMissedFraction: sim.DeadlineMissed, Explicit: r.Explicit, Hidden: r.Hidden,
			ExpectedPreemptions: r.Derivation.ExpectedPreemptions, CheckpointIntervalOnSpot: dur(r.Derivation.CheckpointInterval),
		})
	}
	spotRep, odRep := reports[in.spot.ID], reports[in.onDemand.ID]

	// Checkpointing: Young and Daly at the spot nodes' joint interruption rate.
	d := spotRep.Derivation
	work := hoursDur(w.WorkGPUHours / (d.SpeedFactor * d.Efficiency * float64(d.GPUs)))
	if w.Interruption.Tolerance == workload.Checkpointed && d.MeanTimeToInterruption > 0 && w.Interruption.CheckpointTime > 0 {
		c, err := checkpoint(work, w.Interruption.CheckpointTime, w.Interruption.RestartTime, d.MeanTimeToInterruption)
		if err != nil {
			return res, err
		}
		res.Checkpointing = &c
	}

	// Samples for the chart: independent single trials on each offer.
	for _, o := range []provider.Offer{in.spot, in.onDemand} {
		costs := make([]float64, 0, opt.samples)
		for i := range opt.samples {
			sim, err := tco.Simulate(w, o, a, tco.SimulateOptions{Trials: 1, Seed: opt.seed + 1 + uint64(i)})
			if err != nil {
				return res, err
			}
			f, _ := sim.Cost.Mean.Float64()
			costs = append(costs, f)
		}
		res.samples = append(res.samples, costs)
	}

	// Policies: the compute phase of the job on spot nodes, by deadline.
	spotRate, err := nodeRate(in.spot, d.Nodes)
	if err != nil {
		return res, err
	}
	odRate, err := nodeRate(in.onDemand, odRep.Derivation.Nodes)
	if err != nil {
		return res, err
	}
	res.SpotNodeRate = spotRate.DivRound(decimal.NewFromInt(int64(max(d.Nodes, 1))), 4)
	res.ODNodeRate = odRate.DivRound(decimal.NewFromInt(int64(max(odRep.Derivation.Nodes, 1))), 4)
	if res.Checkpointing != nil { // checkpoints cost time wherever the job runs
		work, err = tco.ExpectedWallTime(work, w.Interruption.CheckpointTime, 0, 0, time.Duration(res.Checkpointing.Daly))
		if err != nil {
			return res, err
		}
	}
	job := tco.DeadlineJob{
		Work:                work,
		Deadline:            w.Deadline - spotRep.TransferTime - hoursDur(d.SetupHours),
		Changeover:          w.Interruption.RestartTime,
		SpotRatePerHour:     spotRate,
		OnDemandRatePerHour: odRate,
	}
	if job.Deadline < job.Work+job.Changeover {
		return res, fmt.Errorf("%s: %v of compute cannot finish in the %v left before the deadline after setup and transfer",
			w.Name, job.Work.Round(time.Minute), job.Deadline.Round(time.Minute))
	}
	res.PolicyJob = policyJob{
		Work: dur(job.Work), Deadline: dur(job.Deadline), Changeover: dur(job.Changeover),
		SpotPerHour: spotRate, ODPerHour: odRate, MeanOn: dur(opt.meanOn), Step: dur(opt.step), Traces: opt.traces,
		AllOnDemand: odRate.Mul(decimal.NewFromFloat((job.Work + job.Changeover).Hours())).Round(2),
	}
	res.Policies, err = policies(job, opt)
	return res, err
}

// checkpoint computes the checkpoint intervals and the wall times around Daly's.
func checkpoint(work, delta, restart, mtti time.Duration) (checkpointing, error) {
	c := checkpointing{Checkpoint: dur(delta), Restart: dur(restart), MeanTimeToInterruption: dur(mtti)}
	young, err := tco.YoungInterval(delta, mtti)
	if err != nil {
		return c, err
	}
	daly, err := tco.DalyInterval(delta, mtti)
	if err != nil {
		return c, err
	}
	c.Young, c.Daly = dur(young), dur(daly)
	for _, p := range []struct {
		tau time.Duration
		dst *dur
	}{{daly, &c.WallAtDaly}, {daly / 2, &c.WallAtHalf}, {2 * daly, &c.WallAtTwice}} {
		t, err := tco.ExpectedWallTime(work, delta, restart, mtti, p.tau)
		if err != nil {
			return c, err
		}
		*p.dst = dur(t)
	}
	return c, nil
}

// nodeRate is the price per hour of the nodes the job holds on o.
func nodeRate(o provider.Offer, nodes int) (decimal.Decimal, error) {
	r, err := o.RatePerGPUHour(provider.Year)
	if err != nil {
		return decimal.Zero, fmt.Errorf("offer %s: %w", o.ID, err)
	}
	return r.Mul(decimal.NewFromInt(int64(nodes * o.GPUsPerNode))), nil
}

// policies runs greedy and Uniform Progress on opt.traces seeded traces per
// availability level.
func policies(job tco.DeadlineJob, opt options) ([]policyRow, error) {
	var rows []policyRow
	for li, level := range levels() {
		for _, p := range []tco.Policy{tco.Greedy{}, tco.UniformProgress{}} {
			row := policyRow{Availability: level, Policy: p.Name(), Runs: opt.traces}
			costs := make([]decimal.Decimal, 0, opt.traces)
			var held, onDemand time.Duration
			sum := decimal.Zero
			for k := range opt.traces {
				seed := opt.seed*1_000_003 + uint64(li)*10_007 + uint64(k)
				tr, err := tco.NewTwoStateTrace(seed, level, opt.meanOn, opt.step, job.Deadline)
				if err != nil {
					return nil, cli.Usagef("policy traces: %w", err)
				}
				r, err := tco.SimulatePolicy(p, job, tr)
				if err != nil {
					return nil, err
				}
				costs = append(costs, r.Cost)
				sum = sum.Add(r.Cost)
				held += r.SpotTime + r.OnDemandTime
				onDemand += r.OnDemandTime
				row.MeanChangeovers += float64(r.Changeovers) / float64(opt.traces)
				if !r.DeadlineMet {
					row.DeadlineMisses++
				}
			}
			slices.SortFunc(costs, decimal.Decimal.Cmp)
			row.MeanCost = sum.DivRound(decimal.NewFromInt(int64(opt.traces)), 2)
			row.P90Cost = costs[quantileIndex(len(costs), 0.9)].Round(2)
			if held > 0 {
				row.OnDemandShare = onDemand.Hours() / held.Hours()
			}
			rows = append(rows, row)
		}
	}
	return rows, nil
}

// quantileIndex is the index of the smallest of n sorted samples with at
// least the fraction q of the samples at or below it.
func quantileIndex(n int, q float64) int {
	i := int(q*float64(n)+0.999999999) - 1
	return min(max(i, 0), n-1)
}

func hoursDur(h float64) time.Duration { return time.Duration(h * float64(time.Hour)) }

// short prints a duration rounded to minutes, as "2d 3h04m" beyond a day.
func short(d dur) string {
	t := time.Duration(d).Round(time.Minute)
	if t < 24*time.Hour {
		return strconv.Itoa(int(t.Hours())) + "h" + fmt.Sprintf("%02dm", int(t.Minutes())%60)
	}
	days := int(t / (24 * time.Hour))
	return fmt.Sprintf("%dd %s", days, short(dur(t-time.Duration(days)*24*time.Hour)))
}

// output renders res in the three formats.
func output(res result) cli.Output {
	money := func(d decimal.Decimal) string { return cli.Money(d, res.Currency) }
	header := []string{"section", "name", "availability", "expected", "mean", "p50", "p90", "p99",
		"finish_p50_hours", "finish_p90_hours", "finish_p99_hours", "deadline_missed"}
	var rows [][]string
	hours := func(d dur) string { return strconv.FormatFloat(time.Duration(d).Hours(), 'f', 2, 64) }
	for _, o := range res.Options {
		rows = append(rows, []string{"offer", o.Offer, "", o.Expected.StringFixed(2), o.Cost.Mean.StringFixed(2),
			o.Cost.P50.StringFixed(2), o.Cost.P90.StringFixed(2), o.Cost.P99.StringFixed(2),
			hours(o.FinishP50), hours(o.FinishP90), hours(o.FinishP99), strconv.FormatFloat(o.DeadlineMissedFraction, 'f', 4, 64)})
	}
	for _, p := range res.Policies {
		rows = append(rows, []string{"policy", p.Policy, strconv.FormatFloat(p.Availability, 'f', 2, 64), "",
			p.MeanCost.StringFixed(2), "", p.P90Cost.StringFixed(2), "", "", "", "",
			strconv.FormatFloat(float64(p.DeadlineMisses)/float64(p.Runs), 'f', 4, 64)})
	}
	table := func(w io.Writer) error {
		fmt.Fprintf(w, "Spot or on-demand for %s: %d GPUs, %s reference GPU-hours, due within %s (%s)\n",
			res.Workload, res.GPUs, cli.Thousands(strconv.FormatFloat(res.WorkGPUHours, 'f', 0, 64)), short(res.Deadline), res.Currency)
		fmt.Fprintf(w, "  spot       %s at %s per node-hour\n", res.Spot, money(res.SpotNodeRate))
		fmt.Fprintf(w, "  on-demand  %s at %s per node-hour\n\n", res.OnDemand, money(res.ODNodeRate))
		if c := res.Checkpointing; c != nil {
			fmt.Fprintf(w, "Checkpointing on spot: checkpoint %v, restart %v, the job's nodes interrupted every %s on average\n",
				time.Duration(c.Checkpoint), time.Duration(c.Restart), short(c.MeanTimeToInterruption))
			fmt.Fprintf(w, "  Young's interval √(2δM)  %s\n", short(c.Young))
			fmt.Fprintf(w, "  Daly's interval          %s  expected wall time %s (at half the interval %s, at twice %s)\n\n",
				short(c.Daly), short(c.WallAtDaly), short(c.WallAtHalf), short(c.WallAtTwice))
		}
		fmt.Fprintf(w, "Expected cost (tco.Evaluate) and its distribution (tco.Simulate, %s trials)\n",
			cli.Thousands(strconv.Itoa(res.Trials)))
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "OFFER\tMODE\tEXPECTED\tHIDDEN\tP50\tP90\tP99\tWALL TIME\tFINISH P50\tP90\tP99\tMISSES DEADLINE")
		for _, o := range res.Options {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%.1f%%\n", o.Offer, o.Mode, money(o.Expected), money(o.Hidden),
				money(o.Cost.P50), money(o.Cost.P90), money(o.Cost.P99), short(o.WallTime),
				short(o.FinishP50), short(o.FinishP90), short(o.FinishP99), o.DeadlineMissedFraction*100)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
		j := res.PolicyJob
		fmt.Fprintf(w, "\nSpot policies over availability traces: %s of compute due in %s, changeover %v, spot %s/h, on-demand %s/h\n",
			short(j.Work), short(j.Deadline), time.Duration(j.Changeover), money(j.SpotPerHour), money(j.ODPerHour))
		fmt.Fprintf(w, "(%d traces per level, spot available for %s at a time on average, %v steps; all on-demand: %s)\n",
			j.Traces, short(j.MeanOn), time.Duration(j.Step), money(j.AllOnDemand))
		tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "SPOT AVAILABLE\tPOLICY\tMEAN COST\tP90 COST\tON-DEMAND SHARE\tCHANGEOVERS\tDEADLINE MISSES")
		for _, p := range res.Policies {
			fmt.Fprintf(tw, "%.0f%%\t%s\t%s\t%s\t%.0f%%\t%.1f\t%d of %d\n", p.Availability*100, p.Policy, money(p.MeanCost),
				money(p.P90Cost), p.OnDemandShare*100, p.MeanChangeovers, p.DeadlineMisses, p.Runs)
		}
		return tw.Flush()
	}
	return cli.Output{Table: table, Header: header, Rows: rows, JSON: res}
}
