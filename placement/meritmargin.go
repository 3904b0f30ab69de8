package placement

import (
	"cmp"
	"math"
	"slices"
	"sort"

	"github.com/gputco/gputco/placement/internal/merit"
)

// ladder is the merit order of the capacity a plan holds for one service:
// its rungs, cheapest first, each a price per GPU-hour and the GPUs it
// holds in every slice. The least variable cost of d GPUs in a slice is
// the price of its d cheapest GPUs.
type ladder struct {
	price []float64
	// cum[i] is the GPUs of the first i rungs (cum[0] = 0); +Inf past an
	// unlimited rung, after which the ladder ends.
	cum []float64
}

// newLadder returns the ladder of rungs (price, gpus), gpus ≥ 0 (+Inf:
// unlimited).
func newLadder(price, gpus []float64) ladder {
	idx := make([]int, len(price))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(price[a], price[b]) })
	l := ladder{cum: []float64{0}}
	for _, i := range idx {
		if gpus[i] <= 0 {
			continue
		}
		l.price = append(l.price, price[i])
		l.cum = append(l.cum, l.cum[len(l.cum)-1]+gpus[i])
		if math.IsInf(gpus[i], 1) {
			break
		}
	}
	return l
}

// total is the GPUs the ladder holds.
func (l ladder) total() float64 { return l.cum[len(l.cum)-1] }

// upTo is the GPUs of the rungs priced at most p: GPUs at price p are used
// after those.
func (l ladder) upTo(p float64) float64 {
	return l.cum[sort.Search(len(l.price), func(i int) bool { return l.price[i] > p })]
}

// span is the price of the GPUs from the a-th to the b-th in merit order,
// 0 ≤ a ≤ b ≤ total (negative when b < a: the price of those from b to a,
// negated).
func (l ladder) span(a, b float64) float64 {
	if b < a {
		return -l.span(b, a)
	}
	sum := 0.0
	for i := sort.Search(len(l.price), func(i int) bool { return l.cum[i+1] > a }); i < len(l.price) && l.cum[i] < b; i++ {
		sum += (min(b, l.cum[i+1]) - max(a, l.cum[i])) * l.price[i]
	}
	return sum
}

// change is the change of the least price of a slice's demand d when it
// becomes d+δ and e more GPUs at price p join the ladder (e = 0: none);
// ok is false when the ladder and those cannot hold d+δ, beyond a relative
// 1e-9 of the ladder (the LP's tolerance: 3 GPUs hold 2.8 + 0.2 =
// 3.0000000000000004).
func (l ladder) change(d, delta, p, e float64) (float64, bool) {
	x := min(e, max(0, d+delta-l.upTo(p))) // the new GPUs used
	need := d + delta - x
	if total := l.total(); need > total {
		if need > total+1e-9*max(1, total) {
			return 0, false
		}
		need = total
	}
	return l.span(d, need) + x*p, true
}

// meritMargins sets the marginal values of sol, the plan of single-service
// pool pl solved on the merit-order path (mp its merit problem), as
// margins defines them on the general path: the change of the optimum of
// the plan's fixed LP — its node counts held, the use of an offer it does
// not place ruled out — by one more GPU of peak or one more node of an
// offer's stock. With the nodes held, that LP is a merit order in every
// slice (the ladder of the offers the plan may use, each holding its
// nodes' GPUs, its stock, or without limit), so each value is a walk up
// the ladder: one more GPU of peak costs, in every slice with demand, the
// price of the next GPUs up its ladder (when the ladder cannot hold them,
// the least over the offers the plan does not place of their one-off cost
// and the change with them placed); one more node of a pay-as-you-go
// offer's stock saves, in every slice where the demand reaches past the
// GPUs priced at most its own, the price of the dearest GPUs it replaces
// less its own; one more node of committed capacity held at its stock
// saves that less the node's fixed cost. ok is false, and sol keeps the
// divisible programme's duals, when the plan is not the merit order of its
// capacities (its cost differs); peak is false, and sol keeps that
// programme's peak value, when one more GPU fits nowhere the plan holds
// or may place (as on the general path, where the relaxation's dual is the
// value then).
func (in *instance) meritMargins(pl pool, mp merit.Problem, sol *poolSolution) (ok, peak bool) {
	w := pl.ws[0]
	wd := &in.ws[w]
	n := len(wd.pairs)
	price, gpus := make([]float64, n), make([]float64, n)
	avail := make([]bool, n)
	fixed := 0.0
	for i, q := range wd.pairs {
		pr := &in.pairs[q]
		od := &in.os[pr.k]
		price[i] = mp.Offers[i].VariablePerGPUHour
		avail[i] = sol.used[q] || pr.oneOff == 0 && !pr.dominated && !od.dominated
		switch {
		case !avail[i]:
		case od.committed:
			gpus[i] = float64(sol.nodes[pr.k]) * od.gpn
			fixed += float64(sol.nodes[pr.k]) * od.fixedF
		default:
			gpus[i] = mp.Offers[i].LimitGPUs
		}
		if sol.used[q] {
			fixed += pr.oneOff
		}
	}
	l := newLadder(price, gpus)
	hours := mp.Hours
	// The plan must be its ladder's merit order: the same cost.
	cost := fixed
	for t, d := range wd.demand {
		if d > 0 {
			v, fits := l.change(0, d, 0, 0)
			if !fits {
				return false, false
			}
			cost += hours[t] * v
		}
	}
	if math.Abs(cost-sol.cost) > 1e-9*max(1, math.Abs(sol.cost)) {
		return false, false
	}
	tol := 1e-9 * max(1, math.Abs(cost))
	// One more GPU of peak.
	more := func(p, e float64) (float64, bool) {
		sum := 0.0
		for t, d := range wd.demand {
			if d > 0 {
				v, ok := l.change(d, wd.peak[t], p, e)
				if !ok {
					return 0, false
				}
				sum += hours[t] * v
			}
		}
		return sum, true
	}
	value, fits := more(0, 0)
	if !fits {
		// No room on what the plan holds and places: placed on one more
		// offer, the cheapest (committed capacity the plan does not hold has
		// no nodes to give).
		value = math.Inf(1)
		for i, q := range wd.pairs {
			pr := &in.pairs[q]
			if avail[i] || pr.dominated || in.os[pr.k].committed || in.os[pr.k].dominated {
				continue
			}
			if v, ok := more(price[i], mp.Offers[i].LimitGPUs); ok {
				value = min(value, pr.oneOff+v)
			}
		}
	}
	if peak = !math.IsInf(value, 1); peak {
		if math.Abs(value) < tol {
			value = 0
		}
		sol.peakValue[w] = value
	}
	// One more node of stock.
	stock := map[int]float64{}
	for i, q := range wd.pairs {
		k := in.pairs[q].k
		od := &in.os[k]
		if !avail[i] || od.dominated || math.IsInf(od.stock, 1) {
			continue
		}
		saving := 0.0
		if od.committed {
			if float64(sol.nodes[k]) < od.stock {
				continue // the stock leaves the plan free
			}
			saving = -od.fixedF
		}
		for t, d := range wd.demand {
			if d > 0 {
				v, _ := l.change(d, 0, price[i], od.gpn) // never short: no more demand
				saving -= hours[t] * v
			}
		}
		if saving > tol {
			stock[k] = saving
		}
	}
	sol.stockValue = stock
	return true, peak
}
