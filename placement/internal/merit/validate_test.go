package merit

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

func TestValidate(t *testing.T) {
	inf, nan := math.Inf(1), math.NaN()
	ok := Offer{VariablePerGPUHour: 1, LimitGPUs: inf}
	tests := []struct {
		name   string
		reason string
		p      Problem
		want   []string // substrings of the joined error; nil for valid
	}{
		{"valid", "a plain pool", Problem{DemandGPUs: []float64{1, 2}, Offers: []Offer{ok}}, nil},
		{"no slices", "demand needs at least one slice", Problem{Offers: []Offer{ok}}, []string{"no demand slices"}},
		{"bad demand", "NaN, infinite and negative demand are meaningless",
			Problem{DemandGPUs: []float64{nan, inf, -1}, Offers: []Offer{ok}},
			[]string{"DemandGPUs[0] = NaN", "DemandGPUs[1] = +Inf", "DemandGPUs[2] = -1"}},
		{"hours length", "weights must match the slices", Problem{DemandGPUs: []float64{1}, Hours: []float64{1, 1}, Offers: []Offer{ok}},
			[]string{"len(Hours) = 2"}},
		{"bad hours", "a slice lasts a positive finite time", Problem{DemandGPUs: []float64{1, 1}, Hours: []float64{0, nan}, Offers: []Offer{ok}},
			[]string{"Hours[0] = 0", "Hours[1] = NaN"}},
		{"no offers", "nothing can serve the demand", Problem{DemandGPUs: []float64{1}}, []string{"no offers"}},
		{"bad offer", "every offer field is checked and reported",
			Problem{DemandGPUs: []float64{1}, Offers: []Offer{{FixedPerGPU: inf, VariablePerGPUHour: -1, LimitGPUs: nan, NodeGPUs: -8}}},
			[]string{"Offers[0].FixedPerGPU = +Inf", "Offers[0].VariablePerGPUHour = -1", "Offers[0].LimitGPUs = NaN", "Offers[0].NodeGPUs = -8"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.p.Validate()
			if tc.want == nil {
				if err != nil {
					t.Fatalf("%s: unexpected error %v", tc.reason, err)
				}
				return
			}
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("%s: got %v, want ErrInvalid", tc.reason, err)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("%s: error %q does not name %q", tc.reason, err, w)
				}
			}
			for _, f := range []func() error{
				func() error { _, err := Solve(tc.p); return err },
				func() error { _, err := SolveNodes(context.Background(), tc.p, NodeOptions{}); return err },
				func() error { _, err := Screen(tc.p); return err },
			} {
				if err := f(); !errors.Is(err, ErrInvalid) {
					t.Errorf("solver accepted the invalid problem: %v", err)
				}
			}
		})
	}
}

func TestInfeasible(t *testing.T) {
	p := Problem{
		DemandGPUs: []float64{4, 20},
		Offers:     []Offer{{VariablePerGPUHour: 1, LimitGPUs: 6}, {FixedPerGPU: 5, LimitGPUs: 13, NodeGPUs: 4}},
	}
	// Stock 6 + 12 (13 GPUs are three whole 4-GPU nodes) = 18 < 20.
	for _, f := range []func() error{
		func() error { _, err := Solve(p); return err },
		func() error { _, err := SolveNodes(context.Background(), p, NodeOptions{}); return err },
		func() error { _, err := Screen(p); return err },
	} {
		err := f()
		var inf *InfeasibleError
		if !errors.As(err, &inf) || !errors.Is(err, ErrInfeasible) {
			t.Fatalf("got %v, want *InfeasibleError", err)
		}
		if inf.PeakGPUs != 20 || inf.StockGPUs != 18 || inf.ShortfallGPUs != 2 {
			t.Errorf("got %+v, want peak 20, stock 18, shortfall 2", *inf)
		}
		if want := "merit: infeasible: peak demand 20 GPUs exceeds total stock 18 GPUs by 2 GPUs"; err.Error() != want {
			t.Errorf("message %q, want %q", err, want)
		}
	}
}

