package main

import (
	"fmt"
	"image/color"
	"math"

	"github.com/shopspring/decimal"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"

	"github.com/gputco/gputco/examples/internal/cli"
)

// charts draws spot-cost.png and spot-policies.png into dir.
func charts(res result, dir string) ([]string, error) {
	var paths []string
	if len(res.samples) > 0 && len(res.samples[0]) > 0 {
		p, err := costChart(res)
		if err != nil {
			return nil, err
		}
		path, err := cli.Save(p, dir, "spot-cost.png")
		if err != nil {
			return nil, err
		}
		paths = append(paths, path)
	}
	p, err := policyChart(res)
	if err != nil {
		return nil, err
	}
	path, err := cli.Save(p, dir, "spot-policies.png")
	if err != nil {
		return nil, err
	}
	return append(paths, path), nil
}

// costChart overlays the histograms of the single-trial costs on the spot
// and the on-demand offer, with the simulations' P50 and P99.
func costChart(res result) (*plot.Plot, error) {
	p := cli.NewPlot(fmt.Sprintf("%s: distribution of the total cost, %d Monte Carlo trials per offer", res.Workload, len(res.samples[0])),
		"total cost", "trials")
	p.X.Tick.Marker = cli.MoneyTicks{Currency: res.Currency}
	p.Legend.Left = false
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, s := range res.samples {
		for _, v := range s {
			lo, hi = min(lo, v), max(hi, v)
		}
	}
	const bins = 60
	width := (hi - lo) / bins
	if width <= 0 {
		width = 1
	}
	top := 0.0
	for i, s := range res.samples {
		h, err := plotter.NewHist(plotter.Values(s), bins)
		if err != nil {
			return nil, fmt.Errorf("chart: %w", err)
		}
		// Bin both series on one grid, so that their bars line up.
		h.Bins = histogram(s, lo, width, bins)
		h.Width = width
		c := color.NRGBAModel.Convert(cli.Colour(i)).(color.NRGBA)
		c.A = 150
		h.FillColor = c
		h.LineStyle.Width = 0
		p.Add(h)
		p.Legend.Add(res.Options[i].Offer, h)
		for _, b := range h.Bins {
			top = max(top, b.Weight)
		}
	}
	for i, o := range res.Options {
		for _, q := range []struct {
			name string
			v    decimal.Decimal
		}{{"P50", o.Cost.P50}, {"P99", o.Cost.P99}} {
			if err := cli.VLine(p, o.Offer+" "+q.name, i, f64(q.v), 0, top*1.05); err != nil {
				return nil, err
			}
		}
	}
	return p, nil
}

// histogram counts xs in bins of width from lo.
func histogram(xs []float64, lo, width float64, bins int) []plotter.HistogramBin {
	hb := make([]plotter.HistogramBin, bins)
	for i := range hb {
		hb[i].Min = lo + float64(i)*width
		hb[i].Max = hb[i].Min + width
	}
	for _, x := range xs {
		i := min(int((x-lo)/width), bins-1)
		hb[max(i, 0)].Weight++
	}
	return hb
}

// policyChart is the mean cost of each policy against spot availability,
// with the all-on-demand cost.
func policyChart(res result) (*plot.Plot, error) {
	p := cli.NewPlot(fmt.Sprintf("%s: spot policies, %d traces per level", res.Workload, res.PolicyJob.Traces),
		"spot availability (fraction of time)", "mean cost of the compute")
	p.Y.Tick.Marker = cli.MoneyTicks{Currency: res.Currency}
	p.Legend.Left = false
	byPolicy := map[string][2][]float64{}
	var names []string
	for _, r := range res.Policies {
		s, seen := byPolicy[r.Policy]
		if !seen {
			names = append(names, r.Policy)
		}
		s[0] = append(s[0], r.Availability)
		s[1] = append(s[1], f64(r.MeanCost))
		byPolicy[r.Policy] = s
	}
	for i, n := range names {
		if err := cli.Line(p, n, i, byPolicy[n][0], byPolicy[n][1]); err != nil {
			return nil, err
		}
	}
	if len(levels()) > 0 {
		od := f64(res.PolicyJob.AllOnDemand)
		if err := cli.Line(p, "all on-demand", len(names), []float64{levels()[0], levels()[len(levels())-1]}, []float64{od, od}); err != nil {
			return nil, err
		}
	}
	p.Y.Min = 0
	return p, nil
}

func f64(d interface{ Float64() (float64, bool) }) float64 {
	f, _ := d.Float64()
	return f
}
