package tco_test

import (
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/gputco/gputco/provider"
	"github.com/gputco/gputco/tco"
	"github.com/gputco/gputco/workload"
	"github.com/gputco/gputco/workload/workloadtest"
	"github.com/shopspring/decimal"
)

// compatJob is a two-node gang (16 GPUs) on H100 SXM with 80 GiB, an
// InfiniBand requirement of 400 Gbps (incompatible below), dedicated
// isolation, US only, checkpointed.
func compatJob() workload.Workload {
	return workload.Workload{
		Name: "compat-job", Kind: workload.Training, GPUs: 16, WorkGPUHours: 160,
		Requirements: workload.Requirements{
			MinMemoryGiB:  80,
			Models:        map[string]float64{"H100 SXM": 1},
			Interconnect:  workload.Interconnect{Fabric: workload.InfiniBand, Gbps: 400},
			MinIsolation:  workload.Dedicated,
			Jurisdictions: []string{"US"},
		},
		Interruption: workload.Interruption{Tolerance: workload.Checkpointed, CheckpointTime: 2 * time.Minute, RestartTime: 5 * time.Minute},
	}
}

// compatOffer is an 8×H100 node on InfiniBand at 3,200 Gbps, dedicated, in
// the US, metered, always in stock, without a node limit.
func compatOffer() provider.Offer {
	o := evalOffer("compat-offer", provider.PerSecond(decimal.NewFromInt(50), 0))
	o.Isolation = provider.Dedicated
	o.Jurisdiction = "US"
	return o
}

// compatChecks returns the Check of every *CompatibilityError joined in err,
// in order, and fails if some joined error is not one.
func compatChecks(t *testing.T, err error, w workload.Workload, o provider.Offer) []tco.Check {
	t.Helper()
	if err == nil {
		return nil
	}
	errs := []error{err}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		errs = j.Unwrap()
	}
	var checks []tco.Check
	for _, e := range errs {
		var ce *tco.CompatibilityError
		if !errors.As(e, &ce) {
			t.Fatalf("joined error %v is not a *tco.CompatibilityError", e)
		}
		if ce.Workload != w.Name || ce.Offer != o.ID || ce.Reason == "" {
			t.Errorf("CompatibilityError %+v: want workload %q, offer %q and a reason", ce, w.Name, o.ID)
		}
		checks = append(checks, ce.Check)
	}
	return checks
}

