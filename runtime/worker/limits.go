package worker

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
	"time"

	"github.com/nookdev/nook/runtime"
)

// usage is what a worker process uses: its resident memory and its CPU
// time (user plus system).
type usage struct {
	rss int64
	cpu time.Duration
}

// clockTick is the unit of the CPU times in /proc/PID/stat (USER_HZ, 100
// on every Linux architecture Go supports).
const clockTick = 10 * time.Millisecond

var pageSize = int64(os.Getpagesize())

// readUsage reads a process's resident size from /proc/PID/statm and its
// CPU time from /proc/PID/stat.
func readUsage(pid int) (usage, error) {
	var u usage
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/statm")
	if err != nil {
		return u, err
	}
	f := bytes.Fields(b)
	if len(f) < 2 {
		return u, fmt.Errorf("/proc/%d/statm: unexpected %q", pid, b)
	}
	pages, _ := strconv.ParseInt(string(f[1]), 10, 64)
	u.rss = pages * pageSize
	b, err = os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return u, err
	}
	// The command name may hold spaces: fields count from its ')'.
	if i := bytes.LastIndexByte(b, ')'); i >= 0 {
		f = bytes.Fields(b[i+1:])
		// state is field 3 of the line, utime 14 and stime 15.
		if len(f) > 12 {
			ut, _ := strconv.ParseInt(string(f[11]), 10, 64)
			st, _ := strconv.ParseInt(string(f[12]), 10, 64)
			u.cpu = time.Duration(ut+st) * clockTick
		}
	}
	return u, nil
}

// checkUsage reads pid's usage into last and returns the limit it
// exceeds, if any: MaxMemoryBytes (its resident memory) or MaxCPUTime
// (the CPU time it used since base).
func checkUsage(pid int, lim runtime.Limits, base usage, last *usage) *runtime.LimitError {
	u, err := readUsage(pid)
	if err != nil {
		return nil
	}
	*last = u
	if u.rss > lim.MaxMemoryBytes {
		return &runtime.LimitError{Limit: "MaxMemoryBytes", Max: lim.MaxMemoryBytes,
			What: fmt.Sprintf("the sandbox process's resident memory of %d bytes", u.rss)}
	}
	if used := u.cpu - base.cpu; used > lim.MaxCPUTime {
		return cpuLimit(lim, used)
	}
	return nil
}

func cpuLimit(lim runtime.Limits, used time.Duration) *runtime.LimitError {
	return &runtime.LimitError{Limit: "MaxCPUTime", Max: int64(lim.MaxCPUTime),
		What: fmt.Sprintf("CPU time of %s (%d ns)", used.Round(time.Millisecond), used.Nanoseconds())}
}
