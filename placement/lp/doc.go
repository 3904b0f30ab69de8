// Package lp solves linear programs (LP) and mixed-integer linear programs
// (MILP) in pure Go, with sparse data structures throughout.
//
// A [Problem] is
//
//	minimise (or maximise)  cᵀx + offset
//	subject to              rowLower ≤ A·x ≤ rowUpper
//	                        colLower ≤ x ≤ colUpper
//	                        x_j integer for every j marked Integer
//
// with A stored by columns (compressed sparse column form, [Matrix]). Bounds
// may be infinite (math.Inf); a row with both bounds infinite is free, a row
// with equal bounds is an equality.
//
// The package is independent of the rest of gputco: it imports nothing of the
// module and is meant to be usable on its own, on any model.
package lp
