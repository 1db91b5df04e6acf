//go:build !linux

package worker

import (
	"syscall"

	"github.com/nookdev/nook/runtime/host"
)

// Supported reports whether this system has the process tier (Linux).
const Supported = false

func setLimits(pid int, lim host.Limits, base usage) {}

func sysProcAttr(netns bool) *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }
