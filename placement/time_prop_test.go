package placement_test

import (
	"errors"
	"flag"
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/gputco/gputco/placement"
	"github.com/gputco/gputco/provider"
	"github.com/gputco/gputco/workload"
	"pgregory.net/rapid"
)

// timeCase is a small portfolio planned over six monthly epochs, drawn by
// rapid: services on a daily schedule growing by rate a year, a
// checkpointed job, offers of each kind with lead times in whole months
// (so that they fall on epoch boundaries and the stretches do not depend
// on them), and an unlimited on-demand backstop without lead time.
type timeCase struct {
	// flat services have a constant base (tco then prices a growing curve
	// in closed form rather than integrating it).
	flat   bool
	levels [][]float64
	gpus   []int
	growth float64
	job    *workload.Workload
	gang   *workload.Workload
	offers []timeOffer
}

type timeOffer struct {
	mode, gpn, stock, leadMonths int
	rate                         float64
}

const timeHorizon = 6 * provider.Month

// maxGrowth bounds the drawn growth; the curves are scaled so that demand
// at the horizon's end stays within the workload's GPUs at that rate.
const maxGrowth = 1.0

func drawTimeCase(t *rapid.T) timeCase {
	var c timeCase
	for range rapid.IntRange(1, 2).Draw(t, "services") {
		var lv []float64
		for range 4 {
			lv = append(lv, rapid.Float64Range(0, 1).Draw(t, "level"))
		}
		c.levels = append(c.levels, lv)
		c.gpus = append(c.gpus, rapid.IntRange(1, 16).Draw(t, "peak GPUs"))
	}
	if rapid.Bool().Draw(t, "growing") {
		c.growth = rapid.Float64Range(0, maxGrowth).Draw(t, "growth")
	}
	if rapid.Bool().Draw(t, "job") {
		w := batch("job", rapid.IntRange(1, 8).Draw(t, "job GPUs"), 0, 0)
		days := 180
		if rapid.Bool().Draw(t, "deadline") {
			days = rapid.IntRange(20, 180).Draw(t, "deadline days")
			w.Deadline = time.Duration(days) * 24 * time.Hour
		}
		// At most half of what its gang could do before the deadline.
		w.WorkGPUHours = rapid.Float64Range(0.01, 0.5).Draw(t, "work share") * float64(w.GPUs*days*24)
		c.job = &w
	}
	for i := range rapid.IntRange(1, 3).Draw(t, "offers") {
		l := fmt.Sprintf("offer %d ", i)
		c.offers = append(c.offers, timeOffer{
			mode: rapid.IntRange(0, 4).Draw(t, l+"mode"), gpn: rapid.SampledFrom([]int{1, 2, 4}).Draw(t, l+"GPUs per node"),
			stock: rapid.IntRange(0, 6).Draw(t, l+"stock"), leadMonths: rapid.IntRange(0, 7).Draw(t, l+"lead months"),
			rate: rapid.Float64Range(0.8, 5).Draw(t, l+"rate per GPU-hour")})
	}
	return c
}

// problem builds the case's problem at growth g.
func (c timeCase) problem(g float64) placement.Problem {
	var ws []workload.Workload
	end := math.Pow(1+maxGrowth, timeHorizon.Hours()/provider.Year.Hours())
	for i, lv := range c.levels {
		var st []workload.Step
		for h, v := range lv {
			st = append(st, workload.Step{Start: time.Duration(6*h) * time.Hour, Value: v})
		}
		var base workload.Curve = workload.Steps{Cycle: workload.Day, Steps: st}
		if c.flat {
			base = workload.Constant{Value: lv[0]}
		}
		var curve workload.Curve = workload.Scale{Curve: base, Factor: 1 / end}
		if c.flat {
			curve = workload.Constant{Value: lv[0] / end}
		}
		if g > 0 {
			curve = workload.Growth{Base: curve, RatePerYear: g, Compound: true}
		}
		ws = append(ws, workload.Workload{Name: fmt.Sprintf("svc%d", i), Kind: workload.Inference, GPUs: c.gpus[i],
			Horizon: timeHorizon, Demand: curve,
			Interruption: workload.Interruption{Tolerance: workload.Stateless}})
	}
	if c.job != nil {
		ws = append(ws, *c.job)
	}
	var os []provider.Offer
	for i, d := range c.offers {
		r := money(d.rate * float64(d.gpn))
		var o provider.Offer
		id := fmt.Sprintf("o%d", i)
		switch d.mode {
		case 0:
			o = node(id, provider.Reserved{Term: provider.Month, RecurringPerHour: r}, d.gpn, d.stock)
		case 1:
			o = node(id, provider.Reserved{Term: provider.Year, RecurringPerHour: r}, d.gpn, d.stock)
		case 2:
			o = node(id, provider.ProRata(r), d.gpn, d.stock)
		case 3:
			o = node(id, provider.Spot{RatePerHour: r}, d.gpn, d.stock)
		default:
			o = node(id, provider.Owned{PurchasePerNode: r.Mul(dec("9000")), UsefulLifeYears: 3, IdlePowerKW: 1, MaxPowerKW: 2,
				EnergyPerKWh: dec("0.1")}, d.gpn, d.stock)
		}
		o.Availability.LeadTime = time.Duration(d.leadMonths) * provider.Month
		os = append(os, fabric(o))
	}
	os = append(os, fabric(onDemand("backstop", "9", 1, 0)))
	if c.gang != nil {
		ws = append(ws, *c.gang)
	}
	a := bare()
	a.Horizon = timeHorizon
	return placement.Problem{Workloads: ws, Offers: os, Assumptions: a,
		Options: placement.Options{Epoch: provider.Month, Period: workload.Day, Slices: 4, Gap: 1e-9}}
}

