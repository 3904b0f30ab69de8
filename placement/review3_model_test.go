package placement_test

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/gputco/gputco/placement"
	"github.com/gputco/gputco/placement/lp"
	"github.com/gputco/gputco/provider"
)

// TestReview3ModelMatchesPlan: "Model returns this MILP ... it is exactly
// what Solve optimises": on random portfolios, one period and over time
// (no gangs), lp.Solve of Model(p) reaches the plan's Total; the model
// validates, its column names are unique, and WriteMPS reads back with its
// shape.
func TestReview3ModelMatchesPlan(t *testing.T) {
	seeds := uint64(4)
	if testing.Short() {
		seeds = 1
	}
	for seed := range seeds {
		var p placement.Problem
		if seed%2 == 0 {
			p = portfolio(seed+5000, 3, 2, 6, 24*time.Hour, seed%4 == 0)
		} else {
			p = timePortfolio(seed+5000, 2, 1, 0, 4, 3, provider.Year, 3*provider.Month, seed%4 == 1)
		}
		plan, err := placement.Solve(context.Background(), p)
		if err != nil {
			t.Fatal(err)
		}
		m, err := placement.Model(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := m.Validate(); err != nil {
			t.Fatal(err)
		}
		seen := map[string]bool{}
		for j := range m.NumCols() {
			if seen[m.ColName(j)] {
				t.Errorf("seed %d: duplicate column %s", seed, m.ColName(j))
			}
			seen[m.ColName(j)] = true
		}
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		r, err := lp.Solve(ctx, m, lp.Options{Gap: 1e-9})
		cancel()
		total, _ := plan.Total.Float64()
		if err != nil || r.Status != lp.Optimal {
			t.Fatalf("seed %d: the model: %v %v", seed, r.Status, err)
		}
		if math.Abs(r.Objective-total) > 1e-6*math.Max(1, total) {
			t.Errorf("seed %d: model optimum %.6f, plan total %.6f", seed, r.Objective, total)
		}
		var b1 bytes.Buffer
		if err := placement.WriteMPS(&b1, p); err != nil {
			t.Fatal(err)
		}
		q, err := lp.ReadMPS(&b1)
		if err != nil {
			t.Fatal(err)
		}
		if q.NumCols() != m.NumCols() || q.NumRows() != m.NumRows() || q.A.NNZ() != m.A.NNZ() {
			t.Errorf("seed %d: MPS read back %d×%d nnz %d, model %d×%d nnz %d", seed, q.NumRows(), q.NumCols(), q.A.NNZ(), m.NumRows(), m.NumCols(), m.A.NNZ())
		}
	}
}

// TestReview3DeterministicAndOrderFree: Solve leaves p as it was, two
// solves give the same plan (JSON, Elapsed aside), and shuffling the
// workloads and the offers changes the total by no more than the gap
// (DefaultGap), one period and over time.
func TestReview3DeterministicAndOrderFree(t *testing.T) {
	seeds := uint64(4)
	if testing.Short() {
		seeds = 1
	}
	for seed := range seeds {
		var p placement.Problem
		if seed%2 == 0 {
			p = portfolio(seed+9000, 3, 2, 6, 24*time.Hour, seed%4 == 0)
		} else {
			p = timePortfolio(seed+9000, 2, 1, 1, 4, 3, provider.Year, 3*provider.Month, seed%4 == 1)
		}
		orig, _ := json.Marshal(p.Workloads)
		origO := slices.Clone(p.Offers)
		a, err := placement.Solve(context.Background(), p)
		if err != nil {
			t.Fatal(err)
		}
		after, _ := json.Marshal(p.Workloads)
		if string(orig) != string(after) || !reflect.DeepEqual(origO, p.Offers) {
			t.Errorf("seed %d: Solve modified p", seed)
		}
		b, _ := placement.Solve(context.Background(), p)
		a.Stats.Elapsed, b.Stats.Elapsed = 0, 0
		a.Stats.FirstPlan, b.Stats.FirstPlan = 0, 0
		ja, _ := json.Marshal(a)
		jb, _ := json.Marshal(b)
		if string(ja) != string(jb) {
			t.Errorf("seed %d: two solves differ", seed)
		}
		r := rand.New(rand.NewPCG(seed, 1))
		q := p
		q.Workloads = slices.Clone(p.Workloads)
		q.Offers = slices.Clone(p.Offers)
		r.Shuffle(len(q.Workloads), func(i, j int) { q.Workloads[i], q.Workloads[j] = q.Workloads[j], q.Workloads[i] })
		r.Shuffle(len(q.Offers), func(i, j int) { q.Offers[i], q.Offers[j] = q.Offers[j], q.Offers[i] })
		c, err := placement.Solve(context.Background(), q)
		if err != nil {
			t.Fatal(err)
		}
		d := a.Total.Sub(c.Total).Abs()
		tol := a.Total.Mul(dec("0.000002"))
		if d.GreaterThan(tol) {
			t.Errorf("seed %d: total %s, permuted %s", seed, a.Total, c.Total)
		}
	}
}
