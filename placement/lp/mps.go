package lp

import (
	"bufio"
	"bytes"
	"cmp"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"math"
	"math/big"
	"os"
	"slices"
	"strconv"
	"strings"
)

// Limits of the MPS reader. They bound the work and memory spent on one line
// of hostile input; the memory of the whole problem grows with its size.
const (
	// MaxMPSLineBytes is the longest line ReadMPS accepts.
	MaxMPSLineBytes = 1 << 16
	// MaxMPSNameBytes is the longest row, column or set name ReadMPS
	// accepts (the limit of common solvers).
	MaxMPSNameBytes = 255
)

// ReadMPSFile reads an MPS file with ReadMPS. A file that starts with the
// gzip magic bytes (such as name.mps.gz) is decompressed transparently.
func ReadMPSFile(path string) (*Problem, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("lp: %w", err)
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 1<<16)
	var r io.Reader = br
	if magic, _ := br.Peek(2); len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, fmt.Errorf("lp: %s: %w", path, err)
		}
		defer zr.Close()
		r = zr
	}
	p, err := ReadMPS(r)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return p, nil
}

// ReadMPS reads a linear or mixed-integer program in MPS format, fixed or
// free, and returns it validated. The rules:
//
//   - Sections: NAME, OBJSENSE (MAX, MAXIMIZE, MIN or MINIMIZE, on the same
//     line or the next), OBJNAME (the name of the objective row), ROWS,
//     COLUMNS, RHS, RANGES, BOUNDS, ENDATA; anything after ENDATA is
//     ignored. Lines starting with '*' and blank lines are comments, but
//     for WriteMPS's mark of a maximisation written negated, which makes
//     the file read as that maximisation.
//     Section names are case-insensitive; names of rows and columns are
//     case-sensitive. Quadratic, SOS and indicator sections are refused
//     with ErrUnsupported.
//   - Fields: a data line is first split at white space (free MPS). If that
//     reading is not valid for the section (wrong number of fields, a value
//     that is no number, an unknown name), the line is read again by the
//     fixed-format columns 2–3, 5–12, 15–22, 25–36, 40–47 and 50–61, where
//     names may contain spaces (leading and trailing spaces of a field are
//     dropped). Netlib's fixed files, whose bound lines may leave the set
//     name blank, read either way.
//   - ROWS: the first N row (or the row named by OBJNAME) is the objective;
//     further N rows are kept as free rows, with bounds (−Inf, +Inf).
//   - COLUMNS: the entries of a column are contiguous; a repeated
//     (row, column) entry is an error; zero values are dropped (a column
//     may be declared by a single zero entry). Columns between
//     MARKER 'INTORG' and 'INTEND' lines are integer.
//   - RHS: the value on the objective row is minus the objective constant
//     (Offset = −value, as CBC, CPLEX and netlib's e226 have it); values on
//     free rows are ignored. Only the first RHS set is used; lines of other
//     sets are ignored (so are those of other RANGES and BOUNDS sets).
//   - RANGES: with rhs r and range R, an E row becomes [r, r+|R|] when
//     R > 0 and [r−|R|, r] when R < 0, an L row [r−|R|, r], a G row
//     [r, r+|R|]; ranges on free rows are ignored. R may be a finite
//     number beyond the float64 range (such as 2e308, which WriteMPS
//     writes for a row wider than MaxFloat64): r ± |R| is then computed
//     exactly and rounded once. A bound beyond the float64 range is an
//     error wrapping ErrInvalid.
//   - BOUNDS: columns default to [0, +Inf). UP sets the upper bound; a
//     negative UP value on a column whose lower bound has not been set
//     also sets the lower bound to −Inf (the MPSX convention CPLEX, CBC
//     and CLP follow). A negative UI value does not, as CBC 2.10 and CLP
//     read it: on a column whose lower bound is not below it (such as the
//     default 0) it gives crossed bounds, an error wrapping ErrInvalid
//     (CBC and CLP call such a problem infeasible). LO, FX, FR (−Inf, +Inf), MI (lower −Inf, upper kept),
//     PL (upper +Inf), BV (integer in [0, 1]), LI and UI (integer, lower or
//     upper bound). An integer column from the markers with no BOUNDS entry
//     at all is binary, [0, 1], as CBC, HiGHS and the MPSX convention read
//     it; any BOUNDS entry for it makes its defaults [0, +Inf). Values
//     "Inf", "-Inf", "Infinity" give infinite bounds; no finite value is
//     taken for infinity. SC (semi-continuous) bounds are refused with
//     ErrUnsupported.
//
// Malformed input gives an error wrapping ErrSyntax that names the line and
// what was expected; a well-formed file whose problem does not validate
// (for example crossed bounds) gives one wrapping ErrInvalid. Lines longer
// than MaxMPSLineBytes and names longer than MaxMPSNameBytes are errors.
func ReadMPS(r io.Reader) (*Problem, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), MaxMPSLineBytes)
	m := newMPSReader()
	for sc.Scan() {
		m.line++
		done, err := m.readLine(sc.Bytes())
		if err != nil {
			return nil, err
		}
		if done {
			return m.problem()
		}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, fmt.Errorf("%w: line %d: longer than %d bytes", ErrSyntax, m.line+1, MaxMPSLineBytes)
		}
		return nil, fmt.Errorf("lp: reading MPS: %w", err)
	}
	return nil, fmt.Errorf("%w: line %d: unexpected end of input, want ENDATA", ErrSyntax, m.line)
}