// checkOverTime checks a plan over time against its problem independently
// of the solver: every stretch's demand (sampled at the stretch's start) is
// met in every slice, committed capacity used within the nodes held, and no
// offer used or held before its lead time. In a stretch shorter than the
// period (a job's deadline near another cut), a slice that starts at or
// after its end needs nothing (its demand is the next stretch's), and one
// that reaches past it needs the curve's peak over its part before the
// end (workload.DiscretizeFrom over the part).
func checkOverTime(t *rapid.T, p placement.Problem, plan placement.Plan) {
	if len(plan.Unplaced) > 0 {
		t.Fatalf("unplaced %v", plan.Unplaced[0].Err)
	}
	offers := map[string]provider.Offer{}
	for _, o := range p.Offers {
		offers[o.ID] = o
	}
	T := plan.Slices
	for s, e := range plan.Epochs {
		held := map[string]int{}
		for _, h := range e.Held {
			held[h.Offer] = h.Nodes
			if lt := offers[h.Offer].LeadTime(); e.Start < lt {
				t.Fatalf("%s: %d nodes held in %v–%v, before its lead time %v", h.Offer, h.Nodes, e.Start, e.End, lt)
			}
		}
		on := map[string][]float64{}
		for i, a := range plan.Assignments {
			w := p.Workloads[i]
			got := make([]float64, T)
			for _, u := range a.Uses {
				o := offers[u.Offer]
				if on[u.Offer] == nil {
					on[u.Offer] = make([]float64, T)
				}
				for j := range T {
					g := u.GPUs[s*T+j]
					if g > 1e-9 && e.Start < o.LeadTime() {
						t.Fatalf("%s uses %s in %v–%v, before its lead time %v", w.Name, u.Offer, e.Start, e.End, o.LeadTime())
					}
					got[j] += g
					on[u.Offer][j] += g
				}
			}
			if !w.IsService() {
				continue
			}
			sl, err := workload.Discretize(workload.Shift{Curve: w.Demand, Offset: e.Start}, plan.Period, T)
			if err != nil {
				t.Fatal(err)
			}
			for j, x := range sl {
				need := x.Peak * float64(w.GPUs)
				if from, to := e.Start+slotStart(plan.Period, j, T), e.Start+slotStart(plan.Period, j+1, T); from >= e.End {
					need = 0
				} else if to > e.End {
					head, err := workload.DiscretizeFrom(w.Demand, from, e.End-from, 1)
					if err != nil {
						t.Fatal(err)
					}
					need = head[0].Peak * float64(w.GPUs)
				}
				if need >= 1e-6 && got[j] < need-1e-6*max(1, need) {
					t.Fatalf("%s: %v–%v slice %d gets %g GPUs, needs %g", w.Name, e.Start, e.End, j, got[j], need)
				}
			}
		}
		for id, use := range on {
			o := offers[id]
			if _, committed := held[id]; !committed && o.Pricing.Mode() == "pay-as-you-go" {
				continue
			}
			limit := float64(held[id] * o.GPUsPerNode)
			switch o.Pricing.(type) {
			case provider.Reserved, provider.Owned:
			default:
				continue // pay-as-you-go
			}
			for j, g := range use {
				if g > limit+1e-6*max(1, limit)+1e-6*float64(o.GPUsPerNode) {
					t.Fatalf("%s: %g GPUs used in %v–%v slice %d, %g held", id, g, e.Start, e.End, j, limit)
				}
			}
		}
	}
}

