package lp

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var inf = math.Inf(1)

func readMPSString(t *testing.T, s string) *Problem {
	t.Helper()
	p, err := ReadMPS(strings.NewReader(s))
	if err != nil {
		t.Fatalf("ReadMPS: %v\ninput:\n%s", err, s)
	}
	return p
}

// denseA returns A as a dense row-major matrix, for small tests.
func denseA(p *Problem) [][]float64 {
	d := make([][]float64, p.NumRows())
	for i := range d {
		d[i] = make([]float64, p.NumCols())
	}
	for j := 0; j < p.NumCols(); j++ {
		for k := p.A.Start[j]; k < p.A.Start[j+1]; k++ {
			d[p.A.Index[k]][j] = p.A.Value[k]
		}
	}
	return d
}

func TestReadMPSSmallProblem(t *testing.T) {
	// Free format, objective not the first row, a free row, unsorted
	// entries within a column, an objective constant, every row type.
	p := readMPSString(t, `* a comment
NAME          small model
ROWS
 L  lim
 N  cost
 G  low
 E  eq
 N  spare
COLUMNS
    x  eq 2 cost 1
    x  lim 1
    y  spare 5 low 3
    y  cost -2
    z  cost 0
RHS
    rhs  lim 4 low 1
    rhs  eq 6 cost 2.5
    rhs  spare 9
ENDATA
`)
	want := &Problem{
		Name: "small model", Offset: -2.5,
		Cost: []float64{1, -2, 0}, ColLower: []float64{0, 0, 0}, ColUpper: []float64{inf, inf, inf},
		ColNames: []string{"x", "y", "z"},
		RowLower: []float64{-inf, 1, 6, -inf}, RowUpper: []float64{4, inf, 6, inf},
		RowNames: []string{"lim", "low", "eq", "spare"},
		A:        Matrix{Rows: 4, Cols: 3, Start: []int{0, 2, 4, 4}, Index: []int32{0, 2, 1, 3}, Value: []float64{1, 2, 3, 5}},
	}
	if d := cmp.Diff(want, p); d != "" {
		t.Errorf("problem (-want +got):\n%s", d)
	}
}

