package placement_test

import (
	"context"
	"testing"
	"time"

	"github.com/gputco/gputco/placement"
	"github.com/gputco/gputco/provider"
	"github.com/gputco/gputco/tco"
	"github.com/gputco/gputco/workload"
)

// TestGangRunnersUpEverySize: a gang's runners-up are priced at their best
// size on each unused offer, and two unused offers with runs of the same
// size are both listed, each at what the gang alone costs there.
func TestGangRunnersUpEverySize(t *testing.T) {
	day := 24 * time.Hour
	job := pretrain("train", 64, 10, 100*day)
	job.GangSizes = workload.GangSizes{MinGPUs: 8, MaxGPUs: 64}
	job.Setup.EngineerHours = 24
	a := tco.Assumptions{Horizon: 120 * day}
	offers := []provider.Offer{fabric(onDemand("od", "40", 8, 0)), fabric(onDemand("od2", "41", 8, 0)), fabric(onDemand("od3", "42", 8, 0))}
	p := placement.Problem{Workloads: []workload.Workload{job}, Offers: offers, Assumptions: a,
		Options: placement.Options{OverTime: true, Epoch: provider.Month, Period: day, Slices: 2}}
	plan, err := placement.Solve(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	as := plan.Assignments[0]
	if as.Gang == nil || as.Gang.Offer != "od" || len(as.RunnersUp) != 2 {
		t.Fatalf("gang %+v, runners-up %+v: want od, then od2 and od3", as.Gang, as.RunnersUp)
	}
	for i, o := range offers[1:] {
		q := p
		q.Offers = []provider.Offer{o}
		alone, err := placement.Solve(context.Background(), q)
		if err != nil {
			t.Fatal(err)
		}
		if r := as.RunnersUp[i]; r.Offer != o.ID || !r.Total.Equal(alone.Total) || !r.Delta.Equal(alone.Total.Sub(as.Cost)) {
			t.Errorf("runner-up %d: %+v; the gang alone on %s costs %s", i, r, o.ID, alone.Total)
		}
	}
}
