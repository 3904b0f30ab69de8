package tco_test

import (
	"errors"
	"math"
	"testing"
	"time"

	"github.com/gputco/gputco/provider"
	"github.com/gputco/gputco/tco"
	"github.com/gputco/gputco/workload"
	"github.com/shopspring/decimal"
	"pgregory.net/rapid"
)

// evalH100 is the reference GPU (speed factor 1).
var evalH100 = provider.GPU{Model: "H100 SXM", MemoryGiB: 80, BF16TFLOPS: 989, TDPWatts: 700}

// evalHidden lists every hidden-cost category.
var evalHidden = []provider.Category{
	provider.Setup, provider.DataTransfer, provider.Storage, provider.Recovery, provider.Preemption,
	provider.Staff, provider.Fees, provider.Exit, provider.Delay, provider.Inefficiency,
}

// evalExcludeAllBut returns every hidden category except keep, for
// Assumptions.Exclude.
func evalExcludeAllBut(keep ...provider.Category) []provider.Category {
	var out []provider.Category
	for _, c := range evalHidden {
		kept := false
		for _, k := range keep {
			kept = kept || k == c
		}
		if !kept {
			out = append(out, c)
		}
	}
	return out
}

// evalOffer is an 8×H100 SXM node on InfiniBand at 3,200 Gbps, physically
// isolated, in the US, always in stock, with pricing p and no hidden costs.
func evalOffer(id string, p provider.Pricing) provider.Offer {
	return provider.Offer{
		ID: id, Provider: "test", Region: "r1", Jurisdiction: "US", GPU: evalH100, GPUsPerNode: 8,
		Interconnect: provider.Interconnect{Fabric: provider.InfiniBand, GbpsPerNode: 3200, NVLink: true},
		Isolation:    provider.Physical, Pricing: p,
		Availability: provider.Availability{FillProbability: 1},
	}
}

// evalJob is a checkpointed finite job (δ = 2 min, R = 5 min) on a gang of
// gpus H100 SXM (speed 1) needing work reference GPU-hours, without data,
// setup, deadline or interconnect requirement.
func evalJob(gpus int, work float64) workload.Workload {
	return workload.Workload{
		Name: "eval-job", Kind: workload.FineTuning, GPUs: gpus, WorkGPUHours: work,
		Requirements: workload.Requirements{Models: map[string]float64{"H100 SXM": 1}},
		Interruption: workload.Interruption{Tolerance: workload.Checkpointed, CheckpointTime: 2 * time.Minute, RestartTime: 5 * time.Minute},
	}
}

// evalService is a stateless service of peak gpus H100 SXM following demand
// over horizon, without data or setup.
func evalService(gpus int, demand workload.Curve, horizon time.Duration) workload.Workload {
	return workload.Workload{
		Name: "eval-service", Kind: workload.Inference, GPUs: gpus, Demand: demand, Horizon: horizon,
		Requirements: workload.Requirements{Models: map[string]float64{"H100 SXM": 1}},
		Interruption: workload.Interruption{Tolerance: workload.Stateless, RestartTime: time.Minute},
	}
}

// evalOwned is an 8×H100 server: $300,000, 3-year straight line, no salvage,
// 1.5–7.5 kW at PUE 1.2 and $0.10/kWh, 10 kW colocation at $180/kW-month, 10 %
// maintenance a year.
func evalOwned() provider.Owned {
	return provider.Owned{
		PurchasePerNode: decimal.NewFromInt(300000), UsefulLifeYears: 3,
		IdlePowerKW: 1.5, MaxPowerKW: 7.5, ContractedPowerKW: 10, PUE: 1.2,
		EnergyPerKWh: decimal.RequireFromString("0.10"), ColocationPerKWMonth: decimal.NewFromInt(180),
		MaintenanceFractionPerYear: 0.10,
	}
}

// evalTB is what the check helpers need of a *testing.T or a *rapid.T.
type evalTB interface {
	Helper()
	Errorf(format string, args ...any)
	Fatalf(format string, args ...any)
}

// evaluate calls tco.Evaluate and fails the test on an error.
func evaluate(t evalTB, w workload.Workload, o provider.Offer, a tco.Assumptions) tco.Report {
	t.Helper()
	r, err := tco.Evaluate(w, o, a)
	if err != nil {
		t.Fatalf("Evaluate(%s on %s): %v", w.Name, o.ID, err)
	}
	return r
}

// evalNear fails unless got is within tol of want.
func evalNear(t *testing.T, what string, got, want decimal.Decimal, tol float64, reason string) {
	t.Helper()
	if d, _ := got.Sub(want).Abs().Float64(); d > tol || math.IsNaN(d) {
		t.Errorf("%s = %s, want %s (±%g): %s", what, got, want, tol, reason)
	}
}

// evalCheckSums fails unless the report's totals are exactly the sums the
// documentation promises: Total = Σ lines, Explicit + Hidden = Total, Σ
// cash flow = Total, and each subtotal is the sum of its kind of lines.
func evalCheckSums(t evalTB, r tco.Report) {
	t.Helper()
	sum, explicit, hidden := decimal.Zero, decimal.Zero, decimal.Zero
	for _, l := range r.Lines {
		sum = sum.Add(l.Amount)
		if l.Category.Hidden() {
			hidden = hidden.Add(l.Amount)
		} else {
			explicit = explicit.Add(l.Amount)
		}
	}
	if !sum.Equal(r.Total) {
		t.Errorf("Total %s != sum of lines %s", r.Total, sum)
	}
	if !r.Explicit.Equal(explicit) || !r.Hidden.Equal(hidden) {
		t.Errorf("Explicit %s, Hidden %s; lines give %s, %s", r.Explicit, r.Hidden, explicit, hidden)
	}
	if !r.Explicit.Add(r.Hidden).Equal(r.Total) {
		t.Errorf("Explicit %s + Hidden %s != Total %s", r.Explicit, r.Hidden, r.Total)
	}
	flow := decimal.Zero
	for _, m := range r.CashFlow {
		flow = flow.Add(m)
	}
	if !flow.Equal(r.Total) {
		t.Errorf("cash flow sums to %s, Total %s", flow, r.Total)
	}
}