// TestReadMPSRules checks each section rule on a tiny file; the cases name
// the rule and why it holds.
func TestReadMPSRules(t *testing.T) {
	// template: one row r of type %TYPE%, one column x (integer when
	// %INT%), and the sections in %EXTRA%.
	mk := func(rowType, markers, extra string) string {
		cols := "    x  obj 1 r 1\n    y  obj 1 r 1\n"
		if markers != "" {
			cols = "    M1 'MARKER' 'INTORG'\n    x  obj 1 r 1\n    M2 'MARKER' 'INTEND'\n    y  obj 1 r 1\n"
		}
		return "NAME t\nROWS\n N obj\n " + rowType + " r\nCOLUMNS\n" + cols + extra + "ENDATA\n"
	}
	type bounds struct{ lo, up float64 }
	cases := []struct {
		name, reason string
		in           string
		row          bounds  // row r
		x, y         bounds  // columns
		intX         bool    // x integer
		offset       float64 // objective constant
		max          bool    // maximise
		check        func(*Problem) string
	}{
		{"E row", "rhs on both sides", mk("E", "", "RHS\n    b r 3\n"), bounds{3, 3}, bounds{0, inf}, bounds{0, inf}, false, 0, false, nil},
		{"L row", "upper bound only", mk("L", "", "RHS\n    b r 3\n"), bounds{-inf, 3}, bounds{0, inf}, bounds{0, inf}, false, 0, false, nil},
		{"G row", "lower bound only", mk("G", "", "RHS\n    b r 3\n"), bounds{3, inf}, bounds{0, inf}, bounds{0, inf}, false, 0, false, nil},
		{"default rhs", "a row without RHS has rhs 0", mk("G", "", ""), bounds{0, inf}, bounds{0, inf}, bounds{0, inf}, false, 0, false, nil},
		{"E range +", "R>0: [rhs, rhs+|R|]", mk("E", "", "RHS\n    b r 3\nRANGES\n    q r 2\n"), bounds{3, 5}, bounds{0, inf}, bounds{0, inf}, false, 0, false, nil},
		{"E range -", "R<0: [rhs−|R|, rhs]", mk("E", "", "RHS\n    b r 3\nRANGES\n    q r -2\n"), bounds{1, 3}, bounds{0, inf}, bounds{0, inf}, false, 0, false, nil},
		{"L range", "[rhs−|R|, rhs] whatever the sign", mk("L", "", "RHS\n    b r 3\nRANGES\n    q r -2\n"), bounds{1, 3}, bounds{0, inf}, bounds{0, inf}, false, 0, false, nil},
		{"G range", "[rhs, rhs+|R|] whatever the sign", mk("G", "", "RHS\n    b r 3\nRANGES\n    q r -2\n"), bounds{3, 5}, bounds{0, inf}, bounds{0, inf}, false, 0, false, nil},
		{"ranges before rhs", "the order of RHS and RANGES does not matter", mk("L", "", "RANGES\n    q r 2\nRHS\n    b r 3\n"), bounds{1, 3}, bounds{0, inf}, bounds{0, inf}, false, 0, false, nil},
		{"objective rhs", "RHS on the objective is minus the constant", mk("G", "", "RHS\n    b obj -7.5\n"), bounds{0, inf}, bounds{0, inf}, bounds{0, inf}, false, 7.5, false, nil},
		{"UP", "upper bound, lower stays 0", mk("G", "", "BOUNDS\n UP b x 4\n"), bounds{0, inf}, bounds{0, 4}, bounds{0, inf}, false, 0, false, nil},
		{"UP negative", "negative UP with no lower bound makes the lower −Inf", mk("G", "", "BOUNDS\n UP b x -4\n"), bounds{0, inf}, bounds{-inf, -4}, bounds{0, inf}, false, 0, false, nil},
		{"UP negative after LO", "an explicit lower bound is kept", mk("G", "", "BOUNDS\n LO b x -9\n UP b x -4\n"), bounds{0, inf}, bounds{-9, -4}, bounds{0, inf}, false, 0, false, nil},
		{"UP zero", "UP 0 fixes at zero with the default lower bound", mk("G", "", "BOUNDS\n UP b x 0\n"), bounds{0, inf}, bounds{0, 0}, bounds{0, inf}, false, 0, false, nil},
		{"LO", "lower bound", mk("G", "", "BOUNDS\n LO b x -2\n"), bounds{0, inf}, bounds{-2, inf}, bounds{0, inf}, false, 0, false, nil},
		{"FX", "both bounds", mk("G", "", "BOUNDS\n FX b x 2.5\n"), bounds{0, inf}, bounds{2.5, 2.5}, bounds{0, inf}, false, 0, false, nil},
		{"FR", "free", mk("G", "", "BOUNDS\n FR b x\n"), bounds{0, inf}, bounds{-inf, inf}, bounds{0, inf}, false, 0, false, nil},
		{"MI", "lower −Inf, upper kept", mk("G", "", "BOUNDS\n UP b x 3\n MI b x\n"), bounds{0, inf}, bounds{-inf, 3}, bounds{0, inf}, false, 0, false, nil},
		{"PL", "upper +Inf", mk("G", "", "BOUNDS\n UP b x 3\n PL b x\n"), bounds{0, inf}, bounds{0, inf}, bounds{0, inf}, false, 0, false, nil},
		{"BV", "binary", mk("G", "", "BOUNDS\n BV b x\n"), bounds{0, inf}, bounds{0, 1}, bounds{0, inf}, true, 0, false, nil},
		{"BV with value", "the value of BV is ignored", mk("G", "", "BOUNDS\n BV b x 1\n"), bounds{0, inf}, bounds{0, 1}, bounds{0, inf}, true, 0, false, nil},
		{"LI", "integer lower bound", mk("G", "", "BOUNDS\n LI b x -3\n"), bounds{0, inf}, bounds{-3, inf}, bounds{0, inf}, true, 0, false, nil},
		{"UI", "integer upper bound", mk("G", "", "BOUNDS\n UI b x 7\n"), bounds{0, inf}, bounds{0, 7}, bounds{0, inf}, true, 0, false, nil},
		{"UI negative after LI", "a negative UI keeps the lower bound (CBC, CLP)", mk("G", "", "BOUNDS\n LI b x -5\n UI b x -3\n"), bounds{0, inf}, bounds{-5, -3}, bounds{0, inf}, true, 0, false, nil},
		{"infinite value", "Inf in a bound is infinite", mk("G", "", "BOUNDS\n LO b x -Inf\n UP b x 1e3\n"), bounds{0, inf}, bounds{-inf, 1000}, bounds{0, inf}, false, 0, false, nil},
		{"no bound set name", "netlib's fixed files leave the set name blank", mk("G", "", "BOUNDS\n UP           x         4\n MI           y\n"), bounds{0, inf}, bounds{0, 4}, bounds{-inf, inf}, false, 0, false, nil},
		{"marker integer unbounded", "an integer column without BOUNDS entry is binary (CBC, MPSX)", mk("G", "m", ""), bounds{0, inf}, bounds{0, 1}, bounds{0, inf}, true, 0, false, nil},
		{"marker integer LO", "any BOUNDS entry makes the upper default +Inf", mk("G", "m", "BOUNDS\n LO b x 2\n"), bounds{0, inf}, bounds{2, inf}, bounds{0, inf}, true, 0, false, nil},
		{"marker integer UP", "explicit upper", mk("G", "m", "BOUNDS\n UP b x 9\n"), bounds{0, inf}, bounds{0, 9}, bounds{0, inf}, true, 0, false, nil},
		{"other sets ignored", "only the first RHS, RANGES and BOUNDS sets count", mk("L", "", "RHS\n    b1 r 3\n    b2 r 8\nRANGES\n    q1 r 1\n    q2 r 5\nBOUNDS\n UP b1 x 4\n UP b2 x 6\n"), bounds{2, 3}, bounds{0, 4}, bounds{0, inf}, false, 0, false, nil},
		{"OBJSENSE next line", "OBJSENSE section", "NAME t\nOBJSENSE\n    MAX\nROWS\n N obj\n G r\nCOLUMNS\n    x obj 1 r 1\n    y obj 1 r 1\nENDATA\n", bounds{0, inf}, bounds{0, inf}, bounds{0, inf}, false, 0, true, nil},
		{"OBJSENSE same line", "OBJSENSE MAXIMIZE", "NAME t\nOBJSENSE MAXIMIZE\nROWS\n N obj\n G r\nCOLUMNS\n    x obj 1 r 1\n    y obj 1 r 1\nENDATA\n", bounds{0, inf}, bounds{0, inf}, bounds{0, inf}, false, 0, true, nil},
		{"OBJSENSE MIN", "explicit minimisation", "NAME t\nOBJSENSE\n    MIN\nROWS\n N obj\n G r\nCOLUMNS\n    x obj 1 r 1\n    y obj 1 r 1\nENDATA\n", bounds{0, inf}, bounds{0, inf}, bounds{0, inf}, false, 0, false, nil},
		{"OBJNAME", "OBJNAME picks the objective among N rows", "NAME t\nOBJNAME o2\nROWS\n N o1\n N o2\n G r\nCOLUMNS\n    x o1 5 o2 1\n    x r 1\n    y o2 1 r 1\nENDATA\n", bounds{0, inf}, bounds{0, inf}, bounds{0, inf}, false, 0, false, func(p *Problem) string {
			if p.NumRows() != 2 || p.RowNames[0] != "o1" || !math.IsInf(p.RowLower[0], -1) || !math.IsInf(p.RowUpper[0], 1) {
				return "o1 should be a free row before r"
			}
			return ""
		}},
		{"negative zero", "-0 parses as a zero coefficient (dropped)", mk("G", "", "RHS\n    b r -0\n"), bounds{0, inf}, bounds{0, inf}, bounds{0, inf}, false, 0, false, nil},
		{"lower case keywords", "section names and types are case-insensitive", "name t\nrows\n n obj\n g r\ncolumns\n    x obj 1 r 1\n    y obj 1 r 1\nbounds\n up b x 4\nendata\n", bounds{0, inf}, bounds{0, 4}, bounds{0, inf}, false, 0, false, nil},
		{"CRLF and tabs", "netlib files end lines with CR LF", strings.ReplaceAll("NAME t\nROWS\n N obj\n G r\nCOLUMNS\n\tx\tobj\t1\tr\t1\n    y obj 1 r 1\nENDATA\n", "\n", "\r\n"), bounds{0, inf}, bounds{0, inf}, bounds{0, inf}, false, 0, false, nil},
		{"after ENDATA", "text after ENDATA is ignored", mk("G", "", "") + "IMPORTANCES\n x 2\n", bounds{0, inf}, bounds{0, inf}, bounds{0, inf}, false, 0, false, nil},
		{"unindented free data", "free MPS need not indent data lines", "NAME t\nROWS\nN obj\nG r\nCOLUMNS\nx obj 1 r 1\ny obj 1 r 1\nRHS\nRHS r 2\nENDATA\n", bounds{2, inf}, bounds{0, inf}, bounds{0, inf}, false, 0, false, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, err := ReadMPS(strings.NewReader(c.in))
			if err != nil {
				t.Fatalf("%s: %v", c.reason, err)
			}
			r := p.NumRows() - 1
			got := [3]bounds{{p.RowLower[r], p.RowUpper[r]}, {p.ColLower[0], p.ColUpper[0]}, {p.ColLower[1], p.ColUpper[1]}}
			want := [3]bounds{c.row, c.x, c.y}
			if got != want {
				t.Errorf("%s: (row, x, y) bounds = %v, want %v", c.reason, got, want)
			}
			if isInt := p.Integer != nil && p.Integer[0]; isInt != c.intX {
				t.Errorf("%s: x integer = %v, want %v", c.reason, isInt, c.intX)
			}
			if p.Integer != nil && p.Integer[1] {
				t.Errorf("%s: y marked integer", c.reason)
			}
			if p.Offset != c.offset || p.Maximize != c.max {
				t.Errorf("%s: offset, maximize = %v, %v; want %v, %v", c.reason, p.Offset, p.Maximize, c.offset, c.max)
			}
			if c.check != nil {
				if msg := c.check(p); msg != "" {
					t.Errorf("%s: %s", c.reason, msg)
				}
			}
		})
	}
}

