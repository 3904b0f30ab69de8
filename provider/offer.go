package provider

import (
	"math"
	"time"

	"github.com/shopspring/decimal"
)

// GPU is an accelerator model: what a machine has, independent of where it is
// bought.
type GPU struct {
	// Model is the model name, e.g. "H100 SXM"; the workload package matches
	// acceptable models by this name.
	Model string `json:"model"`
	// MemoryGiB is the GPU memory in GiB.
	MemoryGiB float64 `json:"memoryGiB"`
	// BF16TFLOPS is the dense BF16 throughput in TFLOPS.
	BF16TFLOPS float64 `json:"bf16TFLOPS"`
	// TDPWatts is the board power in watts.
	TDPWatts float64 `json:"tdpWatts"`
	// Class separates datacenter GPUs from consumer cards.
	Class GPUClass `json:"class"`
}

// Interconnect is the network between the nodes of an offer.
type Interconnect struct {
	// Fabric is the inter-node network type.
	Fabric Fabric `json:"fabric"`
	// GbpsPerNode is the inter-node bandwidth of one node, in Gbit/s.
	GbpsPerNode float64 `json:"gbpsPerNode"`
	// NVLink reports whether the GPUs within a node are linked by NVLink/NVSwitch.
	NVLink bool `json:"nvlink"`
}

// Availability is whether capacity quoted can actually be had.
type Availability struct {
	// FillProbability is the probability, in [0, 1], that a request for
	// capacity is filled: stock that is quoted may not be in stock. Zero means
	// not offered at all.
	FillProbability float64
	// MaxNodes is the most nodes one customer can get; zero means no stated limit.
	MaxNodes int
	// LeadTime is the time from request to capacity in service (provisioning,
	// or procurement for hardware).
	LeadTime time.Duration
}

// HiddenCosts is the profile of costs that an offer's price leaves out. The tco
// package prices each as its own line. Zero values mean "none".
type HiddenCosts struct {
	// SetupHours is engineer time to make the environment work on this offer;
	// it overrides the workload's own estimate when non-zero.
	SetupHours float64
	// EgressPerGB is the price of moving one GB out of this offer.
	EgressPerGB decimal.Decimal
	// IngressPerGB is the price of moving one GB into this offer.
	IngressPerGB decimal.Decimal
	// StoragePerGBMonth is the price of keeping one GB for a month.
	StoragePerGBMonth decimal.Decimal
	// TransferGbps is the bandwidth for moving data in and out, in Gbit/s;
	// zero means unknown (the tco package then assumes its default).
	TransferGbps float64
	// NodeMTBF is the mean time between failures of one node; zero means
	// failures are not modelled.
	NodeMTBF time.Duration
	// RecoveryTime is the time to replace or restart a failed node.
	RecoveryTime time.Duration
	// PlatformFeeFraction is a fee charged on top of compute, as a fraction of
	// it (0.05 is 5 %).
	PlatformFeeFraction float64
	// StaffFTE is the operations staff the offer needs while in use, in
	// full-time equivalents, for any kind of offer. (Owned pricing can carry
	// staff per node as well; count it in one place only.)
	StaffFTE float64
	// StaffCostPerYear is the loaded cost of one full-time engineer per year.
	StaffCostPerYear decimal.Decimal
}

// Source says where an offer's figures come from.
type Source struct {
	// Name is a short citation, e.g. "SkyPilot-AWS catalog".
	Name string
	// URL is where the figures were read, if public.
	URL string
	// AsOf is the date of the figures.
	AsOf time.Time
	// Estimate reports that at least one figure of the offer is an estimate
	// rather than read in a source; Note says which.
	Estimate bool
	// Note is free text: assumptions, caveats.
	Note string
}

// MaxGPUsPerNode bounds Offer.GPUsPerNode: a rack-scale "node" such as an
// NVL72 has 72 GPUs; 65,536 leaves room for any unit sold as one.
const MaxGPUsPerNode = 1 << 16

// Offer is a way to buy GPU capacity: who sells it, where, in what nodes, how
// it is connected and isolated, how it is billed, how available it is and what
// it costs beyond its price.
type Offer struct {
	// ID identifies the offer; unique within its catalog.
	ID string
	// Provider is the seller, e.g. "AWS", "Lambda", "self".
	Provider string
	// Kind is the provider's kind.
	Kind Kind
	// Region is the provider's region, e.g. "us-east-1".
	Region string
	// Jurisdiction is where the data is subject to law, e.g. "US", "EU", "DE".
	Jurisdiction string
	// Currency is the currency of the offer's amounts (ISO 4217); empty means
	// the catalog's.
	Currency string
	// GPU is the accelerator of each node.
	GPU GPU
	// GPUsPerNode is the number of GPUs in one node; 1 to MaxGPUsPerNode.
	GPUsPerNode int
	// Interconnect is the network between nodes.
	Interconnect Interconnect
	// Isolation is the tenant isolation level.
	Isolation Isolation
	// Pricing bills the capacity; required.
	Pricing Pricing
	// Availability is how much can be had, how surely and how soon.
	Availability Availability
	// Hidden is the offer's hidden-cost profile.
	Hidden HiddenCosts
	// Source is the origin and date of the figures.
	Source Source
}

// Validate reports every problem of o at once, each a *FieldError naming the
// offer and the field, wrapping a sentinel error.
func (o Offer) Validate() error {
	p := problems{offer: o.ID}
	o.validate(&p)
	return p.err()
}