type mpsSection int8

const (
	secStart mpsSection = iota
	secName
	secObjSense
	secObjName
	secRows
	secColumns
	secRHS
	secRanges
	secBounds
)

var mpsSectionNames = map[string]mpsSection{
	"NAME": secName, "OBJSENSE": secObjSense, "OBJSENCE": secObjSense, "OBJNAME": secObjName,
	"ROWS": secRows, "COLUMNS": secColumns, "RHS": secRHS, "RANGES": secRanges, "BOUNDS": secBounds,
}

var mpsUnsupportedSections = map[string]bool{
	"SOS": true, "SETS": true, "QUADOBJ": true, "QSECTION": true, "QMATRIX": true, "QCMATRIX": true,
	"INDICATORS": true, "LAZYCONS": true, "USERCUTS": true, "CSECTION": true, "GENERAL": true,
	"PWLOBJ": true, "PWLNAM": true, "GENCONS": true,
}

// mpsReader holds the state of one ReadMPS call.
type mpsReader struct {
	line int
	sec  mpsSection
	seen [secBounds + 1]bool

	name     string
	maximize bool
	// negated says the file is a maximisation that WriteMPS wrote as the
	// minimisation of its negated objective (negatedMax).
	negated  bool
	objName  string // from OBJNAME, or the first N row
	objFound bool
	objNamed bool // OBJNAME given
	rowIndex map[string]int
	rowKind  []byte // 'N' (free), 'E', 'L', 'G'
	rowNames []string
	rhs      []float64
	rhsSet   []bool
	rng      []float64
	rngSet   []bool
	// rngHuge holds the RANGES values beyond the float64 range, by row
	// (their entry in rng is ±Inf).
	rngHuge   map[int]*big.Float
	offset    float64
	offsetSet bool

	colIndex map[string]int
	colNames []string
	cost     []float64
	start    []int
	index    []int32
	value    []float64
	integer  []bool
	anyInt   bool
	inInt    bool
	mark     []int // per row: the last column with an entry in it
	objMark  int   // the last column with an objective entry

	lower, upper []float64
	lowerSet     []bool
	bounded      []bool
	boundLine    []int

	rhsName, rngName, bndName    string
	rhsNamed, rngNamed, bndNamed bool
	fieldsBuf                    [8]string
}

func newMPSReader() *mpsReader {
	return &mpsReader{rowIndex: map[string]int{}, colIndex: map[string]int{}, objMark: -1, start: []int{0}}
}

func (m *mpsReader) errorf(format string, args ...any) error {
	return fmt.Errorf("%w: line %d: %s", ErrSyntax, m.line, fmt.Sprintf(format, args...))
}