func TestReadMPSFixedNamesWithSpaces(t *testing.T) {
	// Fixed format: names with spaces, read by the column positions.
	in := "NAME          SPACES\n" +
		"ROWS\n" +
		fixedLine("N", "COST") +
		fixedLine("L", "LIM 1") +
		fixedLine("G", "MY ROW") +
		"COLUMNS\n" +
		fixedLine("", "X ONE", "COST", "1.", "LIM 1", "1.") +
		fixedLine("", "X ONE", "MY ROW", "2.") +
		fixedLine("", "Y", "COST", "-1.", "MY ROW", "1.") +
		"RHS\n" +
		fixedLine("", "RHS", "LIM 1", "4.", "MY ROW", "1.") +
		"BOUNDS\n" +
		fixedLine("UP", "BND", "X ONE", "3.") +
		"ENDATA\n"
	p := readMPSString(t, in)
	if d := cmp.Diff([]string{"X ONE", "Y"}, p.ColNames); d != "" {
		t.Errorf("column names (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]string{"LIM 1", "MY ROW"}, p.RowNames); d != "" {
		t.Errorf("row names (-want +got):\n%s", d)
	}
	if d := cmp.Diff([][]float64{{1, 0}, {2, 1}}, denseA(p)); d != "" {
		t.Errorf("A (-want +got):\n%s", d)
	}
	if p.RowUpper[0] != 4 || p.RowLower[1] != 1 || p.ColUpper[0] != 3 || p.Cost[1] != -1 {
		t.Errorf("rhs or bounds wrong: %+v", p)
	}
	// Written back as free MPS, the names with spaces are replaced and the
	// rest is unchanged.
	var buf bytes.Buffer
	if err := WriteMPS(&buf, p); err != nil {
		t.Fatal(err)
	}
	q := readMPSString(t, buf.String())
	if d := cmp.Diff([]string{"C0", "Y"}, q.ColNames); d != "" {
		t.Errorf("written column names (-want +got):\n%s", d)
	}
	q.ColNames, q.RowNames = p.ColNames, p.RowNames
	if d := cmp.Diff(p, q); d != "" {
		t.Errorf("round trip (-want +got):\n%s", d)
	}
}

// fixedLine lays out fields at the columns of fixed MPS (2, 5, 15, 25, 40,
// 50), numbers right-aligned in their 12 columns.
func fixedLine(fields ...string) string {
	start := []int{1, 4, 14, 24, 39, 49}
	b := []byte(strings.Repeat(" ", 61))
	for k, f := range fields {
		at := start[k]
		if k == 3 || k == 5 {
			at = start[k] + 12 - len(f)
		}
		copy(b[at:], f)
	}
	return strings.TrimRight(string(b), " ") + "\n"
}

func TestReadMPSErrors(t *testing.T) {
	head := "NAME t\nROWS\n N obj\n L r\nCOLUMNS\n    x obj 1 r 1\n"
	cases := []struct {
		name, reason string
		in           string
		is           error
		line         int
		msg          string // a part of the message
	}{
		{"unknown row type", "types are N E L G", "NAME t\nROWS\n X r\nENDATA\n", ErrSyntax, 3, "row type"},
		{"duplicate row", "row names are unique", "NAME t\nROWS\n N obj\n L r\n G r\nENDATA\n", ErrSyntax, 5, "twice"},
		{"unknown row in COLUMNS", "rows are declared in ROWS", head + "    y obj 1 s 1\nENDATA\n", ErrSyntax, 7, `unknown row "s"`},
		{"bad number", "values are numbers", head + "    y obj 1 r abc\nENDATA\n", ErrSyntax, 7, `"abc" is not a number`},
		{"NaN", "NaN is no value", head + "    y obj NaN\nENDATA\n", ErrSyntax, 7, "not a number"},
		{"infinite coefficient", "coefficients are finite", head + "    y r Inf\nENDATA\n", ErrSyntax, 7, "not finite"},
		{"wrong field count", "a column line has 3 or 5 fields", head + "    y obj 1 r\nENDATA\n", ErrSyntax, 7, "fields"},
		{"non-contiguous column", "a column's entries are together", head + "    y obj 1\n    x r 2\nENDATA\n", ErrSyntax, 8, "contiguous"},
		{"duplicate entry", "one value per (row, column)", head + "    x r 2\nENDATA\n", ErrSyntax, 7, "two entries"},
		{"unknown column in BOUNDS", "bounds name columns", head + "BOUNDS\n UP b y 1\nENDATA\n", ErrSyntax, 8, `unknown column "y"`},
		{"unknown bound type", "bound types are fixed", head + "BOUNDS\n XX b x 1\nENDATA\n", ErrSyntax, 8, "bound type"},
		{"UP without value", "UP needs a value", head + "BOUNDS\n UP b x\nENDATA\n", ErrSyntax, 8, "without a value"},
		{"SC bound", "semi-continuous is not supported", head + "BOUNDS\n SC b x 4\nENDATA\n", ErrUnsupported, 8, "semi-continuous"},
		{"quadratic section", "QMATRIX is not supported", head + "QMATRIX\n    x x 1\nENDATA\n", ErrUnsupported, 7, "QMATRIX"},
		{"SOS marker", "SOS is not supported", head + "    S 'MARKER' 'SOSORG'\nENDATA\n", ErrUnsupported, 7, "SOS"},
		{"missing ENDATA", "truncated input is an error", head, ErrSyntax, 6, "ENDATA"},
		{"empty input", "no ENDATA", "", ErrSyntax, 0, "ENDATA"},
		{"COLUMNS before ROWS", "section order", "NAME t\nCOLUMNS\nENDATA\n", ErrSyntax, 2, "before ROWS"},
		{"RHS before COLUMNS", "section order", "NAME t\nROWS\n N obj\nRHS\nENDATA\n", ErrSyntax, 4, "before COLUMNS"},
		{"section twice", "sections appear once", "NAME t\nROWS\n N obj\nROWS\nENDATA\n", ErrSyntax, 4, "twice"},
		{"data before section", "the file starts with a section", "    x obj 1\n", ErrSyntax, 1, "before the first section"},
		{"bad sense", "MAX or MIN", "NAME t\nOBJSENSE\n    UP\nROWS\nENDATA\n", ErrSyntax, 3, "objective sense"},
		{"unclosed marker", "INTORG needs INTEND", "NAME t\nROWS\n N obj\nCOLUMNS\n M 'MARKER' 'INTORG'\n    x obj 1\nENDATA\n", ErrSyntax, 7, "marker"},
		{"duplicate RHS", "one rhs per row", head + "RHS\n    b r 1\n    b r 2\nENDATA\n", ErrSyntax, 9, "two RHS"},
		{"long name", "names are bounded", head + "    " + strings.Repeat("y", 300) + " obj 1\nENDATA\n", ErrSyntax, 7, "longer than 255"},
		{"long line", "lines are bounded", head + "    y obj 1" + strings.Repeat(" ", MaxMPSLineBytes) + "\nENDATA\n", ErrSyntax, 7, "longer than"},
		{"crossed bounds", "a valid file with an invalid problem", head + "BOUNDS\n LO b x 5\n UP b x 3\nENDATA\n", ErrInvalid, 9, "line 9"},
	}
	lineRe := regexp.MustCompile(`line (\d+)`)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, err := ReadMPS(strings.NewReader(c.in))
			if err == nil {
				t.Fatalf("%s: no error, problem %+v", c.reason, p)
			}
			if !errors.Is(err, c.is) {
				t.Errorf("%s: error %q does not wrap %v", c.reason, err, c.is)
			}
			if !strings.Contains(err.Error(), c.msg) {
				t.Errorf("%s: error %q does not say %q", c.reason, err, c.msg)
			}
			mm := lineRe.FindStringSubmatch(err.Error())
			if mm == nil {
				t.Fatalf("%s: error %q names no line", c.reason, err)
			}
			if n, _ := strconv.Atoi(mm[1]); n != c.line {
				t.Errorf("%s: error %q names line %d, want %d", c.reason, err, n, c.line)
			}
		})
	}
}

