//go:build race

package merit

// raceEnabled is true under the race detector: the heavy oracle tests then
// run their -short sizes (the plain pass runs them in full).
const raceEnabled = true