func TestEvaluateClosedForms(t *testing.T) {
	rate := decimal.RequireFromString("55.04")
	allHidden := tco.Assumptions{Exclude: evalHidden}
	tests := []struct {
		name   string
		w      workload.Workload
		o      provider.Offer
		a      tco.Assumptions
		cat    provider.Category
		want   func(r tco.Report) decimal.Decimal
		reason string
	}{
		{
			name: "per-second finite job", cat: provider.Compute,
			w: func() workload.Workload {
				w := evalJob(16, 16*1.25*10.3)
				w.Requirements.Models["H100 SXM"] = 1.25
				return w
			}(),
			o: evalOffer("ps", provider.PerSecond(rate, time.Minute)), a: allHidden,
			want: func(tco.Report) decimal.Decimal {
				hours := 16 * 1.25 * 10.3 / (1.25 * 16) // work / (speed × GPUs)
				secs := math.Ceil(hours*3600 - 1e-6)
				return rate.Mul(decimal.NewFromInt(2)).Mul(decimal.NewFromFloat(secs)).DivRound(decimal.NewFromInt(3600), 16)
			},
			reason: "rate × nodes × ⌈hours⌉ to the second, nothing hidden",
		},
		{
			name: "hourly finite job rounds up each node's run", cat: provider.Compute,
			w: evalJob(8, 8*2.25), o: evalOffer("hourly", provider.Hourly(rate)), a: allHidden,
			want:   func(tco.Report) decimal.Decimal { return rate.Mul(decimal.NewFromInt(3)) },
			reason: "2.25 h on one node bills 3 whole hours",
		},
		{
			name: "interconnect below requirement", cat: provider.Inefficiency,
			w: func() workload.Workload {
				w := evalJob(16, 160)
				w.Requirements.Interconnect = workload.Interconnect{Fabric: workload.InfiniBand, Gbps: 400, BelowFabric: workload.Slower, Efficiency: 0.8}
				return w
			}(),
			o: func() provider.Offer {
				o := evalOffer("eth", provider.ProRata(rate))
				o.Interconnect = provider.Interconnect{Fabric: provider.Ethernet, GbpsPerNode: 100}
				return o
			}(),
			a: tco.Assumptions{Exclude: evalExcludeAllBut(provider.Inefficiency)},
			want: func(r tco.Report) decimal.Decimal {
				return r.Line(provider.Compute).Mul(decimal.NewFromFloat(1/0.8 - 1))
			},
			reason: "(1/efficiency − 1) × compute at pro-rata billing",
		},
		{
			name: "data transfer in", cat: provider.DataTransfer,
			w: func() workload.Workload {
				w := evalJob(8, 80)
				w.Data = workload.Data{DatasetGB: 200, Location: workload.Location{Provider: "aws", Region: "us-east-1"}}
				return w
			}(),
			o: func() provider.Offer {
				o := evalOffer("ingress", provider.ProRata(rate))
				o.Hidden.IngressPerGB = decimal.RequireFromString("0.01")
				return o
			}(),
			want: func(tco.Report) decimal.Decimal {
				return decimal.NewFromInt(200).Mul(decimal.RequireFromString("0.09").Add(decimal.RequireFromString("0.01")))
			},
			reason: "dataset GB × (default source egress $0.09 + offer ingress)",
		},
		{
			name: "data already at the offer", cat: provider.DataTransfer,
			w: func() workload.Workload {
				w := evalJob(8, 80)
				w.Data = workload.Data{DatasetGB: 200, Location: workload.Location{Provider: "test", Region: "r1"}}
				return w
			}(),
			o:      evalOffer("local", provider.ProRata(rate)),
			want:   func(tco.Report) decimal.Decimal { return decimal.Zero },
			reason: "no transfer when the data lives at the offer",
		},
		{
			name: "storage over three months", cat: provider.Storage,
			w: func() workload.Workload {
				w := evalJob(8, 80)
				w.Data = workload.Data{DatasetGB: 300, CheckpointGB: 100}
				return w
			}(),
			o: func() provider.Offer {
				o := evalOffer("storage", provider.ProRata(rate))
				o.Hidden.StoragePerGBMonth = decimal.RequireFromString("0.023")
				return o
			}(),
			a: tco.Assumptions{Horizon: 3 * 730 * time.Hour},
			want: func(tco.Report) decimal.Decimal {
				return decimal.NewFromInt(400).Mul(decimal.RequireFromString("0.023")).Mul(decimal.NewFromInt(3))
			},
			reason: "(dataset + checkpoint) GB × rate × months of 730 h",
		},
		{
			name: "exit", cat: provider.Exit,
			w: func() workload.Workload {
				w := evalJob(8, 80)
				w.Data = workload.Data{DatasetGB: 300, CheckpointGB: 100}
				return w
			}(),
			o: func() provider.Offer {
				o := evalOffer("exit", provider.ProRata(rate))
				o.Hidden.EgressPerGB = decimal.RequireFromString("0.09")
				return o
			}(),
			want: func(tco.Report) decimal.Decimal {
				return decimal.NewFromInt(400).Mul(decimal.RequireFromString("0.09"))
			},
			reason: "all stored GB × egress at the end",
		},
		{
			name: "staff for a year", cat: provider.Staff,
			w: evalJob(8, 80),
			o: func() provider.Offer {
				o := evalOffer("staff", provider.ProRata(rate))
				o.Hidden.StaffFTE, o.Hidden.StaffCostPerYear = 0.25, decimal.NewFromInt(200000)
				return o
			}(),
			a:      tco.Assumptions{Horizon: provider.Year},
			want:   func(tco.Report) decimal.Decimal { return decimal.NewFromInt(50000) },
			reason: "FTE × cost per year × years held",
		},
		{
			name: "setup engineer time", cat: provider.Setup,
			w: func() workload.Workload {
				w := evalJob(8, 80)
				w.Setup.EngineerHours = 8
				return w
			}(),
			o: evalOffer("setup", provider.ProRata(rate)),
			a: tco.Assumptions{EngineerCostPerHour: decimal.NewFromInt(150)},
			want: func(tco.Report) decimal.Decimal {
				// 8 h × $150 plus one node held during setup.
				return decimal.NewFromInt(8 * 150).Add(rate.Mul(decimal.NewFromInt(8)))
			},
			reason: "engineer hours × rate, plus the GPU time held meanwhile",
		},
		{
			name: "platform fee", cat: provider.Fees,
			w: evalJob(8, 80),
			o: func() provider.Offer {
				o := evalOffer("fee", provider.ProRata(rate))
				o.Hidden.PlatformFeeFraction = 0.05
				return o
			}(),
			a: tco.Assumptions{Exclude: evalExcludeAllBut(provider.Fees)},
			want: func(r tco.Report) decimal.Decimal {
				return r.Line(provider.Compute).Mul(decimal.RequireFromString("0.05"))
			},
			reason: "fraction × compute",
		},
		{
			name: "delay past the deadline", cat: provider.Delay,
			w: func() workload.Workload {
				w := evalJob(8, 8*10)
				w.Deadline = 24 * time.Hour
				w.CostOfDelayPerDay = decimal.NewFromInt(1200)
				return w
			}(),
			o: func() provider.Offer {
				o := evalOffer("lead", provider.ProRata(rate))
				o.Availability.LeadTime = 48 * time.Hour
				return o
			}(),
			a: tco.Assumptions{Exclude: evalExcludeAllBut(provider.Delay)},
			want: func(tco.Report) decimal.Decimal {
				late := 48.0 + 10 - 24 // lead time + run time − deadline, hours
				return decimal.NewFromFloat(late / 24).Mul(decimal.NewFromInt(1200))
			},
			reason: "days late × cost of delay",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := evaluate(t, tt.w, tt.o, tt.a)
			evalNear(t, tt.cat.String()+" line", r.Line(tt.cat), tt.want(r), 1e-9, tt.reason)
			evalCheckSums(t, r)
		})
	}
}

