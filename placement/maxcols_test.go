package placement_test

import (
	"context"
	"errors"
	"io"
	"testing"
	"time"

	"github.com/gputco/gputco/placement"
)

// TestMaxColumns: a model of exactly Options.MaxColumns columns is built
// and solved; one column less refuses it with ErrTooLarge — from Model,
// WriteMPS and Solve alike, the plan empty —; a negative bound is no bound
// (the same model as the default's).
func TestMaxColumns(t *testing.T) {
	p := portfolio(3, 3, 2, 6, 24*time.Hour, true)
	m, err := placement.Model(p)
	if err != nil {
		t.Fatal(err)
	}
	n := m.NumCols()
	at := p
	at.Options.MaxColumns = n
	if m, err := placement.Model(at); err != nil || m.NumCols() != n {
		t.Fatalf("MaxColumns %d: %v", n, err)
	}
	want, err := placement.Solve(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := placement.Solve(context.Background(), at); err != nil || !got.Total.Equal(want.Total) {
		t.Fatalf("MaxColumns %d: total %s (%v), want %s", n, got.Total, err, want.Total)
	}
	under := p
	under.Options.MaxColumns = n - 1
	if _, err := placement.Model(under); !errors.Is(err, placement.ErrTooLarge) {
		t.Errorf("Model with MaxColumns %d of %d: %v, want ErrTooLarge", n-1, n, err)
	}
	if err := placement.WriteMPS(io.Discard, under); !errors.Is(err, placement.ErrTooLarge) {
		t.Errorf("WriteMPS with MaxColumns %d of %d: %v, want ErrTooLarge", n-1, n, err)
	}
	if plan, err := placement.Solve(context.Background(), under); !errors.Is(err, placement.ErrTooLarge) || len(plan.Assignments) > 0 {
		t.Errorf("Solve with MaxColumns %d of %d: %v (%d assignments), want ErrTooLarge and no plan", n-1, n, err, len(plan.Assignments))
	}
	none := p
	none.Options.MaxColumns = -1
	if m, err := placement.Model(none); err != nil || m.NumCols() != n {
		t.Fatalf("MaxColumns −1: %v", err)
	}
}
