package main

import (
	"fmt"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/gputco/gputco/examples/internal/cli"
	"github.com/gputco/gputco/provider"
)

// chart draws catalog.png: every dated offer's price per GPU-hour against
// the age of its figures, one colour per provider kind, the staleness limit
// marked.
func chart(cat provider.Catalog, rows []row, dir string) (string, error) {
	p := cli.NewPlot(fmt.Sprintf("%d offers: price per GPU-hour and the age of its figures", len(rows)),
		"age of the figures (days)", "price per GPU-hour (3 years, fully busy)")
	p.Y.Tick.Marker = cli.MoneyTicks{Currency: cat.Currency}
	p.Legend.Left = false
	byKind := map[string]plotter.XYs{}
	var kinds []string
	top, oldest := 0.0, 0.0
	for _, r := range rows {
		if r.AsOf == "" {
			continue
		}
		if _, ok := byKind[r.Kind]; !ok {
			kinds = append(kinds, r.Kind)
		}
		y, _ := r.Rate.Float64()
		byKind[r.Kind] = append(byKind[r.Kind], plotter.XY{X: float64(r.AgeDays), Y: y})
		top, oldest = max(top, y), max(oldest, float64(r.AgeDays))
	}
	shapes := []draw.GlyphDrawer{draw.CircleGlyph{}, draw.TriangleGlyph{}, draw.SquareGlyph{}, draw.PyramidGlyph{}}
	for i, k := range kinds {
		sc, err := plotter.NewScatter(byKind[k])
		if err != nil {
			return "", fmt.Errorf("chart: %w", err)
		}
		sc.GlyphStyle.Shape = shapes[i%len(shapes)]
		sc.GlyphStyle.Radius = vg.Points(4)
		sc.GlyphStyle.Color = cli.Colour(i)
		p.Add(sc)
		p.Legend.Add(k, sc)
	}
	limit := staleAfter.Hours() / 24
	if err := cli.VLine(p, fmt.Sprintf("stale after %.0f days", limit), 7, limit, 0, top*1.05); err != nil {
		return "", err
	}
	p.Y.Min, p.X.Min, p.X.Max = 0, 0, max(oldest, limit)*1.05
	return cli.Save(p, dir, "catalog.png")
}