// TestEvaluateDeadline checks the verdict: finish = lead time + transfer +
// setup + wall time against the deadline.
func TestEvaluateDeadline(t *testing.T) {
	tests := []struct {
		name     string
		deadline time.Duration
		lead     time.Duration
		want     bool
		reason   string
	}{
		{"no deadline", 0, 72 * time.Hour, true, "without a deadline it always holds"},
		{"met with slack", 48 * time.Hour, 24 * time.Hour, true, "24 h lead + 10 h run < 48 h"},
		{"met exactly", 34 * time.Hour, 24 * time.Hour, true, "finish == deadline holds"},
		{"missed", 30 * time.Hour, 24 * time.Hour, false, "24 h lead + 10 h run > 30 h"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := evalJob(8, 80)
			w.Deadline = tt.deadline
			o := evalOffer("d", provider.ProRata(decimal.NewFromInt(10)))
			o.Availability.LeadTime = tt.lead
			r := evaluate(t, w, o, tco.Assumptions{Exclude: evalHidden})
			if want := tt.lead + 10*time.Hour; r.Finish != want {
				t.Errorf("Finish = %v, want %v", r.Finish, want)
			}
			if r.DeadlineMet != tt.want || r.Deadline != tt.deadline {
				t.Errorf("DeadlineMet = %v (deadline %v), want %v: %s", r.DeadlineMet, r.Deadline, tt.want, tt.reason)
			}
		})
	}
}

// evalDalyWall is the oracle for a spot job's wall time, written from Daly
// (2006) independently of the package: τ from the higher-order estimate,
// whole segments k = ⌈T_s/τ⌉, τ' = T_s/k, T_w = M·e^{R/M}·(e^{(τ'+δ)/M} − 1)·T_s/τ'.
// All times in hours.
func evalDalyWall(ts, delta, restart, mtti float64) float64 {
	tau := mtti
	if delta < 2*mtti {
		x := delta / (2 * mtti)
		tau = math.Sqrt(2*delta*mtti)*(1+math.Sqrt(x)/3+x/9) - delta
	}
	k := math.Ceil(ts / tau)
	tau = ts / k
	return mtti * math.Exp(restart/mtti) * (math.Exp((tau+delta)/mtti) - 1) * ts / tau
}

func TestEvaluateSpotDaly(t *testing.T) {
	tests := []struct {
		name        string
		gpus        int
		work        float64
		ratePerNode float64
		reason      string
	}{
		{"one node, 10 % a day", 8, 8 * 12, 0.1 / 24, "fine-tune-sized job, M = 240 h"},
		{"two nodes, 5 % an hour", 16, 16 * 30, 0.05, "job-level M = 10 h"},
		{"four nodes, 50 % an hour", 32, 32 * 4, 0.5, "M = 0.5 h: many short segments"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := evalJob(tt.gpus, tt.work)
			spot := provider.Spot{RatePerHour: decimal.NewFromInt(12), InterruptionRatePerHour: tt.ratePerNode}
			o := evalOffer("spot", spot)
			r := evaluate(t, w, o, tco.Assumptions{Exclude: evalExcludeAllBut(provider.Preemption)})
			nodes := float64(tt.gpus / 8)
			ts := tt.work / float64(tt.gpus)
			mtti := 1 / (nodes * tt.ratePerNode)
			want := evalDalyWall(ts, 2.0/60, 5.0/60, mtti)
			if got := r.WallTime.Hours(); math.Abs(got-want) > 1e-9*want+1e-9 {
				t.Errorf("WallTime = %.9f h, Daly oracle %.9f h (%s)", got, want, tt.reason)
			}
			// The package's own ExpectedWallTime at the segment interval agrees.
			tauD, err := tco.DalyInterval(2*time.Minute, time.Duration(mtti*float64(time.Hour)))
			if err != nil {
				t.Fatal(err)
			}
			k := math.Ceil(ts / tauD.Hours())
			ew, err := tco.ExpectedWallTime(time.Duration(ts*float64(time.Hour)), 2*time.Minute, 5*time.Minute,
				time.Duration(mtti*float64(time.Hour)), time.Duration(ts/k*float64(time.Hour)))
			if err != nil {
				t.Fatal(err)
			}
			if d := (r.WallTime - ew).Abs(); d > time.Millisecond {
				t.Errorf("WallTime %v differs from ExpectedWallTime %v by %v (%s)", r.WallTime, ew, d, tt.reason)
			}
			// Pro-rata spot: compute + preemption = rate × nodes × wall.
			evalNear(t, "compute+preemption", r.Total, decimal.NewFromFloat(12*nodes*want), 1e-6, tt.reason)
			evalNear(t, "compute", r.Line(provider.Compute), decimal.NewFromFloat(12*nodes*ts), 1e-6, tt.reason)
			if r.Derivation.CheckpointInterval <= 0 || r.Derivation.ExpectedPreemptions <= 0 {
				t.Errorf("derivation %+v: want a checkpoint interval and expected preemptions", r.Derivation)
			}
		})
	}
}

