//go:build race

package js_test

// raceOn: the race detector is on (its shadow memory is part of the RSS a
// test measures).
const raceOn = true