func TestCompatible(t *testing.T) {
	req, fit, offered := tco.CheckRequirements, tco.CheckFit, tco.CheckOffered
	tests := []struct {
		name   string
		w      func(*workload.Workload)
		o      func(*provider.Offer)
		want   []tco.Check
		reason string
	}{
		{"all match", nil, nil, nil, "the base pair is compatible"},
		{"wrong GPU model", nil, func(o *provider.Offer) {
			o.GPU = provider.GPU{Model: "A100 80GB", MemoryGiB: 80, BF16TFLOPS: 312, TDPWatts: 400}
		}, []tco.Check{req}, "A100 is not in the workload's model list"},
		{"too little memory", func(w *workload.Workload) { w.Requirements.MinMemoryGiB = 141 }, nil,
			[]tco.Check{req}, "80 GiB < 141 GiB"},
		{"fabric below requirement", nil, func(o *provider.Offer) {
			o.Interconnect = provider.Interconnect{Fabric: provider.Ethernet, GbpsPerNode: 3200}
		}, []tco.Check{req}, "a two-node gang needs InfiniBand; incompatible below by default"},
		{"bandwidth below requirement", nil, func(o *provider.Offer) { o.Interconnect.GbpsPerNode = 200 },
			[]tco.Check{req}, "InfiniBand at 200 Gbps < 400 Gbps"},
		{"fabric below, workload accepts slower", func(w *workload.Workload) {
			w.Requirements.Interconnect.BelowFabric = workload.Slower
			w.Requirements.Interconnect.Efficiency = 0.8
		}, func(o *provider.Offer) {
			o.Interconnect = provider.Interconnect{Fabric: provider.Ethernet, GbpsPerNode: 100}
		}, nil, "BelowFabric Slower runs at reduced efficiency instead of failing"},
		{"single node ignores fabric", func(w *workload.Workload) { w.GPUs = 8 }, func(o *provider.Offer) {
			o.Interconnect = provider.Interconnect{}
		}, nil, "the interconnect requirement applies only to gangs spanning nodes"},
		{"isolation below minimum", nil, func(o *provider.Offer) { o.Isolation = provider.Shared },
			[]tco.Check{req}, "shared < dedicated"},
		{"jurisdiction not allowed", nil, func(o *provider.Offer) { o.Jurisdiction = "EU" },
			[]tco.Check{req}, "only US is allowed"},
		{"spot for non-interruptible work", func(w *workload.Workload) { w.Interruption = workload.Interruption{} },
			func(o *provider.Offer) {
				o.Pricing = provider.Spot{RatePerHour: decimal.NewFromInt(20), InterruptionRatePerHour: 0.01}
			},
			[]tco.Check{req}, "work that tolerates no interruption cannot use spot"},
		{"spot under a credit for non-interruptible work", func(w *workload.Workload) { w.Interruption = workload.Interruption{} },
			func(o *provider.Offer) {
				o.Pricing = provider.Credit{Base: provider.Spot{RatePerHour: decimal.NewFromInt(20)}, Amount: decimal.NewFromInt(100)}
			}, []tco.Check{req}, "a credit does not make spot uninterruptible"},
		{"stateless work on spot", func(w *workload.Workload) {
			w.Interruption = workload.Interruption{Tolerance: workload.Stateless}
		}, func(o *provider.Offer) { o.Pricing = provider.Spot{RatePerHour: decimal.NewFromInt(20)} },
			nil, "stateless work tolerates preemption"},
		{"too many nodes", nil, func(o *provider.Offer) { o.Availability.MaxNodes = 1 },
			[]tco.Check{fit}, "two nodes needed, one available"},
		{"node limit exactly met", nil, func(o *provider.Offer) { o.Availability.MaxNodes = 2 },
			nil, "two nodes needed, two available"},
		{"fill probability zero", nil, func(o *provider.Offer) { o.Availability.FillProbability = 0 },
			[]tco.Check{offered}, "quoted but never in stock"},
		{"several failures at once", func(w *workload.Workload) { w.Requirements.MinMemoryGiB = 141 },
			func(o *provider.Offer) {
				o.Jurisdiction = "EU"
				o.Isolation = provider.Shared
				o.Availability = provider.Availability{MaxNodes: 1}
			}, []tco.Check{req, req, req, fit, offered}, "every failed answer is reported, in question order"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w, o := compatJob(), compatOffer()
			if tt.w != nil {
				tt.w(&w)
			}
			if tt.o != nil {
				tt.o(&o)
			}
			err := tco.Compatible(w, o)
			got := compatChecks(t, err, w, o)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Fatalf("Compatible checks mismatch (-want +got) (%s):\n%s\nerror: %v", tt.reason, diff, err)
			}
			for _, c := range tt.want {
				sentinel := map[tco.Check]error{req: tco.ErrIncompatible, fit: tco.ErrDoesNotFit, offered: tco.ErrNotOffered}[c]
				if !errors.Is(err, sentinel) {
					t.Errorf("errors.Is(%v, %v) = false (%s)", err, sentinel, tt.reason)
				}
			}
			if len(tt.want) > 0 {
				var ce *tco.CompatibilityError
				if !errors.As(err, &ce) || ce.Check != tt.want[0] {
					t.Errorf("errors.As gives %+v, want Check %v (%s)", ce, tt.want[0], tt.reason)
				}
				// Evaluate refuses the same pair with the same sentinels.
				if _, eerr := tco.Evaluate(w, o, tco.Assumptions{}); !errors.Is(eerr, tco.ErrIncompatible) &&
					!errors.Is(eerr, tco.ErrDoesNotFit) && !errors.Is(eerr, tco.ErrNotOffered) {
					t.Errorf("Evaluate error %v does not wrap a compatibility sentinel (%s)", eerr, tt.reason)
				}
			}
		})
	}
}