// testInstances lists the instance files of a testdata set with their
// optimal objective from optima.tsv.
func testInstances(t testing.TB, set string) (names []string, optimum map[string]float64) {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", set, "optima.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	optimum = map[string]float64{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) != 2 || fields[0] == "name" {
			continue
		}
		v, err := strconv.ParseFloat(fields[1], 64)
		if err != nil {
			t.Fatalf("optima.tsv: %v", err)
		}
		names = append(names, fields[0])
		optimum[fields[0]] = v
	}
	files, _ := filepath.Glob(filepath.Join("testdata", set, "*.mps.gz"))
	if len(files) != len(names) {
		t.Fatalf("%s: %d instance files but %d optima", set, len(files), len(names))
	}
	return names, optimum
}

func instancePath(set, name string) string {
	return filepath.Join("testdata", set, name+".mps.gz")
}

// TestReadMPSMIPLIBHeaders checks every MIPLIB file against the sizes its
// own header comments state (an oracle independent of the reader).
func TestReadMPSMIPLIBHeaders(t *testing.T) {
	names, _ := testInstances(t, "miplib")
	headerRe := regexp.MustCompile(`^\*(ROWS|COLUMNS|INTEGER|NONZERO):\s+(\d+)`)
	for _, name := range names {
		path := instancePath("miplib", name)
		p, err := ReadMPSFile(path)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		head := map[string]int{}
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		zr, err := gzip.NewReader(f)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(zr)
		for sc.Scan() && strings.HasPrefix(sc.Text(), "*") {
			if mm := headerRe.FindStringSubmatch(sc.Text()); mm != nil {
				head[mm[1]], _ = strconv.Atoi(mm[2])
			}
		}
		f.Close()
		if len(head) != 4 {
			t.Errorf("%s: header has %v, want ROWS, COLUMNS, INTEGER and NONZERO", name, head)
			continue
		}
		nint := 0
		for _, b := range p.Integer {
			if b {
				nint++
			}
		}
		// MIPLIB's NONZERO counts the matrix without the objective. The
		// header of mas76 says 1639 where its COLUMNS section holds 1640
		// non-zero entries outside the objective (counted with awk).
		if name == "mas76" && head["NONZERO"] == 1639 {
			head["NONZERO"] = 1640
		}
		got := map[string]int{"ROWS": p.NumRows(), "COLUMNS": p.NumCols(), "INTEGER": nint, "NONZERO": p.A.NNZ()}
		if d := cmp.Diff(head, got); d != "" {
			t.Errorf("%s: sizes (-header +read):\n%s", name, d)
		}
	}
}