func (o Offer) validate(p *problems) {
	if o.ID == "" {
		p.add("id", "", ErrMissing)
	}
	if !enumValid(kindNames, o.Kind) {
		p.add("kind", int(o.Kind), ErrUnknownName)
	}
	if o.GPU.Model == "" {
		p.add("gpu.model", "", ErrMissing)
	}
	p.quantity("gpu.memoryGiB", o.GPU.MemoryGiB, 0, math.MaxFloat64)
	p.quantity("gpu.bf16TFLOPS", o.GPU.BF16TFLOPS, 0, math.MaxFloat64)
	p.quantity("gpu.tdpWatts", o.GPU.TDPWatts, 0, math.MaxFloat64)
	if !enumValid(gpuClassNames, o.GPU.Class) {
		p.add("gpu.class", int(o.GPU.Class), ErrUnknownName)
	}
	switch {
	case o.GPUsPerNode == 0:
		p.add("gpusPerNode", 0, ErrZeroGPUs)
	case o.GPUsPerNode < 0:
		p.add("gpusPerNode", o.GPUsPerNode, ErrNegative)
	case o.GPUsPerNode > MaxGPUsPerNode:
		p.add("gpusPerNode", o.GPUsPerNode, ErrOutOfRange)
	}
	if !o.Interconnect.Fabric.Valid() {
		p.add("interconnect.fabric", int(o.Interconnect.Fabric), ErrUnknownName)
	}
	p.quantity("interconnect.gbpsPerNode", o.Interconnect.GbpsPerNode, 0, math.MaxFloat64)
	if !o.Isolation.Valid() {
		p.add("isolation", int(o.Isolation), ErrUnknownName)
	}
	if o.Pricing == nil {
		p.add("pricing", nil, ErrMissing)
	} else {
		p.nest("pricing", o.Pricing.Validate())
	}
	a := o.Availability
	p.quantity("availability.fillProbability", a.FillProbability, 0, 1)
	if a.MaxNodes < 0 {
		p.add("availability.maxNodes", a.MaxNodes, ErrNegative)
	}
	p.duration("availability.leadTime", a.LeadTime)
	h := o.Hidden
	p.quantity("hidden.setupHours", h.SetupHours, 0, math.MaxFloat64)
	p.money("hidden.egressPerGB", h.EgressPerGB)
	p.money("hidden.ingressPerGB", h.IngressPerGB)
	p.money("hidden.storagePerGBMonth", h.StoragePerGBMonth)
	p.quantity("hidden.transferGbps", h.TransferGbps, 0, math.MaxFloat64)
	p.duration("hidden.nodeMTBF", h.NodeMTBF)
	p.duration("hidden.recoveryTime", h.RecoveryTime)
	p.quantity("hidden.platformFeeFraction", h.PlatformFeeFraction, 0, 1)
	p.quantity("hidden.staffFTE", h.StaffFTE, 0, math.MaxFloat64)
	p.money("hidden.staffCostPerYear", h.StaffCostPerYear)
}

// GPUs returns the number of GPUs in n nodes of o.
func (o Offer) GPUs(nodes int) int { return nodes * o.GPUsPerNode }

// NodesFor returns the number of nodes of o needed to hold gpus GPUs:
// ⌈gpus/GPUsPerNode⌉, or zero when gpus ≤ 0 or GPUsPerNode ≤ 0.
func (o Offer) NodesFor(gpus int) int {
	if gpus <= 0 || o.GPUsPerNode <= 0 {
		return 0
	}
	return (gpus-1)/o.GPUsPerNode + 1
}

// LeadTime returns the longest of the offer's provisioning lead time and the
// lead time of its pricing, when that (or the pricing a Credit wraps)
// implements LeadTimer: the procurement lead time of owned hardware.
func (o Offer) LeadTime() time.Duration {
	lt := o.Availability.LeadTime
	if l, ok := As[LeadTimer](o.Pricing); ok {
		lt = max(lt, l.LeadTime())
	}
	return lt
}

// RatePerGPUHour returns the effective price of one GPU-hour of o when one
// node is held and fully busy for the whole horizon: the total of the
// pricing's charges for Usage{Horizon, Nodes: 1, one run of Horizon on one
// node, BusyFraction: 1}, divided by the horizon's GPU-hours. For metered and
// spot offers it is the list rate per GPU; for reserved terms it includes the
// whole terms the horizon needs; for owned hardware it is the cash cost net of
// the residual value.
func (o Offer) RatePerGPUHour(horizon time.Duration) (decimal.Decimal, error) {
	if err := o.Validate(); err != nil {
		return decimal.Zero, err
	}
	if horizon <= 0 {
		return decimal.Zero, &FieldError{Offer: o.ID, Field: "horizon", Value: horizon, Err: ErrMissing}
	}
	cs, err := o.Pricing.Charges(Usage{
		Horizon:      horizon,
		Nodes:        1,
		Runs:         []Run{{Length: horizon, Count: 1, Nodes: 1}},
		BusyFraction: 1,
	})
	if err != nil {
		return decimal.Zero, err
	}
	if err := CheckCharges(cs); err != nil {
		return decimal.Zero, err
	}
	gpuHours := hours(horizon).Mul(decimal.NewFromInt(int64(o.GPUsPerNode)))
	return Total(cs).DivRound(gpuHours, Precision), nil
}
