package placement

import (
	"errors"
	"fmt"
	"iter"
	"math"
	"slices"
	"strconv"

	"github.com/gputco/gputco/placement/lp"
)

// poolModel is the MILP of one pool (see the package comment for its
// equations) with the index maps that read a solution back.
type poolModel struct {
	pl   pool
	prob *lp.Problem
	// nCols are the node-count columns of each committed offer of the pool,
	// one per commitment of instance.os[k].commits (−1: none); zCol the
	// per-offer column, by index in instance.os (−1: none).
	nCols map[int][]int
	zCol  map[int]int
	// xCol[q][t] is the use column of pair q in slice t (−1: none), in 4
	// bytes (the builder's bound, maxBuilderCols): a pair's row of them is
	// as long as the slices, most of them −1 over time, and they were a
	// third of OverTimeM's model as ints. yCol[q] is the placement column
	// of pair q (−1: none).
	xCol map[int][]int32
	yCol map[int]int
	// hCol[q] is the one column of pair q's use when it is aggregated (a
	// job on unlimited pay-as-you-go capacity: its GPU-hours over the
	// horizon, see aggregated); xCol[q] is then all −1.
	hCol map[int]int
	// groups[q] are the pairs of a service whose uses share the per-slice
	// columns of their representative q, q first (see shared); vCol[q] is
	// the column of GPU-hours of each other pair of a group, whose xCol[q]
	// is then all −1.
	groups map[int][]int
	vCol   map[int]int
	// demandRow[w][t] is the demand row of service w in slice t (−1: none);
	// workRow[w] the work row of job w; stockRow[k][t] the capacity or stock
	// row of offer k in slice t (−1: none).
	demandRow map[int][]int
	workRow   map[int]int
	stockRow  map[int][]int
	// holdRow[k][s] is the row that keeps the nodes held of committed offer
	// k in segment s within its stock (−1: none needed).
	holdRow map[int][]int
	// gangCol[w][i] is the column of run i of gang w (binary: the run
	// chosen); gangRow[w] the row that chooses one.
	gangCol   map[int][]int
	gangRow   map[int]int
	budgetRow int
	// linkRow[q] is the row that links pair q's use to its placement
	// column yCol[q]; spotRow[w] the spot-share row of workload w (absent:
	// none).
	linkRow map[int]int
	spotRow map[int]int
	// rep[t] is the slice whose columns and rows stand for slice t (the
	// first of its class, see sliceClasses), mult[t] how many slices those
	// stand for (0 where rep[t] ≠ t): xCol[q][t], demandRow[w][t] and
	// stockRow[k][t] are −1 where rep[t] ≠ t.
	rep  []int
	mult []float64
}

// model builds the MILP of pool pl, its columns and rows unnamed: the
// model Solve optimises, which reads its solution by index.
func (in *instance) model(pl pool) (*poolModel, error) { return in.namedModel(pl, false) }

