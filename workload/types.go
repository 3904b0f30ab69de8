package workload

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/gputco/gputco/internal/vocab"
)

// Kind is what a workload does. The zero value is not a valid kind: every
// workload must say what it is.
type Kind int

// Workload kinds.
const (
	// Training is a (pre-)training run: long, large gangs, checkpointed.
	Training Kind = iota + 1
	// FineTuning adapts a trained model: hours to days, a few nodes.
	FineTuning
	// Inference serves requests; its demand follows a curve.
	Inference
	// Batch is offline throughput work (embedding, evaluation, rendering).
	Batch
	// Development is interactive use: notebooks, debugging.
	Development
)

// kindNames returns the names indexed by value (a function, so no package state is mutable).
func kindNames() []string {
	return []string{Training: "training", FineTuning: "fine-tuning", Inference: "inference", Batch: "batch", Development: "development"}
}

// String returns the lower-case name ("training", "fine-tuning", "inference",
// "batch", "development"), or "kind(n)" for an invalid value.
func (k Kind) String() string { return enumString(kindNames(), int(k), "kind") }

// Valid reports whether k is one of the defined kinds.
func (k Kind) Valid() bool { return enumValid(kindNames(), int(k)) }

// MarshalText encodes k as its name; an invalid kind is an error wrapping ErrUnknownName.
func (k Kind) MarshalText() ([]byte, error) { return enumMarshal(kindNames(), int(k), "kind") }

// UnmarshalText decodes a name produced by MarshalText; an unknown name is an
// error wrapping ErrUnknownName and leaves k unchanged.
func (k *Kind) UnmarshalText(b []byte) error {
	v, err := enumParse(kindNames(), string(b), "kind")
	if err == nil {
		*k = Kind(v)
	}
	return err
}

// Isolation is the degree of separation from other tenants that a workload
// needs: the same type as provider.Isolation (Shared < Dedicated < Physical),
// and an offer satisfies a requirement when its isolation is at least the
// required one. The zero value, Shared, is the weakest requirement. Its text
// names are "shared", "dedicated" and "physical"; parse one with
// ParseIsolation.
type Isolation = vocab.Isolation

// Isolation levels, weakest first.
const (
	// Shared: other tenants may run on the same physical node.
	Shared = vocab.Shared
	// Dedicated: a whole node for one tenant, rented (a dedicated VM host or
	// a cloud's bare-metal server).
	Dedicated = vocab.Dedicated
	// Physical: hardware under the tenant's own physical control (owned
	// servers, in its premises or colocation cage).
	Physical = vocab.Physical
)

// Fabric is a node-to-node interconnect: the same type as provider.Fabric,
// ordered NoFabric < Ethernet < RoCE < InfiniBand. The zero value, NoFabric,
// means "no requirement" when used as a minimum. Its text names are "none",
// "ethernet", "roce" and "infiniband"; parse one with ParseFabric.
type Fabric = vocab.Fabric

// Fabrics, slowest first.
const (
	// NoFabric: no usable inter-node network (single-node only).
	NoFabric = vocab.NoFabric
	// Ethernet: plain TCP/IP Ethernet.
	Ethernet = vocab.Ethernet
	// RoCE: RDMA over converged Ethernet.
	RoCE = vocab.RoCE
	// InfiniBand: InfiniBand RDMA fabric.
	InfiniBand = vocab.InfiniBand
)

// Tolerance is how a workload copes with being interrupted (spot
// preemption, node failure). The zero value, NoTolerance, is the safe
// default: the workload cannot run on interruptible capacity.
type Tolerance int

// Interruption tolerances.
const (
	// NoTolerance: an interruption loses all work; spot is not an option.
	NoTolerance Tolerance = iota
	// Checkpointed: the job writes checkpoints and resumes from the last one,
	// losing the work since and paying the restart time.
	Checkpointed
	// Stateless: any replica can be replaced; an interruption costs only the restart.
	Stateless
)

// toleranceNames returns the names indexed by value (a function, so no package state is mutable).
func toleranceNames() []string {
	return []string{NoTolerance: "none", Checkpointed: "checkpointed", Stateless: "stateless"}
}

// String returns "none", "checkpointed" or "stateless", or "tolerance(n)" if invalid.
func (t Tolerance) String() string { return enumString(toleranceNames(), int(t), "tolerance") }

// Valid reports whether t is one of the defined tolerances.
func (t Tolerance) Valid() bool { return enumValid(toleranceNames(), int(t)) }

