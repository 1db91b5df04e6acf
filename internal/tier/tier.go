// Package tier holds the isolation tier a test binary runs every runtime
// in, so that one test suite runs in both tiers (see internal/tiertest).
package tier

// Default, when it holds a runtime.Isolator, is the isolation of every
// runtime whose Options leave Isolation nil. It is nil outside tests.
var Default any
