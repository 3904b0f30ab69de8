package lp

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"math/big"
	"strconv"
	"strings"
)

// WriteMPS writes p in free MPS format, which ReadMPS and CBC read back to
// the same problem. A maximisation is written as the minimisation of the
// negated objective (the same optimal points; the objective value of
// another reader, CBC's included, is the maximum negated), marked by a
// comment line that ReadMPS reads back as the maximisation: CBC ignores an
// OBJSENSE MAX section. Numbers are written with the shortest representation
// that parses back to the same float64. Names are kept when they are safe
// for free MPS (see safeMPSName: non-empty, at most MaxMPSNameBytes, no
// white space or control characters, not 'MARKER') and unique; others are
// replaced by generated names C<j> or R<i> (with a suffix if taken). The
// objective row is named OBJECTIVE (or a free variant), which also keeps
// CBC's reader from splitting fields at fixed columns. Integer columns are
// written between markers and always with explicit bounds, so that readers
// whose default for them differs agree. Free rows are written as N rows
// after the objective. Explicit zeros of the matrix are not written.
//
// A ranged row is written as a G or L row with the RANGES value that
// reproduces both bounds exactly when one exists; when none does (rare), the
// upper bound may come back an ulp or so away. A ranged row wider than the
// largest float64 (such as [−1e308, 1e308]) is written as a G row with a
// RANGES value beyond the float64 range (2e+308), which ReadMPS adds to the
// right-hand side exactly, and which CBC reads as infinite, as it does the
// bounds themselves (it takes any value beyond 1e30 for infinity). p is
// validated first; an invalid p is an error wrapping ErrInvalid.
func WriteMPS(w io.Writer, p *Problem) error {
	if err := p.Validate(); err != nil {
		return err
	}
	bw := bufio.NewWriterSize(w, 1<<16)
	cols := uniqueNames(p.ColNames, p.NumCols(), "C", safeMPSName, nil)
	rows := uniqueNames(p.RowNames, p.NumRows(), "R", safeMPSName, nil)
	taken := make(map[string]bool, len(rows))
	for _, r := range rows {
		taken[r] = true
	}
	// The objective row's name, at least 9 bytes long and written from
	// column 5, switches CBC's reader out of its fixed-format field
	// splitting for the whole file (CoinMpsIO takes 8 columns from column 5
	// while it believes a file is fixed).
	obj := freeName("OBJECTIVE", taken)

	name := strings.Map(func(r rune) rune {
		if r < ' ' || r == 0x7f {
			return ' '
		}
		return r
	}, p.Name)
	if name = strings.TrimSpace(name); name != "" {
		fmt.Fprintf(bw, "NAME %s\n", name)
	} else {
		bw.WriteString("NAME\n")
	}
	// A maximisation is written as the minimisation of the negated
	// objective, which every reader solves alike (CBC 2.10 reads an
	// OBJSENSE MAX section and ignores it); the comment tells ReadMPS to
	// read it back as the maximisation.
	sign := 1.0
	if p.Maximize {
		bw.WriteString(negatedMax + "\n")
		sign = -1
	}
	bw.WriteString("ROWS\n")
	fmt.Fprintf(bw, " N  %s\n", obj)
	for i := range rows {
		kind, _, _ := mpsRow(p.RowLower[i], p.RowUpper[i])
		fmt.Fprintf(bw, " %c %s\n", kind, rows[i])
	}
	bw.WriteString("COLUMNS\n")
	inInt := false
	for j := range cols {
		isInt := p.Integer != nil && p.Integer[j]
		if isInt != inInt {
			if isInt {
				bw.WriteString(" MARKER 'MARKER' 'INTORG'\n")
			} else {
				bw.WriteString(" MARKER 'MARKER' 'INTEND'\n")
			}
			inInt = isInt
		}
		written := false
		if c := p.Cost[j]; c != 0 {
			fmt.Fprintf(bw, " %s %s %s\n", cols[j], obj, fmtFloat(sign*c))
			written = true
		}
		for k := p.A.Start[j]; k < p.A.Start[j+1]; k++ {
			if v := p.A.Value[k]; v != 0 {
				fmt.Fprintf(bw, " %s %s %s\n", cols[j], rows[p.A.Index[k]], fmtFloat(v))
				written = true
			}
		}
		if !written {
			fmt.Fprintf(bw, " %s %s 0\n", cols[j], obj)
		}
	}
	if inInt {
		bw.WriteString(" MARKER 'MARKER' 'INTEND'\n")
	}
	bw.WriteString("RHS\n")
	if p.Offset != 0 {
		fmt.Fprintf(bw, " RHS %s %s\n", obj, fmtFloat(-sign*p.Offset))
	}
	for i := range rows {
		if _, r, _ := mpsRow(p.RowLower[i], p.RowUpper[i]); r != 0 || math.Signbit(r) {
			fmt.Fprintf(bw, " RHS %s %s\n", rows[i], fmtFloat(r))
		}
	}
	wroteRanges := false
	for i := range rows {
		_, _, rg := mpsRow(p.RowLower[i], p.RowUpper[i])
		if math.IsNaN(rg) {
			continue
		}
		if !wroteRanges {
			bw.WriteString("RANGES\n")
			wroteRanges = true
		}
		text := fmtFloat(rg)
		if math.IsInf(rg, 0) {
			text = hugeRange(p.RowLower[i], p.RowUpper[i])
		}
		fmt.Fprintf(bw, " RNG %s %s\n", rows[i], text)
	}
	bw.WriteString("BOUNDS\n")
	for j := range cols {
		writeMPSBounds(bw, cols[j], p.ColLower[j], p.ColUpper[j], p.Integer != nil && p.Integer[j])
	}
	bw.WriteString("ENDATA\n")
	return bw.Flush()
}

