package lp_test

import (
	"context"
	"fmt"
	"math"

	"github.com/gputco/gputco/placement/lp"
)

// What-if questions on one production plan: the LP is built once, and
// each question bounds a column and re-solves warm from the last basis.
func ExampleModel() {
	var b lp.Builder
	x := b.AddCol("x", 3, 0, 3)
	y := b.AddCol("y", 2, 0, math.Inf(1))
	b.AddRow("labour", math.Inf(-1), 4, []int{x, y}, []float64{1, 1})
	b.AddRow("machine", math.Inf(-1), 7, []int{x, y}, []float64{1, 3})
	b.SetObjective(true, 0)
	p, err := b.Problem()
	if err != nil {
		fmt.Println(err)
		return
	}
	m, err := lp.NewModel(p)
	if err != nil {
		fmt.Println(err)
		return
	}
	ask := func(what string) {
		res, err := m.Solve(context.Background(), lp.Options{})
		if err != nil {
			fmt.Println(err)
			return
		}
		if res.Status != lp.Optimal {
			fmt.Printf("%s: %s\n", what, res.Status)
			return
		}
		fmt.Printf("%s: %s %g (x = %g, y = %g)\n", what, res.Status, res.Objective, res.X[x], res.X[y])
	}
	ask("as built")
	if err := m.SetColBounds(x, 0, 1); err != nil { // at most one x
		fmt.Println(err)
		return
	}
	ask("x ≤ 1")
	if err := m.SetColBounds(y, 3, math.Inf(1)); err != nil { // and at least three y
		fmt.Println(err)
		return
	}
	ask("x ≤ 1, y ≥ 3")
	if err := m.SetColBounds(x, 0, 3); err != nil { // x as built
		fmt.Println(err)
		return
	}
	if err := m.SetColBounds(y, 0, 0); err != nil { // and no y
		fmt.Println(err)
		return
	}
	ask("y = 0")
	// Output:
	// as built: optimal 11 (x = 3, y = 1)
	// x ≤ 1: optimal 7 (x = 1, y = 2)
	// x ≤ 1, y ≥ 3: infeasible
	// y = 0: optimal 9 (x = 3, y = 0)
}
