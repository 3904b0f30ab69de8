package lp

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// WriteLP writes p in CPLEX LP format: an objective section (Minimize or
// Maximize, with Offset as a constant term), Subject To, Bounds, Generals,
// Binaries and End. Numbers are written with the shortest representation
// that parses back to the same float64.
//
//   - Names are kept when safe for LP files (see safeLPName: a letter or
//     '_' first, then letters, digits, '_' and '.', at most 255 bytes, not a
//     keyword of the format, not starting like an exponent such as "e1") and
//     unique; others become C<j> and R<i>. The objective is named obj, or a
//     free variant.
//   - A ranged row (finite lower < upper) becomes two rows, NAME_lo (≥) and
//     NAME_hi (≤), since CBC's reader takes no double inequalities. Free
//     rows are omitted. An empty row is written with a zero coefficient on
//     the first column.
//   - Bounds other than the default [0, +Inf) are written, as "x free",
//     "-inf <= x <= u", "x >= l", "l <= x <= u" or "x = v". Integer columns
//     with bounds [0, 1] are listed in Binaries, the others in Generals with
//     explicit bounds.
//
// CBC 2.10's LP reader ignores the objective constant; CPLEX and Gurobi read
// it. A problem with rows but no columns cannot be written (ErrUnsupported);
// an invalid p is an error wrapping ErrInvalid.
func WriteLP(w io.Writer, p *Problem) error {
	if err := p.Validate(); err != nil {
		return err
	}
	m, n := p.NumRows(), p.NumCols()
	if n == 0 && m > 0 {
		return fmt.Errorf("%w: LP format cannot write %d rows without columns", ErrUnsupported, m)
	}
	cols := uniqueNames(p.ColNames, n, "C", safeLPName, nil)
	rows := uniqueNames(p.RowNames, m, "R", safeLPName, nil)
	taken := make(map[string]bool, m+1)
	for _, r := range rows {
		taken[r] = true
	}
	obj := freeName("obj", taken)
	taken[obj] = true

	bw := bufio.NewWriterSize(w, 1<<16)
	if p.Name != "" {
		name := strings.Map(func(r rune) rune {
			if r < ' ' || r == 0x7f {
				return ' '
			}
			return r
		}, p.Name)
		fmt.Fprintf(bw, "\\ Problem: %s\n", name)
	}
	if p.Maximize {
		bw.WriteString("Maximize\n")
	} else {
		bw.WriteString("Minimize\n")
	}
	lw := lpLine{w: bw}
	lw.start(" " + obj + ":")
	any := false
	for j := 0; j < n; j++ {
		if c := p.Cost[j]; c != 0 {
			lw.term(c, cols[j])
			any = true
		}
	}
	if !any && n > 0 {
		lw.term(0, cols[0])
	}
	if p.Offset != 0 {
		lw.constant(p.Offset)
	}
	lw.end()

	bw.WriteString("Subject To\n")
	// Row-wise copy of A.
	rowStart := make([]int, m+1)
	for _, i := range p.A.Index {
		rowStart[i+1]++
	}
	for i := 0; i < m; i++ {
		rowStart[i+1] += rowStart[i]
	}
	next := append([]int(nil), rowStart[:m]...)
	rowCol := make([]int, len(p.A.Index))
	rowVal := make([]float64, len(p.A.Index))
	for j := 0; j < n; j++ {
		for k := p.A.Start[j]; k < p.A.Start[j+1]; k++ {
			i := int(p.A.Index[k])
			rowCol[next[i]], rowVal[next[i]] = j, p.A.Value[k]
			next[i]++
		}
	}
	writeRow := func(name, sense string, rhs float64, i int) {
		lw.start(" " + name + ":")
		any := false
		for k := rowStart[i]; k < rowStart[i+1]; k++ {
			if rowVal[k] != 0 {
				lw.term(rowVal[k], cols[rowCol[k]])
				any = true
			}
		}
		if !any {
			lw.term(0, cols[0])
		}
		lw.word(sense)
		lw.word(fmtLPFloat(rhs))
		lw.end()
	}
	for i := 0; i < m; i++ {
		lo, up := p.RowLower[i], p.RowUpper[i]
		switch rowType(lo, up) {
		case 'N':
		case 'E':
			writeRow(rows[i], "=", lo, i)
		case 'L':
			writeRow(rows[i], "<=", up, i)
		default:
			if math.IsInf(up, 1) {
				writeRow(rows[i], ">=", lo, i)
				break
			}
			nlo := freeName(rows[i]+"_lo", taken)
			taken[nlo] = true
			nhi := freeName(rows[i]+"_hi", taken)
			taken[nhi] = true
			writeRow(nlo, ">=", lo, i)
			writeRow(nhi, "<=", up, i)
		}
	}

	bw.WriteString("Bounds\n")
	var generals, binaries []string
	for j := 0; j < n; j++ {
		lo, up := p.ColLower[j], p.ColUpper[j]
		isInt := p.Integer != nil && p.Integer[j]
		if isInt {
			if lo == 0 && up == 1 {
				binaries = append(binaries, cols[j])
				continue
			}
			generals = append(generals, cols[j])
		}
		c := cols[j]
		switch {
		case lo == up:
			fmt.Fprintf(bw, " %s = %s\n", c, fmtLPFloat(lo))
		case math.IsInf(lo, -1) && math.IsInf(up, 1):
			fmt.Fprintf(bw, " %s free\n", c)
		case math.IsInf(up, 1):
			if lo != 0 || math.Signbit(lo) || isInt {
				fmt.Fprintf(bw, " %s >= %s\n", c, fmtLPFloat(lo))
			}
		default:
			fmt.Fprintf(bw, " %s <= %s <= %s\n", fmtLPFloat(lo), c, fmtLPFloat(up))
		}
	}
	writeList := func(title string, names []string) {
		if len(names) == 0 {
			return
		}
		bw.WriteString(title + "\n")
		lw.start("")
		for _, s := range names {
			lw.word(s)
		}
		lw.end()
	}
	writeList("Generals", generals)
	writeList("Binaries", binaries)
	bw.WriteString("End\n")
	return bw.Flush()
}