// TestEvaluateServiceOwnedVsMetered prices one service two ways: 16 GPUs
// (two nodes) from 00:00 to 06:00 and 8 GPUs (one node) the rest of each
// day, for 30 days. Pay-as-you-go bills the 720 + 30·6 = 900 node-hours the
// curve needs; owned hardware holds the peak, two nodes, for all 720 hours
// and burns power at the mean busy fraction 0.625.
func TestEvaluateServiceOwnedVsMetered(t *testing.T) {
	demand := workload.Steps{Cycle: 24 * time.Hour, Steps: []workload.Step{{Start: 0, Value: 1}, {Start: 6 * time.Hour, Value: 0.5}}}
	w := evalService(16, demand, 720*time.Hour)
	a := tco.Assumptions{Exclude: evalHidden}
	rate := decimal.RequireFromString("31.92")

	metered := evaluate(t, w, evalOffer("metered", provider.ProRata(rate)), a)
	evalNear(t, "metered compute", metered.Total, rate.Mul(decimal.NewFromInt(900)), 1e-6, "rate × node-hours the curve needs")
	if got, want := metered.BilledGPUHours, 900.0*8; math.Abs(got-want) > 1e-6 {
		t.Errorf("metered BilledGPUHours = %g, want %g", got, want)
	}

	own := evalOwned()
	owned := evaluate(t, w, evalOffer("owned", own), a)
	if owned.Derivation.Nodes != 2 || math.Abs(owned.Derivation.BusyFraction-0.625) > 1e-9 {
		t.Errorf("owned derivation %+v: want 2 nodes at busy 0.625", owned.Derivation)
	}
	if got, want := owned.BilledGPUHours, 720.0*2*8; math.Abs(got-want) > 1e-6 {
		t.Errorf("owned BilledGPUHours = %g, want %g (peak held all horizon)", got, want)
	}
	evalNear(t, "capital", owned.Line(provider.Capital), decimal.NewFromInt(600000), 0, "two nodes bought")
	energy := 2 * (1.5 + (7.5-1.5)*0.625) * 1.2 * 720 * 0.10
	evalNear(t, "power", owned.Line(provider.Power), decimal.NewFromFloat(energy), 1e-6, "nodes × draw at busy × PUE × hours × price")
	facility := 2*10*180*720/730.0 + 2*300000*0.10*720/8760
	evalNear(t, "facility", owned.Line(provider.Facility), decimal.NewFromFloat(facility), 1e-6, "colocation + maintenance")
	// Straight line over 3 years: book value after 720 h.
	residual := -2 * 300000 * (1 - 720.0/(3*8760))
	evalNear(t, "residual", owned.Line(provider.Residual), decimal.NewFromFloat(residual), 1e-6, "book value back at the end")
	evalCheckSums(t, metered)
	evalCheckSums(t, owned)
}

// TestEvaluatePresentValue checks discounting on a cost that is spread only:
// a metered service over three months with everything hidden excluded.
func TestEvaluatePresentValue(t *testing.T) {
	w := evalService(8, workload.Constant{Value: 1}, 3*730*time.Hour)
	o := evalOffer("pv", provider.ProRata(decimal.NewFromInt(20)))
	tests := []struct {
		name   string
		rate   float64
		reason string
	}{
		{"no discounting", 0, "PV equals the total"},
		{"8 % a year", 0.08, "three equal parts at the ends of months 1, 2, 3"},
		{"50 % a year", 0.5, "a high rate"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := evaluate(t, w, o, tco.Assumptions{Exclude: evalHidden, DiscountRatePerYear: tt.rate})
			total, _ := r.Total.Float64()
			want := 0.0
			for m := 1; m <= 3; m++ {
				want += total / 3 * math.Pow(1+tt.rate, -float64(m)/12)
			}
			evalNear(t, "PresentValue", r.PresentValue, decimal.NewFromFloat(want), 1e-6, tt.reason)
			if tt.rate == 0 && !r.PresentValue.Equal(r.Total) {
				t.Errorf("PV %s != Total %s at rate 0", r.PresentValue, r.Total)
			}
			if tt.rate > 0 && !r.PresentValue.LessThan(r.Total) {
				t.Errorf("PV %s not below Total %s at rate %g", r.PresentValue, r.Total, tt.rate)
			}
			if len(r.CashFlow) != 3 {
				t.Errorf("%d months of cash flow, want 3", len(r.CashFlow))
			}
			evalCheckSums(t, r)
		})
	}
}

func TestEvaluateInvalidInputs(t *testing.T) {
	good := func() (workload.Workload, provider.Offer, tco.Assumptions) {
		return evalJob(8, 80), evalOffer("ok", provider.PerSecond(decimal.NewFromInt(10), time.Minute)), tco.Assumptions{}
	}
	tests := []struct {
		name   string
		edit   func(*workload.Workload, *provider.Offer, *tco.Assumptions)
		want   []error
		reason string
	}{
		{"NaN discount rate", func(_ *workload.Workload, _ *provider.Offer, a *tco.Assumptions) { a.DiscountRatePerYear = math.NaN() },
			[]error{tco.ErrInvalidAssumptions}, "NaN is an error, not a panic"},
		{"infinite discount rate", func(_ *workload.Workload, _ *provider.Offer, a *tco.Assumptions) { a.DiscountRatePerYear = math.Inf(1) },
			[]error{tco.ErrInvalidAssumptions}, "must be finite"},
		{"discount rate −1", func(_ *workload.Workload, _ *provider.Offer, a *tco.Assumptions) { a.DiscountRatePerYear = -1 },
			[]error{tco.ErrInvalidAssumptions}, "must be above −1"},
		{"NaN utilization", func(_ *workload.Workload, _ *provider.Offer, a *tco.Assumptions) { a.Utilization = math.NaN() },
			[]error{tco.ErrInvalidAssumptions}, "NaN"},
		{"utilization above 1", func(_ *workload.Workload, _ *provider.Offer, a *tco.Assumptions) { a.Utilization = 1.5 },
			[]error{tco.ErrInvalidAssumptions}, "a fraction"},
		{"NaN transfer bandwidth", func(_ *workload.Workload, _ *provider.Offer, a *tco.Assumptions) { a.TransferGbps = math.NaN() },
			[]error{tco.ErrInvalidAssumptions}, "NaN"},
		{"negative horizon", func(_ *workload.Workload, _ *provider.Offer, a *tco.Assumptions) { a.Horizon = -time.Hour },
			[]error{tco.ErrInvalidAssumptions}, "negative"},
		{"explicit category excluded", func(_ *workload.Workload, _ *provider.Offer, a *tco.Assumptions) {
			a.Exclude = []provider.Category{provider.Compute}
		}, []error{tco.ErrInvalidAssumptions}, "explicit costs cannot be switched off"},
		{"negative engineer cost", func(_ *workload.Workload, _ *provider.Offer, a *tco.Assumptions) {
			a.EngineerCostPerHour = decimal.NewFromInt(-1)
		}, []error{tco.ErrInvalidAssumptions}, "negative money"},
		{"several bad assumptions", func(_ *workload.Workload, _ *provider.Offer, a *tco.Assumptions) {
			a.DiscountRatePerYear, a.Utilization, a.StockRetry = math.NaN(), -1, -time.Second
		}, []error{tco.ErrInvalidAssumptions}, "all reported"},
		{"NaN work", func(w *workload.Workload, _ *provider.Offer, _ *tco.Assumptions) { w.WorkGPUHours = math.NaN() },
			[]error{workload.ErrNotFinite}, "invalid workload"},
		{"zero GPUs", func(w *workload.Workload, _ *provider.Offer, _ *tco.Assumptions) { w.GPUs = 0 },
			[]error{workload.ErrOutOfRange}, "invalid workload"},
		{"zero GPUs per node", func(_ *workload.Workload, o *provider.Offer, _ *tco.Assumptions) { o.GPUsPerNode = 0 },
			[]error{provider.ErrZeroGPUs}, "invalid offer"},
		{"negative rate", func(_ *workload.Workload, o *provider.Offer, _ *tco.Assumptions) {
			o.Pricing = provider.ProRata(decimal.NewFromInt(-5))
		}, []error{provider.ErrNegative}, "invalid offer"},
		{"nil pricing", func(_ *workload.Workload, o *provider.Offer, _ *tco.Assumptions) { o.Pricing = nil },
			[]error{provider.ErrMissing}, "pricing is required"},
		{"NaN fill probability", func(_ *workload.Workload, o *provider.Offer, _ *tco.Assumptions) {
			o.Availability.FillProbability = math.NaN()
		}, []error{provider.ErrNotFinite}, "invalid offer"},
		{"invalid workload, offer and assumptions together", func(w *workload.Workload, o *provider.Offer, a *tco.Assumptions) {
			w.WorkGPUHours = math.Inf(1)
			o.GPUsPerNode = 0
			a.Utilization = math.NaN()
		}, []error{workload.ErrNotFinite, provider.ErrZeroGPUs, tco.ErrInvalidAssumptions}, "every problem joined"},
		{"service without horizon", func(w *workload.Workload, _ *provider.Offer, _ *tco.Assumptions) {
			*w = evalService(8, workload.Constant{Value: 1}, 0)
		}, []error{workload.ErrZeroPeriod}, "a service needs a horizon"},
		{"incompatible", func(w *workload.Workload, _ *provider.Offer, _ *tco.Assumptions) { w.Requirements.MinMemoryGiB = 200 },
			[]error{tco.ErrIncompatible}, "Compatible is checked"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w, o, a := good()
			tt.edit(&w, &o, &a)
			r, err := tco.Evaluate(w, o, a)
			if err == nil {
				t.Fatalf("Evaluate succeeded with total %s, want an error (%s)", r.Total, tt.reason)
			}
			for _, s := range tt.want {
				if !errors.Is(err, s) {
					t.Errorf("error %v does not wrap %v (%s)", err, s, tt.reason)
				}
			}
			if r.Lines != nil || !r.Total.IsZero() {
				t.Errorf("failed Evaluate returned a non-empty report %+v", r)
			}
		})
	}
}

