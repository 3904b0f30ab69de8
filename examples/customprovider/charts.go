package main

import (
	"fmt"
	"time"

	"github.com/shopspring/decimal"
	"gonum.org/v1/plot"

	"github.com/gputco/gputco/examples/internal/cli"
	"github.com/gputco/gputco/provider"
	"github.com/gputco/gputco/workload"
)

// charts draws the demand of every service and the price curve of every
// tiered offer into dir.
func charts(res result, sc workload.Scenario, dir string) ([]string, error) {
	var paths []string
	p := cli.NewPlot("demand of the services (fraction of peak GPUs)", "day", "demand")
	p.X.Tick.Marker = cli.CountTicks{}
	p.Legend.Left = false
	p.Legend.Top = false
	n := 0
	for _, w := range sc.Workloads {
		if !w.IsService() {
			continue
		}
		// Hourly samples, summarised per day: the daily peak and mean.
		days := int(w.Horizon.Hours() / 24)
		if days < 1 {
			continue
		}
		prof, err := workload.Sample(w.Demand, time.Duration(days)*24*time.Hour, days*24)
		if err != nil {
			return nil, fmt.Errorf("%s: demand: %w", w.Name, err)
		}
		xs, peak, mean := make([]float64, days), make([]float64, days), make([]float64, days)
		for d := range days {
			day := prof.Values[d*24 : (d+1)*24]
			xs[d] = float64(d) + 0.5
			for _, v := range day {
				peak[d] = max(peak[d], v)
				mean[d] += v / 24
			}
		}
		if err := cli.Line(p, w.Name+" daily peak", 2*n, xs, peak); err != nil {
			return nil, err
		}
		if err := cli.Line(p, w.Name+" daily mean", 2*n+1, xs, mean); err != nil {
			return nil, err
		}
		n++
	}
	if n > 0 {
		p.Y.Min, p.Y.Max = 0, 1
		path, err := cli.Save(p, dir, "customprovider-demand.png")
		if err != nil {
			return nil, err
		}
		paths = append(paths, path)
	}
	if len(res.tiered) > 0 {
		p, err := tierChart(res)
		if err != nil {
			return nil, err
		}
		path, err := cli.Save(p, dir, "customprovider-tiers.png")
		if err != nil {
			return nil, err
		}
		paths = append(paths, path)
	}
	return paths, nil
}

// tierChart draws, for every tiered offer, the average price per node-hour
// of a volume billed over the horizon, from the offer's own Charges.
func tierChart(res result) (*plot.Plot, error) {
	p := cli.NewPlot("tiered pricing: average price per node-hour by volume", "node-hours billed over the horizon", "price per node-hour")
	p.Y.Tick.Marker = cli.MoneyTicks{Currency: res.Currency}
	p.X.Tick.Marker = cli.CountTicks{}
	p.Legend.Left = false
	var hi float64
	for _, o := range res.tiered {
		t, _ := provider.As[Tiered](o.Pricing)
		for _, tr := range t.Tiers {
			hi = max(hi, tr.FromNodeHours)
		}
	}
	hi = max(2*hi, 1000)
	for i, o := range res.tiered {
		const n = 200
		xs, ys := make([]float64, 0, n), make([]float64, 0, n)
		for k := 1; k <= n; k++ {
			h := hi * float64(k) / n
			cs, err := o.Pricing.Charges(provider.Usage{Runs: []provider.Run{{Length: time.Duration(h * float64(time.Hour)), Count: 1, Nodes: 1}}})
			if err != nil {
				return nil, fmt.Errorf("%s: %w", o.ID, err)
			}
			avg, _ := provider.Total(cs).DivRound(decimal.NewFromFloat(h), 6).Float64()
			xs, ys = append(xs, h), append(ys, avg)
		}
		if err := cli.Line(p, o.ID+" (average)", i, xs, ys); err != nil {
			return nil, err
		}
	}
	for _, w := range res.Workloads {
		for _, c := range w.Custom {
			if err := cli.VLine(p, w.Workload+" on "+c.Offer, len(res.tiered)+1, c.BilledNodeHours, 0, p.Y.Max); err != nil {
				return nil, err
			}
		}
	}
	p.Y.Min = 0
	return p, nil
}
