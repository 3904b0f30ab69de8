package lp_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"math"
	"os"
	"strings"
	"time"

	"github.com/gputco/gputco/placement/lp"
)

func ExampleReadMPS() {
	const model = `NAME          tiny
ROWS
 N  cost
 L  cap
 G  demand
COLUMNS
    x   cost  2   cap     1
    x   demand 1
    MARKER  'MARKER'  'INTORG'
    y   cost  3   cap     1
    y   demand 2
    MARKER  'MARKER'  'INTEND'
RHS
    rhs cap   10  demand  4
RANGES
    rng cap   6
BOUNDS
 UP bnd x    -1
 UP bnd y     8
ENDATA
`
	p, err := lp.ReadMPS(strings.NewReader(model))
	if err != nil {
		log.Fatal(err)
	}
	for i := 0; i < p.NumRows(); i++ {
		fmt.Printf("%s: [%v, %v]\n", p.RowName(i), p.RowLower[i], p.RowUpper[i])
	}
	for j := 0; j < p.NumCols(); j++ {
		fmt.Printf("%s: cost %v, bounds [%v, %v], integer %v\n", p.ColName(j), p.Cost[j], p.ColLower[j], p.ColUpper[j], p.Integer[j])
	}
	// Output:
	// cap: [4, 10]
	// demand: [4, +Inf]
	// x: cost 2, bounds [-Inf, -1], integer false
	// y: cost 3, bounds [0, 8], integer true
}

func ExampleWriteMPS() {
	var b lp.Builder
	x := b.AddCol("x", 1, 0, 4)
	y := b.AddIntCol("y", -2, 0, 3)
	b.AddRow("mix", -1, 5, []int{x, y}, []float64{1, 1})
	p, err := b.Problem()
	if err != nil {
		log.Fatal(err)
	}
	if err := lp.WriteMPS(os.Stdout, p); err != nil {
		log.Fatal(err)
	}
	// Output:
	// NAME
	// ROWS
	//  N  OBJECTIVE
	//  G mix
	// COLUMNS
	//  x OBJECTIVE 1
	//  x mix 1
	//  MARKER 'MARKER' 'INTORG'
	//  y OBJECTIVE -2
	//  y mix 1
	//  MARKER 'MARKER' 'INTEND'
	// RHS
	//  RHS mix -1
	// RANGES
	//  RNG mix 6
	// BOUNDS
	//  UP BND x 4
	//  UP BND y 3
	// ENDATA
}

// ExampleCBC solves a small MILP with an external cbc binary (COIN-OR CBC),
// when one is installed; the built-in solver is the default.
func ExampleCBC() {
	var b lp.Builder
	b.SetObjective(true, 0) // maximise 3x + 2y
	x := b.AddIntCol("x", 3, 0, 10)
	y := b.AddIntCol("y", 2, 0, 10)
	b.AddRow("budget", -math.Inf(1), 7.5, []int{x, y}, []float64{2, 1})
	p, err := b.Problem()
	if err != nil {
		log.Fatal(err)
	}
	res, err := lp.CBC{}.Solve(context.Background(), p, lp.Options{TimeLimit: 10 * time.Second})
	if errors.Is(err, lp.ErrSolverUnavailable) {
		fmt.Println("cbc is not installed")
		return
	} else if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Status, res.Objective, res.X)
}
