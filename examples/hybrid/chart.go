package main

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"time"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"

	"github.com/gputco/gputco/examples/internal/cli"
	"github.com/gputco/gputco/placement"
)

// minPanel is the shortest stretch the chart draws a panel for: shorter
// ones (the hours and days before rented capacity exists, which only jobs
// use) are drawn only when no stretch is this long.
const minPanel = 28 * day

// panels returns the indices in p.Epochs of the stretches the chart
// draws: those of at least minPanel, or the longest when none is.
func panels(p placement.Plan) []int {
	var out []int
	longest := -1
	for i, e := range p.Epochs {
		if e.End-e.Start >= minPanel {
			out = append(out, i)
		}
		if longest < 0 || e.End-e.Start > p.Epochs[longest].End-p.Epochs[longest].Start {
			longest = i
		}
	}
	if len(out) == 0 && longest >= 0 {
		out = append(out, longest)
	}
	return out
}

// bands are the stacked series of a panel: the GPUs of the services and
// divisible jobs by tier, then the gang jobs' (which the model holds for
// every stretch their window meets, however short the run).
var bands = []string{"base", "burst", "spot", "gang jobs (held)"}

// stacked returns the GPUs of stretch k of p in each slice by band.
func stacked(p placement.Plan, k int) [][]float64 {
	n := p.Slices
	out := make([][]float64, len(bands))
	for b := range out {
		out[b] = make([]float64, n)
	}
	for _, a := range p.Assignments {
		for _, u := range a.Uses {
			b := int(u.Tier)
			if a.Gang != nil {
				b = 3
			}
			if b < 0 || b >= len(bands) || len(u.GPUs) < (k+1)*n {
				continue
			}
			for i := range n {
				out[b][i] += u.GPUs[k*n+i]
			}
		}
	}
	return out
}

// chart draws hybrid.png: one panel per stretch of the plan (see panels),
// each the GPUs used in every slice of the stretch's representative period
// stacked by tier (base, burst, spot) and the gang jobs', against the
// services' demand as the plan samples it there.
func chart(res result, dir string) (string, error) {
	p := res.Plan
	n := p.Slices
	eps := panels(p)
	if n == 0 || len(eps) == 0 {
		return "", fmt.Errorf("chart: the plan has no slices")
	}
	hours := p.Period.Hours() / float64(n)
	// clock places slice i of a stretch starting at start on the period's
	// clock (a stretch may start mid-period: the servers' arrival), and
	// rotates a series to match, so every panel reads from hour 0.
	clock := func(start time.Duration, ys []float64) (xs, out []float64) {
		shift := int(math.Round((start%p.Period).Hours()/hours)) % n
		xs, out = make([]float64, n), make([]float64, n)
		for i := range n {
			j := (i + shift) % n
			xs[j] = (float64(j) + 0.5) * hours
			out[j] = ys[i]
		}
		return xs, out
	}
	period := p.Period.String()
	switch p.Period {
	case day:
		period = "day"
	case 7 * day:
		period = "week"
	}
	top := 0.0
	var plots []*plot.Plot
	for k, idx := range eps {
		e := p.Epochs[idx]
		series := stacked(p, idx)
		title := fmt.Sprintf("year %d, days %s–%s", e.Epoch+1, days(e.Start), days(e.End))
		if k == 0 {
			title = "GPUs by tier against the services' demand: " + title
		}
		pl := cli.NewPlot(title, "hour of the representative "+period, "GPUs")
		pl.Legend.Left = false
		pl.Legend.Top = true
		pl.X.Tick.Marker = cli.CountTicks{}
		var xs []float64
		below := make([]float64, n)
		for c, name := range bands {
			s := series[c]
			any := false
			for _, v := range s {
				any = any || v > 0
			}
			if !any {
				continue
			}
			xs, s = clock(e.Start, s)
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
			band.Color = cli.Colour(c)
			band.LineStyle.Width = 0
			pl.Add(band)
			pl.Legend.Add(name, band)
			for i := range n {
				below[i] += s[i]
				top = max(top, below[i])
			}
		}
		xs, demand := clock(e.Start, serviceDemand(res.scenario, e.Start, p.Period, n))
		for _, d := range demand {
			top = max(top, d)
		}
		if err := cli.Emphasis(pl, "services' demand", xs, demand); err != nil {
			return "", err
		}
		plots = append(plots, pl)
	}
	cols := min(2, len(plots))
	rows := (len(plots) + cols - 1) / cols
	grid := make([][]*plot.Plot, rows)
	for i := range grid {
		grid[i] = make([]*plot.Plot, cols)
	}
	for i, pl := range plots {
		pl.Y.Min, pl.Y.Max = 0, top*1.15+1
		grid[i/cols][i%cols] = pl
	}
	width, height := cli.ChartWidth, cli.ChartHeight
	if cols > 1 {
		width = width * 3 / 2
		height = vg.Length(rows) * cli.ChartHeight * 3 / 4
	}
	img := vgimg.New(width, height)
	dc := draw.New(img)
	canvases := plot.Align(grid, draw.Tiles{Rows: rows, Cols: cols, PadX: vg.Millimeter * 4, PadY: vg.Millimeter * 4}, dc)
	for i := range grid {
		for j, pl := range grid[i] {
			if pl != nil {
				pl.Draw(canvases[i][j])
			}
		}
	}
	path := filepath.Join(dir, "hybrid.png")
	f, err := os.Create(path)
	if err != nil {
		return "", fmt.Errorf("chart hybrid.png: %w", err)
	}
	if _, err := (vgimg.PngCanvas{Canvas: img}).WriteTo(f); err != nil {
		f.Close()
		return "", fmt.Errorf("chart hybrid.png: %w", err)
	}
	if err := f.Close(); err != nil {
		return "", fmt.Errorf("chart hybrid.png: %w", err)
	}
	return path, nil
}
