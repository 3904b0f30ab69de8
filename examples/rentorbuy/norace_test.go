//go:build !race

package main

// raceEnabled is false without the race detector (see race_test.go).
const raceEnabled = false