// TestMPSRoundTripTestdata reads every netlib and MIPLIB instance, writes it
// with WriteMPS and reads it back: the problems must be identical.
func TestMPSRoundTripTestdata(t *testing.T) {
	for _, set := range []string{"netlib", "miplib"} {
		names, _ := testInstances(t, set)
		for _, name := range names {
			if (testing.Short() || raceEnabled) && name != "afiro" && name != "boeing1" && name != "p0033" && name != "e226" {
				continue
			}
			p, err := ReadMPSFile(instancePath(set, name))
			if err != nil {
				t.Errorf("%s: %v", name, err)
				continue
			}
			var buf bytes.Buffer
			if err := WriteMPS(&buf, p); err != nil {
				t.Errorf("%s: WriteMPS: %v", name, err)
				continue
			}
			q, err := ReadMPS(&buf)
			if err != nil {
				t.Errorf("%s: reading the written MPS: %v", name, err)
				continue
			}
			t.Run(name, func(t *testing.T) { checkSameProblem(t, p, q) })
		}
	}
}

func TestWriteMPSNames(t *testing.T) {
	var b Builder
	b.AddCol("", 1, 0, 1)                                       // no name: C0
	b.AddCol("C0", 1, -inf, inf)                                // the name C0 is taken by an original: kept
	b.AddCol("a b", 1, 0, 2)                                    // space: C2
	b.AddCol("C0", 1, 0, 3)                                     // duplicate: C3
	b.AddRow("OBJECTIVE", 1, inf, []int{0, 1}, []float64{1, 1}) // objective becomes OBJECTIVE_1
	b.AddRow("OBJECTIVE", -1, 1, []int{2, 3}, []float64{1, 1})  // duplicate row: R1
	p, err := b.Problem()
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := WriteMPS(&buf, p); err != nil {
		t.Fatal(err)
	}
	q := readMPSString(t, buf.String())
	if d := cmp.Diff([]string{"C0_1", "C0", "C2", "C3"}, q.ColNames); d != "" {
		t.Errorf("column names (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]string{"OBJECTIVE", "R1"}, q.RowNames); d != "" {
		t.Errorf("row names (-want +got):\n%s", d)
	}
	if !strings.Contains(buf.String(), " N  OBJECTIVE_1\n") {
		t.Errorf("objective row not named OBJECTIVE_1:\n%s", buf.String())
	}
	q.ColNames, q.RowNames = p.ColNames, p.RowNames
	if d := cmp.Diff(p, q); d != "" {
		t.Errorf("round trip (-want +got):\n%s", d)
	}
}

func TestWriteMPSRangeExact(t *testing.T) {
	// mpsRow finds a G or L form whose range reproduces both bounds when
	// the plain difference does not.
	cases := [][2]float64{{0.1, 0.3}, {1, 1e20}, {-1, 1e-30}, {-1e-30, 1}, {-3, 4}, {1e-300, 1e300}, {-1e300, 1e300}, {5, 5.000000000000001}}
	for _, c := range cases {
		lo, up := c[0], c[1]
		kind, rhs, rg := mpsRow(lo, up)
		glo, gup := rowBounds(kind, rhs, rg, true)
		if glo != lo || gup != up {
			t.Errorf("mpsRow(%v, %v) = %c %v %v gives [%v, %v]", lo, up, kind, rhs, rg, glo, gup)
		}
	}
}

func TestMPSHugeRange(t *testing.T) {
	// A ranged row wider than MaxFloat64 is written with a RANGES value
	// beyond the float64 range, which ReadMPS adds exactly: every such row
	// comes back with both bounds bit for bit.
	maxF := math.MaxFloat64
	cases := []struct {
		name   string
		lo, up float64
		reason string
	}{
		{"symmetric", -1e308, 1e308, "the review's row: width 2e308"},
		{"widest", -maxF, maxF, "the widest finite row"},
		{"just over", -maxF, math.Ldexp(1, 971), "width just past MaxFloat64 + half an ulp: its range needs 33 digits"},
		{"lopsided", -math.Ldexp(1, 970), maxF, "a lower bound 2^54 times smaller than the upper: 18 digits"},
		{"arbitrary digits", -1.2345678901234567e308, 9.876543210987654e307, "bounds of no pattern"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if !math.IsInf(c.up-c.lo, 1) {
				t.Fatalf("case [%v, %v] does not overflow: %s", c.lo, c.up, c.reason)
			}
			p := &Problem{
				Cost: []float64{1}, ColLower: []float64{0}, ColUpper: []float64{inf},
				RowLower: []float64{c.lo}, RowUpper: []float64{c.up},
				A: Matrix{Rows: 1, Cols: 1, Start: []int{0, 1}, Index: []int32{0}, Value: []float64{1}},
			}
			var buf bytes.Buffer
			if err := WriteMPS(&buf, p); err != nil {
				t.Fatal(err)
			}
			q := readMPSString(t, buf.String())
			if q.RowLower[0] != c.lo || q.RowUpper[0] != c.up {
				t.Errorf("[%v, %v] (%s) read back as [%v, %v]:\n%s", c.lo, c.up, c.reason, q.RowLower[0], q.RowUpper[0], buf.String())
			}
		})
	}
}

