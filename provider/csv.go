package provider

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/gputco/gputco/internal/duration"
	"github.com/shopspring/decimal"
)

// dateOnly returns the calendar date of t, in t's location, as midnight UTC.
func dateOnly(t time.Time) time.Time {
	if t.IsZero() {
		return time.Time{}
	}
	y, m, d := t.Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

func joinNote(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}

// CSV plumbing shared by the importers.

func newCSVReader(r io.Reader) *csv.Reader {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1
	cr.ReuseRecord = true
	return cr
}

// readHeader reads the header record and returns it (trimmed, without a
// byte-order mark) with the index of each name's first occurrence.
func readHeader(cr *csv.Reader) ([]string, map[string]int, []error, error) {
	rec, _, err := nextRecord(cr, -1)
	if err == io.EOF {
		return nil, nil, []error{&RowError{Line: 1, Err: reasonf(ErrMissingColumn, "no header")}}, nil
	}
	if err != nil {
		var re *RowError
		if errors.As(err, &re) {
			return nil, nil, []error{err}, nil
		}
		return nil, nil, nil, fmt.Errorf("provider: reading header: %w", err)
	}
	header := make([]string, len(rec))
	cols := make(map[string]int, len(rec))
	for i, h := range rec {
		if i == 0 {
			h = strings.TrimPrefix(h, "\ufeff")
		}
		h = strings.TrimSpace(h)
		header[i] = h
		if _, dup := cols[h]; !dup {
			cols[h] = i
		}
	}
	return header, cols, nil, nil
}

// nextRecord reads one record and the line it starts on. A CSV syntax error,
// or a record whose field count differs from width (≥ 0; a negative width
// accepts any), is returned as a *RowError; other errors (io.EOF, read
// errors) as they are.
func nextRecord(cr *csv.Reader, width int) ([]string, int, error) {
	rec, err := cr.Read()
	if err != nil {
		var pe *csv.ParseError
		if errors.As(err, &pe) {
			return nil, pe.StartLine, &RowError{Line: pe.StartLine, Err: reasonf(ErrMalformed, "%v", pe.Err)}
		}
		return nil, 0, err
	}
	line, _ := cr.FieldPos(0)
	if width >= 0 && len(rec) != width {
		return nil, line, &RowError{Line: line, Err: reasonf(ErrFieldCount, "%d fields, header has %d", len(rec), width)}
	}
	return rec, line, nil
}

// readRows reads the records that follow the header, each expected to have
// width fields, and calls row with each good record and the line it starts
// on. It returns the problems of every row — CSV syntax and field-count
// errors, and what row returns — in input order, the first MaxProblems kept
// and the rest counted. A read error of the underlying reader stops reading
// and is returned wrapped, naming what is being read. The record passed to
// row is reused by the next read.
func readRows(cr *csv.Reader, width int, what string, row func(rec []string, line int) []error) (problems, error) {
	var p problems
	for {
		rec, line, err := nextRecord(cr, width)
		if err == io.EOF {
			return p, nil
		}
		if err != nil {
			var re *RowError
			if errors.As(err, &re) {
				p.put(err)
				continue
			}
			return problems{}, fmt.Errorf("provider: reading %s: %w", what, err)
		}
		for _, e := range row(rec, line) {
			p.put(e)
		}
	}
}

// importResult ends an import: with no problems it returns c; otherwise the
// joined problems, with c when keepGood is set and an empty catalog when not.
func importResult(c Catalog, p problems, keepGood bool) (Catalog, error) {
	err := p.err()
	if err == nil {
		return c, nil
	}
	if keepGood {
		return c, err
	}
	return Catalog{}, err
}

// rowProblems collects the problems of one CSV row.
type rowProblems struct {
	line int
	errs []error
}

func (p *rowProblems) add(column, value string, err error) {
	p.errs = append(p.errs, &RowError{Line: p.line, Column: column, Value: value, Err: err})
}

// parseDecimal parses a plain decimal: an optional sign, digits and an
// optional fraction. Exponents are refused, so that no input can make an
// amount of astronomic size.
func parseDecimal(s string) (decimal.Decimal, error) {
	if len(s) > MaxNumberLen {
		return decimal.Zero, reasonf(ErrOutOfRange, "more than MaxNumberLen = %d characters", MaxNumberLen)
	}
	digits, dot := 0, false
	for i := 0; i < len(s); i++ {
		switch ch := s[i]; {
		case ch >= '0' && ch <= '9':
			digits++
		case ch == '.' && !dot:
			dot = true
		case (ch == '-' || ch == '+') && i == 0:
		default:
			return decimal.Zero, reasonf(ErrMalformed, "not a plain decimal number")
		}
	}
	if digits == 0 {
		return decimal.Zero, reasonf(ErrMalformed, "not a plain decimal number")
	}
	d, err := decimal.NewFromString(s)
	if err != nil {
		return decimal.Zero, reasonf(ErrMalformed, "%v", err)
	}
	return d, nil
}

// money parses a non-negative amount; "" is zero.
func (p *rowProblems) money(column, s string) decimal.Decimal {
	if s == "" {
		return decimal.Zero
	}
	d, err := parseDecimal(s)
	if err != nil {
		p.add(column, s, err)
		return decimal.Zero
	}
	if d.IsNegative() {
		p.add(column, s, ErrNegative)
		return decimal.Zero
	}
	return d
}

// float parses a finite number; "" is zero.
func (p *rowProblems) float(column, s string) float64 {
	if s == "" {
		return 0
	}
	if len(s) > MaxNumberLen {
		p.add(column, s, reasonf(ErrOutOfRange, "more than MaxNumberLen = %d characters", MaxNumberLen))
		return 0
	}
	f, err := strconv.ParseFloat(s, 64)
	switch {
	case err != nil && !errors.Is(err, strconv.ErrRange):
		p.add(column, s, reasonf(ErrMalformed, "not a number"))
		return 0
	case err != nil || !finite(f):
		p.add(column, s, ErrNotFinite)
		return 0
	}
	return f
}

// gpuCount parses a whole number of GPUs in 1..maxGPUsPerNode, written as an
// integer or as a float with no fraction ("8.0").
func (p *rowProblems) gpuCount(column, s string) int {
	if s == "" {
		p.add(column, "", ErrMissing)
		return 0
	}
	n := len(p.errs)
	f := p.float(column, s)
	if len(p.errs) > n {
		return 0
	}
	if f < 1 || f > maxGPUsPerNode || f != math.Trunc(f) {
		p.add(column, s, reasonf(ErrOutOfRange, "want a whole number of GPUs from 1 to %d", maxGPUsPerNode))
		return 0
	}
	return int(f)
}

// integer parses an int; "" is zero.
func (p *rowProblems) integer(column, s string) int {
	if s == "" {
		return 0
	}
	v, err := strconv.Atoi(s)
	if err != nil {
		p.add(column, s, reasonf(ErrMalformed, "not an integer"))
		return 0
	}
	return v
}

// boolean parses true/false (and 1/0, t/f); "" is false.
func (p *rowProblems) boolean(column, s string) bool {
	if s == "" {
		return false
	}
	v, err := strconv.ParseBool(s)
	if err != nil {
		p.add(column, s, reasonf(ErrMalformed, "not true or false"))
		return false
	}
	return v
}

// date parses YYYY-MM-DD; "" is the zero time.
func (p *rowProblems) date(column, s string) time.Time {
	if s == "" {
		return time.Time{}
	}
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		p.add(column, s, reasonf(ErrMalformed, "not a date YYYY-MM-DD"))
		return time.Time{}
	}
	return t
}

// duration parses a Go duration ("90s", "720h") or a number of days ("30d"),
// months ("1mo", 730 h each) or years ("3y", 8,760 h each) as JSON does
// (see Duration); "" is zero.
func (p *rowProblems) duration(column, s string) time.Duration {
	if s == "" {
		return 0
	}
	d, err := duration.Parse(s)
	switch {
	case errors.Is(err, duration.ErrRange):
		p.add(column, s, reasonf(ErrOutOfRange, "%v", err))
	case err != nil:
		p.add(column, s, reasonf(ErrMalformed, "%v", err))
	}
	return d
}