// namedModel builds the MILP of pool pl; with named, its columns and rows
// carry the names Model documents (for export), otherwise none — the same
// problem otherwise, bit for bit.
func (in *instance) namedModel(pl pool, named bool) (*poolModel, error) {
	T := len(in.hours)
	pm := &poolModel{pl: pl, nCols: map[int][]int{}, holdRow: map[int][]int{}, gangCol: map[int][]int{}, gangRow: map[int]int{}, zCol: map[int]int{}, xCol: map[int][]int32{}, yCol: map[int]int{}, hCol: map[int]int{},
		groups: map[int][]int{}, vCol: map[int]int{}, linkRow: map[int]int{}, spotRow: map[int]int{},
		demandRow: map[int][]int{}, workRow: map[int]int{}, stockRow: map[int][]int{}, budgetRow: -1}
	pm.rep, pm.mult = in.sliceClasses(pl)
	b := colBuilder{unnamed: !named}
	b.SetName("gputco-placement")
	// tooLarge is the error of a model past Options.MaxColumns, checked
	// after each pair's use columns: they make the model's size.
	tooLarge := func(done int) error {
		if m := in.s.MaxColumns; m > 0 && b.p.NumCols() > m {
			return fmt.Errorf("%w: the model of %d workloads has more than %d columns (Options.MaxColumns) after %d of them; fewer slices, a shorter period, fewer offers or fewer stretches make it smaller",
				ErrTooLarge, len(pl.ws), m, done)
		}
		return nil
	}
	budget := !in.s.Budget.IsZero()
	var bCols []int
	var bVals []float64
	cost := func(j int, c float64) {
		if budget && c != 0 {
			bCols, bVals = append(bCols, j), append(bVals, c)
		}
	}
	for _, k := range pl.os {
		od := &in.os[k]
		pm.zCol[k] = -1
		if od.dominated {
			continue
		}
		if od.committed {
			cols := make([]int, len(od.commits))
			for i, c := range od.commits {
				switch {
				case c.chain:
					cols[i] = -1 // bought as the others that make it (markChains)
					continue
				case in.s.overTime && c.count > 0:
					cols[i] = b.AddIntColNamed("n", c.fixedF, 0, od.stock, od.idx, c.first, c.count)
				case in.s.overTime:
					cols[i] = b.AddIntColNamed("n", c.fixedF, 0, od.stock, od.idx, c.first)
				default:
					cols[i] = b.AddIntColNamed("n", c.fixedF, 0, od.stock, od.idx)
				}
				cost(cols[i], c.fixedF)
			}
			pm.nCols[k] = cols
		}
		if od.perOfferF != 0 {
			j := b.AddIntColNamed("z", od.perOfferF, 0, 1, od.idx)
			pm.zCol[k] = j
			cost(j, od.perOfferF)
		}
	}
	// gangAt[k] are the gang runs on offer k with their columns.
	gangAt := map[int][]gangCol{}
	for i, w := range pl.ws {
		wd := &in.ws[w]
		if wd.gang {
			cols := make([]int, len(wd.runs))
			for i := range wd.runs {
				r := &wd.runs[i]
				k := in.pairs[r.q].k
				name := fmt.Sprintf("g_%d_%d_%d_%d", wd.idx, in.os[k].idx, r.gpus, r.first)
				if r.seq > 0 {
					name += "_" + itoa(r.seq)
				}
				cols[i] = b.AddIntCol(name, r.cost, 0, 1)
				cost(cols[i], r.cost)
				gangAt[k] = append(gangAt[k], gangCol{cols[i], r, in.gangHeld(r)})
			}
			pm.gangCol[w] = cols
			continue
		}
		agg := in.aggregated(w)
		grp := in.shared(w)
		member := map[int]bool{}
		for _, q := range grp[min(1, len(grp)):] {
			member[q] = true
		}
		for _, q := range in.active(w) {
			pr := &in.pairs[q]
			od := &in.os[pr.k]
			xs := make([]int32, T)
			if agg[q] {
				for t := range xs {
					xs[t] = -1
				}
				pm.hCol[q] = b.AddColNamed("h", pr.cost, 0, wd.width*in.jobHours(w, od.from), wd.idx, od.idx)
				cost(pm.hCol[q], pr.cost)
			}
			apart := agg[q] || member[q] // no column per slice
			for t := range xs {
				xs[t] = -1
				if apart {
					continue
				}
				ub := wd.width
				if wd.service {
					ub = wd.demand[t]
				}
				if !math.IsInf(od.stock, 1) {
					ub = min(ub, od.stock*od.gpn)
				}
				if ub <= 0 || wd.reps[t] <= 0 || t < od.from || pm.rep[t] != t {
					continue
				}
				c := pr.cost * in.hours[t] * wd.reps[t] * pm.mult[t]
				j := b.AddColNamed("x", c, 0, ub, wd.idx, od.idx, t)
				xs[t] = int32(j)
				cost(j, c)
			}
			pm.xCol[q] = xs
			if err := tooLarge(i); err != nil {
				return nil, err
			}
			pm.yCol[q] = -1
			if pr.oneOff != 0 || od.perOfferF != 0 {
				j := b.AddIntColNamed("y", pr.oneOff, 0, 1, wd.idx, od.idx)
				pm.yCol[q] = j
				cost(j, pr.oneOff)
			}
		}
		if grp != nil {
			pm.addShared(&b, in, w, grp, cost)
		}
	}
	if err := tooLarge(len(pl.ws)); err != nil {
		return nil, err
	}
	// Demand of services, work of jobs, width of jobs in each slice, one
	// run of each gang.
	for _, w := range pl.ws {
		wd := &in.ws[w]
		if wd.gang {
			cols := pm.gangCol[w]
			pm.gangRow[w] = b.AddRow(fmt.Sprintf("gang_%d", wd.idx), 1, 1, cols, ones(len(cols)))
			continue
		}
		act := in.active(w)
		uses := make([][]int32, len(act)) // the use columns of each active pair
		for i, q := range act {
			uses[i] = pm.xCol[q]
		}
		if wd.service {
			rows := make([]int, T)
			cols := make([]int, 0, len(act))
			for t := range rows {
				rows[t] = -1
				if wd.demand[t] <= 0 || pm.rep[t] != t {
					continue
				}
				cols = cols[:0]
				for _, xs := range uses {
					if j := xs[t]; j >= 0 {
						cols = append(cols, int(j))
					}
				}
				rows[t] = b.AddRowNamed("demand", wd.demand[t], math.Inf(1), cols, b.ones(len(cols)), wd.idx, t)
			}
			pm.demandRow[w] = rows
			pm.addSharing(&b, in, w)
			continue
		}
		var cols []int
		var vals []float64
		for _, q := range act {
			if h, ok := pm.hCol[q]; ok {
				cols, vals = append(cols, h), append(vals, in.pairs[q].rate)
			}
			for t, j := range xcols(pm.xCol[q]) {
				if j >= 0 {
					cols, vals = append(cols, j), append(vals, in.pairs[q].rate*in.hours[t]*wd.reps[t]*pm.mult[t])
				}
			}
		}
		pm.workRow[w] = b.AddRowNamed("work", wd.work, math.Inf(1), cols, vals, wd.idx)
		if len(act) > 1 {
			cols := make([]int, 0, len(act))
			for t := range T {
				cols = cols[:0]
				for _, xs := range uses {
					if j := xs[t]; j >= 0 {
						cols = append(cols, int(j))
					}
				}
				if len(cols) > 1 {
					b.AddRowNamed("width", math.Inf(-1), wd.width, cols, b.ones(len(cols)), wd.idx, t)
				}
			}
		}
		// The aggregated uses fit in what the per-slice uses leave of the
		// job's width, over the slices the aggregated offers exist in: for
		// each from f of theirs, those that exist from f on in the slices
		// from f on.
		var froms []int
		for _, q := range act {
			if _, ok := pm.hCol[q]; ok {
				froms = append(froms, in.os[in.pairs[q].k].from)
			}
		}
		slices.Sort(froms)
		froms = slices.Compact(froms)
		for i, f := range froms {
			var hs, xs []int
			var xv []float64
			for _, q := range act {
				if h, ok := pm.hCol[q]; ok && in.os[in.pairs[q].k].from >= f {
					hs = append(hs, h)
				}
			}
			for _, q := range act {
				if _, ok := pm.hCol[q]; ok {
					continue
				}
				for t, j := range xcols(pm.xCol[q]) {
					if j >= 0 && t >= f {
						xs, xv = append(xs, j), append(xv, in.hours[t]*wd.reps[t]*pm.mult[t])
					}
				}
			}
			// One column alone is within its upper bound.
			if len(hs) > 1 || len(hs) == 1 && len(xs) > 0 {
				cols, vals := append(hs, xs...), append(ones(len(hs)), xv...)
				if i == 0 {
					b.AddRowNamed("widthh", math.Inf(-1), wd.width*in.jobHours(w, f), cols, vals, wd.idx)
				} else {
					b.AddRowNamed("widthh", math.Inf(-1), wd.width*in.jobHours(w, f), cols, vals, wd.idx, f)
				}
			}
		}
	}
	// Capacity of committed offers and stock of pay-as-you-go ones, in
	// every slice: the use of every workload on the offer together.
	for _, k := range pl.os {
		od := &in.os[k]
		if od.dominated || !od.committed && math.IsInf(od.stock, 1) {
			continue
		}
		gangs := in.holdGangs(&b, k, gangAt[k]) // gang.go: the runs' GPUs held in each stretch
		rows := make([]int, T)
		var uses [][]int32 // the use columns of the offer's pairs in the model
		for _, q := range od.pairs {
			if xs, ok := pm.xCol[q]; ok {
				uses = append(uses, xs)
			}
		}
		var cols []int
		var vals []float64
		for t := range T {
			rows[t] = -1
			if pm.rep[t] != t {
				continue
			}
			cols, vals = cols[:0], vals[:0]
			for _, xs := range uses {
				if xs[t] >= 0 {
					cols, vals = append(cols, int(xs[t])), append(vals, 1)
				}
			}
			most := b.sumUpper(cols)
			// Gangs hold their nodes in every slice of a stretch: the most
			// their runs hold at once in it.
			cols, vals, most = gangs.slice(in.seg[t], cols, vals, most)
			if len(cols) == 0 {
				continue
			}
			up := od.stock * od.gpn
			if od.committed {
				for i, c := range od.commits {
					if j := pm.nCols[k][i]; j >= 0 && c.covers(in.seg[t]) {
						cols, vals = append(cols, j), append(vals, -od.gpn)
					}
				}
				up = 0
			} else if up >= most {
				continue // the stock cannot bind
			}
			rows[t] = b.AddRowNamed("cap", math.Inf(-1), up, cols, vals, od.idx, t)
		}
		pm.stockRow[k] = rows
		if !od.committed || math.IsInf(od.stock, 1) {
			continue
		}
		// Over time, commitments that overlap share the stock, in the
		// tails they pay for past the stretches they serve too.
		hold := make([]int, len(in.segs))
		for s := range hold {
			hold[s] = -1
			var cols []int
			for i, c := range od.commits {
				if j := pm.nCols[k][i]; j >= 0 && c.holds(s) {
					cols = append(cols, j)
				}
			}
			if len(cols) > 1 {
				hold[s] = b.AddRowNamed("hold", math.Inf(-1), od.stock, cols, b.ones(len(cols)), od.idx, s)
			}
		}
		pm.holdRow[k] = hold
	}
	// A placement's one-off cost is paid when it is used at all: its use
	// over the horizon is at most its largest possible use times y.
	var linkCols []int
	var linkVals []float64
	for _, w := range pl.ws {
		wd := &in.ws[w]
		if wd.gang {
			// A gang's runs on an offer with a per-offer cost pay it.
			on := map[int][]int{}
			for i, r := range wd.runs {
				if k := in.pairs[r.q].k; pm.zCol[k] >= 0 {
					on[k] = append(on[k], pm.gangCol[w][i])
				}
			}
			for _, k := range pl.os {
				if cols := on[k]; len(cols) > 0 {
					vals := ones(len(cols))
					cols, vals = append(cols, pm.zCol[k]), append(vals, -1)
					b.AddRow(fmt.Sprintf("peroffer_%d_%d", wd.idx, in.os[k].idx), math.Inf(-1), 0, cols, vals)
				}
			}
			continue
		}
		for _, q := range in.active(w) {
			y := pm.yCol[q]
			if y < 0 {
				continue
			}
			cols, vals := linkCols[:0], linkVals[:0] // (AddRowNamed copies them)
			big := 0.0
			if h, ok := pm.hCol[q]; ok {
				cols, vals = append(cols, h), append(vals, 1)
				big = b.p.ColUpper[h]
			}
			if v, ok := pm.vCol[q]; ok {
				cols, vals = append(cols, v), append(vals, 1)
				big = b.p.ColUpper[v]
			}
			for t, j := range xcols(pm.xCol[q]) {
				if j < 0 {
					continue
				}
				h := in.hours[t] * wd.reps[t] * pm.mult[t]
				cols, vals = append(cols, j), append(vals, h)
				big += h * b.p.ColUpper[j]
			}
			// A representative's own GPU-hours are its columns' less the
			// other pairs' of its group.
			for _, m := range pm.groups[q][min(1, len(pm.groups[q])):] {
				cols, vals = append(cols, pm.vCol[m]), append(vals, -1)
			}
			if !wd.service {
				big = min(big, wd.work/in.pairs[q].rate)
			}
			if len(cols) == 0 {
				continue
			}
			for i := range vals { // scaled: Σ (Δr/M)·x − y ≤ 0
				vals[i] /= big
			}
			cols, vals = append(cols, y), append(vals, -1)
			linkCols, linkVals = cols, vals
			pm.linkRow[q] = b.AddRowNamed("link", math.Inf(-1), 0, cols, vals, wd.idx, in.os[in.pairs[q].k].idx)
			if z := pm.zCol[in.pairs[q].k]; z >= 0 {
				b.AddRowNamed("peroffer", math.Inf(-1), 0, []int{y, z}, []float64{1, -1}, wd.idx, in.os[in.pairs[q].k].idx)
			}
		}
	}
	// A credit (negative per-offer cost) only where the offer is used.
	for _, k := range pl.os {
		z := pm.zCol[k]
		if z < 0 || in.os[k].perOfferF >= 0 {
			continue
		}
		cols, vals := []int{z}, []float64{1}
		for _, q := range in.os[k].pairs {
			if y, ok := pm.yCol[q]; ok && y >= 0 && pm.xCol[q] != nil {
				cols, vals = append(cols, y), append(vals, -1)
			}
		}
		for _, g := range gangAt[k] {
			cols, vals = append(cols, g.j), append(vals, -1)
		}
		b.AddRow(fmt.Sprintf("used_%d", in.os[k].idx), math.Inf(-1), 0, cols, vals)
	}
	// At most MaxSpotShare of each workload's demand on interruptible
	// capacity.
	if sh := in.s.MaxSpotShare; sh > 0 {
		for _, w := range pl.ws {
			wd := &in.ws[w]
			var cols []int
			var vals []float64
			if wd.gang { // all of a gang's work or none on spot
				for i, r := range wd.runs {
					if in.os[in.pairs[r.q].k].spot {
						cols, vals = append(cols, pm.gangCol[w][i]), append(vals, wd.work)
					}
				}
			}
			for _, q := range in.active(w) {
				if !in.os[in.pairs[q].k].spot {
					continue
				}
				if h, ok := pm.hCol[q]; ok {
					cols, vals = append(cols, h), append(vals, in.pairs[q].rate)
				}
				for t, j := range xcols(pm.xCol[q]) {
					if j < 0 {
						continue
					}
					v := in.hours[t] * wd.reps[t] * pm.mult[t]
					if !wd.service {
						v *= in.pairs[q].rate
					}
					cols, vals = append(cols, j), append(vals, v)
				}
			}
			if len(cols) == 0 {
				continue
			}
			total := wd.work
			if wd.service {
				total = 0
				for t, d := range wd.demand {
					total += d * in.hours[t] * wd.reps[t]
				}
			}
			pm.spotRow[w] = b.AddRowNamed("spot", math.Inf(-1), sh*total, cols, vals, wd.idx)
		}
	}
	if budget {
		bf, _ := in.s.Budget.Float64()
		pm.budgetRow = b.AddRow("budget", math.Inf(-1), bf-in.budgetSlack, bCols, bVals)
	}
	p, err := b.Problem()
	if errors.Is(err, ErrTooLarge) {
		return nil, err
	}
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrSolver, err)
	}
	pm.prob = p
	return pm, nil
}