// readLine handles one line; done reports ENDATA.
func (m *mpsReader) readLine(b []byte) (done bool, err error) {
	b = bytes.TrimRight(b, " \t\r\n\f\v")
	if len(b) == 0 || b[0] == '*' {
		if string(b) == negatedMax {
			m.negated = true
		}
		return false, nil
	}
	line := string(b)
	if line[0] != ' ' && line[0] != '\t' {
		if done, ok, err := m.header(line); ok || err != nil {
			return done, err
		}
	}
	return false, m.data(line)
}

// header handles a line starting in column 1 if it is a section header
// (ok); a line that is not one is left to data (free MPS need not indent).
func (m *mpsReader) header(line string) (done, ok bool, err error) {
	fields := strings.Fields(line)
	key := strings.ToUpper(fields[0])
	if key == "ENDATA" && len(fields) == 1 {
		return true, true, nil
	}
	if mpsUnsupportedSections[key] && len(fields) == 1 {
		return false, true, fmt.Errorf("%w: line %d: section %s is not supported", ErrUnsupported, m.line, fields[0])
	}
	sec, known := mpsSectionNames[key]
	if !known {
		return false, false, nil
	}
	rest := strings.TrimSpace(line[len(fields[0]):])
	if rest != "" && sec != secName && sec != secObjSense && sec != secObjName {
		return false, false, nil // "RHS c1 1" in an unindented free file is data
	}
	if m.seen[sec] {
		return false, true, m.errorf("section %s appears twice", key)
	}
	switch sec {
	case secName, secObjSense, secObjName:
		if m.seen[secRows] {
			return false, true, m.errorf("section %s must come before ROWS", key)
		}
	case secColumns:
		if !m.seen[secRows] {
			return false, true, m.errorf("COLUMNS before ROWS")
		}
	case secRHS, secRanges, secBounds:
		if !m.seen[secColumns] {
			return false, true, m.errorf("%s before COLUMNS", key)
		}
	}
	if m.sec == secColumns {
		if err := m.endColumn(); err != nil {
			return false, true, err
		}
	}
	if m.sec == secRows && m.objNamed && !m.objFound {
		return false, true, m.errorf("OBJNAME %q is not an N row", m.objName)
	}
	m.seen[sec] = true
	m.sec = sec
	switch sec {
	case secName:
		m.name = rest
	case secObjSense:
		if rest != "" {
			return false, true, m.objSense(rest)
		}
	case secObjName:
		if rest != "" {
			return false, true, m.setObjName(rest)
		}
	}
	return false, true, nil
}

func (m *mpsReader) objSense(s string) error {
	switch strings.ToUpper(strings.TrimSpace(s)) {
	case "MAX", "MAXIMIZE", "MAXIMISE":
		m.maximize = true
	case "MIN", "MINIMIZE", "MINIMISE":
		m.maximize = false
	default:
		return m.errorf("objective sense %q, want MAX or MIN", s)
	}
	m.sec = secStart // one sense only
	return nil
}

func (m *mpsReader) setObjName(s string) error {
	if err := m.checkName(s); err != nil {
		return err
	}
	m.objName, m.objNamed = s, true
	m.sec = secStart
	return nil
}

func (m *mpsReader) checkName(s string) error {
	if len(s) > MaxMPSNameBytes {
		return m.errorf("name of %d bytes, longer than %d", len(s), MaxMPSNameBytes)
	}
	return nil
}

// data handles a data line of the current section: free fields first, then
// the fixed-format columns.
func (m *mpsReader) data(line string) error {
	switch m.sec {
	case secStart:
		return m.errorf("data before the first section, want NAME or ROWS")
	case secName:
		return m.errorf("data line in NAME section, want ROWS")
	case secObjSense:
		return m.objSense(line)
	case secObjName:
		return m.setObjName(strings.TrimSpace(line))
	}
	free := splitFields(m.fieldsBuf[:0], line, 7)
	var err error
	if len(free) > 6 {
		err = countErr("more than 6 fields")
	} else {
		err = m.apply(free)
	}
	if err == nil {
		return nil
	}
	var se *mpsFieldError
	if !errors.As(err, &se) {
		return err // a semantic error, not a reading problem
	}
	if fixed, ok := fixedFields(line); ok && !slices.Equal(fixed, free) {
		err2 := m.apply(fixed)
		if err2 == nil {
			return nil
		}
		// Report the fixed reading's error when only it had the right
		// number of fields.
		var se2 *mpsFieldError
		if se.count && (!errors.As(err2, &se2) || !se2.count) {
			err = err2
		}
	}
	if errors.As(err, &se) {
		return m.errorf("%s", se.msg)
	}
	return err
}

