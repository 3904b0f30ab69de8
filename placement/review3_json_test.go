package placement_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/gputco/gputco/placement"
	"github.com/gputco/gputco/provider"
)

// rv3Duration parses a JSON duration as provider.Duration does.
func rv3Duration(t *testing.T, s string) time.Duration {
	t.Helper()
	var d provider.Duration
	if err := d.UnmarshalText([]byte(s)); err != nil {
		t.Fatalf("duration %q: %v", s, err)
	}
	return time.Duration(d)
}

// TestReview3EpochJSON: the "epochs" of a plan over time in JSON carry
// every stretch of Plan.Epochs with its bounds, its uses (same GPU-hours
// and peaks) and its slices (same GPUs by tier, one offer map entry per
// offer, slice starts a slice length apart).
func TestReview3EpochJSON(t *testing.T) {
	if testing.Short() {
		t.Skip("plans over time with a gang: slow under -race")
	}
	seeds := uint64(3)
	for seed := range seeds {
		p := timePortfolio(seed+8000, 2, 1, 1, 4, 3, provider.Year, 3*provider.Month, seed%2 == 1)
		plan, err := placement.Solve(context.Background(), p)
		if err != nil {
			t.Fatal(err)
		}
		raw, err := json.Marshal(plan)
		if err != nil {
			t.Fatal(err)
		}
		var j struct {
			Epochs []struct {
				Epoch int    `json:"epoch"`
				Start string `json:"start"`
				End   string `json:"end"`
				Uses  []struct {
					Workload, Offer    string
					GPUHours, PeakGPUs float64
				} `json:"uses"`
				Slices []struct {
					Start  string             `json:"start"`
					B      float64            `json:"base"`
					U      float64            `json:"burst"`
					S      float64            `json:"spot"`
					Offers map[string]float64 `json:"offers"`
				} `json:"slices"`
			} `json:"epochs"`
		}
		if err := json.Unmarshal(raw, &j); err != nil {
			t.Fatal(err)
		}
		if len(j.Epochs) != len(plan.Epochs) || len(j.Epochs) == 0 {
			t.Fatalf("seed %d: %d epochs in JSON, %d in the plan", seed, len(j.Epochs), len(plan.Epochs))
		}
		slice := plan.Period / time.Duration(plan.Slices)
		for e, je := range j.Epochs {
			pe := plan.Epochs[e]
			if je.Epoch != pe.Epoch || rv3Duration(t, je.Start) != pe.Start || rv3Duration(t, je.End) != pe.End || len(je.Uses) != len(pe.Uses) || len(je.Slices) != len(pe.Slices) {
				t.Errorf("seed %d stretch %d: JSON epoch %d from %s, %d uses, %d slices; plan %d from %v, %d, %d",
					seed, e, je.Epoch, je.Start, len(je.Uses), len(je.Slices), pe.Epoch, pe.Start, len(pe.Uses), len(pe.Slices))
				continue
			}
			for u, ju := range je.Uses {
				if pu := pe.Uses[u]; ju.Workload != pu.Workload || ju.Offer != pu.Offer || ju.GPUHours != pu.GPUHours || ju.PeakGPUs != pu.PeakGPUs {
					t.Errorf("seed %d stretch %d use %d: JSON %+v, plan %+v", seed, e, u, ju, pu)
				}
			}
			for i, s := range je.Slices {
				ps := pe.Slices[i]
				if s.B != ps.Base || s.U != ps.Burst || s.S != ps.Spot || len(s.Offers) != len(ps.Offers) {
					t.Errorf("seed %d stretch %d slice %d: JSON %+v, plan %+v", seed, e, i, s, ps)
				}
				for k, g := range ps.Offers {
					if s.Offers[k] != g {
						t.Errorf("seed %d stretch %d slice %d: %s %g GPUs in JSON, %g in the plan", seed, e, i, k, s.Offers[k], g)
					}
				}
				if d := rv3Duration(t, s.Start); d != time.Duration(i)*slice {
					t.Errorf("seed %d stretch %d slice %d starts at %v, want %v", seed, e, i, d, time.Duration(i)*slice)
				}
			}
		}
	}
}
