package placement

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/gputco/gputco/provider"
	"github.com/gputco/gputco/tco"
	"github.com/shopspring/decimal"
)

// String renders the plan as text: the status, totals, bound and gap; a
// table of commitments (offer, tier, nodes, peak GPUs, utilization, cost);
// a table of assignments (workload, offer, tier, peak GPUs, GPU-hours, cost
// of the use) with each workload's cost and cheapest runner-up; over time,
// a line per stretch (commitments started and held, uses); the stock
// values; the unplaced workloads with their errors. Money is rounded to
// cents.
func (p Plan) String() string {
	var b strings.Builder
	total := p.Total.StringFixed(2)
	if p.Currency != "" {
		total += " " + p.Currency
	}
	fmt.Fprintf(&b, "plan %s over %s (%d slices of a %s period): total %s, bound %s, gap %.4g%%\n",
		p.Status, fmtHours(p.Horizon.Hours()), p.Slices, fmtHours(p.Period.Hours()), total,
		p.Bound.StringFixed(2), 100*p.Gap)
	fmt.Fprintf(&b, "explicit %s, hidden %s, present value %s\n", p.Explicit.StringFixed(2), p.Hidden.StringFixed(2), p.PresentValue.StringFixed(2))
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "OFFER\tTIER\tNODES\tPEAK GPUS\tUTILIZATION\tCOST\t")
	for _, c := range p.Commitments {
		util := "-"
		if c.Nodes > 0 {
			util = fmt.Sprintf("%.1f%%", 100*c.Utilization)
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%.1f\t%s\t%s\t\n", c.Offer, c.Tier, c.Nodes, c.PeakGPUs, util, c.Cost.StringFixed(2))
	}
	tw.Flush()
	tw = tabwriter.NewWriter(&b, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "WORKLOAD\tOFFER\tTIER\tPEAK GPUS\tGPU-HOURS\tUSE COST\tWORKLOAD COST\tRUNNER-UP\t")
	for _, a := range p.Assignments {
		ru := "-"
		if len(a.RunnersUp) > 0 {
			ru = fmt.Sprintf("%s %+.2f", a.RunnersUp[0].Offer, a.RunnersUp[0].Delta.InexactFloat64())
		}
		for i, u := range a.Uses {
			cost, name := "", ""
			if i == 0 {
				cost, name = a.Cost.StringFixed(2), a.Workload
			} else {
				ru = ""
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%.1f\t%.0f\t%s\t%s\t%s\t\n", name, u.Offer, u.Tier, u.PeakGPUs, u.GPUHours, u.Cost.StringFixed(2), cost, ru)
		}
	}
	tw.Flush()
	for _, e := range p.Epochs {
		fmt.Fprintf(&b, "epoch %d, day %.4g to %.4g:", e.Epoch, e.Start.Hours()/24, e.End.Hours()/24)
		for _, h := range e.Started {
			fmt.Fprintf(&b, " start %d × %s (ordered day %.4g, to day %.4g);", h.Nodes, h.Offer, h.Order.Hours()/24, h.End.Hours()/24)
		}
		for _, h := range e.Held {
			fmt.Fprintf(&b, " hold %d × %s;", h.Nodes, h.Offer)
		}
		for _, u := range e.Uses {
			fmt.Fprintf(&b, " %s on %s (%s) %.0f GPU-h;", u.Workload, u.Offer, u.Tier, u.GPUHours)
		}
		b.WriteString("\n")
	}
	for _, s := range p.Stock {
		fmt.Fprintf(&b, "one more node of %s would save %s\n", s.Offer, s.SavingPerNode.StringFixed(2))
	}
	for _, a := range p.Assignments {
		if g := a.Gang; g != nil {
			fmt.Fprintf(&b, "gang %s: %d GPUs on %d × %s, day %.4g to %.4g\n", a.Workload, g.GPUs, g.Nodes, g.Offer, g.Start.Hours()/24, g.Finish.Hours()/24)
		}
	}
	for _, u := range p.Unplaced {
		fmt.Fprintf(&b, "unplaced %s: %v\n", u.Workload, u.Err)
	}
	return b.String()
}

// fmtHours prints hours as days or hours.
func fmtHours(h float64) string {
	if h >= 48 {
		return strconv.FormatFloat(h/24, 'f', -1, 64) + "d"
	}
	return strconv.FormatFloat(h, 'f', -1, 64) + "h"
}

// WriteCSV writes the plan's lines as CSV, like tco.Report.WriteCSV with a
// tier: a header "workload,offer,tier,category,label,kind,owner,timing,amount",
// one row per line of every use (its workload named) and of every
// commitment (workload empty); amounts are full-precision decimals, and
// they sum to Total.
func (p Plan) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	if err := cw.Write([]string{"workload", "offer", "tier", "category", "label", "kind", "owner", "timing", "amount"}); err != nil {
		return err
	}
	row := func(workload, offer string, t Tier, l tco.Line) error {
		kind := "explicit"
		if l.Category.Hidden() {
			kind = "hidden"
		}
		return cw.Write([]string{workload, offer, t.String(), l.Category.String(), l.Label, kind, l.Owner.String(), l.Timing.String(), l.Amount.String()})
	}
	for _, c := range p.Commitments {
		for _, l := range c.Lines {
			if err := row("", c.Offer, c.Tier, l); err != nil {
				return err
			}
		}
	}
	for _, a := range p.Assignments {
		for _, u := range a.Uses {
			for _, l := range u.Lines {
				if err := row(a.Workload, u.Offer, u.Tier, l); err != nil {
					return err
				}
			}
		}
	}
	cw.Flush()
	return cw.Error()
}

// MarshalText returns the tier's name.
func (t Tier) MarshalText() ([]byte, error) { return []byte(t.String()), nil }

// MarshalText returns the status's name.
func (s Status) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

type useJSON struct {
	Offer     string          `json:"offer"`
	Tier      Tier            `json:"tier"`
	PeakGPUs  float64         `json:"peakGPUs"`
	GPUHours  float64         `json:"gpuHours"`
	NodeHours float64         `json:"nodeHours"`
	GPUs      []float64       `json:"gpus"`
	Lines     []tco.Line      `json:"lines"`
	Cost      decimal.Decimal `json:"cost"`
}

type runnerUpJSON struct {
	Offer string          `json:"offer"`
	Total decimal.Decimal `json:"total"`
	Delta decimal.Decimal `json:"delta"`
}

type assignmentJSON struct {
	Workload     string          `json:"workload"`
	Service      bool            `json:"service"`
	Uses         []useJSON       `json:"uses"`
	Cost         decimal.Decimal `json:"cost"`
	PeakGPUValue decimal.Decimal `json:"peakGPUValue"`
	Alone        *tco.Report     `json:"alone,omitempty"`
	RunnersUp    []runnerUpJSON  `json:"runnersUp"`
	Gang         *gangJSON       `json:"gang,omitempty"`
}

// gangJSON is a gang job's run: its offer, size and window.
type gangJSON struct {
	Offer    string            `json:"offer"`
	GPUs     int               `json:"gpus"`
	Nodes    int               `json:"nodes"`
	Start    provider.Duration `json:"start"`
	Finish   provider.Duration `json:"finish"`
	WallTime provider.Duration `json:"wallTime"`
}

type commitmentJSON struct {
	Offer       string          `json:"offer"`
	Tier        Tier            `json:"tier"`
	Nodes       int             `json:"nodes"`
	Stock       float64         `json:"stock,omitempty"`
	PeakGPUs    float64         `json:"peakGPUs"`
	Utilization float64         `json:"utilization"`
	Workloads   []string        `json:"workloads"`
	Lines       []tco.Line      `json:"lines"`
	Cost        decimal.Decimal `json:"cost"`
	Held        []heldJSON      `json:"held,omitempty"`
}

