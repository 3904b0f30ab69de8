package lp_test

import (
	"bytes"
	"math"
	"testing"

	"github.com/gputco/gputco/placement/lp"
)

// TestReview8WriteMPSWideRange: WriteMPS's doc promises free MPS "which
// ReadMPS and CBC read back to the same problem". A ranged row whose width
// overflows float64 — min x s.t. −1e308 ≤ x ≤ 1e308, x ≥ 0, both bounds
// finite and accepted by Validate — is written as "RHS R0 -1e+308" with
// "RANGES RNG R0 Inf" (up − lo = +Inf), and ReadMPS refuses its own file:
// "line 11: RANGES value "Inf" is not finite". Expected: a file that reads
// back to [−1e308, 1e308] (for example an L row with rhs 1e308 and range
// 2e308 cannot be written either, but a G row at −1e308 with range
// MaxFloat64 gives back 7.98e307, so the writer would need the two-row or
// the "ranges reproduce within an ulp" fallback it documents). Independent
// check: the written text, shown in the failure. Rows as wide as
// [−MaxFloat64, MaxFloat64] fail the same way; [−1e308, 5e307] (width
// 1.5e308) round-trips. Severity: medium (WriteMPS output that ReadMPS
// rejects; lpsolve and the CBC adapter write such files).
func TestReview8WriteMPSWideRange(t *testing.T) {
	t.Skip("finding: WriteMPS writes the row −1e308 ≤ x ≤ 1e308 with RANGES value Inf, and ReadMPS rejects the file (RANGES value \"Inf\" is not finite)")
	for _, b := range [][2]float64{{-1e308, 1e308}, {-math.MaxFloat64, math.MaxFloat64}} {
		p := &lp.Problem{
			Cost: []float64{1}, ColLower: []float64{0}, ColUpper: []float64{math.Inf(1)},
			RowLower: []float64{b[0]}, RowUpper: []float64{b[1]},
			A: lp.Matrix{Rows: 1, Cols: 1, Start: []int{0, 1}, Index: []int{0}, Value: []float64{1}},
		}
		if err := p.Validate(); err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := lp.WriteMPS(&buf, p); err != nil {
			t.Fatalf("row %v: WriteMPS: %v", b, err)
		}
		q, err := lp.ReadMPS(bytes.NewReader(buf.Bytes()))
		if err != nil {
			t.Errorf("row %v: ReadMPS of WriteMPS's output: %v\n%s", b, err, buf.String())
			continue
		}
		if q.RowLower[0] != b[0] || q.RowUpper[0] != b[1] {
			t.Errorf("row %v read back as [%v, %v]", b, q.RowLower[0], q.RowUpper[0])
		}
	}
}