// ones returns n ones.
func ones(n int) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = 1
	}
	return v
}

// colBuilder assembles an lp.Problem: columns one by one, rows with their
// entries in order. Rows arrive in ascending order, so a stable counting
// sort by column gives each column's rows ascending: O(nnz), no sorting.
// Its slices double as they grow (append's growth of large slices is a
// quarter: four times the copying) and are copied to their length at the
// end, so that the problem does not keep the room they grew into; the
// entries are kept row by row in chunks that are never copied (row i's
// are entries rowStart[i] to rowStart[i+1]−1, in order), a column as 4
// bytes and a value as 8 unless every value of its row is 1 (more than
// half of a model's entries: its rows of capacity, demand, stock); and the
// names are bytes, one string for all the columns' and one for the rows'
// made at the end. The entries and the matrix made of them are the largest
// part of a model (L's 36 million entries: 280 MB, then 440 MB), and they
// are both held while Problem makes the matrix.
type colBuilder struct {
	p        lp.Problem // its columns' and rows' bounds, costs, integrality
	rowStart []int
	unit     []bool // unit[i]: every value of row i is 1, and not kept
	// eCol are the entries' columns, in chunks each full but the last;
	// eVal the values of the entries of the rows not unit, in order, in
	// chunks of their own.
	eCol [][]int32
	eVal [][]float64
	nnz  int
	// colNames holds the columns' names one after the other, column j's
	// ending at colEnd[j]; rowNames and rowEnd the rows'.
	colNames, rowNames []byte
	colEnd, rowEnd     []int
	// unnamed leaves the names out: the problem's ColNames and RowNames
	// are nil.
	unnamed bool
	ints    bool
	one     []float64 // ones, for rows of unit coefficients
	// fillCols is the fewest columns per goroutine of Problem's fill;
	// zero means minFillCols. (The tests set it low.)
	fillCols int
}

