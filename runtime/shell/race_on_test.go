//go:build race

package shell_test

// raceEnabled: the race detector makes SQLite (translated to Go) many
// times slower, so a worst input that a limit stops in seconds may meet
// its timeout first.
const raceEnabled = true
