//go:build unix

package cputime

import "testing"

// TestProcessAdvances: spinning the CPU moves the reading forward.
func TestProcessAdvances(t *testing.T) {
	start := Process()
	if start <= 0 {
		t.Fatalf("Process() = %v at start, want > 0", start)
	}
	x := 1.0
	for i := 0; Process() == start && i < 1e9; i++ {
		x = x*1.0000001 + 1e-9
	}
	if Process() <= start {
		t.Fatalf("Process() did not advance from %v (x %g)", start, x)
	}
}
