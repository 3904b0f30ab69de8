package main

import (
	"fmt"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/gputco/gputco/examples/internal/cli"
	"github.com/gputco/gputco/provider"
	"github.com/gputco/gputco/tco"
	"github.com/gputco/gputco/workload"
)

// utilizations are the chart's x values: 10 % to 100 % in steps of 5 %.
func utilizations() []float64 {
	var us []float64
	for k := 2; k <= 20; k++ {
		us = append(us, float64(k)*0.05)
	}
	return us
}

// series is the present value of w on o at every utilization of us.
func series(w workload.Workload, o provider.Offer, opt options, us []float64) ([]float64, error) {
	ys := make([]float64, len(us))
	for i, u := range us {
		r, err := tco.Evaluate(w, o, tco.Assumptions{Horizon: w.Horizon, DiscountRatePerYear: opt.rate, Utilization: u})
		if err != nil {
			return nil, fmt.Errorf("%s at %.0f%%: %w", o.ID, u*100, err)
		}
		ys[i], _ = r.PresentValue.Float64()
	}
	return ys, nil
}

// chart draws rentorbuy.png: the present value of owning and of every rent
// offer against utilization over -years, with each break-even marked where
// the rent line crosses the owned one.
func chart(s study, w workload.Workload) (string, error) {
	w.Horizon = years(s.opt.years)
	us := utilizations()
	xs := make([]float64, len(us))
	for i, u := range us {
		xs[i] = u * 100
	}
	p := cli.NewPlot(fmt.Sprintf("Rent or buy %d× %s over %g years: present value by utilization", s.own.GPUsPerNode, s.own.GPU.Model, s.opt.years),
		"utilization (% of each day at peak)", "present value, hidden costs included")
	p.Y.Tick.Marker = cli.MoneyTicks{Currency: s.cat.Currency}
	ys, err := series(w, s.own, s.opt, us)
	if err != nil {
		return "", err
	}
	top := 0.0
	if err := cli.Emphasis(p, "own "+s.own.ID, xs, ys); err != nil {
		return "", err
	}
	var marks plotter.XYs
	for i, r := range s.rows {
		ys, err := series(w, r.offer, s.opt, us)
		if err != nil {
			return "", err
		}
		if err := cli.Line(p, r.offer.ID, i, xs, ys); err != nil {
			return "", err
		}
		for _, y := range ys {
			top = max(top, y)
		}
		for _, c := range r.breakEven.Crossings {
			v, _ := c.Own.Float64()
			marks = append(marks, plotter.XY{X: c.Utilization * 100, Y: v})
		}
	}
	if len(marks) > 0 {
		sc, err := plotter.NewScatter(marks)
		if err != nil {
			return "", err
		}
		sc.GlyphStyle.Shape = draw.CircleGlyph{}
		sc.GlyphStyle.Radius = vg.Points(4)
		sc.GlyphStyle.Color = cli.Colour(7)
		p.Add(sc)
		p.Legend.Add("break-even", sc)
	}
	// Room above the lines for the legend.
	p.Y.Min, p.Y.Max = 0, top*(1+0.045*float64(len(s.rows)+2))
	p.X.Min, p.X.Max = 10, 100
	p.Legend.TextStyle.Font.Size = vg.Points(9)
	return cli.Save(p, s.opt.Out, "rentorbuy.png")
}