// evalCase is one generated evaluation: a workload, an offer and assumptions.
type evalCase struct {
	w workload.Workload
	o provider.Offer
	a tco.Assumptions
}

// evalMoney draws an amount in whole cents in [0, maxCents].
func evalMoney(t *rapid.T, maxCents int64, label string) decimal.Decimal {
	return decimal.New(rapid.Int64Range(0, maxCents).Draw(t, label), -2)
}

// evalDuration draws a duration in whole seconds in [lo, hi].
func evalDuration(t *rapid.T, lo, hi time.Duration, label string) time.Duration {
	return time.Duration(rapid.Int64Range(int64(lo/time.Second), int64(hi/time.Second)).Draw(t, label)) * time.Second
}

// evalMeteredGen draws per-second, per-minute, hourly or pro-rata billing.
func evalMeteredGen(t *rapid.T) provider.Metered {
	rate := evalMoney(t, 10000, "rate per node-hour (cents)")
	switch rapid.IntRange(0, 3).Draw(t, "billing") {
	case 0:
		return provider.ProRata(rate)
	case 1:
		return provider.PerSecond(rate, time.Minute)
	case 2:
		return provider.PerMinute(rate)
	}
	return provider.Hourly(rate)
}

// evalSpotGen draws spot billing with an interruption rate per node-hour in
// [0, 0.05].
func evalSpotGen(t *rapid.T) provider.Spot {
	m := evalMeteredGen(t)
	rate := 0.0
	if rapid.Bool().Draw(t, "interrupted") {
		rate = rapid.Float64Range(1e-4, 0.05).Draw(t, "interruptions per node-hour")
	}
	return provider.Spot{RatePerHour: m.RatePerHour, Increment: m.Increment, Minimum: m.Minimum,
		InterruptionRatePerHour: rate, Notice: 2 * time.Minute}
}

// evalPricingGen draws any built-in mode: metered, spot, reserved, owned, or
// a credit on metered.
func evalPricingGen(t *rapid.T) provider.Pricing {
	switch rapid.IntRange(0, 4).Draw(t, "mode") {
	case 0:
		return evalMeteredGen(t)
	case 1:
		return evalSpotGen(t)
	case 2:
		term := []time.Duration{provider.Month, provider.Year}[rapid.IntRange(0, 1).Draw(t, "term")]
		return provider.Reserved{Term: term, UpfrontPerNode: evalMoney(t, 10000000, "upfront per node (cents)"),
			RecurringPerHour: evalMoney(t, 5000, "recurring per node-hour (cents)")}
	case 3:
		price := evalMoney(t, 50000000, "purchase per node (cents)")
		salvage := price.Mul(decimal.NewFromInt(rapid.Int64Range(0, 100).Draw(t, "salvage %"))).Div(decimal.NewFromInt(100))
		idle := rapid.Float64Range(0, 3).Draw(t, "idle kW")
		return provider.Owned{
			PurchasePerNode: price, SalvagePerNode: salvage, UsefulLifeYears: rapid.IntRange(1, 6).Draw(t, "life years"),
			Method:      provider.Depreciation(rapid.IntRange(0, 2).Draw(t, "depreciation")),
			IdlePowerKW: idle, MaxPowerKW: idle + rapid.Float64Range(0, 8).Draw(t, "busy kW above idle"),
			PUE: rapid.Float64Range(1, 2).Draw(t, "PUE"), EnergyPerKWh: evalMoney(t, 50, "energy per kWh (cents)"),
			ColocationPerKWMonth:       evalMoney(t, 30000, "colocation per kW-month (cents)"),
			MaintenanceFractionPerYear: rapid.Float64Range(0, 0.2).Draw(t, "maintenance fraction"),
			StaffFTEPerNode:            rapid.Float64Range(0, 0.5).Draw(t, "staff FTE per node"),
			StaffCostPerYear:           evalMoney(t, 30000000, "staff cost per year (cents)"),
			ProcurementLeadTime:        evalDuration(t, 0, 60*24*time.Hour, "procurement lead time"),
		}
	}
	return provider.Credit{Base: evalMeteredGen(t), Amount: evalMoney(t, 1000000, "credit (cents)")}
}

// evalHiddenGen draws a hidden-cost profile.
func evalHiddenGen(t *rapid.T) provider.HiddenCosts {
	h := provider.HiddenCosts{
		SetupHours:          float64(rapid.IntRange(0, 40).Draw(t, "offer setup hours")),
		EgressPerGB:         evalMoney(t, 20, "egress per GB (cents)"),
		IngressPerGB:        evalMoney(t, 5, "ingress per GB (cents)"),
		StoragePerGBMonth:   evalMoney(t, 20, "storage per GB-month (cents)"),
		TransferGbps:        float64(rapid.IntRange(0, 100).Draw(t, "transfer Gbps")),
		PlatformFeeFraction: rapid.Float64Range(0, 0.2).Draw(t, "platform fee fraction"),
		StaffFTE:            rapid.Float64Range(0, 1).Draw(t, "staff FTE"),
		StaffCostPerYear:    evalMoney(t, 30000000, "staff cost per year (cents)"),
	}
	if rapid.Bool().Draw(t, "node failures modelled") {
		h.NodeMTBF = evalDuration(t, 1000*time.Hour, 50000*time.Hour, "node MTBF")
		h.RecoveryTime = evalDuration(t, 0, 24*time.Hour, "recovery time")
	}
	return h
}