// splitFields appends to dst up to max fields of line separated by spaces
// and tabs.
func splitFields(dst []string, line string, max int) []string {
	for i := 0; i < len(line) && len(dst) < max; {
		for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
			i++
		}
		j := i
		for j < len(line) && line[j] != ' ' && line[j] != '\t' {
			j++
		}
		if j > i {
			dst = append(dst, line[i:j])
		}
		i = j
	}
	return dst
}

// mpsFieldError reports fields that do not fit the section: the line may
// still read in the other format. Nothing has been applied when it is
// returned.
type mpsFieldError struct {
	msg   string
	count bool // the number of fields is wrong
}

func (e *mpsFieldError) Error() string { return e.msg }

func fieldErr(format string, args ...any) error {
	return &mpsFieldError{msg: fmt.Sprintf(format, args...)}
}

// countErr is a fieldErr about the number of fields.
func countErr(format string, args ...any) error {
	return &mpsFieldError{msg: fmt.Sprintf(format, args...), count: true}
}

// fixedSpans are the 0-based [start, end) byte columns of the six fields of
// fixed MPS.
var fixedSpans = [6][2]int{{1, 3}, {4, 12}, {14, 22}, {24, 36}, {39, 47}, {49, 61}}

// fixedFields splits a line by the fixed-format columns, dropping empty
// trailing fields; field 1 (the type) is kept empty when blank. ok is false
// for a line with tabs or text beyond column 61.
func fixedFields(line string) ([]string, bool) {
	if strings.ContainsRune(line, '\t') || len(line) > 61 {
		return nil, false
	}
	var out []string
	for k, sp := range fixedSpans {
		if sp[0] >= len(line) {
			break
		}
		f := strings.TrimSpace(line[sp[0]:min(sp[1], len(line))])
		if k == 0 && f == "" {
			continue // no type field (COLUMNS, RHS, RANGES)
		}
		out = append(out, f)
	}
	for len(out) > 0 && out[len(out)-1] == "" {
		out = out[:len(out)-1]
	}
	return out, true
}

func (m *mpsReader) apply(f []string) error {
	for _, s := range f {
		if err := m.checkName(s); err != nil {
			return err
		}
	}
	switch m.sec {
	case secRows:
		return m.row(f)
	case secColumns:
		return m.column(f)
	case secRHS:
		return m.rhsLine(f, false)
	case secRanges:
		return m.rhsLine(f, true)
	case secBounds:
		return m.bound(f)
	}
	return m.errorf("unexpected data")
}

func (m *mpsReader) row(f []string) error {
	if len(f) != 2 {
		return countErr("ROWS line has %d fields, want a type (N, E, L, G) and a name", len(f))
	}
	kind := strings.ToUpper(f[0])
	if len(kind) != 1 || !strings.Contains("NELG", kind) {
		return fieldErr("row type %q, want N, E, L or G", f[0])
	}
	name := f[1]
	if _, dup := m.rowIndex[name]; dup || (m.objFound && name == m.objName) {
		return m.errorf("row %q defined twice", name)
	}
	if kind == "N" && !m.objFound && (!m.objNamed || name == m.objName) {
		m.objName, m.objFound = name, true
		return nil
	}
	if len(m.rowKind) >= MaxRows {
		return m.errorf("more than %d rows", MaxRows)
	}
	name = strings.Clone(name) // do not retain the line
	m.rowIndex[name] = len(m.rowKind)
	m.rowKind = append(m.rowKind, kind[0])
	m.rowNames = append(m.rowNames, name)
	return nil
}