type heldJSON struct {
	Offer string            `json:"offer"`
	Nodes int               `json:"nodes"`
	Order provider.Duration `json:"order"`
	Start provider.Duration `json:"start"`
	End   provider.Duration `json:"end"`
	Cost  decimal.Decimal   `json:"cost"`
}

type holdingJSON struct {
	Offer string `json:"offer"`
	Nodes int    `json:"nodes"`
}

type epochUseJSON struct {
	Workload string  `json:"workload"`
	Offer    string  `json:"offer"`
	Tier     Tier    `json:"tier"`
	PeakGPUs float64 `json:"peakGPUs"`
	GPUHours float64 `json:"gpuHours"`
}

// sliceJSON is one slice of a stretch for a chart: its start within the
// period, its GPUs by tier and by offer.
type sliceJSON struct {
	Start  provider.Duration  `json:"start"`
	Base   float64            `json:"base"`
	Burst  float64            `json:"burst"`
	Spot   float64            `json:"spot"`
	Offers map[string]float64 `json:"offers"`
}

type epochJSON struct {
	Epoch   int               `json:"epoch"`
	Start   provider.Duration `json:"start"`
	End     provider.Duration `json:"end"`
	Started []heldJSON        `json:"started"`
	Held    []holdingJSON     `json:"held"`
	Uses    []epochUseJSON    `json:"uses"`
	Slices  []sliceJSON       `json:"slices"`
}

type stockJSON struct {
	Offer         string          `json:"offer"`
	SavingPerNode decimal.Decimal `json:"savingPerNode"`
}

type unplacedJSON struct {
	Workload string `json:"workload"`
	Error    string `json:"error"`
}

type statsJSON struct {
	Pools      int               `json:"pools"`
	FastPools  int               `json:"fastPools"`
	Rows       int               `json:"rows"`
	Cols       int               `json:"cols"`
	Integers   int               `json:"integers"`
	Iterations int               `json:"iterations"`
	Nodes      int               `json:"nodes"`
	Solver     string            `json:"solver"`
	Elapsed    provider.Duration `json:"elapsed"`
	FirstPlan  provider.Duration `json:"firstPlan"`
}

type planJSON struct {
	Currency     string            `json:"currency,omitempty"`
	Horizon      provider.Duration `json:"horizon"`
	Period       provider.Duration `json:"period"`
	Slices       int               `json:"slices"`
	Status       Status            `json:"status"`
	Assignments  []assignmentJSON  `json:"assignments"`
	Commitments  []commitmentJSON  `json:"commitments"`
	Unplaced     []unplacedJSON    `json:"unplaced"`
	Total        decimal.Decimal   `json:"total"`
	Explicit     decimal.Decimal   `json:"explicit"`
	Hidden       decimal.Decimal   `json:"hidden"`
	PresentValue decimal.Decimal   `json:"presentValue"`
	Bound        decimal.Decimal   `json:"bound"`
	Gap          float64           `json:"gap"`
	Stock        []stockJSON       `json:"stock"`
	Epochs       []epochJSON       `json:"epochs,omitempty"`
	Stats        statsJSON         `json:"stats"`
}

// held converts commitments for JSON.
func held(hs []Held) []heldJSON {
	out := []heldJSON{}
	for _, h := range hs {
		out = append(out, heldJSON{Offer: h.Offer, Nodes: h.Nodes, Order: provider.Duration(h.Order),
			Start: provider.Duration(h.Start), End: provider.Duration(h.End), Cost: h.Cost})
	}
	return out
}