// negatedMax is the comment line that WriteMPS writes before the ROWS of a
// maximisation, whose objective it negates; ReadMPS reads such a file back
// as the maximisation.
const negatedMax = "* lp: maximise: the objective below is negated and minimised"

// rowType is the MPS type of a row with the given bounds; a ranged row is
// written as G with a range.
func rowType(lo, up float64) byte {
	switch {
	case lo == up:
		return 'E'
	case math.IsInf(lo, -1) && math.IsInf(up, 1):
		return 'N'
	case math.IsInf(lo, -1):
		return 'L'
	}
	return 'G'
}

// mpsRow returns how a row with the given bounds is written in MPS: its
// type, right-hand side and range (NaN for none). A ranged row is a G row
// with a range when some range reproduces its upper bound exactly, else an
// L row when some range reproduces its lower bound, else (rare) a G row
// whose upper bound comes back within an ulp or so. A row wider than
// MaxFloat64 is a G row with range +Inf, written as hugeRange's decimal.
func mpsRow(lo, up float64) (kind byte, rhs, rng float64) {
	nan := math.NaN()
	switch rowType(lo, up) {
	case 'E':
		return 'E', lo, nan
	case 'N':
		return 'N', 0, nan
	case 'L':
		return 'L', up, nan
	}
	if math.IsInf(up, 1) {
		return 'G', lo, nan
	}
	d := up - lo
	if math.IsInf(d, 1) {
		return 'G', lo, d // wider than MaxFloat64: see hugeRange
	}
	for _, kind := range []byte{'G', 'L'} {
		for _, dir := range []float64{math.Inf(1), math.Inf(-1)} {
			r := d
			for k := 0; k < 4; k++ {
				if kind == 'G' && lo+r == up {
					return 'G', lo, r
				}
				if kind == 'L' && up-r == lo {
					return 'L', up, r
				}
				r = math.Nextafter(r, dir)
			}
		}
	}
	return 'G', lo, d
}

// hugeRange returns the RANGES value, beyond the float64 range, of a G row
// with finite bounds lo < up whose width up − lo overflows float64: the
// exact width rounded to the fewest significant digits, 17 or more, from
// which ReadMPS's exact arithmetic gives up back. It exists: lo and up are then integers, and
// their exact difference has at most 310 digits.
func hugeRange(lo, up float64) string {
	d := new(big.Float).SetPrec(hugePrec).SetFloat64(up)
	d.Sub(d, new(big.Float).SetFloat64(lo))
	for digits := 17; digits < 400; digits++ {
		s := d.Text('g', digits)
		if a := parseHugeValue(s); a != nil && addHuge(lo, a) == up {
			return s
		}
	}
	return d.Text('f', 0)
}

func writeMPSBounds(w *bufio.Writer, name string, lo, up float64, isInt bool) {
	switch {
	case lo == up:
		fmt.Fprintf(w, " FX BND %s %s\n", name, fmtFloat(lo))
		return
	case math.IsInf(lo, -1) && math.IsInf(up, 1):
		fmt.Fprintf(w, " FR BND %s\n", name)
		return
	}
	if math.IsInf(lo, -1) {
		fmt.Fprintf(w, " MI BND %s\n", name)
	} else if lo != 0 || math.Signbit(lo) || (isInt && math.IsInf(up, 1)) {
		fmt.Fprintf(w, " LO BND %s %s\n", name, fmtFloat(lo))
	}
	if !math.IsInf(up, 1) {
		fmt.Fprintf(w, " UP BND %s %s\n", name, fmtFloat(up))
	}
}

func fmtFloat(v float64) string {
	switch {
	case math.IsInf(v, 1):
		return "Inf"
	case math.IsInf(v, -1):
		return "-Inf"
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// safeMPSName reports whether s can be written as a free-MPS name and read
// back unchanged by ReadMPS and by CBC.
func safeMPSName(s string) bool {
	if s == "" || len(s) > MaxMPSNameBytes || s == "'MARKER'" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c <= ' ' || c == 0x7f {
			return false
		}
	}
	return true
}

// uniqueNames returns n names: names[k] where it is safe and not a repeat of
// an earlier one, otherwise a generated prefix<k> that collides with none.
func uniqueNames(names []string, n int, prefix string, safe func(string) bool, reserved map[string]bool) []string {
	out := make([]string, n)
	taken := make(map[string]bool, n)
	for k := range reserved {
		taken[k] = true
	}
	keep := make([]bool, n)
	for k := 0; k < n && k < len(names); k++ {
		if s := names[k]; safe(s) && !taken[s] {
			taken[s], keep[k], out[k] = true, true, s
		}
	}
	for k := 0; k < n; k++ {
		if !keep[k] {
			out[k] = freeName(prefix+strconv.Itoa(k), taken)
			taken[out[k]] = true
		}
	}
	return out
}

// freeName returns base, or base_<k> for the smallest k ≥ 1 that is not
// taken.
func freeName(base string, taken map[string]bool) string {
	if !taken[base] {
		return base
	}
	for k := 1; ; k++ {
		if s := base + "_" + strconv.Itoa(k); !taken[s] {
			return s
		}
	}
}