// rowOf returns the index of a row name, -1 for the objective.
func (m *mpsReader) rowOf(name string) (int, bool) {
	if m.objFound && name == m.objName {
		return -1, true
	}
	i, ok := m.rowIndex[name]
	return i, ok
}

func parseValue(s string) (float64, error) {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(v) {
		return 0, fieldErr("%q is not a number", s)
	}
	return v, nil
}

func (m *mpsReader) column(f []string) error {
	if len(f) == 3 && f[1] == "'MARKER'" {
		switch strings.ToUpper(strings.Trim(f[2], "'")) {
		case "INTORG":
			if m.inInt {
				return m.errorf("INTORG marker inside an integer block")
			}
			m.inInt = true
		case "INTEND":
			if !m.inInt {
				return m.errorf("INTEND marker without INTORG")
			}
			m.inInt = false
		case "SOSORG", "SOSEND":
			return fmt.Errorf("%w: line %d: SOS markers are not supported", ErrUnsupported, m.line)
		default:
			return m.errorf("marker %q, want 'INTORG' or 'INTEND'", f[2])
		}
		return m.endColumn()
	}
	if len(f) != 3 && len(f) != 5 {
		return countErr("COLUMNS line has %d fields, want a column name and one or two (row, value) pairs", len(f))
	}
	// Check everything before changing state: the line may be re-read.
	var rows [2]int
	var vals [2]float64
	pairs := (len(f) - 1) / 2
	for k := 0; k < pairs; k++ {
		i, ok := m.rowOf(f[1+2*k])
		if !ok {
			return fieldErr("unknown row %q", f[1+2*k])
		}
		v, err := parseValue(f[2+2*k])
		if err != nil {
			return err
		}
		if math.IsInf(v, 0) {
			return fieldErr("coefficient %q is not finite", f[2+2*k])
		}
		rows[k], vals[k] = i, v
	}
	if pairs == 2 && rows[0] == rows[1] {
		return m.errorf("column %q has two entries in row %q", f[0], f[1])
	}
	j, exists := m.colIndex[f[0]]
	open := len(m.start) == len(m.cost) // the last column takes entries
	if exists && (j != len(m.cost)-1 || !open) {
		return m.errorf("column %q appears again after other columns; its entries must be contiguous", f[0])
	}
	for k := 0; k < pairs; k++ {
		if i := rows[k]; i < 0 {
			if exists && m.objMark == j {
				return m.errorf("column %q has two objective entries", f[0])
			}
		} else if exists && i < len(m.mark) && m.mark[i] == j {
			return m.errorf("column %q has two entries in row %q", f[0], f[1+2*k])
		}
	}
	if !exists {
		if err := m.endColumn(); err != nil {
			return err
		}
		j = len(m.cost)
		name := strings.Clone(f[0]) // do not retain the line
		m.colIndex[name] = j
		m.colNames = append(m.colNames, name)
		m.cost = append(m.cost, 0)
		m.integer = append(m.integer, m.inInt)
		m.anyInt = m.anyInt || m.inInt
		if m.mark == nil {
			m.mark = make([]int, len(m.rowKind))
			for i := range m.mark {
				m.mark[i] = -1
			}
		}
	}
	for k := 0; k < pairs; k++ {
		i, v := rows[k], vals[k]
		if i < 0 {
			m.objMark = j
			m.cost[j] = v
			continue
		}
		m.mark[i] = j
		if v != 0 {
			m.index = append(m.index, int32(i))
			m.value = append(m.value, v)
		}
	}
	return nil
}

// endColumn closes the current column: its entries are sorted by row.
func (m *mpsReader) endColumn() error {
	if len(m.start) == len(m.cost)+1 {
		return nil // no open column
	}
	s := m.start[len(m.start)-1]
	idx, val := m.index[s:], m.value[s:]
	if !slices.IsSorted(idx) {
		perm := make([]int, len(idx))
		for k := range perm {
			perm[k] = k
		}
		slices.SortFunc(perm, func(a, b int) int { return cmp.Compare(idx[a], idx[b]) })
		si := make([]int32, len(idx))
		sv := make([]float64, len(idx))
		for k, p := range perm {
			si[k], sv[k] = idx[p], val[p]
		}
		copy(idx, si)
		copy(val, sv)
	}
	m.start = append(m.start, len(m.index))
	return nil
}