// MarshalText encodes t as its name; an invalid tolerance is an error wrapping ErrUnknownName.
func (t Tolerance) MarshalText() ([]byte, error) {
	return enumMarshal(toleranceNames(), int(t), "tolerance")
}

// UnmarshalText decodes a name produced by MarshalText; an unknown name is an
// error wrapping ErrUnknownName and leaves t unchanged.
func (t *Tolerance) UnmarshalText(b []byte) error {
	v, err := enumParse(toleranceNames(), string(b), "tolerance")
	if err == nil {
		*t = Tolerance(v)
	}
	return err
}

// BelowFabric is the policy for an offer whose fabric (or bandwidth) is below
// the interconnect requirement of a multi-node gang. The zero value,
// Incompatible, excludes such offers.
type BelowFabric int

// Below-fabric policies.
const (
	// Incompatible: the offer cannot run the workload.
	Incompatible BelowFabric = iota
	// Slower: the offer can run it at a reduced efficiency
	// (Interconnect.Efficiency of the full speed).
	Slower
)

// belowFabricNames returns the names indexed by value (a function, so no package state is mutable).
func belowFabricNames() []string { return []string{Incompatible: "incompatible", Slower: "slower"} }

// String returns "incompatible" or "slower", or "belowFabric(n)" if invalid.
func (b BelowFabric) String() string { return enumString(belowFabricNames(), int(b), "belowFabric") }

// Valid reports whether b is one of the defined policies.
func (b BelowFabric) Valid() bool { return enumValid(belowFabricNames(), int(b)) }

// MarshalText encodes b as its name; an invalid policy is an error wrapping ErrUnknownName.
func (b BelowFabric) MarshalText() ([]byte, error) {
	return enumMarshal(belowFabricNames(), int(b), "belowFabric")
}

// UnmarshalText decodes a name produced by MarshalText; an unknown name is an
// error wrapping ErrUnknownName and leaves b unchanged.
func (b *BelowFabric) UnmarshalText(t []byte) error {
	v, err := enumParse(belowFabricNames(), string(t), "belowFabric")
	if err == nil {
		*b = BelowFabric(v)
	}
	return err
}

// ParseKind returns the Kind named s (as produced by Kind.String).
func ParseKind(s string) (Kind, error) {
	var k Kind
	err := k.UnmarshalText([]byte(s))
	return k, err
}

// ParseIsolation returns the Isolation named s (as produced by Isolation.String).
func ParseIsolation(s string) (Isolation, error) {
	var i Isolation
	err := i.UnmarshalText([]byte(s))
	return i, vocabErr(err)
}

// ParseFabric returns the Fabric named s (as produced by Fabric.String).
func ParseFabric(s string) (Fabric, error) {
	var f Fabric
	err := f.UnmarshalText([]byte(s))
	return f, vocabErr(err)
}

// vocabErr makes an error of the shared vocabulary (an unknown fabric or
// isolation name) wrap ErrUnknownName too.
func vocabErr(err error) error {
	if err != nil && errors.Is(err, vocab.ErrUnknownName) && !errors.Is(err, ErrUnknownName) {
		return fmt.Errorf("%w: %w", ErrUnknownName, err)
	}
	return err
}

// ParseTolerance returns the Tolerance named s (as produced by Tolerance.String).
func ParseTolerance(s string) (Tolerance, error) {
	var t Tolerance
	err := t.UnmarshalText([]byte(s))
	return t, err
}

func enumValid(names []string, v int) bool { return v >= 0 && v < len(names) && names[v] != "" }

func enumString(names []string, v int, what string) string {
	if enumValid(names, v) {
		return names[v]
	}
	return fmt.Sprintf("%s(%d)", what, v)
}

func enumMarshal(names []string, v int, what string) ([]byte, error) {
	if !enumValid(names, v) {
		return nil, fmt.Errorf("%w: %s %d", ErrUnknownName, what, v)
	}
	return []byte(names[v]), nil
}

func enumParse(names []string, s, what string) (int, error) {
	for i, n := range names {
		if n != "" && n == s {
			return i, nil
		}
	}
	var allowed []string
	for _, n := range names {
		if n != "" {
			allowed = append(allowed, strconv.Quote(n))
		}
	}
	return 0, fmt.Errorf("%w: %s %s (one of %s)", ErrUnknownName, what, echo(s), strings.Join(allowed, ", "))
}