// evalOfferGen draws an H100 offer of 1, 2, 4 or 8 GPUs per node with any
// pricing, hidden costs and availability.
func evalOfferGen(t *rapid.T, p provider.Pricing) provider.Offer {
	o := evalOffer("gen", p)
	o.GPUsPerNode = []int{1, 2, 4, 8}[rapid.IntRange(0, 3).Draw(t, "GPUs per node")]
	o.Hidden = evalHiddenGen(t)
	o.Availability = provider.Availability{
		FillProbability: rapid.Float64Range(0.05, 1).Draw(t, "fill probability"),
		LeadTime:        evalDuration(t, 0, 14*24*time.Hour, "lead time"),
	}
	return o
}

// evalJobGen draws a finite job of at most 32 GPUs and 500 GPU-hours. Work
// that tolerates no interruption is drawn only for offers other than spot.
func evalJobGen(t *rapid.T, spot bool) workload.Workload {
	gpus := rapid.IntRange(1, 32).Draw(t, "gang GPUs")
	w := evalJob(gpus, rapid.Float64Range(0.1, 500).Draw(t, "work GPU-hours"))
	w.Requirements.Models["H100 SXM"] = rapid.Float64Range(0.5, 2).Draw(t, "speed factor")
	lo := 0
	if spot {
		lo = 1
	}
	switch rapid.IntRange(lo, 2).Draw(t, "tolerance") {
	case 0:
		w.Interruption = workload.Interruption{RestartTime: evalDuration(t, 0, time.Hour, "restart")}
	case 1:
		w.Interruption = workload.Interruption{Tolerance: workload.Checkpointed,
			CheckpointTime: evalDuration(t, time.Second, 10*time.Minute, "checkpoint time"),
			RestartTime:    evalDuration(t, 0, 30*time.Minute, "restart")}
		if rapid.Bool().Draw(t, "fixed checkpoint interval") {
			w.Interruption.CheckpointInterval = evalDuration(t, 10*time.Minute, 4*time.Hour, "checkpoint interval")
		}
	default:
		w.Interruption = workload.Interruption{Tolerance: workload.Stateless, RestartTime: evalDuration(t, 0, 30*time.Minute, "restart")}
	}
	if rapid.Bool().Draw(t, "deadline") {
		w.Deadline = evalDuration(t, time.Hour, 30*24*time.Hour, "deadline")
		w.CostOfDelayPerDay = evalMoney(t, 500000, "cost of delay per day (cents)")
	}
	w.Data = evalDataGen(t)
	w.Setup.EngineerHours = float64(rapid.IntRange(0, 40).Draw(t, "workload setup hours"))
	return w
}

// evalDataGen draws a dataset, maybe elsewhere, checkpoints and egress.
func evalDataGen(t *rapid.T) workload.Data {
	d := workload.Data{
		DatasetGB:        float64(rapid.IntRange(0, 5000).Draw(t, "dataset GB")),
		CheckpointGB:     float64(rapid.IntRange(0, 500).Draw(t, "checkpoint GB")),
		EgressGBPerMonth: float64(rapid.IntRange(0, 1000).Draw(t, "egress GB per month")),
	}
	if rapid.Bool().Draw(t, "dataset elsewhere") {
		d.Location = workload.Location{Provider: "aws", Region: "us-east-1"}
	}
	return d
}

// evalServiceGen draws a stateless service of at most 32 GPUs at peak over
// one to 60 days, with a constant or diurnal demand.
func evalServiceGen(t *rapid.T) workload.Workload {
	var demand workload.Curve
	if rapid.Bool().Draw(t, "diurnal demand") {
		mean := rapid.Float64Range(0.05, 0.95).Draw(t, "diurnal mean")
		amp := rapid.Float64Range(0, math.Min(mean, 1-mean)).Draw(t, "diurnal amplitude")
		demand = workload.Diurnal{Mean: mean, Amplitude: amp, PeakHour: float64(rapid.IntRange(0, 23).Draw(t, "peak hour"))}
	} else {
		demand = workload.Constant{Value: rapid.Float64Range(0.01, 1).Draw(t, "constant demand")}
	}
	w := evalService(rapid.IntRange(1, 32).Draw(t, "peak GPUs"), demand,
		time.Duration(rapid.IntRange(1, 60).Draw(t, "horizon days"))*24*time.Hour)
	w.Interruption.RestartTime = evalDuration(t, 0, 10*time.Minute, "restart")
	w.Data = evalDataGen(t)
	w.Data.CheckpointGB = 0
	w.Setup.EngineerHours = float64(rapid.IntRange(0, 40).Draw(t, "workload setup hours"))
	return w
}

// evalAssumptionsGen draws assumptions with explicit money figures (so that
// scaling them scales every price) and maybe some exclusions.
func evalAssumptionsGen(t *rapid.T, service bool) tco.Assumptions {
	a := tco.Assumptions{
		DiscountRatePerYear: rapid.Float64Range(0, 0.3).Draw(t, "discount rate"),
		EngineerCostPerHour: decimal.New(rapid.Int64Range(1, 30000).Draw(t, "engineer cost per hour (cents)"), -2),
		SourceEgressPerGB:   decimal.New(rapid.Int64Range(1, 20).Draw(t, "source egress per GB (cents)"), -2),
		Step:                []time.Duration{0, 15 * time.Minute, time.Hour}[rapid.IntRange(0, 2).Draw(t, "curve step")],
	}
	if service && rapid.Bool().Draw(t, "utilization instead of curve") {
		a.Utilization = rapid.Float64Range(0.01, 1).Draw(t, "utilization")
	}
	for _, c := range evalHidden {
		if rapid.IntRange(0, 5).Draw(t, "exclude "+c.String()) == 0 {
			a.Exclude = append(a.Exclude, c)
		}
	}
	return a
}

// evalCaseGen draws a job or a service on any offer.
var evalCaseGen = rapid.Custom(func(t *rapid.T) evalCase {
	p := evalPricingGen(t)
	_, spot := p.(provider.Spot)
	o := evalOfferGen(t, p)
	if rapid.Bool().Draw(t, "service") {
		return evalCase{w: evalServiceGen(t), o: o, a: evalAssumptionsGen(t, true)}
	}
	return evalCase{w: evalJobGen(t, spot), o: o, a: evalAssumptionsGen(t, false)}
})