// maxChunk is the most entries of a chunk: the chunks double from 256 up
// to it, so that a small model stays small and a large one allocates its
// entries once.
const maxChunk = 1 << 14

// grown returns s with room for one more element: doubled when full.
func grown[T any](s []T) []T {
	if len(s) < cap(s) {
		return s
	}
	return slices.Grow(s, max(len(s), 16))
}

// add appends the entry (j, v), v kept unless its row is unit. (Problem
// refuses a builder of more than maxBuilderCols columns, whose entries
// this would not hold.)
func (b *colBuilder) add(j int, v float64, unit bool) {
	b.eCol = appendChunked(b.eCol, int32(j))
	if !unit {
		b.eVal = appendChunked(b.eVal, v)
	}
	b.nnz++
}

// appendChunked appends v to the last chunk of cs, or to a new chunk when
// it is full.
func appendChunked[T any](cs [][]T, v T) [][]T {
	last := len(cs) - 1
	if last < 0 || len(cs[last]) == cap(cs[last]) {
		n := 256
		if last >= 0 {
			n = min(2*cap(cs[last]), maxChunk)
		}
		cs = append(cs, make([]T, 0, n))
		last++
	}
	cs[last] = append(cs[last], v)
	return cs
}

// minFillCols is the fewest columns per goroutine of Problem's fill.
const minFillCols = 1 << 16