func TestReadMPSRangeBeyondFloat64(t *testing.T) {
	const head = "ROWS\n N o\n %s r\nCOLUMNS\n x o 1 r 1\nRHS\n b r %s\nRANGES\n q r %s\nENDATA\n"
	cases := []struct {
		name, kind, rhs, rng string
		lo, up               float64
		err                  error
		reason               string
	}{
		{"E negative huge", "E", "1e308", "-2e308", -1e308, 1e308, nil, "an E row with a negative range extends below its rhs"},
		{"L huge", "L", "1e308", "2e308", -1e308, 1e308, nil, "an L row extends below its rhs"},
		{"G huge beyond", "G", "0", "1e400", 0, 0, ErrInvalid, "the upper bound 1e400 is no float64"},
		{"G float sum beyond", "G", "1e308", "1e308", 0, 0, ErrInvalid, "1e308 + 1e308 overflows: no finite value is taken for infinity"},
		{"infinite range", "G", "0", "Inf", 0, 0, ErrSyntax, "an infinite range is refused"},
		{"hostile exponent", "G", "0", "1e999999999999", 0, 0, ErrSyntax, "too large even to hold"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in := fmt.Sprintf(head, c.kind, c.rhs, c.rng)
			p, err := ReadMPS(strings.NewReader(in))
			if c.err != nil {
				if !errors.Is(err, c.err) {
					t.Errorf("ReadMPS = %v, want an error wrapping %v (%s)", err, c.err, c.reason)
				}
				return
			}
			if err != nil {
				t.Fatalf("ReadMPS: %v (%s)", err, c.reason)
			}
			if p.RowLower[0] != c.lo || p.RowUpper[0] != c.up {
				t.Errorf("row read as [%v, %v], want [%v, %v] (%s)", p.RowLower[0], p.RowUpper[0], c.lo, c.up, c.reason)
			}
		})
	}
}

