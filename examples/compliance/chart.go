package main

import (
	"fmt"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/gputco/gputco/examples/internal/cli"
)

// chart draws compliance.png: each workload's cost in the plan with the
// constraint and in the plan without it, side by side.
func chart(res result, dir string) (string, error) {
	p := cli.NewPlot(fmt.Sprintf("What keeping %s in %s costs", res.Regulated, res.requirement), "", "cost over the horizon")
	p.Y.Tick.Marker = cli.MoneyTicks{Currency: res.Currency}
	p.Legend.Left = false
	w := vg.Points(18)
	for k, c := range []struct {
		name string
		v    costs
	}{{"with the constraint", res.With}, {"without", res.Without}} {
		vals := make(plotter.Values, len(res.names))
		for i, n := range res.names {
			vals[i], _ = c.v.Workloads[n].Float64()
		}
		bars, err := plotter.NewBarChart(vals, w)
		if err != nil {
			return "", fmt.Errorf("chart: %w", err)
		}
		bars.Color = cli.Colour(k)
		bars.LineStyle.Width = 0
		bars.Offset = vg.Length(2*k-1) * w / 2
		p.Add(bars)
		p.Legend.Add(c.name, bars)
	}
	p.NominalX(res.names...)
	p.Y.Min = 0
	return cli.Save(p, dir, "compliance.png")
}
