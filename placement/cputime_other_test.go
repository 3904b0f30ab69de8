//go:build !unix

package placement_test

import "time"

// cpuTime is unavailable here: CPU metrics read zero.
func cpuTime() time.Duration { return 0 }
