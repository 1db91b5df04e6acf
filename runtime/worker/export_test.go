package worker

import "time"

// Usage reads a process's resident memory and CPU time, for tests.
func Usage(pid int) (rss int64, cpu time.Duration, err error) {
	u, err := readUsage(pid)
	return u.rss, u.cpu, err
}