// maxBuilderCols is the most columns a colBuilder holds: its entries keep
// a column in 4 bytes. (A model that wide would need hundreds of
// gigabytes.)
const maxBuilderCols = math.MaxInt32

// SetName sets the problem's name.
func (b *colBuilder) SetName(name string) { b.p.Name = name }

// AddCol adds a continuous column and returns its index.
func (b *colBuilder) AddCol(name string, cost, lower, upper float64) int {
	if !b.unnamed {
		b.colNames = append(b.colNames, name...)
	}
	return b.addCol(cost, lower, upper)
}

// AddColNamed is AddCol of the column named prefix_id₁_id₂… (the ids in
// decimal), without making the name a string of its own.
func (b *colBuilder) AddColNamed(prefix string, cost, lower, upper float64, ids ...int) int {
	if !b.unnamed {
		b.colNames = appendName(b.colNames, prefix, ids)
	}
	return b.addCol(cost, lower, upper)
}

// addCol adds the column whose name ends colNames.
func (b *colBuilder) addCol(cost, lower, upper float64) int {
	p := &b.p
	p.Cost = append(grown(p.Cost), cost)
	p.ColLower = append(grown(p.ColLower), lower)
	p.ColUpper = append(grown(p.ColUpper), upper)
	p.Integer = append(grown(p.Integer), false)
	if !b.unnamed {
		b.colEnd = append(grown(b.colEnd), len(b.colNames))
	}
	return len(p.Cost) - 1
}

