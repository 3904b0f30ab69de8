package provider

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/gputco/gputco/internal/vocab"
)

// enumName returns names[v], or a diagnostic form for a value out of range.
func enumName[T ~int](names []string, v T, typ string) string {
	if v >= 0 && int(v) < len(names) {
		return names[v]
	}
	return fmt.Sprintf("%s(%d)", typ, int(v))
}

// enumMarshal is MarshalText for enumerations: values out of range are errors.
func enumMarshal[T ~int](names []string, v T, typ string) ([]byte, error) {
	if v >= 0 && int(v) < len(names) {
		return []byte(names[v]), nil
	}
	return nil, &FieldError{Field: typ, Value: int(v), Err: ErrUnknownName}
}

// enumParse is UnmarshalText for enumerations.
func enumParse[T ~int](names []string, text []byte, typ string) (T, error) {
	s := string(text)
	for i, n := range names {
		if n == s {
			return T(i), nil
		}
	}
	return 0, &FieldError{Field: typ, Value: s, Err: fmt.Errorf("%w (one of %s)", ErrUnknownName, quotedNames(names))}
}

// quotedNames lists names quoted and comma-separated: `"a", "b", "c"`.
func quotedNames(names []string) string {
	var b strings.Builder
	for i, n := range names {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strconv.Quote(n))
	}
	return b.String()
}

func enumValid[T ~int](names []string, v T) bool { return v >= 0 && int(v) < len(names) }

// Kind says what sort of provider sells an offer.
type Kind int

// Provider kinds. The zero value is GeneralCloud.
const (
	// GeneralCloud is a hyperscaler selling virtual machines (AWS, GCP, Azure).
	GeneralCloud Kind = iota
	// GPUPlatform is a specialised GPU cloud or marketplace (Lambda, RunPod, Vast.ai).
	GPUPlatform
	// SelfHosted is hardware the user buys and operates.
	SelfHosted
)

var kindNames = []string{"general-cloud", "gpu-platform", "self-hosted"}

// String returns the kind's name as used in JSON.
func (k Kind) String() string { return enumName(kindNames, k, "Kind") }

// MarshalText implements encoding.TextMarshaler.
func (k Kind) MarshalText() ([]byte, error) { return enumMarshal(kindNames, k, "Kind") }

// UnmarshalText implements encoding.TextUnmarshaler.
func (k *Kind) UnmarshalText(b []byte) (err error) {
	*k, err = enumParse[Kind](kindNames, b, "Kind")
	return err
}

// Fabric is the network that connects the nodes of an offer. Fabrics are
// ordered: a higher value is at least as capable as a lower one. It is the
// same type as workload.Fabric, so an offer's fabric and a workload's
// requirement compare directly.
type Fabric = vocab.Fabric

// Fabrics, from least to most capable. The zero value is NoFabric.
const (
	// NoFabric means single-node only: no usable inter-node network.
	NoFabric = vocab.NoFabric
	// Ethernet is ordinary TCP/IP networking between nodes.
	Ethernet = vocab.Ethernet
	// RoCE is RDMA over converged Ethernet.
	RoCE = vocab.RoCE
	// InfiniBand is an InfiniBand fabric with GPUDirect RDMA.
	InfiniBand = vocab.InfiniBand
)

// Isolation is how far an offer isolates a tenant from others. Levels are
// ordered: Physical is stronger than Dedicated, which is stronger than Shared.
// It is the same type as workload.Isolation.
type Isolation = vocab.Isolation

// Isolation levels, weakest first. The zero value is Shared.
const (
	// Shared means other tenants may run on the same physical node
	// (containers, vGPU, a VM on a shared host).
	Shared = vocab.Shared
	// Dedicated means a whole node for one tenant, rented: a dedicated VM
	// host or a cloud's bare-metal server.
	Dedicated = vocab.Dedicated
	// Physical means hardware under the tenant's own physical control:
	// servers it owns, in its premises or its colocation cage.
	Physical = vocab.Physical
)

// GPUClass separates datacenter accelerators from consumer cards.
type GPUClass int

// GPU classes. The zero value is Datacenter.
const (
	// Datacenter is a server GPU (H100, A100, L40S ...).
	Datacenter GPUClass = iota
	// Consumer is a desktop card (RTX 4090 ...).
	Consumer
)

var gpuClassNames = []string{"datacenter", "consumer"}

// String returns the class's name as used in JSON.
func (c GPUClass) String() string { return enumName(gpuClassNames, c, "GPUClass") }

// MarshalText implements encoding.TextMarshaler.
func (c GPUClass) MarshalText() ([]byte, error) {
	return enumMarshal(gpuClassNames, c, "GPUClass")
}

// UnmarshalText implements encoding.TextUnmarshaler.
func (c *GPUClass) UnmarshalText(b []byte) (err error) {
	*c, err = enumParse[GPUClass](gpuClassNames, b, "GPUClass")
	return err
}

