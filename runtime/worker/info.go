package worker

import (
	"context"
	"fmt"
	"strings"
	"time"
)

// Info is the isolation a pool's workers run under, as the host allows it.
type Info struct {
	// Seccomp reports that workers run under their seccomp filter.
	Seccomp bool
	// Landlock is the Landlock ABI workers restrict themselves with (0:
	// the kernel has none).
	Landlock int
	// NetNamespace reports that each worker has its own, empty network
	// namespace (a privileged parent on a kernel that allows it).
	NetNamespace bool
	// Sample is how often a busy worker's memory and CPU time are read.
	Sample time.Duration
	// Builders are the names of the builders workers rebuild backends
	// with (what Main was given).
	Builders []string
}

// String describes the isolation on one line, for `nook version`.
func (i Info) String() string {
	var layers []string
	if i.Seccomp {
		layers = append(layers, "seccomp")
	} else {
		layers = append(layers, "no seccomp")
	}
	if i.Landlock > 0 {
		layers = append(layers, fmt.Sprintf("landlock ABI %d", i.Landlock))
	} else {
		layers = append(layers, "no landlock")
	}
	if i.NetNamespace {
		layers = append(layers, "own network namespace")
	} else {
		layers = append(layers, "host network namespace")
	}
	layers = append(layers, fmt.Sprintf("memory and CPU sampled every %s", i.Sample),
		"RLIMIT_NOFILE", "empty environment")
	return "process (" + strings.Join(layers, ", ") + ")"
}

// Info starts a worker if none has started yet and reports the isolation
// it runs under.
func (p *Pool) Info(ctx context.Context) (Info, error) {
	p.mu.Lock()
	h, netns := p.last, p.netns
	p.mu.Unlock()
	if h == nil {
		w, _, err := p.take(ctx) // not a run: not in Stats
		if err != nil {
			return Info{}, err
		}
		p.put(w)
		p.mu.Lock()
		h, netns = w.hello, p.netns
		p.mu.Unlock()
	}
	return Info{Seccomp: h.Seccomp, Landlock: h.Landlock, NetNamespace: netns > 0, Sample: p.opts.Sample,
		Builders: append([]string(nil), h.Builders...)}, nil
}
