//go:build unix

package lp

import (
	"syscall"
	"time"
)

// cpuTime returns the process's user plus system CPU time: on a machine
// shared with other work, CPU time per operation is steadier than wall time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
