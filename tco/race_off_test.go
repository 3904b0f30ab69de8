//go:build !race

package tco_test

// raceEnabled reports a build with the race detector, under which the
// heaviest tests run at a smaller size.
const raceEnabled = false
