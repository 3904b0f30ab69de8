// Package vocab holds the vocabulary that the provider and workload packages
// share without importing each other: the fabrics that connect nodes and the
// levels of tenant isolation, the sentinel errors, and the bounded echo of
// values in error messages (also used by tco). Both packages alias the types,
// so an offer's fabric and a workload's required fabric are one type,
// compared directly.
//
// The JSON (text) names are part of both packages' file formats and must not
// change.
package vocab

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// ErrUnknownName reports a name or value outside an enumeration. The provider
// package exports it as provider.ErrUnknownName; the workload package wraps
// it in its own workload.ErrUnknownName.
var ErrUnknownName = errors.New("unknown name")

// NameError is a value or name that is not in an enumeration.
type NameError struct {
	// Type names the enumeration, e.g. "Fabric".
	Type string
	// Value is the bad name (a string) or value (an int).
	Value any
	// Allowed are the names of the enumeration.
	Allowed []string
}

// Error implements error: `unknown name: Fabric "x" (one of "none", …)`.
func (e *NameError) Error() string {
	var msg string
	if s, ok := e.Value.(string); ok {
		msg = fmt.Sprintf("%v: %s %q", ErrUnknownName, e.Type, s)
	} else {
		msg = fmt.Sprintf("%v: %s %v", ErrUnknownName, e.Type, e.Value)
	}
	if len(e.Allowed) > 0 {
		quoted := make([]string, len(e.Allowed))
		for i, n := range e.Allowed {
			quoted[i] = strconv.Quote(n)
		}
		msg += " (one of " + strings.Join(quoted, ", ") + ")"
	}
	return msg
}

// Unwrap returns ErrUnknownName.
func (e *NameError) Unwrap() error { return ErrUnknownName }

func name(names []string, v int, typ string) string {
	if v >= 0 && v < len(names) {
		return names[v]
	}
	return fmt.Sprintf("%s(%d)", typ, v)
}

func marshal(names []string, v int, typ string) ([]byte, error) {
	if v >= 0 && v < len(names) {
		return []byte(names[v]), nil
	}
	return nil, &NameError{Type: typ, Value: v, Allowed: names}
}

func parse(names []string, text []byte, typ string) (int, error) {
	s := string(text)
	for i, n := range names {
		if n == s {
			return i, nil
		}
	}
	return 0, &NameError{Type: typ, Value: s, Allowed: names}
}

// Fabric is the network that connects nodes: what an offer has, and the
// least that a multi-node workload requires. Fabrics are ordered: a higher
// value is at least as capable as a lower one, so a requirement is met by any
// fabric ≥ it.
type Fabric int

// Fabrics, from least to most capable. The zero value is NoFabric, which as
// a requirement means "none".
const (
	// NoFabric means no usable inter-node network: single-node only.
	NoFabric Fabric = iota
	// Ethernet is ordinary TCP/IP networking between nodes.
	Ethernet
	// RoCE is RDMA over converged Ethernet.
	RoCE
	// InfiniBand is an InfiniBand fabric with GPUDirect RDMA.
	InfiniBand
)

// FabricNames returns the text names of the fabrics, indexed by value: "none",
// "ethernet", "roce", "infiniband". The caller may modify the slice.
func FabricNames() []string { return append([]string(nil), fabricNames[:]...) }

var fabricNames = [...]string{"none", "ethernet", "roce", "infiniband"}

// String returns the fabric's text name, or "Fabric(n)" for a value out of range.
func (f Fabric) String() string { return name(fabricNames[:], int(f), "Fabric") }

// Valid reports whether f is one of the defined fabrics.
func (f Fabric) Valid() bool { return f >= 0 && int(f) < len(fabricNames) }

// MarshalText encodes f as its name; a value out of range is a *NameError.
func (f Fabric) MarshalText() ([]byte, error) { return marshal(fabricNames[:], int(f), "Fabric") }

// UnmarshalText decodes a name produced by MarshalText (case-sensitive). An
// unknown name is a *NameError wrapping ErrUnknownName and leaves f unchanged.
func (f *Fabric) UnmarshalText(b []byte) error {
	v, err := parse(fabricNames[:], b, "Fabric")
	if err == nil {
		*f = Fabric(v)
	}
	return err
}

// Isolation is how far capacity is separated from other tenants: what an
// offer gives and the least a workload needs. Levels are ordered, weakest
// first, so a requirement is met by any level ≥ it.
type Isolation int

// Isolation levels, weakest first. The zero value is Shared, the weakest
// requirement and the safest assumption about an offer that does not say.
const (
	// Shared means other tenants may run on the same physical node
	// (containers, vGPU, a VM on a shared host).
	Shared Isolation = iota
	// Dedicated means a whole node for one tenant, rented: a dedicated VM
	// host or a bare-metal server of a cloud.
	Dedicated
	// Physical means hardware under the tenant's own physical control:
	// servers it owns, in its premises or in its colocation cage.
	Physical
)

// IsolationNames returns the text names of the levels, indexed by value:
// "shared", "dedicated", "physical". The caller may modify the slice.
func IsolationNames() []string { return append([]string(nil), isolationNames[:]...) }

var isolationNames = [...]string{"shared", "dedicated", "physical"}

// String returns the level's text name, or "Isolation(n)" for a value out of range.
func (i Isolation) String() string { return name(isolationNames[:], int(i), "Isolation") }

// Valid reports whether i is one of the defined levels.
func (i Isolation) Valid() bool { return i >= 0 && int(i) < len(isolationNames) }

// MarshalText encodes i as its name; a value out of range is a *NameError.
func (i Isolation) MarshalText() ([]byte, error) {
	return marshal(isolationNames[:], int(i), "Isolation")
}

// UnmarshalText decodes a name produced by MarshalText (case-sensitive). An
// unknown name is a *NameError wrapping ErrUnknownName and leaves i unchanged.
func (i *Isolation) UnmarshalText(b []byte) error {
	v, err := parse(isolationNames[:], b, "Isolation")
	if err == nil {
		*i = Isolation(v)
	}
	return err
}
