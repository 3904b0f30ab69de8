// Package merit solves the single-pool placement problem exactly: one demand
// curve, K offers that can all serve it, each with a fixed cost per GPU of
// capacity, a variable cost per GPU-hour and a stock limit. It is the core
// of gputco's placement solver for pools that need no general LP; it works
// in plain float64 coefficients (the caller converts money to and from
// them) and imports nothing of the module.
//
// # Problem
//
// Demand d_t ≥ 0 GPUs in slices t = 1…T of Δ_t hours; offer k has fixed
// cost F_k per GPU held over the horizon, variable cost v_k per GPU-hour and
// stock limit L_k (possibly +Inf):
//
//	minimise  Σ_k F_k·cap_k + Σ_{k,t} v_k·Δ_t·use_{k,t}
//	s.t.      Σ_k use_{k,t} ≥ d_t,   0 ≤ use_{k,t} ≤ cap_k ≤ L_k.
//
// It is infeasible exactly when Σ_k L_k < P = max_t d_t ([InfeasibleError]).
// [Solve] returns an optimum with its dispatch and LP duals, [Screen] the
// screening-curve bound, [SolveNodes] the optimum with whole nodes of
// committed capacity; [Dispatch], [Cost] and [Check] evaluate any solution
// independently of how it was found.
//
// # Load-duration curve
//
// Let h(y) = Σ_{t: d_t > y} Δ_t, the hours during which demand exceeds the
// height y; h is a nonincreasing step function, 0 from P on. Its steps are
// the layers of [LoadDuration]: layer i covers heights (D_{i−1}, D_i] (the
// distinct positive demands D_1 < … < D_m, D_0 = 0) and lasts h_i hours.
// Let H(y) = ∫_0^y h(u) du, the GPU-hours of demand below height y: H is
// concave, piecewise linear and nondecreasing, H(P) = Σ_t Δ_t·d_t, and H is
// flat beyond P.
//
// For fixed capacities the cheapest dispatch fills every slice from the
// offers in ascending v (merit order), so with Q_k the cumulative capacity
// of the first k offers in that order, offer k serves the heights
// (Q_{k−1}, Q_k] of every slice and uses v_k·(H(Q_k) − H(Q_{k−1})) money.
// Conversely, the problem is the transportation problem of layers to
// offers: a unit of layer i on offer k costs F_k + v_k·h_i (it needs one GPU
// of capacity, used h_i hours), each layer's width must be covered and each
// offer's total is at most L_k (all layers are stacked in the peak slice).
//
// # Screening curve
//
// Without stock limits every layer independently takes the offer with the
// least cost line F_k + v_k·h_i: the lower envelope of the lines, evaluated
// at the layers' durations. That is the optimum when no limit binds and a
// lower bound otherwise ([Screening]).
//
// # Merit order
//
// Sort the offers by v ascending (ties by F, then input order). The layer
// costs c(i, k) = F_k + v_k·h_i satisfy, for a lower layer i1 (longer,
// h1 ≥ h2) and an offer a before b (v_a ≤ v_b),
//
//	c(i1, a) + c(i2, b) − c(i1, b) − c(i2, a) = (v_a − v_b)(h1 − h2) ≤ 0,
//
// so moving ε of i1 from b to a and ε of i2 from a to b never costs more and
// keeps every offer's total. Repeating the exchange gives an optimum that
// stacks the offers in merit order: offer k holds the band (Q_{k−1}, Q_k]
// with 0 ≤ x_k = Q_k − Q_{k−1} ≤ L_k, Q_0 = 0 and Q_K ≥ P. Its cost is
//
//	Σ_k F_k·x_k + Σ_k v_k·(H(Q_k) − H(Q_{k−1}))
//	  = Σ_k F_k·x_k + Σ_{k<K} c_k·H(Q_k) + v_K·H(Q_K),   c_k = v_k − v_{k+1} ≤ 0.
//
// Some optimum has every Q_k ≤ P: replacing Q_k by min(Q_k, P) keeps every
// increment within its box, lowers the fixed costs and leaves H unchanged.
// So Q_K = P, the last term is the constant v_K·H(P), and every other term
// is convex: c_k·H is convex because c_k ≤ 0 and H is concave. The problem
// is a convex separable chain.
//
// # Dynamic programme
//
// Let f_k(Q) be the least cost of Σ_{j≤k} (F_j·x_j + c_j·H(Q_j)) over chains
// ending at Q_k = Q. Then f_0 is 0 at 0 (+Inf elsewhere) and
//
//	g_k = f_{k−1} □ φ_k,  φ_k(x) = F_k·x on [0, L_k],    f_k = g_k + c_k·H,
//
// where □ is the infimal convolution, min_x f_{k−1}(Q − x) + φ_k(x). Each
// f_k is convex piecewise linear on [0, min(P, Σ_{j≤k} L_j)], stored as its
// value at the left end and its segments (length, slope) in ascending
// slope order. The infimal convolution of two convex piecewise-linear
// functions merges their slope sequences, so g_k is f_{k−1} with the one
// segment (L_k, F_k) inserted after the segments of slope ≤ F_k, truncated
// at P; adding c_k·H splits the segments at the demand levels and adds
// c_k·h_i to the slope of each piece (the result stays sorted because it is
// convex). The optimum is g_K(P) + v_K·H(P), and the capacities come back
// without storing the functions: only where stage k inserted its segment
// (a_k, of length ℓ_k) is kept, and, going down from Q_K = P,
// x_k = clamp(Q_k − a_k, 0, ℓ_k), Q_{k−1} = Q_k − x_k. The dispatch is the
// merit-order fill of every slice.
//
// After a stage, breakpoints lie in [0, P]: one per demand level from the
// last addition of c_k·H, plus those of earlier stages, shifted by the
// segments inserted below them. Their number S can so grow by up to T per
// stage; it is at most P + 1 when all data are integers (every breakpoint
// is then an integer). A stage is one linear pass over the segments, so
// the programme takes O(K·S + T log T) time and O(K + S) memory. On the
// lp-bench generator at 720 slices × 200 offers, S ≈ 16 500 for P ≈ 40 000
// and a solve takes under 20 ms of CPU (BenchmarkSolve720x200).
//
// Branch-and-bound nodes add lower bounds lo_k ≤ x_k: the stage then shifts
// f_{k−1} by lo_k before inserting (hi_k − lo_k, F_k), and the domain is
// truncated at P + Σ lo instead of P (some optimum holds the offers above
// the peak at their lower bounds).
//
// # Duals
//
// The duals follow from the KKT conditions of the chain. With a multiplier
// λ_k for the equation Q_k = Q_{k−1} + x_k, an optimal chain has
//
//	λ_k ∈ ∂φ_k(x_k):  = F_k if 0 < x_k < L_k,  ≤ F_k if x_k = 0,  ≥ F_k if x_k = L_k;
//	λ_k − λ_{k+1} ∈ (v_{k+1} − v_k)·[h(Q_k+), h(Q_k−)]   (k < K);
//	λ_K ≥ 0   (the multiplier of Q_K ≥ P),
//
// and such multipliers exist because the problem is a polyhedral convex
// programme. They are found by interval propagation: forward, the set of
// λ_k consistent with the conditions below k; backward from the least
// admissible λ_K, the least λ_k consistent with λ_{k+1}. Then
//
//   - μ_k = max(0, λ_k − F_k) is the dual of the stock limit of offer k (0
//     when unlimited): the value of one more GPU of its stock at the margin
//     ([Solution.StockValue]);
//   - π_i = min_k (F_k + μ_k + v_k·h_i) is the dual of layer i: the cost lines
//     raised by the stock values, whose lower envelope prices every layer.
//     The chain conditions make the band's own offer attain the minimum;
//     taking the envelope makes π dual feasible by construction
//     ([Solution.LayerPrice]; the top layer's is the price of one more GPU
//     of peak demand);
//   - the slice prices are p_t = Δ_t·(π_i − π_{i+1})/(h_i − h_{i+1}) for the
//     slices at level D_i (π_{m+1} = h_{m+1} = 0): the price per GPU-hour of
//     a level is the secant slope of the concave envelope, nondecreasing in
//     the level, so Σ_t (p_t − v_k·Δ_t)⁺ telescopes to π_j − v_k·h_j ≤ F_k + μ_k
//     for the first level j where the price exceeds v_k: p and μ satisfy
//     every dual constraint of the time-indexed LP, and Σ_t p_t·d_t −
//     Σ_k L_k·μ_k = Σ_i w_i·π_i − Σ_k L_k·μ_k equals the optimum
//     ([Solution.SlicePrice]).
//
// These are exact optimal duals, not estimates: the tests check dual
// feasibility and a zero duality gap against the time-indexed LP. When the
// primal is degenerate (a band boundary on a demand level, an offer exactly
// at its limit) the LP has many optimal duals; this one is the least in the
// backward order above. The duals are then subgradients of the optimal
// value: δ more GPUs of stock of offer k save at most μ_k·δ, δ more GPUs of
// demand in slice t cost at least p_t·δ (the property tests check both);
// the exact saving of a whole extra node is a re-solve with the larger
// limit. Rounding of the cumulative capacities is absorbed by
// taking the slopes of H over a window of 1e-12·P around each Q_k.
//
// # Whole nodes
//
// Committed capacity comes in whole nodes of g_k GPUs ([Offer.NodeGPUs]).
// For fixed committed capacities the cost never rises with the capacity of
// a pay-as-you-go offer (F_k = 0: more capacity only relaxes the dispatch),
// so some optimum holds every pay-as-you-go offer at its stock, up to P.
// What remains to decide is the node counts n_k of the committed offers.
//
//   - One node size g for every committed offer (the usual pool: one GPU
//     type): with N_k the committed nodes up to merit position k and S_k the
//     pay-as-you-go stock up to it, Q_k = g·N_k + S_k, and the chain in N
//     has stage costs F_k·g·n_k on n_k ∈ {0, …, ⌊L_k/g⌋} and
//     c_k·H(g·N_k + S_k), convex in N. On the integers it is the same
//     programme with H(g·N + S_k) replaced by its interpolation between
//     integer N: every breakpoint is then an integer, the optimum of the
//     continuous programme is attained at integer node counts, and there
//     the interpolation is exact. One run gives the exact whole-node
//     optimum, with Q_K ≥ P as N_K ≥ ⌈(P − S_K)/g⌉ and N truncated at
//     ⌊P/g⌋ + 1 (a committed node entirely above the peak is never needed).
//   - Different node sizes, or divisible committed offers mixed with
//     node-sized ones, break the lattice. Then a best-first branch-and-bound
//     over the node counts uses the divisible programme with capacity boxes
//     as the bound, branches on the most expensive fractional node, and
//     rounds fractional capacities up for incumbents. It is exact when it
//     finishes and exponential in the worst case; [NodeOptions.MaxNodes]
//     bounds it, and a stopped search returns its best solution with
//     [ErrNodeLimit] and a proven [Solution.BoundTotal].
//
// A "whole reservation or nothing" rule (a minimum commitment above one
// node) is not modelled.
package merit
