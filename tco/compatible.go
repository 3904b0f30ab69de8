package tco

import (
	"errors"
	"fmt"

	"github.com/gputco/gputco/provider"
	"github.com/gputco/gputco/workload"
)

// Compatible answers three separate questions about running w on o and
// returns nil when all three are yes, otherwise every failed answer joined,
// each a *CompatibilityError whose Check says which question failed:
//   - requirements (ErrIncompatible): an acceptable GPU model, enough GPU
//     memory, for a gang that spans nodes an interconnect at least as good as
//     required (unless the workload accepts a slower one) and, for a finite
//     job's gang, a fabric at all unless its GPUs are Independent, one node
//     when it asks for a SingleNode, NVLink when it asks for it; isolation at least
//     the minimum, an allowed jurisdiction, and no spot for work that
//     tolerates no interruption;
//   - fit (ErrDoesNotFit): the nodes the gang — or a service's peak — needs
//     are within the offer's maximum nodes;
//   - offered (ErrNotOffered): the fill probability is above zero.
//
// Compatible does not validate w or o; Evaluate does. IsCompatible answers
// the same questions without explaining, and without allocating.
func Compatible(w workload.Workload, o provider.Offer) error {
	if IsCompatible(w, o) {
		return nil
	}
	var errs []error
	fail := func(c Check, format string, args ...any) {
		errs = append(errs, &CompatibilityError{Workload: w.Name, Offer: o.ID, Check: c, Reason: fmt.Sprintf(format, args...)})
	}
	r := w.Requirements
	if _, ok := r.SpeedFactor(o.GPU.Model); !ok {
		fail(CheckRequirements, "GPU model %s is not acceptable", quoted(o.GPU.Model))
	}
	if o.GPU.MemoryGiB < r.MinMemoryGiB {
		fail(CheckRequirements, "GPU memory %g GiB < required %g GiB", o.GPU.MemoryGiB, r.MinMemoryGiB)
	}
	nodes := o.NodesFor(w.GPUs)
	if nodes > 1 && !interconnectOK(r.Interconnect, o.Interconnect) && r.Interconnect.BelowFabric != workload.Slower {
		fail(CheckRequirements, "gang of %d nodes needs %s at %g Gbps, offer has %s at %g Gbps",
			nodes, r.Interconnect.Fabric, r.Interconnect.Gbps, o.Interconnect.Fabric, o.Interconnect.GbpsPerNode)
	}
	if !w.IsService() {
		ic := r.Interconnect
		switch {
		case nodes > 1 && ic.SingleNode:
			fail(CheckRequirements, "gang of %d GPUs must run in one node, offer has %d GPUs per node", w.GPUs, o.GPUsPerNode)
		case nodes > 1 && o.Interconnect.Fabric == provider.NoFabric && !ic.Independent:
			fail(CheckRequirements, "gang of %d GPUs spans %d nodes with no fabric between them (set requirements.interconnect.independent if its GPUs do not talk)", w.GPUs, nodes)
		}
		if ic.NVLink && w.GPUs > 1 && !o.Interconnect.NVLink {
			fail(CheckRequirements, "gang needs NVLink, offer has none")
		}
	}
	if o.Isolation < r.MinIsolation {
		fail(CheckRequirements, "isolation %s below required %s", o.Isolation, r.MinIsolation)
	}
	if !r.AllowsJurisdiction(o.Jurisdiction) {
		fail(CheckRequirements, "jurisdiction %s not allowed (allowed: %s)", quoted(o.Jurisdiction), cut(fmt.Sprint(r.Jurisdictions)))
	}
	if w.Interruption.Tolerance == workload.NoTolerance && interruptible(o.Pricing) {
		fail(CheckRequirements, "interruptible (spot) capacity for work that tolerates no interruption")
	}
	if limit := o.Availability.MaxNodes; limit > 0 && nodes > limit {
		fail(CheckFit, "needs %d nodes, offer has at most %d", nodes, limit)
	}
	if !(o.Availability.FillProbability > 0) {
		fail(CheckOffered, "fill probability is zero")
	}
	return errors.Join(errs...)
}

// gangOK reports whether a finite job's gang of gpus on nodes of an offer
// with interconnect oc meets the gang's needs beyond the minimum fabric: a
// fabric at all across nodes unless Independent, one node if SingleNode,
// NVLink if asked.
func gangOK(ic *workload.Interconnect, gpus, nodes int, oc provider.Interconnect) bool {
	if nodes > 1 && (ic.SingleNode || oc.Fabric == provider.NoFabric && !ic.Independent) {
		return false
	}
	return !ic.NVLink || gpus <= 1 || oc.NVLink
}

// interconnectOK reports whether the offer's interconnect meets the
// requirement (provider.Fabric and workload.Fabric are one type).
func interconnectOK(req workload.Interconnect, ic provider.Interconnect) bool {
	return ic.Fabric >= req.Fabric && ic.GbpsPerNode >= req.Gbps
}

// IsCompatible reports whether Compatible(w, o) is nil — the same three
// questions, answered without building errors: it does not allocate, for
// filtering many offers quickly (Rank uses it first, and keeps Compatible's
// explanation for the offers it excludes).
func IsCompatible(w workload.Workload, o provider.Offer) bool {
	r := &w.Requirements
	if _, ok := r.SpeedFactor(o.GPU.Model); !ok || o.GPU.MemoryGiB < r.MinMemoryGiB {
		return false
	}
	nodes := o.NodesFor(w.GPUs)
	if nodes > 1 && !interconnectOK(r.Interconnect, o.Interconnect) && r.Interconnect.BelowFabric != workload.Slower {
		return false
	}
	if !w.IsService() && !gangOK(&r.Interconnect, w.GPUs, nodes, o.Interconnect) {
		return false
	}
	if o.Isolation < r.MinIsolation || !r.AllowsJurisdiction(o.Jurisdiction) {
		return false
	}
	if w.Interruption.Tolerance == workload.NoTolerance && interruptible(o.Pricing) {
		return false
	}
	if limit := o.Availability.MaxNodes; limit > 0 && nodes > limit {
		return false
	}
	return o.Availability.FillProbability > 0
}
