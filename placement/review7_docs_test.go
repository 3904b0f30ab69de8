package placement_test

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/gputco/gputco/placement"
)

// TestReview7AssumptionsGangText: docs/assumptions.md (linked from the
// README's "Modelling assumptions") says of gang jobs over time: "starting
// at the start of a stretch after the lead time", "It holds its whole
// nodes through every stretch its run meets, so its window is whole
// stretches", "two gangs cannot take turns on the same committed nodes
// within one stretch", and sizes "every whole-node size, or beyond 12 of
// them the ends and the powers of two". The package doc and the code say
// otherwise — runs start at every stretch start and every multiple of a
// grid step (a month of a yearly epoch), hold [τ, f_ρ), gangs take turns
// within a stretch, and sizes go to 64 before thinning — and the solver
// does so: three 64-GPU, 10-day gangs on 8 nodes of stock, in one yearly
// stretch [0, 365 d), start at days 0, 30.42 and 60.83 (TestGangsTakeTurns
// relies on it), two of them inside the one stretch that all three share.
// Expected: the document describing the model the code solves. Severity:
// low (a stale document; the plans are right).
func TestReview7AssumptionsGangText(t *testing.T) {
	doc, err := os.ReadFile("../docs/assumptions.md")
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Join(strings.Fields(string(doc)), " ")
	claims := []string{"starting at the start of a stretch after the lead time",
		"two gangs cannot take turns on the same committed nodes within one stretch"}
	var stated []string
	for _, c := range claims {
		if strings.Contains(text, c) {
			stated = append(stated, c)
		}
	}
	if len(stated) == 0 {
		return // the document no longer says so
	}
	plan, err := placement.Solve(context.Background(), turnsProblem(3, 100*day))
	if err != nil {
		t.Fatal(err)
	}
	starts := map[time.Duration]bool{}
	for _, e := range plan.Epochs {
		starts[e.Start] = true
	}
	for _, a := range plan.Assignments {
		if g := a.Gang; g != nil && !starts[g.Start] {
			t.Errorf("gang %s starts at day %.2f, not at a stretch start (stretches %d); docs/assumptions.md: %q", a.Workload, g.Start.Hours()/24, len(plan.Epochs), stated)
		}
	}
}
