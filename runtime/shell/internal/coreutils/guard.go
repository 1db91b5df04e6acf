package coreutils

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"syscall"

	"github.com/nookdev/nook/runtime/host"
)

// A GNU tool dies of SIGPIPE at its first write to a closed pipe, and
// exits non-zero at its first other failed write; ours share one writer
// that does the same for every command: the first failed write of a
// command's standard output or error ends the command (see Run), so no
// command loops on after its reader left (seq 1 1e12 | head -1) or after
// a limit refused its output. See RATIONALE.md, "Write errors".

// StatusPipe is the status of a command that wrote to a closed pipe: bash
// reports a process killed by SIGPIPE as 128+13.
const StatusPipe = 141

// Panic is the panic of a command, named by the innermost command that
// panicked (xargs CMD: CMD); the shell turns it into the run's error.
type Panic struct {
	Command string
	Value   any
}

// outWriter is a command's standard output or error. It is shared by the
// commands a command starts (xargs, find -exec), and is sticky: once a
// write failed, every later write fails the same way.
type outWriter struct {
	w      io.Writer
	stderr bool
	mu     sync.Mutex
	err    error
}

// writeStop is the panic of a failed write; Run recovers it.
type writeStop struct {
	w   *outWriter
	err error
}

func (o *outWriter) Write(b []byte) (int, error) {
	o.mu.Lock()
	err := o.err
	o.mu.Unlock()
	if err == nil {
		var n int
		n, err = o.w.Write(b)
		if err == nil && n < len(b) {
			err = io.ErrShortWrite
		}
		if err == nil {
			return n, nil
		}
		o.mu.Lock()
		o.err = err
		o.mu.Unlock()
	}
	panic(writeStop{o, err})
}

func (o *outWriter) failed() error {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.err
}

// Quiet returns the writer under w when w is a command's standard stream,
// for code that is not a command of this package (a nested interpreter's
// builtins, which may run in goroutines of their own and handle their
// write errors themselves).
func Quiet(w io.Writer) io.Writer {
	if o, ok := w.(*outWriter); ok {
		return quietWriter{o}
	}
	return w
}

type quietWriter struct{ o *outWriter }

func (q quietWriter) Write(b []byte) (int, error) {
	if err := q.o.failed(); err != nil {
		return 0, err
	}
	n, err := q.o.w.Write(b)
	if err != nil {
		q.o.mu.Lock()
		q.o.err = err
		q.o.mu.Unlock()
	}
	return n, err
}

// flusher is a buffered file (a redirection's hostfs writer): what a
// command wrote is flushed when it ends, as GNU's close_stdout does, so a
// failure is the command's.
type flusher interface{ Flush() error }

// guardStreams gives e a standard output and error that stop the command
// at their first failed write; the streams a caller already guards are
// shared.
func (e *Env) guardStreams() (own *outWriter) {
	if _, ok := e.Stdout.(*outWriter); !ok && e.Stdout != nil {
		own = &outWriter{w: e.Stdout}
		e.Stdout = own
	}
	if _, ok := e.Stderr.(*outWriter); !ok && e.Stderr != nil {
		e.Stderr = &outWriter{w: e.Stderr, stderr: true}
	}
	return own
}

// writeFailed reports a failed write as the GNU tool would and returns
// the command's status: 141 for a closed pipe (SIGPIPE, silent); a limit
// that refused the output stops the run, which reports it.
func (e *Env) writeFailed(ws writeStop) int {
	err := ws.err
	if errors.Is(err, syscall.EPIPE) {
		return StatusPipe
	}
	var le *host.LimitError
	if errors.As(err, &le) || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		if le != nil && e.Stop != nil {
			e.Stop(le)
		}
		return 1
	}
	if ws.w.stderr {
		return 1
	}
	text := textOf(err)
	status := 1
	var msg string
	switch e.name {
	case "head":
		msg = "error writing 'standard output': " + text
	case "yes":
		msg = "standard output: " + text
	case "sed":
		msg, status = "couldn't flush stdout: "+text, 4
	default:
		msg = "write error: " + text
	}
	if e.Stderr != nil {
		func() {
			defer func() { recover() }() // stderr may be broken too
			fmt.Fprintf(e.Stderr, "%s: %s\n", e.name, msg)
		}()
	}
	return status
}
