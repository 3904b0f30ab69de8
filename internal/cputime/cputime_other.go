//go:build !unix

package cputime

import "time"

// Process is unavailable here: it returns zero, so CPU metrics read zero.
func Process() time.Duration { return 0 }