// rhsLine reads an RHS or RANGES line: [set] row value [row value].
func (m *mpsReader) rhsLine(f []string, ranges bool) error {
	what := "RHS"
	if ranges {
		what = "RANGES"
	}
	if len(f) < 2 || len(f) > 5 {
		return countErr("%s line has %d fields, want [set name] row value [row value]", what, len(f))
	}
	set, pairs := "", f
	if len(f)%2 == 1 {
		set, pairs = f[0], f[1:]
	}
	var rows [2]int
	var vals [2]float64
	var huge [2]*big.Float
	n := len(pairs) / 2
	for k := 0; k < n; k++ {
		i, ok := m.rowOf(pairs[2*k])
		if !ok {
			return fieldErr("unknown row %q", pairs[2*k])
		}
		if ranges {
			huge[k] = parseHugeValue(pairs[2*k+1])
		}
		v := math.Inf(1)
		if huge[k] != nil {
			v = math.Copysign(v, float64(huge[k].Sign()))
		} else {
			var err error
			if v, err = parseValue(pairs[2*k+1]); err != nil {
				return err
			}
			if math.IsInf(v, 0) {
				return fieldErr("%s value %q is not finite", what, pairs[2*k+1])
			}
		}
		rows[k], vals[k] = i, v
	}
	if set != "" {
		name, named := &m.rhsName, &m.rhsNamed
		if ranges {
			name, named = &m.rngName, &m.rngNamed
		}
		if !*named {
			*name, *named = set, true
		} else if set != *name {
			return nil // another set: ignored
		}
	}
	if n == 2 && rows[0] == rows[1] {
		return m.errorf("two %s values for row %q", what, pairs[0])
	}
	for k := 0; k < n; k++ {
		i, v := rows[k], vals[k]
		if i < 0 {
			if ranges {
				continue
			}
			if m.offsetSet {
				return m.errorf("two RHS values for the objective row %q", m.objName)
			}
			m.offset, m.offsetSet = 0-v, true // 0−v: never −0
			continue
		}
		if m.rowKind[i] == 'N' {
			continue
		}
		vs, set := m.rhs, m.rhsSet
		if ranges {
			vs, set = m.rng, m.rngSet
		}
		if vs == nil {
			vs, set = make([]float64, len(m.rowKind)), make([]bool, len(m.rowKind))
			if ranges {
				m.rng, m.rngSet = vs, set
			} else {
				m.rhs, m.rhsSet = vs, set
			}
		}
		if set[i] {
			return m.errorf("two %s values for row %q", what, pairs[2*k])
		}
		vs[i], set[i] = v, true
		if huge[k] != nil {
			if m.rngHuge == nil {
				m.rngHuge = make(map[int]*big.Float)
			}
			m.rngHuge[i] = huge[k]
		}
	}
	return nil
}

// hugePrec is the precision of the arithmetic on RANGES values beyond the
// float64 range: such a value is read to this many bits, and its sum with
// a float64 is then exact whenever it lies within the float64 range (a sum
// beyond it is an error however rounded).
const hugePrec = 4096

// parseHugeValue returns s as a big.Float when s is a finite number beyond
// the float64 range (such as "2e308"), else nil.
func parseHugeValue(s string) *big.Float {
	v, err := strconv.ParseFloat(s, 64)
	if !errors.Is(err, strconv.ErrRange) || !math.IsInf(v, 0) {
		return nil
	}
	// ParseFloat found s well formed. The exponent is bounded first so
	// that a hostile one (1e999999999) costs no big-number work.
	if mant, exp, ok := strings.Cut(strings.ToLower(s), "e"); ok {
		e, err := strconv.Atoi(exp)
		if err != nil || e > 1000 || len(mant) > 600 {
			return nil
		}
	} else if len(s) > 600 {
		return nil
	}
	f, _, err := big.ParseFloat(s, 0, hugePrec, big.ToNearestEven)
	if err != nil || f.IsInf() {
		return nil
	}
	return f
}

