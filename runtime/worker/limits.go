package worker

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
	"sync"
	"time"

	"github.com/nookdev/nook/runtime/host"
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

// RuntimeMargin is the part of a worker's resident memory that
// MaxMemoryBytes does not count: the worker's own footprint (the Go
// runtime, the backends' code, a WebAssembly runtime and its compiled
// module), about 15-25 MiB measured. Without it a guest could never reach
// the memory its limit documents (WebAssembly's 4096 pages of 256 MiB, a
// JavaScript heap of MaxMemoryBytes): the worker would be killed first.
// A run's memory in the process tier is its worker's resident memory past
// RuntimeMargin; a tree's (a run and the runs nested in it, which run in
// workers of their own) is the sum of its workers'. See RATIONALE.md.
const RuntimeMargin = 32 << 20

// tree is what the workers of one tree of runs (runtime.Request.Tree)
// use together. A nested run's usage counts against its parent's budget:
// the tree's memory is the sum of its running workers' (past the margin)
// and its CPU time what its runs used, ended or running.
type tree struct {
	cpuDone time.Duration        // the CPU time of the tree's runs that ended
	members map[*member]struct{} // its running workers
	over    *host.LimitError     // the limit the tree passed: all its workers are killed
}

// member is one run of a tree, in its worker.
type member struct {
	pid  int
	lim  host.Limits
	base usage // the worker's usage before the run
	last usage // its usage when last sampled
	kill func()
}

var trees struct {
	mu sync.Mutex
	m  map[string]*tree
}

// join adds a run to its tree (key "": a tree of its own).
func join(key string, m *member) *tree {
	trees.mu.Lock()
	defer trees.mu.Unlock()
	t := trees.m[key]
	if t == nil {
		t = &tree{members: map[*member]struct{}{}}
		if key != "" {
			if trees.m == nil {
				trees.m = map[string]*tree{}
			}
			trees.m[key] = t
		}
	}
	m.last = m.base
	t.members[m] = struct{}{}
	return t
}

// leave removes a run from its tree once it ended, keeping the CPU time
// it used.
func (t *tree) leave(key string, m *member) {
	trees.mu.Lock()
	defer trees.mu.Unlock()
	delete(t.members, m)
	t.cpuDone += max(0, m.last.cpu-m.base.cpu)
	if len(t.members) == 0 && trees.m[key] == t {
		delete(trees.m, key)
	}
}

// passed is the limit the tree passed, if any.
func (t *tree) passed() *host.LimitError {
	trees.mu.Lock()
	defer trees.mu.Unlock()
	return t.over
}

// check samples m's worker and returns the limit its tree exceeds, if
// any: MaxMemoryBytes (the resident memory of its workers past
// RuntimeMargin each) or MaxCPUTime (the CPU time of its runs). Past a
// limit every worker of the tree is killed.
func (t *tree) check(m *member) *host.LimitError {
	u, err := readUsage(m.pid)
	trees.mu.Lock()
	if err == nil {
		m.last = u
	}
	if t.over == nil {
		var mem int64
		cpu := t.cpuDone
		limMem, limCPU := m.lim.MaxMemoryBytes, m.lim.MaxCPUTime
		for q := range t.members {
			mem += max(0, q.last.rss-RuntimeMargin)
			cpu += max(0, q.last.cpu-q.base.cpu)
			limMem, limCPU = min(limMem, q.lim.MaxMemoryBytes), min(limCPU, q.lim.MaxCPUTime)
		}
		n := len(t.members)
		switch {
		case mem > limMem && n == 1:
			t.over = &host.LimitError{Limit: "MaxMemoryBytes", Max: limMem,
				What: fmt.Sprintf("the sandbox process's resident memory of %d bytes (%d past the runtime's own %d MiB)", m.last.rss, mem, RuntimeMargin>>20)}
		case mem > limMem:
			t.over = &host.LimitError{Limit: "MaxMemoryBytes", Max: limMem,
				What: fmt.Sprintf("the resident memory of %d bytes of %d sandbox processes running one tree of runs (past the runtime's own %d MiB each)", mem, n, RuntimeMargin>>20)}
		case cpu > limCPU && n == 1 && t.cpuDone == 0:
			t.over = cpuLimit(m.lim, cpu)
		case cpu > limCPU:
			t.over = &host.LimitError{Limit: "MaxCPUTime", Max: int64(limCPU),
				What: fmt.Sprintf("CPU time of %s (%d ns) of a run and the runs nested in it", cpu.Round(time.Millisecond), cpu.Nanoseconds())}
		}
		if t.over != nil {
			for q := range t.members {
				q.kill()
			}
		}
	}
	over := t.over
	trees.mu.Unlock()
	return over
}

func cpuLimit(lim host.Limits, used time.Duration) *host.LimitError {
	return &host.LimitError{Limit: "MaxCPUTime", Max: int64(lim.MaxCPUTime),
		What: fmt.Sprintf("CPU time of %s (%d ns)", used.Round(time.Millisecond), used.Nanoseconds())}
}