// AddIntCol adds an integer column and returns its index.
func (b *colBuilder) AddIntCol(name string, cost, lower, upper float64) int {
	j := b.AddCol(name, cost, lower, upper)
	b.p.Integer[j], b.ints = true, true
	return j
}

// AddIntColNamed is AddIntCol of the column named as AddColNamed names it.
func (b *colBuilder) AddIntColNamed(prefix string, cost, lower, upper float64, ids ...int) int {
	j := b.AddColNamed(prefix, cost, lower, upper, ids...)
	b.p.Integer[j], b.ints = true, true
	return j
}

// AddRow adds the row lower ≤ Σ vals·x[cols] ≤ upper (each column at most
// once) and returns its index. It keeps neither cols nor vals.
func (b *colBuilder) AddRow(name string, lower, upper float64, cols []int, vals []float64) int {
	if !b.unnamed {
		b.rowNames = append(b.rowNames, name...)
	}
	return b.addRow(lower, upper, cols, vals)
}

// AddRowNamed is AddRow of the row named prefix_id₁_id₂… (the ids in
// decimal).
func (b *colBuilder) AddRowNamed(prefix string, lower, upper float64, cols []int, vals []float64, ids ...int) int {
	if !b.unnamed {
		b.rowNames = appendName(b.rowNames, prefix, ids)
	}
	return b.addRow(lower, upper, cols, vals)
}

// addRow adds the row whose name ends rowNames.
func (b *colBuilder) addRow(lower, upper float64, cols []int, vals []float64) int {
	p := &b.p
	i := len(p.RowLower)
	p.RowLower = append(grown(p.RowLower), lower)
	p.RowUpper = append(grown(p.RowUpper), upper)
	if !b.unnamed {
		b.rowEnd = append(grown(b.rowEnd), len(b.rowNames))
	}
	if b.rowStart == nil {
		b.rowStart = append(b.rowStart, 0)
	}
	unit := true
	for _, v := range vals {
		if v != 0 && v != 1 {
			unit = false
			break
		}
	}
	b.unit = append(grown(b.unit), unit)
	for k, j := range cols {
		if vals[k] != 0 {
			b.add(j, vals[k], unit)
		}
	}
	b.rowStart = append(grown(b.rowStart), b.nnz)
	return i
}

// ones returns n ones, valid until its next call.
func (b *colBuilder) ones(n int) []float64 {
	for len(b.one) < n {
		b.one = append(b.one, 1)
	}
	return b.one[:n]
}

// appendName appends prefix_id₁_id₂… to buf.
func appendName(buf []byte, prefix string, ids []int) []byte {
	if room := len(prefix) + 21*len(ids); cap(buf)-len(buf) < room { // doubled when full
		buf = slices.Grow(buf, max(len(buf), room, 256))
	}
	buf = append(buf, prefix...)
	for _, id := range ids {
		buf = strconv.AppendInt(append(buf, '_'), int64(id), 10)
	}
	return buf
}

// names splits the names held in buf, the i-th ending at end[i], into
// strings of one string's bytes.
func names(buf []byte, end []int) []string {
	all := string(buf)
	out := make([]string, len(end))
	from := 0
	for i, e := range end {
		out[i], from = all[from:e], e
	}
	return out
}