// MarshalJSON writes the plan with money as decimal strings, durations as
// Go duration strings, errors as their messages; the terms behind each use
// are left out (tco.CostTerms recomputes them). A plan over time adds
// "epochs": per stretch its commitments started and held, its uses, and per
// slice of its period the GPUs by tier ("base", "burst", "spot") and by
// offer ("offers") — a stacked chart's data — each commitment its
// "held" terms, and each gang job's assignment its "gang" run (offer,
// GPUs, nodes, start, finish, wall time).
func (p Plan) MarshalJSON() ([]byte, error) {
	j := planJSON{Currency: p.Currency, Horizon: provider.Duration(p.Horizon), Period: provider.Duration(p.Period),
		Slices: p.Slices, Status: p.Status, Total: p.Total, Explicit: p.Explicit, Hidden: p.Hidden,
		PresentValue: p.PresentValue, Bound: p.Bound, Gap: p.Gap,
		Assignments: []assignmentJSON{}, Commitments: []commitmentJSON{}, Unplaced: []unplacedJSON{}, Stock: []stockJSON{},
		Stats: statsJSON{Pools: p.Stats.Pools, FastPools: p.Stats.FastPools, Rows: p.Stats.Rows, Cols: p.Stats.Cols,
			Integers: p.Stats.Integers, Iterations: p.Stats.Iterations, Nodes: p.Stats.Nodes, Solver: p.Stats.Solver,
			Elapsed: provider.Duration(p.Stats.Elapsed), FirstPlan: provider.Duration(p.Stats.FirstPlan)}}
	for _, a := range p.Assignments {
		aj := assignmentJSON{Workload: a.Workload, Service: a.Service, Cost: a.Cost, PeakGPUValue: a.PeakGPUValue,
			Alone: a.Alone, Uses: []useJSON{}, RunnersUp: []runnerUpJSON{}}
		for _, u := range a.Uses {
			aj.Uses = append(aj.Uses, useJSON{Offer: u.Offer, Tier: u.Tier, PeakGPUs: u.PeakGPUs, GPUHours: u.GPUHours,
				NodeHours: u.NodeHours, GPUs: nonNil(u.GPUs), Lines: nonNil(u.Lines), Cost: u.Cost})
		}
		for _, r := range a.RunnersUp {
			aj.RunnersUp = append(aj.RunnersUp, runnerUpJSON(r))
		}
		if g := a.Gang; g != nil {
			aj.Gang = &gangJSON{Offer: g.Offer, GPUs: g.GPUs, Nodes: g.Nodes, Start: provider.Duration(g.Start),
				Finish: provider.Duration(g.Finish), WallTime: provider.Duration(g.WallTime)}
		}
		j.Assignments = append(j.Assignments, aj)
	}
	for _, c := range p.Commitments {
		cj := commitmentJSON{Offer: c.Offer, Tier: c.Tier, Nodes: c.Nodes, Stock: c.Stock,
			PeakGPUs: c.PeakGPUs, Utilization: c.Utilization, Workloads: c.Workloads, Lines: nonNil(c.Lines), Cost: c.Cost}
		if c.Held != nil {
			cj.Held = held(c.Held)
		}
		j.Commitments = append(j.Commitments, cj)
	}
	for _, e := range p.Epochs {
		ej := epochJSON{Epoch: e.Epoch, Start: provider.Duration(e.Start), End: provider.Duration(e.End), Started: held(e.Started),
			Held: []holdingJSON{}, Uses: []epochUseJSON{}, Slices: []sliceJSON{}}
		for _, h := range e.Held {
			ej.Held = append(ej.Held, holdingJSON(h))
		}
		for _, u := range e.Uses {
			ej.Uses = append(ej.Uses, epochUseJSON(u))
		}
		for i, sl := range e.Slices {
			offers := sl.Offers
			if offers == nil {
				offers = map[string]float64{}
			}
			ej.Slices = append(ej.Slices, sliceJSON{Start: provider.Duration(sliceBound(p.Period, i, len(e.Slices))),
				Base: sl.Base, Burst: sl.Burst, Spot: sl.Spot, Offers: offers})
		}
		j.Epochs = append(j.Epochs, ej)
	}
	for _, u := range p.Unplaced {
		msg := ""
		if u.Err != nil {
			msg = u.Err.Error()
		}
		j.Unplaced = append(j.Unplaced, unplacedJSON{Workload: u.Workload, Error: msg})
	}
	for _, s := range p.Stock {
		j.Stock = append(j.Stock, stockJSON(s))
	}
	return json.Marshal(j)
}

// nonNil returns s, or an empty slice for nil (JSON [] rather than null).
func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