// TestCompatibleMedical checks the fixture whose data must stay in Germany on
// physically isolated hardware, with a RoCE requirement it accepts at 70 %
// efficiency below.
func TestCompatibleMedical(t *testing.T) {
	de := func() provider.Offer {
		o := evalOffer("de-owned", provider.PerSecond(decimal.NewFromInt(40), 0))
		o.Jurisdiction, o.Isolation = "DE", provider.Physical
		o.GPU = provider.GPU{Model: "L40S", MemoryGiB: 48, BF16TFLOPS: 362, TDPWatts: 350}
		o.Interconnect = provider.Interconnect{Fabric: provider.RoCE, GbpsPerNode: 400}
		return o
	}
	tests := []struct {
		name   string
		o      func(*provider.Offer)
		want   []tco.Check
		reason string
	}{
		{"German physical RoCE", nil, nil, "every requirement met"},
		{"German physical Ethernet", func(o *provider.Offer) {
			o.Interconnect = provider.Interconnect{Fabric: provider.Ethernet, GbpsPerNode: 100}
		},
			nil, "Medical accepts a slower fabric"},
		{"EU instead of DE", func(o *provider.Offer) { o.Jurisdiction = "EU" }, []tco.Check{tco.CheckRequirements}, "only DE is allowed"},
		{"dedicated instead of physical", func(o *provider.Offer) { o.Isolation = provider.Dedicated },
			[]tco.Check{tco.CheckRequirements}, "physical isolation required"},
		{"US dedicated cloud", func(o *provider.Offer) { o.Jurisdiction, o.Isolation = "US", provider.Dedicated },
			[]tco.Check{tco.CheckRequirements, tco.CheckRequirements}, "both isolation and jurisdiction fail"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w, o := workloadtest.Medical(), de()
			if tt.o != nil {
				tt.o(&o)
			}
			err := tco.Compatible(w, o)
			if diff := cmp.Diff(tt.want, compatChecks(t, err, w, o)); diff != "" {
				t.Errorf("checks mismatch (-want +got) (%s):\n%s", tt.reason, diff)
			}
			if tt.want != nil && !errors.Is(err, tco.ErrIncompatible) {
				t.Errorf("error %v does not wrap ErrIncompatible (%s)", err, tt.reason)
			}
		})
	}
}

func TestCheckString(t *testing.T) {
	tests := []struct {
		name   string
		c      tco.Check
		want   string
		reason string
	}{
		{"requirements", tco.CheckRequirements, "requirements", "documented name"},
		{"fit", tco.CheckFit, "fit", "documented name"},
		{"offered", tco.CheckOffered, "offered", "documented name"},
		{"unknown", tco.Check(9), "check(9)", "an unknown value still prints"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.c.String(); got != tt.want {
				t.Errorf("String() = %q, want %q (%s)", got, tt.want, tt.reason)
			}
		})
	}
}

// TestKnownGPUsPriceable: one GPU table serves provider and workload, so
// every GPU of the default catalog and every accelerator the importers
// know has a default speed factor; a workload without a model list of its
// own can run on all of them. Before the table was shared, the default
// catalog's A100 40GB offers and 11 of the 17 known accelerator names were
// refused for every default workload.
func TestKnownGPUsPriceable(t *testing.T) {
	cat, err := provider.Default()
	if err != nil {
		t.Fatal(err)
	}
	if u := cat.UnknownGPUs(); len(u) != 0 {
		t.Errorf("default catalog has GPU models the table does not know: %v", u)
	}
	var r workload.Requirements
	for _, o := range cat.Offers {
		if _, ok := r.SpeedFactor(o.GPU.Model); !ok {
			t.Errorf("offer %s: GPU %q has no default speed factor", o.ID, o.GPU.Model)
		}
	}
	for name, g := range provider.KnownAccelerators() {
		if _, ok := r.SpeedFactor(g.Model); !ok {
			t.Errorf("accelerator %s (%s) has no default speed factor", name, g.Model)
		}
		if workload.DefaultSpeedBasis(g.Model) == "" {
			t.Errorf("accelerator %s (%s): default speed factor without a basis", name, g.Model)
		}
	}
	if len(workload.DefaultSpeedFactors()) != len(provider.KnownGPUs()) {
		t.Errorf("%d default speed factors for %d known GPUs", len(workload.DefaultSpeedFactors()), len(provider.KnownGPUs()))
	}
}

