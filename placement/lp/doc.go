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
// [Solve] solves an LP with a sparse bounded-variable dual simplex (its doc
// gives the algorithm) and a MILP with branch-and-bound on warm-started dual
// re-solves, root cuts and heuristics. A [Model] keeps an LP built for
// repeated solves: after its column bounds change (a dive, a probe, a
// what-if), each solve goes on warm from the last basis instead of
// building, scaling and factorising the LP again. [Result.Verify] checks the
// certificates of any answer (primal and dual feasibility, complementary
// slackness, equal objectives, rays). [ReadMPS], [ReadMPSFile], [WriteMPS] and
// [WriteLP] read and write the standard formats, so that a model can be
// solved elsewhere or a public instance here; [CBC] and [CLP] implement
// [Solver] over the external COIN-OR binaries, for users who prefer a mature
// solver and as test oracles. The command placement/lp/cmd/lpsolve solves an
// MPS file from the shell.
//
// The package is independent of the rest of gputco: it imports nothing of the
// module and is meant to be usable on its own, on any model.
package lp
