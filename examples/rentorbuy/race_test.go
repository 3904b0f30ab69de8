//go:build race

package main

// raceEnabled is true under the race detector, where the tests compare
// shorter horizons: the program runs on one goroutine, and a 5-year
// break-even costs minutes under the detector.
const raceEnabled = true
