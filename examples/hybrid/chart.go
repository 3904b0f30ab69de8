package main

import (
	"fmt"
	"time"

	"gonum.org/v1/plot/plotter"

	"github.com/gputco/gputco/examples/internal/cli"
	"github.com/gputco/gputco/placement"
	"github.com/gputco/gputco/workload"
)

// chart draws hybrid.png: the GPUs the plan uses in each slice of the
// representative period, stacked by tier (base, burst, spot), against the
// services' demand.
func chart(res result, sc workload.Scenario, dir string) (string, error) {
	p := res.Plan
	n := p.Slices
	if n == 0 {
		return "", fmt.Errorf("chart: the plan has no slices")
	}
	hours := p.Period.Hours() / float64(n)
	xs := make([]float64, n)
	for i := range xs {
		xs[i] = (float64(i) + 0.5) * hours
	}
	byTier := map[placement.Tier][]float64{}
	for _, a := range p.Assignments {
		for _, u := range a.Uses {
			s := byTier[u.Tier]
			if s == nil {
				s = make([]float64, n)
			}
			for i := range min(n, len(u.GPUs)) {
				s[i] += u.GPUs[i]
			}
			byTier[u.Tier] = s
		}
	}
	period := p.Period.String()
	if p.Period == 7*24*time.Hour {
		period = "week"
	}
	pl := cli.NewPlot(fmt.Sprintf("GPUs in use by tier over the representative %s, and the services' demand", period),
		"hour of the period", "GPUs")
	pl.Legend.Left = false
	pl.X.Tick.Marker = cli.CountTicks{}
	below := make([]float64, n)
	for k, tier := range []placement.Tier{placement.Base, placement.Burst, placement.Spot} {
		s := byTier[tier]
		if s == nil {
			continue
		}
		poly := make(plotter.XYs, 0, 2*n)
		for i := range n {
			poly = append(poly, plotter.XY{X: xs[i], Y: below[i] + s[i]})
		}
		for i := n - 1; i >= 0; i-- {
			poly = append(poly, plotter.XY{X: xs[i], Y: below[i]})
		}
		band, err := plotter.NewPolygon(poly)
		if err != nil {
			return "", fmt.Errorf("chart: %w", err)
		}
		band.Color = cli.Colour(k)
		band.LineStyle.Width = 0
		pl.Add(band)
		pl.Legend.Add(tier.String(), band)
		for i := range n {
			below[i] += s[i]
		}
	}
	demand := make([]float64, n)
	any := false
	for _, w := range sc.Workloads {
		if !w.IsService() {
			continue
		}
		any = true
		for i := range n {
			demand[i] += float64(w.GPUs) * w.Demand.At(time.Duration(xs[i]*float64(time.Hour)))
		}
	}
	if any {
		if err := cli.Emphasis(pl, "services' demand", xs, demand); err != nil {
			return "", err
		}
	}
	pl.Y.Min = 0
	return cli.Save(pl, dir, "hybrid.png")
}
