//go:build unix

// Package cputime reads the CPU time the process has used, for benchmarks
// that report it beside the wall time: on a machine shared with other work,
// CPU time per operation is steadier than wall time.
package cputime

import (
	"syscall"
	"time"
)

// Process returns the user plus system CPU time of the process, all
// threads (GC included), or zero if the system does not say.
func Process() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
