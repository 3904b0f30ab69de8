// Package duration parses the durations the module reads from JSON and CSV
// alike: Go durations ("90s", "720h") and whole or fractional numbers of
// days, months and years ("30d", "1mo", "3y"), a month being 730 hours and
// a year 8,760 hours, as in the provider package.
package duration

import (
	"errors"
	"math"
	"strconv"
	"strings"
	"time"
)

// Month and Year are the lengths of the units "mo" and "y".
const (
	Month = 730 * time.Hour
	Year  = 8760 * time.Hour
)

// maxNumberLen bounds the digits of a number parsed.
const maxNumberLen = 64

// Errors of Parse.
var (
	// ErrSyntax reports text that is not a duration.
	ErrSyntax = errors.New(`not a duration such as "90s", "720h", "30d", "1mo" or "3y"`)
	// ErrRange reports a duration beyond time.Duration's range (about 292 years).
	ErrRange = errors.New("duration too long")
)

// units are the units time.ParseDuration lacks.
var units = []struct {
	suffix string
	unit   time.Duration
}{{"mo", Month}, {"y", Year}, {"d", 24 * time.Hour}}

// Parse parses s as a Go duration or a number of days, months or years. It
// returns ErrSyntax or ErrRange on failure.
func Parse(s string) (time.Duration, error) {
	if d, err := time.ParseDuration(s); err == nil {
		return d, nil
	}
	for _, u := range units {
		num, ok := strings.CutSuffix(s, u.suffix)
		if !ok || num == "" || len(num) > maxNumberLen {
			continue
		}
		f, err := strconv.ParseFloat(num, 64)
		if err != nil || strings.ContainsAny(num, "eEinIN_xXpP") {
			break
		}
		v := f * float64(u.unit)
		if math.IsNaN(v) || math.IsInf(v, 0) || math.Abs(v) >= math.MaxInt64 {
			return 0, ErrRange
		}
		return time.Duration(v), nil
	}
	return 0, ErrSyntax
}