func TestCheckFindsViolations(t *testing.T) {
	p := Problem{DemandGPUs: []float64{3, 5}, Offers: []Offer{{VariablePerGPUHour: 1, LimitGPUs: 4}, {FixedPerGPU: 2, LimitGPUs: 10, NodeGPUs: 2}}}
	bad := Solution{
		CapacityGPUs: []float64{5, 3},             // offer 0 over its stock of 4; offer 1 not whole nodes
		UseGPUs:      [][]float64{{1, 5}, {1, 4}}, // slice 0 short by 1; offer 1 over capacity in slice 1
		Nodes:        []int{0, 2},
	}
	err := Check(p, bad, 1e-9)
	for _, w := range []string{"slice 0: use 2 GPUs < demand 3", "offer 0: capacity 5 GPUs outside [0, 4]",
		"offer 1, slice 1: use 4 GPUs outside [0, capacity 3]", "offer 1: capacity 3 GPUs is not 2 nodes of 2"} {
		if err == nil || !strings.Contains(err.Error(), w) {
			t.Errorf("Check missed %q: %v", w, err)
		}
	}
	if _, err := Cost(p, Solution{CapacityGPUs: []float64{1}}); !errors.Is(err, ErrInvalid) {
		t.Errorf("Cost accepted a solution of the wrong shape: %v", err)
	}
	if _, err := Dispatch(p, []float64{1}); !errors.Is(err, ErrInvalid) {
		t.Errorf("Dispatch accepted one capacity for two offers: %v", err)
	}
	if _, err := Dispatch(p, []float64{1, 2}); !errors.Is(err, ErrInfeasible) {
		t.Errorf("Dispatch accepted capacities below the peak: %v", err)
	}
	use, err := Dispatch(p, []float64{4, 2})
	// Offer 1 runs for free (v = 0): it goes first, offer 0 fills the rest.
	if err != nil || use[1][0] != 2 || use[1][1] != 2 || use[0][0] != 1 || use[0][1] != 3 {
		t.Errorf("Dispatch(4, 2) = %v, %v; want offer 1 (cheaper to run) first", use, err)
	}
}

// anyFloat draws finite, infinite, NaN and negative values alike.
func anyFloat() *rapid.Generator[float64] {
	return rapid.OneOf(rapid.Float64(), rapid.SampledFrom([]float64{math.NaN(), math.Inf(1), math.Inf(-1), -1, 0}))
}

// propNoPanic: no input panics; every answer is an error or a feasible
// solution.
func propNoPanic(t *rapid.T) {
	n := rapid.IntRange(0, 6).Draw(t, "slices")
	p := Problem{DemandGPUs: rapid.SliceOfN(anyFloat(), n, n).Draw(t, "demandGPUs")}
	if rapid.Bool().Draw(t, "hours") {
		p.Hours = rapid.SliceOfN(anyFloat(), 0, 7).Draw(t, "hoursValues")
	}
	p.Offers = rapid.SliceOfN(rapid.Custom(func(t *rapid.T) Offer {
		return Offer{FixedPerGPU: anyFloat().Draw(t, "fixed"), VariablePerGPUHour: anyFloat().Draw(t, "variable"),
			LimitGPUs: anyFloat().Draw(t, "limit"), NodeGPUs: anyFloat().Draw(t, "node")}
	}), 0, 4).Draw(t, "offers")
	if s, err := Solve(p); err == nil {
		if err := Check(p, s, 1e-6*math.Max(1, gpuTol(p)*1e9)); err != nil {
			t.Fatalf("Solve: %v", err)
		}
	}
	if s, err := SolveNodes(context.Background(), p, NodeOptions{MaxNodes: 50}); err == nil {
		if err := Check(p, s, 1e-6*math.Max(1, gpuTol(p)*1e9)); err != nil {
			t.Fatalf("SolveNodes: %v", err)
		}
	}
	_, _ = Screen(p)
}

func TestNoPanic(t *testing.T) { rapid.Check(t, propNoPanic) }
func FuzzNoPanic(f *testing.F) { f.Fuzz(rapid.MakeFuzz(propNoPanic)) }
