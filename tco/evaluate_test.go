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

// evaluate calls tco.Evaluate and fails the test on an error.
func evaluate(t testing.TB, w workload.Workload, o provider.Offer, a tco.Assumptions) tco.Report {
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
func evalCheckSums(t testing.TB, r tco.Report) {
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