// addHuge returns r + a rounded to the nearest float64 (±Inf beyond the
// float64 range), computed without rounding in between.
func addHuge(r float64, a *big.Float) float64 {
	s := new(big.Float).SetPrec(hugePrec).SetFloat64(r)
	s.Add(s, a)
	v, _ := s.Float64()
	return v
}

var boundTypes = map[string]bool{"UP": true, "LO": true, "FX": true, "FR": true, "MI": true, "PL": true, "BV": true, "LI": true, "UI": true, "SC": true}

// bound reads a BOUNDS line: type [set] column [value].
func (m *mpsReader) bound(f []string) error {
	if len(f) < 2 || len(f) > 4 {
		return countErr("BOUNDS line has %d fields, want type [set name] column [value]", len(f))
	}
	typ := strings.ToUpper(f[0])
	if !boundTypes[typ] {
		return fieldErr("bound type %q, want UP, LO, FX, FR, MI, PL, BV, LI or UI", f[0])
	}
	needsValue := typ != "FR" && typ != "MI" && typ != "PL" && typ != "BV"
	var set, col, val string
	switch len(f) {
	case 2:
		if needsValue {
			return countErr("%s bound on column %q without a value", typ, f[1])
		}
		col = f[1]
	case 3:
		_, isCol := m.colIndex[f[1]]
		if _, lastIsCol := m.colIndex[f[2]]; needsValue && !isCol && lastIsCol {
			return countErr("%s bound on column %q without a value", typ, f[2])
		}
		if needsValue || (typ == "BV" && isCol && isNumber(f[2])) {
			col, val = f[1], f[2]
		} else {
			set, col = f[1], f[2]
		}
	case 4:
		set, col, val = f[1], f[2], f[3]
	}
	j, ok := m.colIndex[col]
	if !ok {
		return fieldErr("unknown column %q", col)
	}
	if typ == "SC" {
		return fmt.Errorf("%w: line %d: semi-continuous bound (SC) on column %q", ErrUnsupported, m.line, col)
	}
	v := 0.0
	if needsValue {
		if val == "" {
			return countErr("%s bound on column %q without a value", typ, col)
		}
		var err error
		if v, err = parseValue(val); err != nil {
			return err
		}
	}
	if set != "" {
		if !m.bndNamed {
			m.bndName, m.bndNamed = set, true
		} else if set != m.bndName {
			return nil
		}
	}
	m.initBounds()
	inf := math.Inf(1)
	switch typ {
	case "UP":
		m.upper[j] = v
		if v < 0 && !m.lowerSet[j] {
			m.lower[j] = -inf
		}
	case "UI": // a negative value leaves the lower bound alone, as in CBC and CLP
		m.upper[j] = v
	case "LO", "LI":
		m.lower[j], m.lowerSet[j] = v, true
	case "FX":
		m.lower[j], m.upper[j], m.lowerSet[j] = v, v, true
	case "FR":
		m.lower[j], m.upper[j], m.lowerSet[j] = -inf, inf, true
	case "MI":
		m.lower[j], m.lowerSet[j] = -inf, true
	case "PL":
		m.upper[j] = inf
	case "BV":
		m.lower[j], m.upper[j], m.lowerSet[j] = 0, 1, true
	}
	if typ == "BV" || typ == "LI" || typ == "UI" {
		m.integer[j], m.anyInt = true, true
	}
	m.bounded[j] = true
	m.boundLine[j] = m.line
	return nil
}

func isNumber(s string) bool {
	_, err := parseValue(s)
	return err == nil
}

func (m *mpsReader) initBounds() {
	if m.lower != nil {
		return
	}
	n := len(m.cost)
	m.lower = make([]float64, n)
	m.upper = make([]float64, n)
	for j := range m.upper {
		m.upper[j] = math.Inf(1)
	}
	m.lowerSet = make([]bool, n)
	m.bounded = make([]bool, n)
	m.boundLine = make([]int, n)
}

