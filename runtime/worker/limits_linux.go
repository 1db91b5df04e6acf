package worker

import (
	"os"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"github.com/nookdev/nook/runtime/host"
)

// Supported reports whether this system has the process tier (Linux).
const Supported = true

// setLimits sets the kernel's limits on a worker for one run: its open
// files (RLIMIT_NOFILE, soft: the worker cannot raise it, its seccomp
// filter refuses setrlimit), and a backstop on CPU time a second past
// the sampled limit (RLIMIT_CPU, whose hard limit is a SIGKILL). The hard
// CPU limit can be raised again for the next run only by a privileged
// parent, so only a privileged parent sets it.
func setLimits(pid int, lim host.Limits, base usage) {
	var nofile unix.Rlimit
	if unix.Prlimit(pid, unix.RLIMIT_NOFILE, nil, &nofile) == nil {
		nofile.Cur = min(uint64(lim.MaxOpenFiles), nofile.Max)
		unix.Prlimit(pid, unix.RLIMIT_NOFILE, &nofile, nil)
	}
	if os.Geteuid() == 0 {
		secs := uint64((base.cpu+lim.MaxCPUTime)/time.Second) + 2
		unix.Prlimit(pid, unix.RLIMIT_CPU, &unix.Rlimit{Cur: secs, Max: secs}, nil)
	}
}

// sysProcAttr is how a worker is started: its own process group and, when
// netns, its own network namespace.
func sysProcAttr(netns bool) *syscall.SysProcAttr {
	a := &syscall.SysProcAttr{Setpgid: true}
	if netns {
		a.Cloneflags = syscall.CLONE_NEWNET
	}
	return a
}