// propLeadTime: a plan never uses or holds capacity before its lead time,
// and more lead time on one offer never lowers the optimum.
func propLeadTime(t *rapid.T) {
	c := drawTimeCase(t)
	c.flat = c.growth > 0
	p := c.problem(c.growth)
	plan := solveProp(t, p)
	checkOverTime(t, p, plan)
	k := rapid.IntRange(0, len(c.offers)-1).Draw(t, "offer delayed")
	c.offers[k].leadMonths += rapid.IntRange(1, 3).Draw(t, "more lead months")
	q := c.problem(c.growth)
	later := solveProp(t, q)
	checkOverTime(t, q, later)
	if a, b := optimumAtMost(plan, later); a > b+1e-6*max(1, a) {
		t.Fatalf("more lead time on %s lowered the optimum: %.6f → %.6f", q.Offers[k].ID, a, b)
	}
}

// propGrowth: faster growth of demand never lowers the optimum.
func propGrowth(t *rapid.T) {
	c := drawTimeCase(t)
	c.flat = true
	p := c.problem(c.growth)
	plan := solveProp(t, p)
	checkOverTime(t, p, plan)
	g := rapid.Float64Range(c.growth, maxGrowth).Draw(t, "faster growth")
	q := c.problem(g)
	faster := solveProp(t, q)
	checkOverTime(t, q, faster)
	if a, b := optimumAtMost(plan, faster); a > b+1e-6*max(1, a) {
		t.Fatalf("growth %g → %g lowered the optimum: %.6f → %.6f", c.growth, g, a, b)
	}
}

func TestLeadTime(t *testing.T) { checkFew(t, propLeadTime) }

func FuzzLeadTime(f *testing.F) { f.Fuzz(rapid.MakeFuzz(propLeadTime)) }

func TestGrowth(t *testing.T) { checkFew(t, propGrowth) }

func FuzzGrowth(f *testing.F) { f.Fuzz(rapid.MakeFuzz(propGrowth)) }

// checkFew is rapid.Check with half the default cases in -short mode (the
// race pass), where rapid runs a fifth of them: 10 cases of two solves.
func checkFew(t *testing.T, prop func(*rapid.T)) {
	if f := flag.Lookup("rapid.checks"); testing.Short() && f != nil && f.Value.String() == f.DefValue {
		if err := f.Value.Set("50"); err == nil {
			defer f.Value.Set(f.DefValue)
		}
	}
	rapid.Check(t, prop)
}

// drawGang adds a gang training run to c: 1 to 16 GPUs, maybe a range of
// sizes, 1 to 60 days of work, a deadline of 5 to 180 days.
func drawGang(t *rapid.T, c *timeCase) {
	gpus := rapid.IntRange(1, 16).Draw(t, "gang GPUs")
	w := pretrain("gang", gpus, rapid.Float64Range(1, 60).Draw(t, "gang days"),
		time.Duration(rapid.IntRange(5, 180).Draw(t, "gang deadline days"))*24*time.Hour)
	if rapid.Bool().Draw(t, "gang range") {
		w.GangSizes = workload.GangSizes{MinGPUs: max(1, gpus/2), MaxGPUs: 2 * gpus}
	}
	c.gang = &w
}

// checkGang checks that the gang runs on one offer at a size of its range,
// after the offer's lead time, finishing by its deadline — or is unplaced
// with the reason (ErrDeadline or ErrStock). It reports whether it is
// placed.
func checkGang(t *rapid.T, p placement.Problem, plan placement.Plan) bool {
	w := p.Workloads[len(p.Workloads)-1]
	for _, u := range plan.Unplaced {
		if u.Workload == w.Name {
			if !errors.Is(u.Err, placement.ErrDeadline) && !errors.Is(u.Err, placement.ErrStock) {
				t.Fatalf("gang unplaced without a reason: %v", u.Err)
			}
			return false
		}
	}
	for _, a := range plan.Assignments {
		if a.Workload != w.Name {
			continue
		}
		g := a.Gang
		if g == nil || len(a.Uses) != 1 || a.Uses[0].Offer != g.Offer {
			t.Fatalf("gang not on one offer: %+v, uses %+v", g, a.Uses)
		}
		lo, hi := w.GangSizes.Sizes(w.GPUs)
		if g.GPUs < lo || g.GPUs > hi || g.Finish > w.Deadline || g.Finish > p.Assumptions.Horizon {
			t.Fatalf("gang run %+v: size outside [%d, %d] or after its deadline %v", g, lo, hi, w.Deadline)
		}
		for _, o := range p.Offers {
			if o.ID == g.Offer && g.Start < o.LeadTime() {
				t.Fatalf("gang starts at %v on %s, before its lead time %v", g.Start, o.ID, o.LeadTime())
			}
		}
		return true
	}
	t.Fatalf("gang %s neither placed nor unplaced", w.Name)
	return false
}