func TestWriteMPSInvalid(t *testing.T) {
	p := &Problem{Cost: []float64{math.NaN()}, ColLower: []float64{0}, ColUpper: []float64{1}, A: Matrix{Cols: 1, Start: []int{0, 0}}}
	if err := WriteMPS(&bytes.Buffer{}, p); !errors.Is(err, ErrInvalid) {
		t.Errorf("WriteMPS(NaN cost) = %v, want ErrInvalid", err)
	}
	if err := WriteLP(&bytes.Buffer{}, p); !errors.Is(err, ErrInvalid) {
		t.Errorf("WriteLP(NaN cost) = %v, want ErrInvalid", err)
	}
}

func ulp(x float64) float64 { return math.Abs(math.Nextafter(x, math.Inf(1)) - x) }

// FuzzReadMPS checks that no input panics ReadMPS and that every accepted
// input round-trips through WriteMPS and ReadMPS to the same problem (names
// aside where WriteMPS must replace them).
func FuzzReadMPS(f *testing.F) {
	seeds := []string{
		"NAME t\nROWS\n N obj\n L r\n G s\n E e\nCOLUMNS\n    x obj 1 r 1\n    x s 2\n    y obj -1 e 1\nRHS\n    b r 4 s 1\n    b obj 3\nRANGES\n    q e -2 r 1\nBOUNDS\n UP b x 4\n MI b y\nENDATA\n",
		"NAME t\nOBJSENSE\n    MAX\nROWS\n N obj\n G r\nCOLUMNS\n    M 'MARKER' 'INTORG'\n    x obj 1 r 1\n    M 'MARKER' 'INTEND'\n    y obj 1 r 1\nBOUNDS\n BV b y\n LI b x -3\n UP b x -1\nENDATA\n",
		"NAME          FIX\nROWS\n" + fixedLine("N", "COST") + fixedLine("L", "LIM 1") + "COLUMNS\n" +
			fixedLine("", "X ONE", "COST", "1.", "LIM 1", "1.") + "RHS\n" + fixedLine("", "RHS", "LIM 1", "4.") +
			"BOUNDS\n" + fixedLine("UP", "", "X ONE", "3.") + "ENDATA\n",
		"ROWS\n N o\nCOLUMNS\n    x o 0\nBOUNDS\n FR b x\nENDATA\n",
	}
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	if data, err := os.ReadFile(instancePath("netlib", "afiro")); err == nil {
		if zr, err := gzip.NewReader(bytes.NewReader(data)); err == nil {
			var buf bytes.Buffer
			if _, err := buf.ReadFrom(zr); err == nil {
				f.Add(buf.Bytes())
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := ReadMPS(bytes.NewReader(data))
		if err != nil {
			if !errors.Is(err, ErrSyntax) && !errors.Is(err, ErrUnsupported) && !errors.Is(err, ErrInvalid) {
				t.Fatalf("error wraps no sentinel: %v", err)
			}
			return
		}
		var buf bytes.Buffer
		if err := WriteMPS(&buf, p); err != nil {
			t.Fatalf("WriteMPS of an accepted problem: %v", err)
		}
		q, err := ReadMPS(bytes.NewReader(buf.Bytes()))
		if err != nil {
			t.Fatalf("reading back: %v\nwritten:\n%s", err, buf.String())
		}
		checkSameProblem(t, p, q)
	})
}

// checkSameProblem compares a problem with its MPS round trip: identical,
// except names WriteMPS had to replace and, for a ranged row whose bounds
// no MPS range reproduces exactly, an upper bound within one unit in the
// last place.
func checkSameProblem(t *testing.T, p, q *Problem) {
	t.Helper()
	want := *p
	want.Name = strings.TrimSpace(strings.Map(func(r rune) rune {
		if r < ' ' || r == 0x7f {
			return ' '
		}
		return r
	}, p.Name))
	want.ColNames = uniqueNames(p.ColNames, p.NumCols(), "C", safeMPSName, nil)
	want.RowNames = uniqueNames(p.RowNames, p.NumRows(), "R", safeMPSName, nil)
	want.RowUpper = slices.Clone(p.RowUpper)
	for i := range want.RowUpper {
		lo, up := p.RowLower[i], p.RowUpper[i]
		kind, rhs, rg := mpsRow(lo, up)
		if math.IsNaN(rg) || math.IsInf(rg, 0) { // an infinite range is written exactly by hugeRange
			continue
		}
		if glo, gup := rowBounds(kind, rhs, rg, true); glo != lo || gup != up {
			if glo != lo || math.Abs(gup-up) > 4*ulp(up) {
				t.Errorf("row %d: bounds [%v, %v] written as %c %v range %v come back as [%v, %v]", i, lo, up, kind, rhs, rg, glo, gup)
			}
			want.RowUpper[i] = gup
		}
	}
	if reflect.DeepEqual(&want, q) { // fast path; cmp.Diff explains a difference
		return
	}
	if d := cmp.Diff(&want, q); d != "" {
		t.Fatalf("round trip (-want +got):\n%s", d)
	}
}
