// Package childproc lets a test binary run itself as a second process, for
// tests that kill a process in the middle of a run (SIGKILL) and check what
// another process makes of it.
//
// The test's TestMain checks for its own environment variable, does the
// child's work, calls Ready once the work is under way, and exits; the test
// calls Start with that variable set.
package childproc

import (
	"bufio"
	"os"
	"os/exec"
	"testing"
)

const ready = "started\n"

// Ready tells the parent that the child's work is under way.
func Ready() { os.Stdout.WriteString(ready) }

// Start runs the test binary again, running no tests, with env added to
// its environment, and returns once the child called Ready. The child is
// killed at the end of the test if it is still running.
func Start(t testing.TB, env ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	if line, err := bufio.NewReader(out).ReadString('\n'); err != nil || line != ready {
		t.Fatalf("the child process said %q (%v) instead of %q", line, err, ready)
	}
	return cmd
}
