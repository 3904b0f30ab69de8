package lp_test

import (
	"context"
	"fmt"
	"log"
	"math"

	"github.com/gputco/gputco/placement/lp"
)

// ExampleSolve_mixedInteger solves a small MILP with the built-in
// branch-and-bound: choose whole numbers of two machine types and a
// fractional amount of overtime to cover a demand at least cost.
func ExampleSolve_mixedInteger() {
	inf := math.Inf(1)
	var b lp.Builder
	big := b.AddIntCol("big", 7, 0, 10)      // 7 per machine, 5 units each
	small := b.AddIntCol("small", 4, 0, 10)  // 4 per machine, 2.5 units each
	extra := b.AddCol("overtime", 2, 0, 1.5) // 2 per unit, at most 1.5 units
	b.AddRow("demand", 16, inf, []int{big, small, extra}, []float64{5, 2.5, 1})
	p, err := b.Problem()
	if err != nil {
		log.Fatal(err)
	}
	res, err := lp.Solve(context.Background(), p, lp.Options{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Status, res.Objective, res.Gap)
	fmt.Printf("big %v, small %v, overtime %v\n", res.X[big], res.X[small], res.X[extra])
	// Output:
	// optimal 23 0
	// big 3, small 0, overtime 1
}