// propGang: a gang runs on one offer and meets its deadline, or is
// unplaced with the reason; solving twice gives the same plan; a later
// deadline never raises the optimum.
func propGang(t *rapid.T) {
	c := drawTimeCase(t)
	c.flat = true
	drawGang(t, &c)
	p := c.problem(c.growth)
	plan := solveProp(t, p)
	placed := checkGang(t, p, plan)
	if placed {
		checkOverTime(t, p, plan)
	}
	again := solveProp(t, p)
	plan.Stats, again.Stats = placement.Stats{}, placement.Stats{}
	if x, y := fmt.Sprint(plan), fmt.Sprint(again); x != y {
		t.Fatalf("solving twice gave two plans:\n%s\n%s", x, y)
	}
	c.gang.Deadline += time.Duration(rapid.IntRange(1, 90).Draw(t, "later by days")) * 24 * time.Hour
	q := c.problem(c.growth)
	later := solveProp(t, q)
	if placedLater := checkGang(t, q, later); placed && !placedLater {
		t.Fatalf("a later deadline unplaced the gang")
	} else if placed == placedLater {
		if b, a := optimumAtMost(later, plan); b > a+1e-6*max(1, a) {
			t.Fatalf("a later deadline raised the optimum: %.6f → %.6f", a, b)
		}
	}
}

func TestGangProperties(t *testing.T) { checkFew(t, propGang) }

func FuzzGangProperties(f *testing.F) { f.Fuzz(rapid.MakeFuzz(propGang)) }

// propMonthlyEpochs: a service whose demand steps from month to month over
// six months, on monthly rentals and pay-as-you-go (on demand, spot), none
// with a lead time: monthly epochs never plan dearer than one epoch of the
// six months. The one epoch's stretches (its first month, cut one term
// after its start, and the other five) are unions of months, each of its
// commitments — the first month's rental, the five months from there, or
// all six — is a run of monthly ones at the same price, and its slices,
// offset by the 10 hours a month has beyond 30 days, only take a step's
// peak where the months' slices take its exact levels.
func propMonthlyEpochs(t *rapid.T) {
	var steps []workload.Step
	for m := range 6 {
		steps = append(steps, workload.Step{Start: time.Duration(m) * provider.Month, Value: rapid.Float64Range(0, 1).Draw(t, "month's level")})
	}
	w := workload.Workload{Name: "svc", Kind: workload.Inference, GPUs: rapid.IntRange(1, 16).Draw(t, "peak GPUs"), Horizon: timeHorizon,
		Demand: workload.Steps{Steps: steps}, Interruption: workload.Interruption{Tolerance: workload.Stateless}}
	var os []provider.Offer
	for i := range rapid.IntRange(1, 3).Draw(t, "offers") {
		l := fmt.Sprintf("offer %d ", i)
		gpn := rapid.SampledFrom([]int{1, 2, 4}).Draw(t, l+"GPUs per node")
		r := money(rapid.Float64Range(0.8, 5).Draw(t, l+"rate per GPU-hour") * float64(gpn))
		var pr provider.Pricing
		switch rapid.IntRange(0, 2).Draw(t, l+"mode") {
		case 0:
			pr = provider.Reserved{Term: provider.Month, RecurringPerHour: r}
		case 1:
			pr = provider.ProRata(r)
		default:
			pr = provider.Spot{RatePerHour: r}
		}
		os = append(os, node(fmt.Sprintf("o%d", i), pr, gpn, rapid.IntRange(0, 6).Draw(t, l+"stock")))
	}
	a := bare()
	a.Horizon = timeHorizon
	p := placement.Problem{Workloads: []workload.Workload{w}, Offers: append(os, onDemand("backstop", "9", 1, 0)), Assumptions: a,
		Options: placement.Options{Epoch: provider.Month, Period: workload.Day, Slices: 4, Gap: 1e-9}}
	monthly := solveProp(t, p)
	checkOverTime(t, p, monthly)
	q := p
	q.Options.Epoch = timeHorizon
	one := solveProp(t, q)
	checkOverTime(t, q, one)
	if a, b := optimumAtMost(monthly, one); a > b+1e-6*max(1, a) {
		t.Fatalf("monthly epochs planned dearer than one epoch: %.6f > %.6f", a, b)
	}
}

func TestMonthlyEpochs(t *testing.T) { checkFew(t, propMonthlyEpochs) }

func FuzzMonthlyEpochs(f *testing.F) { f.Fuzz(rapid.MakeFuzz(propMonthlyEpochs)) }

// slotStart is the start of slice i of n in period, as workload.Discretize
// places it.
func slotStart(period time.Duration, i, n int) time.Duration {
	q, r := period/time.Duration(n), period%time.Duration(n)
	return q*time.Duration(i) + r*time.Duration(i)/time.Duration(n)
}