// lpLine writes an expression over several lines of moderate length (LP
// readers limit line length).
type lpLine struct {
	w   *bufio.Writer
	n   int // bytes on the current line
	any bool
}

const lpLineBytes = 200

func (l *lpLine) start(s string) {
	l.w.WriteString(s)
	l.n, l.any = len(s), false
}

func (l *lpLine) word(s string) {
	if l.n+1+len(s) > lpLineBytes && l.n > 0 {
		l.w.WriteString("\n ")
		l.n = 1
	}
	l.w.WriteByte(' ')
	l.w.WriteString(s)
	l.n += 1 + len(s)
}

func (l *lpLine) term(v float64, name string) {
	sign := "+"
	if v < 0 || (v == 0 && math.Signbit(v)) {
		sign, v = "-", -v
	}
	if !l.any && sign == "+" {
		l.word(fmtLPFloat(v) + " " + name)
	} else {
		l.word(sign + " " + fmtLPFloat(v) + " " + name)
	}
	l.any = true
}

func (l *lpLine) constant(v float64) {
	sign := "+"
	if v < 0 {
		sign, v = "-", -v
	}
	l.word(sign + " " + fmtLPFloat(v))
}

func (l *lpLine) end() { l.w.WriteByte('\n') }

func fmtLPFloat(v float64) string {
	switch {
	case math.IsInf(v, 1):
		return "+inf"
	case math.IsInf(v, -1):
		return "-inf"
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

var lpKeywords = map[string]bool{
	"free": true, "inf": true, "infinity": true, "st": true, "s.t.": true, "st.": true, "subject": true,
	"to": true, "such": true, "that": true, "bounds": true, "bound": true, "end": true, "generals": true,
	"general": true, "gen": true, "integers": true, "integer": true, "binaries": true, "binary": true,
	"bin": true, "minimize": true, "maximize": true, "minimise": true, "maximise": true, "minimum": true,
	"maximum": true, "min": true, "max": true, "semi": true, "semis": true, "semi-continuous": true,
	"sos": true, "sos1": true, "sos2": true,
}

// safeLPName reports whether s can be written as a name of a CPLEX LP file
// and read back unchanged by LP readers, CBC's included.
func safeLPName(s string) bool {
	if s == "" || len(s) > 255 || lpKeywords[strings.ToLower(s)] {
		return false
	}
	c0 := s[0]
	if !(c0 == '_' || ('a' <= c0 && c0 <= 'z') || ('A' <= c0 && c0 <= 'Z')) {
		return false
	}
	if (c0 == 'e' || c0 == 'E') && len(s) > 1 {
		if c1 := s[1]; ('0' <= c1 && c1 <= '9') || c1 == 'e' || c1 == 'E' {
			return false
		}
	}
	for i := 1; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c == '.' || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') || ('0' <= c && c <= '9')) {
			return false
		}
	}
	return true
}
