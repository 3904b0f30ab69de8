//go:build race

package lp

// raceEnabled: the race detector slows the instance suites about tenfold;
// under it they run on a few instances only (the plain pass runs them all).
const raceEnabled = true
