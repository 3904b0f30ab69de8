package lp_test

import (
	"context"
	"fmt"
	"math"

	"github.com/gputco/gputco/placement/lp"
)

// A production plan: maximise 3x + 2y with two resource rows and a column
// bound, then read the shadow prices of the rows.
func ExampleSolve() {
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
	res, err := lp.Solve(context.Background(), p, lp.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Status, res.Objective)
	fmt.Printf("x = %g, y = %g\n", res.X[x], res.X[y])
	fmt.Printf("shadow prices: labour %g, machine %g\n", res.RowDual[0]+0, res.RowDual[1]+0)
	fmt.Printf("reduced cost of x: %g\n", res.ReducedCost[x]+0)
	fmt.Println("certified:", res.Verify(p, 1e-9) == nil)
	// Output:
	// optimal 11
	// x = 3, y = 1
	// shadow prices: labour 2, machine 0
	// reduced cost of x: 1
	// certified: true
}