// evalMust evaluates c and fails the property on an error.
func evalMust(t *rapid.T, c evalCase) tco.Report {
	t.Helper()
	r, err := tco.Evaluate(c.w, c.o, c.a)
	if err != nil {
		t.Fatalf("Evaluate: %v", err)
	}
	return r
}

// propLineSigns is invariant 1: every line ≥ 0 except credits and residual
// value; Total is exactly the sum of the lines; Explicit + Hidden = Total;
// the cash flow sums to Total.
func propLineSigns(t *rapid.T) {
	c := evalCaseGen.Draw(t, "case")
	r := evalMust(t, c)
	for _, l := range r.Lines {
		if l.Amount.IsNegative() && !l.Category.MayBeNegative() {
			t.Fatalf("line %s %q = %s < 0", l.Category, l.Label, l.Amount)
		}
	}
	evalCheckSums(t, r)
}

func TestEvaluateLineSigns(t *testing.T) { rapid.Check(t, propLineSigns) }
func FuzzEvaluateLineSigns(f *testing.F) { f.Fuzz(rapid.MakeFuzz(propLineSigns)) }

// evalAtLeast fails the property unless got ≥ want − tol.
func evalAtLeast(t *rapid.T, what string, got, want decimal.Decimal, tol float64) {
	t.Helper()
	if d, _ := want.Sub(got).Float64(); d > tol {
		t.Fatalf("%s: %s < %s (by %g)", what, got, want, d)
	}
}

// propMonotone is invariant 2: more work, more GPUs at the same run time
// (more nodes), higher utilization of a service or a higher price never
// lowers the total.
func propMonotone(t *rapid.T) {
	c := evalCaseGen.Draw(t, "case")
	more := c
	var what string
	switch {
	case rapid.Bool().Draw(t, "scale the price"):
		s, ok := c.o.Pricing.(provider.Scaler)
		if !ok {
			t.Fatalf("built-in pricing %T is not a Scaler", c.o.Pricing)
		}
		k := rapid.Float64Range(1, 5).Draw(t, "price factor")
		more.o.Pricing = s.Scale(decimal.NewFromFloat(k))
		what = "price ×" + decimal.NewFromFloat(k).String()
	case c.w.IsService():
		u := rapid.Float64Range(0.01, 1).Draw(t, "utilization")
		c.a.Utilization = u
		more.a.Utilization = rapid.Float64Range(u, 1).Draw(t, "higher utilization")
		what = "utilization"
	case rapid.Bool().Draw(t, "more work"):
		more.w.WorkGPUHours = c.w.WorkGPUHours * rapid.Float64Range(1, 3).Draw(t, "work factor")
		what = "work"
	default:
		more.w.GPUs = c.w.GPUs + rapid.IntRange(1, 32).Draw(t, "more GPUs")
		more.w.WorkGPUHours = c.w.WorkGPUHours * float64(more.w.GPUs) / float64(c.w.GPUs)
		what = "GPUs at the same run time"
	}
	r0, r1 := evalMust(t, c), evalMust(t, more)
	evalAtLeast(t, "total with more "+what, r1.Total, r0.Total, 1e-9)
}

func TestEvaluateMonotone(t *testing.T) { rapid.Check(t, propMonotone) }
func FuzzEvaluateMonotone(f *testing.F) { f.Fuzz(rapid.MakeFuzz(propMonotone)) }

// propSpot is invariant 6 for a checkpointed job on spot with every hidden
// cost but preemption excluded: the expected cost is at least the spot rate ×
// nodes × failure-free hours, within one billing increment of it without
// interruptions; wall time grows with the interruption rate.
func propSpot(t *rapid.T) {
	spot := evalSpotGen(t)
	o := evalOffer("spot", spot)
	o.Hidden = evalHiddenGen(t)
	w := evalJobGen(t, true)
	w.Interruption.Tolerance = workload.Checkpointed
	if w.Interruption.CheckpointTime == 0 {
		w.Interruption.CheckpointTime = evalDuration(t, time.Second, 10*time.Minute, "checkpoint time")
	}
	a := tco.Assumptions{Exclude: evalExcludeAllBut(provider.Preemption)}
	r := evalMust(t, evalCase{w, o, a})

	nodes := o.NodesFor(w.GPUs)
	hours := w.WorkGPUHours / (w.Requirements.Models["H100 SXM"] * float64(w.GPUs))
	floor := spot.RatePerHour.Mul(decimal.NewFromInt(int64(nodes))).Mul(decimal.NewFromFloat(hours))
	evalAtLeast(t, "spot cost vs rate × nodes × failure-free hours", r.Total, floor, 1e-9)
	if spot.InterruptionRatePerHour == 0 {
		inc := max(spot.Increment, spot.Minimum)
		slack := spot.RatePerHour.Mul(decimal.NewFromInt(int64(nodes))).Mul(decimal.NewFromFloat(inc.Hours()))
		if d, _ := r.Total.Sub(floor).Float64(); d > slack.InexactFloat64()+1e-9 {
			t.Fatalf("without interruptions cost %s exceeds %s by %g > one increment %s", r.Total, floor, d, slack)
		}
	}
	faster := o
	s := spot
	// The added rate is 0, subnormal or at least 1e-6.
	added := 0.0
	switch rapid.IntRange(0, 2).Draw(t, "add to the rate") {
	case 1:
		added = rapid.SampledFrom([]float64{5e-324, 1e-309}).Draw(t, "subnormal rate added")
	case 2:
		added = rapid.Float64Range(1e-6, 0.05).Draw(t, "rate added")
	}
	s.InterruptionRatePerHour = spot.InterruptionRatePerHour*rapid.Float64Range(1, 10).Draw(t, "rate factor") + added
	faster.Pricing = s
	r2 := evalMust(t, evalCase{w, faster, a})
	if r2.WallTime < r.WallTime {
		t.Fatalf("wall time %v at %g interruptions/node-h < %v at %g", r2.WallTime, s.InterruptionRatePerHour,
			r.WallTime, spot.InterruptionRatePerHour)
	}
}

func TestEvaluateSpot(t *testing.T) { rapid.Check(t, propSpot) }
func FuzzEvaluateSpot(f *testing.F) { f.Fuzz(rapid.MakeFuzz(propSpot)) }

