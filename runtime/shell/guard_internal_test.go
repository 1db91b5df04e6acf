package shell

import "github.com/nookdev/nook/runtime/shell/internal/coreutils"

// __nook_test_panic is a command with a bug: it panics (after writing a
// line, when given "late"). The shell's tests use it, in both tiers (this
// file is in package shell, so the test binary has the command when it
// serves as its own worker), to prove that a panic wherever a run's
// goroutines reach ends the run, never the process.
func init() {
	coreutils.Register("__nook_test_panic", "__nook_test_panic [late]", func(e *coreutils.Env, a []string) int {
		if len(a) > 1 && a[1] == "late" {
			e.Stdout.Write([]byte("before\n"))
		}
		panic("a bug in a command")
	})
}
