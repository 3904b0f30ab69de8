package cli

import (
	"bytes"
	"fmt"
	"image/color"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// Chart sizes: wide enough for a README, readable on a phone.
const (
	ChartWidth  = 8 * vg.Inch
	ChartHeight = 4.5 * vg.Inch
)

// palette is the colours of successive series, distinguishable for the
// common forms of colour blindness (Okabe and Ito, 2008).
var palette = [...]color.RGBA{
	color.RGBA{0, 114, 178, 255},   // blue
	color.RGBA{213, 94, 0, 255},    // vermillion
	color.RGBA{0, 158, 115, 255},   // bluish green
	color.RGBA{204, 121, 167, 255}, // reddish purple
	color.RGBA{230, 159, 0, 255},   // orange
	color.RGBA{86, 180, 233, 255},  // sky blue
	color.RGBA{240, 228, 66, 255},  // yellow
	color.RGBA{0, 0, 0, 255},       // black
}

// Colour returns the i-th of eight colours, cycling: blue, vermillion,
// bluish green, reddish purple, orange, sky blue, yellow, black (Okabe and
// Ito's palette, distinguishable for the common forms of colour blindness).
func Colour(i int) color.Color { return palette[((i%len(palette))+len(palette))%len(palette)] }

// NewPlot returns a plot with a title, axis labels and a legend at the top
// left.
func NewPlot(title, x, y string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = x
	p.Y.Label.Text = y
	p.Legend.Top = true
	p.Legend.Left = true
	p.Add(plotter.NewGrid())
	return p
}

// MoneyTicks labels an axis in whole units of a currency with thousands
// separators ("$12,000"), on gonum's default tick positions.
type MoneyTicks struct{ Currency string }

// Ticks returns the default ticks between lo and hi with money labels.
func (m MoneyTicks) Ticks(lo, hi float64) []plot.Tick {
	ticks := plot.DefaultTicks{}.Ticks(lo, hi)
	for i, t := range ticks {
		if t.Label == "" {
			continue
		}
		sym := symbol(m.Currency)
		sign := ""
		v := math.Round(t.Value)
		if v < 0 {
			sign, v = "-", -v
		}
		ticks[i].Label = sign + sym + Thousands(strconv.FormatFloat(v, 'f', 0, 64))
	}
	return ticks
}

// CountTicks labels an axis with whole numbers and thousands separators
// ("12,000"), on gonum's default tick positions.
type CountTicks struct{}

// Ticks returns the default ticks between lo and hi with whole-number labels.
func (CountTicks) Ticks(lo, hi float64) []plot.Tick {
	ticks := plot.DefaultTicks{}.Ticks(lo, hi)
	for i, t := range ticks {
		if t.Label == "" {
			continue
		}
		sign, v := "", math.Round(t.Value)
		if v < 0 {
			sign, v = "-", -v
		}
		ticks[i].Label = sign + Thousands(strconv.FormatFloat(v, 'f', 0, 64))
	}
	return ticks
}

// Line adds a named line through xs, ys to p: the i-th of the first seven
// colours of Colour, solid for the first seven series and dashed for the next seven,
// and so on.
func Line(p *plot.Plot, name string, i int, xs, ys []float64) error {
	return line(p, name, xs, ys, Colour(i%7), vg.Points(2), (i/7)%2 == 1)
}

// Emphasis adds a thick black line: the reference series of a chart.
func Emphasis(p *plot.Plot, name string, xs, ys []float64) error {
	return line(p, name, xs, ys, Colour(7), vg.Points(3.5), false)
}

func line(p *plot.Plot, name string, xs, ys []float64, c color.Color, width vg.Length, dashed bool) error {
	if len(xs) != len(ys) {
		return fmt.Errorf("chart: series %s: %d x values for %d y values", name, len(xs), len(ys))
	}
	pts := make(plotter.XYs, len(xs))
	for k := range xs {
		pts[k] = plotter.XY{X: xs[k], Y: ys[k]}
	}
	l, err := plotter.NewLine(pts)
	if err != nil {
		return fmt.Errorf("chart: series %s: %w", name, err)
	}
	l.Color = c
	l.Width = width
	if dashed {
		l.Dashes = []vg.Length{vg.Points(6), vg.Points(3)}
	}
	p.Add(l)
	p.Legend.Add(name, l)
	return nil
}

// VLine adds a dashed vertical line at x, spanning y from lo to hi, named in
// the legend, in the i-th colour.
func VLine(p *plot.Plot, name string, i int, x, lo, hi float64) error {
	l, err := plotter.NewLine(plotter.XYs{{X: x, Y: lo}, {X: x, Y: hi}})
	if err != nil {
		return fmt.Errorf("chart: %s: %w", name, err)
	}
	l.Color = Colour(i)
	l.Width = vg.Points(1.5)
	l.Dashes = []vg.Length{vg.Points(5), vg.Points(3)}
	p.Add(l)
	if name != "" {
		p.Legend.Add(name, l)
	}
	return nil
}

// Save writes p as a PNG of ChartWidth × ChartHeight to dir/name and
// returns the path.
func Save(p *plot.Plot, dir, name string) (string, error) {
	path := filepath.Join(dir, name)
	if err := p.Save(ChartWidth, ChartHeight, path); err != nil {
		return "", fmt.Errorf("chart %s: %w", name, err)
	}
	return path, nil
}

// CheckPNG reports whether the file at path is a PNG that decodes, at least
// minWidth × minHeight pixels and not of a single colour; tests use it.
func CheckPNG(path string, minWidth, minHeight int) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	b := img.Bounds()
	if b.Dx() < minWidth || b.Dy() < minHeight {
		return fmt.Errorf("%s: %d×%d pixels, want at least %d×%d", path, b.Dx(), b.Dy(), minWidth, minHeight)
	}
	first := img.At(b.Min.X, b.Min.Y)
	r0, g0, b0, a0 := first.RGBA()
	for y := b.Min.Y; y < b.Max.Y; y += 3 {
		for x := b.Min.X; x < b.Max.X; x += 3 {
			r, g, bl, a := img.At(x, y).RGBA()
			if r != r0 || g != g0 || bl != b0 || a != a0 {
				return nil
			}
		}
	}
	return fmt.Errorf("%s: every pixel has the same colour", path)
}