// evalScaled returns c with every price multiplied by k: the pricing, the
// money of the hidden-cost profile, the engineer cost, the source egress and
// the cost of delay.
func evalScaled(t *rapid.T, c evalCase, k decimal.Decimal) evalCase {
	s, ok := c.o.Pricing.(provider.Scaler)
	if !ok {
		t.Fatalf("built-in pricing %T is not a Scaler", c.o.Pricing)
	}
	c.o.Pricing = s.Scale(k)
	h := &c.o.Hidden
	h.EgressPerGB, h.IngressPerGB = h.EgressPerGB.Mul(k), h.IngressPerGB.Mul(k)
	h.StoragePerGBMonth, h.StaffCostPerYear = h.StoragePerGBMonth.Mul(k), h.StaffCostPerYear.Mul(k)
	c.a.EngineerCostPerHour = c.a.EngineerCostPerHour.Mul(k)
	c.a.SourceEgressPerGB = c.a.SourceEgressPerGB.Mul(k)
	c.w.CostOfDelayPerDay = c.w.CostOfDelayPerDay.Mul(k)
	return c
}

// propScale is invariant 7: scaling every price by an integer k scales every
// line, and so the total, by k.
func propScale(t *rapid.T) {
	c := evalCaseGen.Draw(t, "case")
	k := rapid.IntRange(2, 10).Draw(t, "k")
	kd := decimal.NewFromInt(int64(k))
	r0, rk := evalMust(t, c), evalMust(t, evalScaled(t, c, kd))
	tol := float64(k) * 1e-9
	// A line rounds to zero, and so is left out, when its amount is below
	// the rounding unit (1e-16): at list price it may be left out and at ×k
	// not. Lines within the tolerance of zero are not compared one by one;
	// the total still counts them.
	lines0, linesK := significant(r0.Lines, kd, tol), significant(rk.Lines, decimal.NewFromInt(1), tol)
	if len(lines0) != len(linesK) {
		t.Fatalf("%d lines at list price, %d at ×%d", len(lines0), len(linesK), k)
	}
	for i, l := range lines0 {
		lk := linesK[i]
		if lk.Category != l.Category || lk.Label != l.Label {
			t.Fatalf("line %d is %s %q at list price, %s %q at ×%d", i, l.Category, l.Label, lk.Category, lk.Label, k)
		}
		if d, _ := lk.Amount.Sub(l.Amount.Mul(kd)).Abs().Float64(); d > tol {
			t.Fatalf("line %s %q: %s at ×%d, want %d × %s (off by %g)", l.Category, l.Label, lk.Amount, k, k, l.Amount, d)
		}
	}
	if d, _ := rk.Total.Sub(r0.Total.Mul(kd)).Abs().Float64(); d > tol*float64(len(r0.Lines)) {
		t.Fatalf("total %s at ×%d, want %d × %s", rk.Total, k, k, r0.Total)
	}
}

// significant returns the lines whose amount times k is more than tol from
// zero.
func significant(lines []tco.Line, k decimal.Decimal, tol float64) []tco.Line {
	var out []tco.Line
	for _, l := range lines {
		if a, _ := l.Amount.Mul(k).Abs().Float64(); a > tol {
			out = append(out, l)
		}
	}
	return out
}

func TestEvaluateScale(t *testing.T) { rapid.Check(t, propScale) }
func FuzzEvaluateScale(f *testing.F) { f.Fuzz(rapid.MakeFuzz(propScale)) }

// propPayAsYouGo is the second half of invariant 7: with pro-rata billing and
// nothing hidden, a job of n times the work on n times the GPUs costs n times
// one job.
func propPayAsYouGo(t *rapid.T) {
	w := evalJobGen(t, false)
	w.GPUs = 8 * rapid.IntRange(1, 4).Draw(t, "nodes of one job")
	o := evalOffer("prorata", provider.ProRata(evalMoney(t, 10000, "rate per node-hour (cents)")))
	o.Hidden = evalHiddenGen(t)
	a := tco.Assumptions{Exclude: evalHidden}
	n := rapid.IntRange(2, 8).Draw(t, "jobs")
	wn := w
	wn.GPUs, wn.WorkGPUHours = n*w.GPUs, float64(n)*w.WorkGPUHours
	one, all := evalMust(t, evalCase{w, o, a}), evalMust(t, evalCase{wn, o, a})
	nd := decimal.NewFromInt(int64(n))
	if d, _ := all.Total.Sub(one.Total.Mul(nd)).Abs().Float64(); d > float64(n)*1e-9 {
		t.Fatalf("%d jobs cost %s, want %d × %s (off by %g)", n, all.Total, n, one.Total, d)
	}
}

func TestEvaluatePayAsYouGo(t *testing.T) { rapid.Check(t, propPayAsYouGo) }
func FuzzEvaluatePayAsYouGo(f *testing.F) { f.Fuzz(rapid.MakeFuzz(propPayAsYouGo)) }

// propCredit is invariant 8, first half: wrapping the pricing in a credit of
// c lowers the total by exactly min(c, the base pricing's total). The base
// pricing's total is the report's total less what the same case costs with
// every price of the pricing set to zero, less the platform fees charged on
// it.
func propCredit(t *rapid.T) {
	c := evalCaseGen.Draw(t, "case")
	if cr, ok := c.o.Pricing.(provider.Credit); ok {
		c.o.Pricing = cr.Base
	}
	r := evalMust(t, c)
	free := c
	free.o.Pricing = c.o.Pricing.(provider.Scaler).Scale(decimal.Zero)
	r0 := evalMust(t, free)
	pricing := r.Total.Sub(r0.Total).Sub(r.Line(provider.Fees).Sub(r0.Line(provider.Fees)))
	credit := evalMoney(t, 100000000, "credit (cents)")
	withCredit := c
	withCredit.o.Pricing = provider.Credit{Base: c.o.Pricing, Amount: credit}
	rc := evalMust(t, withCredit)
	want := decimal.Min(credit, decimal.Max(pricing, decimal.Zero))
	if d, _ := r.Total.Sub(rc.Total).Sub(want).Abs().Float64(); d > 1e-9 {
		t.Fatalf("credit %s lowers total %s to %s, want a drop of min(credit, pricing %s) = %s", credit, r.Total, rc.Total, pricing, want)
	}
}

func TestEvaluateCredit(t *testing.T) { rapid.Check(t, propCredit) }
func FuzzEvaluateCredit(f *testing.F) { f.Fuzz(rapid.MakeFuzz(propCredit)) }

// propExclude is invariant 8, second half: leaving out any one hidden cost
// never raises the total.
func propExclude(t *rapid.T) {
	c := evalCaseGen.Draw(t, "case")
	r := evalMust(t, c)
	for _, cat := range evalHidden {
		less := c
		less.a.Exclude = append(append([]provider.Category(nil), c.a.Exclude...), cat)
		rl := evalMust(t, less)
		evalAtLeast(t, "total with "+cat.String()+" vs without", r.Total, rl.Total, 1e-9)
		if !rl.Line(cat).IsZero() {
			t.Fatalf("excluded %s still has a line of %s", cat, rl.Line(cat))
		}
	}
}

func TestEvaluateExclude(t *testing.T) { rapid.Check(t, propExclude) }
func FuzzEvaluateExclude(f *testing.F) { f.Fuzz(rapid.MakeFuzz(propExclude)) }
