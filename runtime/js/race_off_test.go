//go:build !race

package js_test

const raceOn = false