// problem assembles and validates the Problem after ENDATA.
func (m *mpsReader) problem() (*Problem, error) {
	if m.sec == secColumns {
		if err := m.endColumn(); err != nil {
			return nil, err
		}
	}
	if m.inInt {
		return nil, m.errorf("ENDATA inside an integer marker block")
	}
	if m.objNamed && !m.objFound {
		return nil, m.errorf("OBJNAME %q is not an N row", m.objName)
	}
	m.initBounds()
	if m.negated && !m.maximize {
		for j := range m.cost {
			m.cost[j] = -m.cost[j] + 0 // no −0
		}
		m.offset, m.maximize = -m.offset+0, true
	}
	nr, nc := len(m.rowKind), len(m.cost)
	p := &Problem{
		Name: m.name, Maximize: m.maximize, Offset: m.offset,
		Cost: m.cost, ColLower: m.lower, ColUpper: m.upper, ColNames: m.colNames,
		RowLower: make([]float64, nr), RowUpper: make([]float64, nr), RowNames: m.rowNames,
		A: Matrix{Rows: nr, Cols: nc, Start: m.start, Index: m.index, Value: m.value},
	}
	if p.Cost == nil {
		p.Cost = []float64{}
	}
	if p.ColNames == nil {
		p.ColNames = []string{}
	}
	if p.RowNames == nil {
		p.RowNames = []string{}
	}
	if m.anyInt {
		p.Integer = m.integer
		for j, isInt := range m.integer {
			if isInt && !m.bounded[j] {
				p.ColUpper[j] = 1
			}
		}
	}
	for i, kind := range m.rowKind {
		r, rg, hasRange := 0.0, 0.0, false
		if m.rhs != nil {
			r = m.rhs[i]
		}
		if m.rng != nil {
			rg, hasRange = m.rng[i], m.rngSet[i]
		}
		lo, up := rowBounds(kind, r, rg, hasRange)
		if a := m.rngHuge[i]; a != nil && hasRange {
			lo, up = rowBoundsHuge(kind, r, a)
		}
		if hasRange && (math.IsInf(lo, 0) || math.IsInf(up, 0)) {
			return nil, fmt.Errorf("%w: row %q: right-hand side %v and range %v give bounds [%v, %v]: beyond the float64 range", ErrInvalid, p.RowNames[i], r, rangeText(rg, m.rngHuge[i]), lo, up)
		}
		p.RowLower[i], p.RowUpper[i] = lo, up
	}
	for j := 0; j < nc; j++ {
		if err := checkBounds(p.ColLower[j], p.ColUpper[j]); err != nil {
			return nil, fmt.Errorf("%w: column %q (bounds set on line %d): %v", ErrInvalid, p.ColNames[j], m.boundLine[j], err)
		}
	}
	if err := p.Validate(); err != nil {
		return nil, err
	}
	return p, nil
}

// rowBoundsHuge is rowBounds for a range value a beyond the float64 range
// (sign included), computed exactly and rounded once.
func rowBoundsHuge(kind byte, r float64, a *big.Float) (lo, up float64) {
	abs := new(big.Float).Abs(a)
	neg := new(big.Float).Neg(abs)
	switch {
	case kind == 'L' || (kind == 'E' && a.Sign() < 0):
		return addHuge(r, neg), r
	case kind == 'G' || kind == 'E':
		return r, addHuge(r, abs)
	}
	return math.Inf(-1), math.Inf(1)
}

// rangeText formats a range value for an error message.
func rangeText(rg float64, huge *big.Float) string {
	if huge != nil {
		return huge.Text('g', 17)
	}
	return strconv.FormatFloat(rg, 'g', -1, 64)
}

// rowBounds applies the MPS rules to a row of the given type with right-hand
// side r and, if hasRange, range value rg.
func rowBounds(kind byte, r, rg float64, hasRange bool) (lo, up float64) {
	inf := math.Inf(1)
	a := math.Abs(rg)
	switch kind {
	case 'E':
		switch {
		case !hasRange || rg == 0:
			return r, r
		case rg > 0:
			return r, r + a
		default:
			return r - a, r
		}
	case 'L':
		if hasRange {
			return r - a, r
		}
		return -inf, r
	case 'G':
		if hasRange {
			return r, r + a
		}
		return r, inf
	}
	return -inf, inf
}
