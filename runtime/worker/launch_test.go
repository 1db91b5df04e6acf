//go:build linux

package worker

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// launchProbeEnv makes the test binary, started by TestLaunchedWorkerIsConfined,
// report what it can open instead of running tests.
const launchProbeEnv = "NOOK_LAUNCH_PROBE"

func init() {
	list := os.Getenv(launchProbeEnv)
	if list == "" {
		return
	}
	// One line per path: what opening it for reading said.
	for _, p := range strings.Split(list, "\n") {
		flags := unix.O_RDONLY | unix.O_CLOEXEC
		if strings.HasSuffix(p, "/") {
			flags |= unix.O_DIRECTORY
		}
		fd, err := unix.Open(p, flags, 0)
		if err == nil {
			unix.Close(fd)
			fmt.Printf("%s: ok\n", p)
		} else {
			fmt.Printf("%s: %v\n", p, err)
		}
	}
	os.Exit(0)
}

// TestLaunchedWorkerIsConfined starts this test binary (built as go test
// builds it: with cgo where a C compiler is, so that a worker could not
// restrict all its threads itself before Linux 6.19) the way the pool
// starts a worker, and has it open files before it does anything else:
// its program, libraries and time zone open; a host file, a file the
// parent just wrote and the root directory do not.
func TestLaunchedWorkerIsConfined(t *testing.T) {
	if landlockABI() == 0 {
		t.Skip("the kernel has no Landlock")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	secret := filepath.Join(t.TempDir(), "secret")
	if err := os.WriteFile(secret, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	files, err := workerFiles(exe, "")
	if err != nil {
		t.Fatal(err)
	}
	denied := []string{"/etc/hostname", "/etc/passwd", secret, "/", "/proc/self/environ"}
	var want strings.Builder
	for _, p := range files {
		fmt.Fprintf(&want, "%s: ok\n", p)
	}
	for _, p := range denied {
		fmt.Fprintf(&want, "%s: permission denied\n", p)
	}
	// Outside the launcher, the same process opens all of them.
	run := func(launch bool) string {
		cmd := exec.Command(exe)
		cmd.Env = []string{launchProbeEnv + "=" + strings.Join(append(append([]string{}, files...), denied...), "\n")}
		cmd.Dir = "/"
		var out bytes.Buffer
		// (Not nil: os/exec would open /dev/null on the launcher's thread.)
		cmd.Stdin = strings.NewReader("")
		cmd.Stdout, cmd.Stderr = &out, &out
		var abi int
		if launch {
			abi, err = startWorker(cmd)
		} else {
			err = cmd.Start()
		}
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Wait(); err != nil {
			t.Fatalf("%v: %s", err, out.Bytes())
		}
		if launch && abi != landlockABI() {
			t.Fatalf("launched under ABI %d, the kernel has %d", abi, landlockABI())
		}
		return out.String()
	}
	if got := run(true); got != want.String() {
		t.Fatalf("a launched worker opened:\n%s\nwant:\n%s", got, want.String())
	}
	if got := run(false); strings.Contains(got, "denied") {
		t.Fatalf("outside the launcher:\n%s", got)
	}
	t.Logf("allowed: %q", files)
	// The launcher's restriction stays on its own thread: this process
	// still opens the host file.
	if _, err := os.ReadFile(secret); err != nil {
		t.Fatal(err)
	}
}