// Category classifies a charge. Explicit categories are what a price list
// shows; hidden categories are what it leaves out.
type Category int

// Charge categories. Credit and Residual are the only ones whose amounts may be
// negative; they count as explicit.
const (
	// Compute is metered or spot GPU time (explicit).
	Compute Category = iota
	// Commitment is a reserved term or monthly rental (explicit).
	Commitment
	// Capital is the purchase of owned hardware (explicit).
	Capital
	// Power is electricity for owned hardware (explicit).
	Power
	// Facility is colocation space, cooling and hardware maintenance (explicit).
	Facility
	// Setup is engineer time and GPU time spent making an environment work (hidden).
	Setup
	// DataTransfer is egress, ingress and the time to move data in (hidden).
	DataTransfer
	// Storage is datasets and checkpoints kept per GB-month (hidden).
	Storage
	// Recovery is the cost of node failures: restarts and lost work (hidden).
	Recovery
	// Preemption is the cost of spot interruptions: checkpoints, restarts, lost work (hidden).
	Preemption
	// Staff is operations staff (hidden).
	Staff
	// Fees are platform fees on top of the compute price (hidden).
	Fees
	// Exit is lock-in: moving the data out at the end (hidden).
	Exit
	// Delay is the cost of waiting for stock or for procurement (hidden).
	Delay
	// Inefficiency is compute lost to an interconnect below the workload's requirement (hidden).
	Inefficiency
	// CreditCategory is a one-time credit; its amount is zero or negative (explicit).
	CreditCategory
	// Residual is the value of owned hardware recovered at the horizon's end; zero or negative (explicit).
	Residual
)

var categoryNames = []string{
	"compute", "commitment", "capital", "power", "facility",
	"setup", "data-transfer", "storage", "recovery", "preemption", "staff", "fees", "exit", "delay", "inefficiency",
	"credit", "residual",
}

// String returns the category's name as used in JSON.
func (c Category) String() string { return enumName(categoryNames, c, "Category") }

// MarshalText implements encoding.TextMarshaler.
func (c Category) MarshalText() ([]byte, error) {
	return enumMarshal(categoryNames, c, "Category")
}

// UnmarshalText implements encoding.TextUnmarshaler.
func (c *Category) UnmarshalText(b []byte) (err error) {
	*c, err = enumParse[Category](categoryNames, b, "Category")
	return err
}

// Hidden reports whether the category is a hidden cost, one that list prices
// leave out.
func (c Category) Hidden() bool { return c >= Setup && c <= Inefficiency }

// MayBeNegative reports whether charges of this category may be below zero
// (credits and residual value).
func (c Category) MayBeNegative() bool { return c == CreditCategory || c == Residual }

// Timing says when a charge is paid within the horizon.
type Timing int

// Timings. The zero value is Upfront.
const (
	// Upfront is paid at the start of the horizon.
	Upfront Timing = iota
	// Spread is paid evenly over the horizon.
	Spread
	// AtEnd is paid (or, if negative, received) at the end of the horizon.
	AtEnd
)

var timingNames = []string{"upfront", "spread", "at-end"}

// String returns the timing's name as used in JSON.
func (t Timing) String() string { return enumName(timingNames, t, "Timing") }

// MarshalText implements encoding.TextMarshaler.
func (t Timing) MarshalText() ([]byte, error) { return enumMarshal(timingNames, t, "Timing") }

// UnmarshalText implements encoding.TextUnmarshaler.
func (t *Timing) UnmarshalText(b []byte) (err error) {
	*t, err = enumParse[Timing](timingNames, b, "Timing")
	return err
}

// Depreciation is a depreciation method for owned hardware.
type Depreciation int

// Depreciation methods. The zero value is StraightLine.
const (
	// StraightLine depreciates (price − salvage) evenly over the useful life.
	StraightLine Depreciation = iota
	// DoubleDeclining depreciates 2/life of the book value each year, switching
	// to straight line over the remaining years when that is larger, so that the
	// book value reaches salvage exactly at the end of the life.
	DoubleDeclining
	// SumOfYearsDigits depreciates (price − salvage)·(life − y)/(life·(life+1)/2)
	// in year y = 0, 1, ..., life−1.
	SumOfYearsDigits
)

var depreciationNames = []string{"straight-line", "double-declining", "sum-of-years-digits"}

// String returns the method's name as used in JSON.
func (d Depreciation) String() string { return enumName(depreciationNames, d, "Depreciation") }

// MarshalText implements encoding.TextMarshaler.
func (d Depreciation) MarshalText() ([]byte, error) {
	return enumMarshal(depreciationNames, d, "Depreciation")
}

// UnmarshalText implements encoding.TextUnmarshaler.
func (d *Depreciation) UnmarshalText(b []byte) (err error) {
	*d, err = enumParse[Depreciation](depreciationNames, b, "Depreciation")
	return err
}
