package tco_test

import (
	"errors"
	"math"
	"testing"

	"github.com/gputco/gputco/provider"
	"github.com/gputco/gputco/tco"
	"github.com/gputco/gputco/workload"
	"github.com/shopspring/decimal"
)

// Regression tests of issue 14: inputs at the extremes that once took
// unbounded work or memory, or gave answers that looked right but were not.
// The fixtures are local so that the tests read on their own.

// boundsOffer is one 8×H100 SXM node on metered pricing at $20 per hour.
func boundsOffer(p provider.Pricing) provider.Offer {
	if p == nil {
		p = provider.Hourly(decimal.NewFromInt(20))
	}
	return provider.Offer{
		ID: "bounds", Provider: "test", Region: "r1", Jurisdiction: "US",
		GPU:         provider.GPU{Model: "H100 SXM", MemoryGiB: 80, BF16TFLOPS: 989, TDPWatts: 700},
		GPUsPerNode: 8, Pricing: p,
		Interconnect: provider.Interconnect{Fabric: provider.InfiniBand, GbpsPerNode: 3200},
		Availability: provider.Availability{FillProbability: 1},
	}
}

// boundsJob is a stateless job of gpus H100 SXM needing work GPU-hours.
func boundsJob(gpus int, work float64) workload.Workload {
	return workload.Workload{
		Name: "bounds-job", Kind: workload.Batch, GPUs: gpus, WorkGPUHours: work,
		Interruption: workload.Interruption{Tolerance: workload.Stateless},
	}
}

// TestHugeGangRefused: GPUs = MaxInt was priced with a GPU count of
// −9223372036854775808; it is refused by the workload's GPU bound.
func TestHugeGangRefused(t *testing.T) {
	r, err := tco.Evaluate(boundsJob(math.MaxInt, 1e6), boundsOffer(nil), tco.Assumptions{})
	if !errors.Is(err, workload.ErrOutOfRange) {
		t.Fatalf("Evaluate with GPUs = MaxInt: err = %v, GPUs = %d; want ErrOutOfRange", err, r.Derivation.GPUs)
	}
}

// TestDeepCreditChainRefused: a chain of 10⁴ credits built in Go was priced
// (in seconds, validation repeated at every level); it is refused by the
// pricing-depth limit before any work.
func TestDeepCreditChainRefused(t *testing.T) {
	var p provider.Pricing = provider.Hourly(decimal.NewFromInt(20))
	for range 10_000 {
		p = provider.Credit{Base: p, Amount: decimal.NewFromInt(1)}
	}
	if _, err := tco.Evaluate(boundsJob(8, 8), boundsOffer(p), tco.Assumptions{}); !errors.Is(err, provider.ErrOutOfRange) {
		t.Errorf("Evaluate of 10⁴ credits: %v, want ErrOutOfRange", err)
	}
}
