package shell

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/nookdev/nook/runtime/host"
)

// Bounds the interpreter does not keep by itself: the output a command
// substitution collects, the concurrency of pipelines and background jobs
// (MaxProcesses). See RATIONALE.md, "Limits".

// substWriter is the standard output of a command run inside $(...): the
// interpreter collects it in a strings.Builder without a cap, so every
// write is refused once the collected output would pass MaxAllocBytes,
// which stops the producer (and, through the run's context, the run).
type substWriter struct {
	p  *runProgram
	sb *strings.Builder
}

func (w substWriter) Write(b []byte) (int, error) {
	if n := int64(w.sb.Len()) + int64(len(b)); n > w.p.limits.MaxAllocBytes {
		err := w.p.substLimit(n)
		return 0, err
	}
	return w.sb.Write(b)
}

func (p *runProgram) substLimit(n int64) error {
	err := &host.LimitError{Limit: "MaxAllocBytes", Max: p.limits.MaxAllocBytes,
		What: fmt.Sprintf("command substitution output of %d bytes", n)}
	p.cancel(err)
	return err
}

// boundStdout wraps a command's standard output when it is a command
// substitution's buffer.
func (p *runProgram) boundStdout(w io.Writer) io.Writer {
	if sb, ok := w.(*strings.Builder); ok {
		return substWriter{p, sb}
	}
	return w
}

// checkSubst is the check for builtins, which write to the buffer
// directly: a builtin runs only while what was collected so far is within
// the limit (and one builtin writes at most its arguments, themselves
// bounded).
func (p *runProgram) checkSubst(w io.Writer) error {
	if sb, ok := w.(*strings.Builder); ok && int64(sb.Len()) > p.limits.MaxAllocBytes {
		return p.substLimit(int64(sb.Len()))
	}
	return nil
}

// procs counts the concurrently running pipeline stages and background
// jobs of a run. A pipeline stage is seen through its pipe (the
// interpreter connects stages with os.Pipe and closes each end when its
// stage ends), a background job through the stdin it is given (see
// jobDev), which the interpreter closes when the job ends.
type procs struct {
	mu    sync.Mutex
	pipes map[*os.File]struct{}
	jobs  atomic.Int64
}

// jobDev is the stdin of a background job (the rewrite adds "< jobDev" in
// front of the job's own redirections): like bash without job control, a
// job reads an empty stdin, and its opening and closing count the job.
const jobDev = "/dev/__nook_job"

// seeFiles registers the pipes a command runs with; past MaxProcesses
// live ones (after dropping the closed) the run stops.
func (p *runProgram) seeFiles(files ...any) error {
	var err error
	for _, f := range files {
		of, ok := f.(*os.File)
		if !ok || of == nil {
			continue
		}
		p.procs.mu.Lock()
		if _, seen := p.procs.pipes[of]; !seen {
			p.procs.pipes[of] = struct{}{}
			if len(p.procs.pipes)+int(p.procs.jobs.Load()) > p.limits.MaxProcesses {
				for g := range p.procs.pipes {
					if closed(g) {
						delete(p.procs.pipes, g)
					}
				}
				err = p.checkProcs()
			}
		}
		p.procs.mu.Unlock()
		if err != nil {
			return err
		}
	}
	return nil
}

func (p *runProgram) checkProcs() error {
	if n := len(p.procs.pipes) + int(p.procs.jobs.Load()); n > p.limits.MaxProcesses {
		err := &host.LimitError{Limit: "MaxProcesses", Max: int64(p.limits.MaxProcesses),
			What: fmt.Sprintf("%d concurrent pipeline stages and background jobs", n)}
		p.cancel(err)
		return err
	}
	return nil
}

// closed reports whether f was closed, without a system call and without
// changing its blocking mode (as Fd would).
func closed(f *os.File) bool {
	rc, err := f.SyscallConn()
	if err != nil {
		return true
	}
	return rc.Control(func(uintptr) {}) != nil
}

// jobReader is a background job's stdin: empty, and counted while open.
type jobReader struct {
	p    *runProgram
	once sync.Once
}

func (p *runProgram) openJob() (io.ReadWriteCloser, error) {
	p.procs.jobs.Add(1)
	p.procs.mu.Lock()
	err := p.checkProcs()
	p.procs.mu.Unlock()
	if err != nil {
		p.procs.jobs.Add(-1)
		return nil, err
	}
	return &jobReader{p: p}, nil
}

func (j *jobReader) Read([]byte) (int, error)  { return 0, io.EOF }
func (j *jobReader) Write([]byte) (int, error) { return 0, os.ErrInvalid }
func (j *jobReader) Close() error {
	j.once.Do(func() { j.p.procs.jobs.Add(-1) })
	return nil
}

// stopped reports the run's limit error (or cancellation) for the
// handlers, which must not start anything once the run is over.
func (p *runProgram) stopped() error {
	if p.ctx.Err() != nil {
		return context.Cause(p.ctx)
	}
	return nil
}

// stopHost is the host as the run's commands see it: a limit a host call
// reaches (MaxCalls, MaxCallBytes, ...) ends the run, so no built-in goes
// on through refused calls (unzip of 200,000 members past MaxCalls), and
// a call made under a context that ended fails without reaching the host.
type stopHost struct {
	host.Host
	p *runProgram
}

func (h stopHost) Call(ctx context.Context, c *host.Call) (any, error) {
	if ctx.Err() != nil {
		return nil, context.Cause(ctx)
	}
	v, err := h.Host.Call(ctx, c)
	var le *host.LimitError
	if errors.As(err, &le) {
		h.p.cancel(le)
	}
	return v, err
}
