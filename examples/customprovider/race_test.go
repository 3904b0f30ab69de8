//go:build race

package main

// raceEnabled is true under the race detector, where TestSolve is skipped:
// a solve over 4,320 hourly slices takes minutes there (it runs in the
// plain pass).
const raceEnabled = true
