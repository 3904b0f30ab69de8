//go:build unix

package merit

import (
	"syscall"
	"time"
)

// processCPU returns the user and system CPU time of the process so far
// (benchmarks report it next to wall time: the machine may be shared).
func processCPU() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