// Problem returns the assembled problem, validated. It takes the
// builder's columns and rows: the builder is not used after it.
func (b *colBuilder) Problem() (*lp.Problem, error) {
	p := b.p
	if len(p.Cost) > maxBuilderCols {
		return nil, fmt.Errorf("%w: %d columns, more than %d", ErrTooLarge, len(p.Cost), maxBuilderCols)
	}
	if len(p.RowLower) > lp.MaxRows {
		return nil, fmt.Errorf("%w: %d rows, more than %d", ErrTooLarge, len(p.RowLower), lp.MaxRows)
	}
	if !b.ints {
		p.Integer = nil
	}
	// Copies of their lengths, made before the matrix and without the
	// builder's hold on the originals: the problem does not keep the room
	// the builder's slices grew into (up to as much again), and a
	// collection while the matrix is allocated may reclaim them.
	p.Cost, p.ColLower, p.ColUpper = slices.Clone(p.Cost), slices.Clone(p.ColLower), slices.Clone(p.ColUpper)
	p.Integer = slices.Clone(p.Integer)
	p.RowLower, p.RowUpper = slices.Clone(p.RowLower), slices.Clone(p.RowUpper)
	b.p = lp.Problem{Name: p.Name}
	if b.colEnd != nil {
		p.ColNames = names(b.colNames, b.colEnd)
	}
	if b.rowEnd != nil {
		p.RowNames = names(b.rowNames, b.rowEnd)
	}
	n := len(p.Cost)
	a := lp.Matrix{Rows: len(p.RowLower), Cols: n, Start: make([]int, n+1),
		Index: make([]int32, b.nnz), Value: make([]float64, b.nnz)}
	// Start[j+1] first counts the entries of column j−1, then, summed, is
	// where column j's entries begin; the fill moves it on to where they
	// end, which is where column j+1's begin: no array of next places.
	start := a.Start
	for _, c := range b.eCol {
		for _, j := range c {
			if int(j)+2 <= n {
				start[j+2]++
			}
		}
	}
	for j := 2; j <= n; j++ {
		start[j] += start[j-1]
	}
	// The fill's writes land anywhere in the matrix: they wait on memory,
	// not on the core. Each goroutine reads every entry and places those
	// of its own range of columns (each column's in the same order).
	per := minFillCols
	if b.fillCols > 0 {
		per = b.fillCols
	}
	parts := workers(n / per)
	inParallel(parts, func(part, _ int) {
		lo, hi := int32(n*part/parts), int32(n*(part+1)/parts)
		i, e := 0, 0   // entry e is in row i
		vc, vk := 0, 0 // the next value kept is b.eVal[vc][vk]
		for _, cols := range b.eCol {
			for _, j := range cols {
				for e >= b.rowStart[i+1] {
					i++
				}
				e++
				v := 1.0
				if !b.unit[i] {
					if vk == len(b.eVal[vc]) {
						vc, vk = vc+1, 0
					}
					v = b.eVal[vc][vk]
					vk++
				}
				if j < lo || j >= hi {
					continue
				}
				at := start[j+1]
				a.Index[at], a.Value[at] = int32(i), v
				start[j+1]++
			}
		}
	})
	p.A = a
	if err := p.Validate(); err != nil {
		return nil, err
	}
	return &p, nil
}

// sumUpper returns the sum of the upper bounds of cols.
func (b *colBuilder) sumUpper(cols []int) float64 {
	s := 0.0
	for _, j := range cols {
		s += b.p.ColUpper[j]
	}
	return s
}

// modelDuals are the marginal values read from the relaxation's duals.
type modelDuals struct {
	stock map[int]float64 // money saved per extra node of stock, by offer
	peak  map[int]float64 // cost of one more GPU of peak (or GPU-hour of work), by workload
}

// duals reads the marginal values from an optimal relaxation r: the value
// of an offer's stock (stockValue: the duals of every bound and row the
// stock is in); one more GPU of a service's peak
// raises every slice's demand by the slice's peak fraction.
func (pm *poolModel) duals(in *instance, r *lp.Result) modelDuals {
	d := modelDuals{stock: map[int]float64{}, peak: map[int]float64{}}
	if r.RowDual == nil {
		return d
	}
	for _, k := range pm.pl.os {
		if v := pm.stockValue(in, r, k); v > 1e-9 {
			d.stock[k] = v
		}
	}
	for _, w := range pm.pl.ws {
		wd := &in.ws[w]
		v := 0.0
		if wd.service {
			for t, i := range pm.demandRow[w] {
				if i >= 0 {
					v += r.RowDual[i] * wd.peak[t]
				}
			}
		} else if !wd.gang {
			v = r.RowDual[pm.workRow[w]]
		}
		d.peak[w] = v
	}
	return d
}

