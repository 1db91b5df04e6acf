package worker

import (
	"context"
	"time"
)

// Usage reads a process's resident memory and CPU time, for tests.
func Usage(pid int) (rss int64, cpu time.Duration, err error) {
	u, err := readUsage(pid)
	return u.rss, u.cpu, err
}

// Spawn starts a worker outside the pool's idle set and returns its pid
// and a function that kills it, for benchmarks.
func (p *Pool) Spawn(ctx context.Context) (int, func(), error) {
	w, err := p.spawn(ctx)
	if err != nil {
		return 0, nil, err
	}
	return w.pid, func() { w.kill(); <-w.dead }, nil
}

// KernelLandlockABI is the kernel's Landlock ABI (0: none), for tests.
func KernelLandlockABI() int { return landlockABI() }
