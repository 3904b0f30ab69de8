//go:build !unix

package lp

import "time"

// cpuTime is unavailable here: CPU metrics read zero.
func cpuTime() time.Duration { return 0 }