// solution reads a pool's plan from a MILP point x of objective cost, the
// aggregated and shared uses lifted back to GPUs per slice of every pair
// (spread, share).
func (pm *poolModel) solution(in *instance, x []float64, cost, bound float64) *poolSolution {
	sol := &poolSolution{nodes: map[int]int{}, held: map[int][]int{}, use: map[int][]float64{}, used: map[int]bool{}, perOf: map[int]bool{},
		gang: map[int]int{}, cost: cost, bound: bound}
	for w, cols := range pm.gangCol {
		for i, j := range cols {
			if x[j] <= 0.5 {
				continue
			}
			r := &in.ws[w].runs[i]
			sol.gang[w] = i
			sol.used[r.q], sol.use[r.q] = true, in.gangSlices(r)
		}
	}
	for k, cols := range pm.nCols {
		held := make([]int, len(cols))
		any := false
		for i, j := range cols {
			if j >= 0 {
				held[i] = int(math.Round(x[j]))
				any = any || held[i] > 0
			}
		}
		if !any {
			continue
		}
		sol.held[k] = held
		od := &in.os[k]
		for s := range in.segs {
			sol.nodes[k] = max(sol.nodes[k], heldAt(od, held, s))
		}
	}
	for k, j := range pm.zCol {
		if j >= 0 && x[j] > 0.5 {
			sol.perOf[k] = true
		}
	}
	spread := pm.spread(in, x)
	for q, u := range pm.share(in, x) {
		spread[q] = u
	}
	for q, xs := range pm.xCol {
		u := make([]float64, len(xs))
		any := false
		for t := range xs {
			if j := xs[pm.rep[t]]; j >= 0 && x[j] > 1e-12 {
				u[t], any = x[j], true
			}
		}
		if _, ok := pm.groups[q]; ok { // its columns are the group's use
			u, any = make([]float64, len(xs)), false
		}
		if s, ok := spread[q]; ok {
			u, any = s, true
		}
		placed := any
		if y := pm.yCol[q]; y >= 0 {
			placed = x[y] > 0.5
		}
		if placed {
			sol.used[q] = true
			sol.use[q] = u
		}
	}
	// A job does its work and no more: where free capacity let the solver
	// do more (a degenerate optimum), its use is scaled down, which costs no
	// more and keeps every constraint; where the solver's point falls short
	// of the work within its feasibility tolerance (rows whose coefficients
	// count a slice class's repetitions magnify a 1e-9 error in a use), it
	// is scaled up to the work, moving no use by more than that tolerance.
	for _, w := range pm.pl.ws {
		wd := &in.ws[w]
		if wd.service || wd.gang {
			continue
		}
		done := 0.0
		for _, q := range wd.pairs {
			for t, v := range sol.use[q] {
				done += in.pairs[q].rate * in.hours[t] * wd.reps[t] * v
			}
		}
		if done > wd.work*(1+1e-9) || (done < wd.work && done >= wd.work*(1-1e-7)) {
			f := wd.work / done
			for _, q := range wd.pairs {
				for t := range sol.use[q] {
					sol.use[q][t] *= f
				}
			}
		}
	}
	return sol
}

// itoa is strconv.Itoa.
func itoa(i int) string { return strconv.Itoa(i) }

// addShared adds the column of GPU-hours of each pair of service w's group
// grp but its representative grp[0] (see shared): at most the GPU-hours
// the representative's columns can carry from the pair's from on, at the
// pair's cost less the representative's. A pair that no slice of the
// group's can carry gets none and leaves the group.
func (pm *poolModel) addShared(b *colBuilder, in *instance, w int, grp []int, cost func(j int, c float64)) {
	wd := &in.ws[w]
	rq := grp[0]
	kept := []int{rq}
	for _, q := range grp[1:] {
		pr := &in.pairs[q]
		od := &in.os[pr.k]
		big := 0.0
		for t, j := range xcols(pm.xCol[rq]) {
			if j >= 0 && t >= od.from {
				big += in.hours[t] * wd.reps[t] * pm.mult[t] * b.p.ColUpper[j]
			}
		}
		if big <= 0 {
			continue
		}
		c := pr.cost - in.pairs[rq].cost
		pm.vCol[q] = b.AddColNamed("v", c, 0, big, wd.idx, od.idx)
		cost(pm.vCol[q], c)
		kept = append(kept, q)
	}
	if len(kept) > 1 {
		pm.groups[rq] = kept
	}
}

// addSharing adds the sharing rows of service w's group (see shared): for
// each from f of its pairs but the representative, the GPU-hours of those
// that exist only from f on are at most the group's use from f on.
func (pm *poolModel) addSharing(b *colBuilder, in *instance, w int) {
	var grp []int
	for _, q := range in.ws[w].pairs {
		if g, ok := pm.groups[q]; ok {
			grp = g
		}
	}
	if grp == nil {
		return
	}
	wd := &in.ws[w]
	rq := grp[0]
	var froms []int
	for _, q := range grp[1:] {
		froms = append(froms, in.os[in.pairs[q].k].from)
	}
	slices.Sort(froms)
	froms = slices.Compact(froms)
	for _, f := range froms {
		var cols []int
		var vals []float64
		for _, q := range grp[1:] {
			if in.os[in.pairs[q].k].from >= f {
				cols, vals = append(cols, pm.vCol[q]), append(vals, 1)
			}
		}
		for t, j := range xcols(pm.xCol[rq]) {
			if j >= 0 && t >= f {
				cols, vals = append(cols, j), append(vals, -in.hours[t]*wd.reps[t]*pm.mult[t])
			}
		}
		b.AddRowNamed("share", math.Inf(-1), 0, cols, vals, wd.idx, f)
	}
}

// xcols yields the slices of a pair's row of xCol and their use columns as
// ints (−1: none).
func xcols(xs []int32) iter.Seq2[int, int] {
	return func(yield func(int, int) bool) {
		for t, j := range xs {
			if !yield(t, int(j)) {
				return
			}
		}
	}
}