// TestVocabularyEveryValue walks every fabric and isolation level on both
// sides: the provider's and the workload's names are one type with one set of
// names, and an offer meets a requirement exactly when its value is at least
// the required one.
func TestVocabularyEveryValue(t *testing.T) {
	fabrics := []workload.Fabric{workload.NoFabric, workload.Ethernet, workload.RoCE, workload.InfiniBand}
	for _, have := range fabrics {
		var p provider.Fabric = have // one type: no conversion
		pt, perr := p.MarshalText()
		wt, werr := have.MarshalText()
		parsed, err := workload.ParseFabric(string(pt))
		if perr != nil || werr != nil || string(pt) != string(wt) || err != nil || parsed != have {
			t.Errorf("fabric %d: provider %q, %v; workload %q, %v; parsed back %v, %v", int(have), pt, perr, wt, werr, parsed, err)
		}
		for _, need := range fabrics {
			w := compatJob()
			w.Requirements.Interconnect = workload.Interconnect{Fabric: need}
			o := compatOffer()
			o.Interconnect = provider.Interconnect{Fabric: have, GbpsPerNode: 3200}
			// The 16-GPU gang spans two nodes: it needs some fabric.
			if got, want := tco.Compatible(w, o) == nil, have >= need && have != provider.NoFabric; got != want {
				t.Errorf("offer fabric %s, required %s: compatible %v, want %v", have, need, got, want)
			}
		}
	}
	levels := []workload.Isolation{workload.Shared, workload.Dedicated, workload.Physical}
	for _, have := range levels {
		var p provider.Isolation = have
		pt, _ := p.MarshalText()
		parsed, err := workload.ParseIsolation(string(pt))
		if err != nil || parsed != have || p.String() != have.String() {
			t.Errorf("isolation %d: provider %q, parsed by workload as %v, %v", int(have), pt, parsed, err)
		}
		for _, need := range levels {
			w := compatJob()
			w.Requirements.MinIsolation = need
			o := compatOffer()
			o.Isolation = have
			if got, want := tco.Compatible(w, o) == nil, have >= need; got != want {
				t.Errorf("offer isolation %s, required %s: compatible %v, want %v", have, need, got, want)
			}
		}
	}
	if _, err := workload.ParseFabric("bare-metal"); !errors.Is(err, workload.ErrUnknownName) || !errors.Is(err, provider.ErrUnknownName) {
		t.Errorf("an unknown name wraps both packages' ErrUnknownName: %v", err)
	}
}

// TestGangNeedsANetwork: a finite job's gang that spans nodes needs a fabric
// between them unless its GPUs are independent; a gang can ask for one node
// or for NVLink. Before, the zero requirement let an 8-GPU training gang run
// as eight 1-GPU pods with no fabric at full efficiency, the cheapest rows
// of a ranking. A service's peak GPUs are replicas and need none of this.
func TestGangNeedsANetwork(t *testing.T) {
	pods := compatOffer()
	pods.GPUsPerNode = 1
	pods.Interconnect = provider.Interconnect{Fabric: provider.NoFabric}
	node := compatOffer() // 8 GPUs per node, InfiniBand, NVLink
	tests := []struct {
		name   string
		offer  provider.Offer
		gpus   int
		ic     workload.Interconnect
		ok     bool
		reason string
	}{
		{"pods, no fabric", pods, 8, workload.Interconnect{}, false, "eight 1-GPU pods cannot train one model"},
		{"pods, independent", pods, 8, workload.Interconnect{Independent: true}, true, "independent shards need no fabric"},
		{"one pod", pods, 1, workload.Interconnect{}, true, "one GPU spans no nodes"},
		{"single node fits", node, 8, workload.Interconnect{SingleNode: true}, true, "8 GPUs in one 8-GPU node"},
		{"single node too big", node, 16, workload.Interconnect{SingleNode: true}, false, "16 GPUs need two nodes"},
		{"NVLink there", node, 8, workload.Interconnect{NVLink: true}, true, "the node has NVLink"},
		{"NVLink missing", pods, 1, workload.Interconnect{NVLink: true}, true, "one GPU needs no NVLink"},
	}
	noNVLink := node
	noNVLink.Interconnect.NVLink = false
	tests = append(tests, struct {
		name   string
		offer  provider.Offer
		gpus   int
		ic     workload.Interconnect
		ok     bool
		reason string
	}{"NVLink absent", noNVLink, 8, workload.Interconnect{NVLink: true}, false, "the gang asked for NVLink"})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := compatJob()
			w.GPUs = tt.gpus
			w.Requirements.Interconnect = tt.ic
			err := tco.Compatible(w, tt.offer)
			if (err == nil) != tt.ok || tco.IsCompatible(w, tt.offer) != tt.ok {
				t.Errorf("Compatible = %v, IsCompatible = %v; want ok %v (%s)", err, tco.IsCompatible(w, tt.offer), tt.ok, tt.reason)
			}
			if err != nil && !errors.Is(err, tco.ErrIncompatible) {
				t.Errorf("error %v does not wrap ErrIncompatible", err)
			}
		})
	}
	svc := compatJob()
	svc.WorkGPUHours, svc.Demand, svc.Horizon = 0, workload.Constant{Value: 1}, provider.Year
	svc.Requirements.Interconnect = workload.Interconnect{}
	if err := tco.Compatible(svc, pods); err != nil {
		t.Errorf("a service's replicas on pods without a fabric: %v, want compatible", err)
	}
}
