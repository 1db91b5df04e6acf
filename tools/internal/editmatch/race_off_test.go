//go:build !race

package editmatch

// raceEnabled reports whether the race detector is on; timing tests skip.
const raceEnabled = false
