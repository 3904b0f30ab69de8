package lp

import (
	"context"
	"errors"
	"testing"
	"time"
)

func TestIterationLimitAndContinue(t *testing.T) {
	p := tieringLP(tieringSpec{48, 8, 3, 1})
	full := solveCertified(t, p, Options{})
	res, err := Solve(context.Background(), p, Options{IterationLimit: 10})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != IterationLimit || res.Iterations != 10 || res.Basis == nil {
		t.Fatalf("status %v after %d iterations (basis %v), want iteration-limit after 10", res.Status, res.Iterations, res.Basis != nil)
	}
	if err := res.Verify(p, certTol); err != nil {
		t.Fatalf("limited result: %v", err)
	}
	more := solveCertified(t, p, Options{Basis: res.Basis})
	if more.Status != Optimal || !relClose(more.Objective, full.Objective, 1e-9) {
		t.Fatalf("continued solve: %v %v, want optimal %v", more.Status, more.Objective, full.Objective)
	}
}

func TestCancelledAndTimeLimit(t *testing.T) {
	p := tieringLP(tieringSpec{168, 20, 3, 1})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res, err := Solve(ctx, p, Options{})
	if !errors.Is(err, context.Canceled) || res.Status != Cancelled {
		t.Fatalf("cancelled: status %v, err %v", res.Status, err)
	}
	res, err = Solve(context.Background(), p, Options{TimeLimit: time.Nanosecond})
	if err != nil || res.Status != TimeLimit {
		t.Fatalf("time limit: status %v, err %v", res.Status, err)
	}
	if err := res.Verify(p, certTol); err != nil {
		t.Fatal(err)
	}
}

func TestProgressAndDeterminism(t *testing.T) {
	p := tieringLP(tieringSpec{168, 20, 1, 1})
	calls := 0
	last := 0
	a := solveCertified(t, p, Options{Progress: func(pr Progress) {
		calls++
		if pr.Iterations < last {
			t.Errorf("progress iterations went back from %d to %d", last, pr.Iterations)
		}
		last = pr.Iterations
	}})
	b := solveCertified(t, p, Options{})
	if a.Iterations != b.Iterations || a.Objective != b.Objective {
		t.Fatalf("two solves differ: %d/%v and %d/%v", a.Iterations, a.Objective, b.Iterations, b.Objective)
	}
	for j := range a.X {
		if a.X[j] != b.X[j] {
			t.Fatalf("x[%d] differs: %v and %v", j, a.X[j], b.X[j])
		}
	}
	if calls == 0 {
		t.Logf("no progress report in %v (reports come at most every 5 ms)", a.Elapsed)
	}
}
