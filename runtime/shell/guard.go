package shell

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"

	"github.com/nookdev/nook/internal/mvsh/interp"
	"github.com/nookdev/nook/internal/mvsh/syntax"

	"github.com/nookdev/nook/runtime/shell/internal/coreutils"
)

// Every goroutine of a run (the interpreter's pipeline stages, background
// jobs and command substitutions, and the run's own) reaches our code
// only through the interpreter's handlers: each handler recovers a panic
// of what it runs (a command, a host call's decoding) into the run's
// error, so a panic ends the run, never the host process. The
// interpreter's own goroutines recover too (internal/mvsh, guard.go) and
// report through interp.PanicHandler. See RATIONALE.md, "Panics".

// PanicError is the error of a run whose command (or handler) panicked.
type PanicError struct {
	// What panicked: the command's name, or the handler ("open x").
	What string
	// Value is the panic's value.
	Value any
}

func (e *PanicError) Error() string {
	return fmt.Sprintf("internal error: %s panicked: %v", e.What, e.Value)
}

// recovered ends the run with the panic v of what.
func (p *runProgram) recovered(what string, v any) error {
	if cp, ok := v.(*coreutils.Panic); ok {
		what, v = "the command "+cp.Command, cp.Value
	}
	err := &PanicError{What: what, Value: v}
	p.cancel(err)
	return err
}

// runGuarded runs f in r. A panic of the interpreter itself (a gap of
// mvdan.cc/sh: a construct it does not expect) ends the run with a
// PanicError of the interpreter, as a handler's panic does, so that it is
// reported by the shell, not as the backend's panic. The interpreter's
// own goroutines (pipeline stages, jobs) recover in the fork and report
// through interp.PanicHandler (see doors).
func (p *runProgram) runGuarded(ctx context.Context, r *interp.Runner, f *syntax.File) (err error) {
	defer func() {
		if v := recover(); v != nil {
			err = p.recovered("the interpreter", v)
		}
	}()
	return r.Run(ctx, f)
}

// doors are the interpreter's handlers of a run, each guarded.
func (p *runProgram) doors() []interp.RunnerOption {
	return []interp.RunnerOption{
		// A panic of the interpreter's own code, in any of its goroutines
		// (pipeline stages, background jobs, here-documents: the fork's
		// guard, internal/mvsh/PATCHES.md), ends the run like a handler's.
		interp.PanicHandler(func(v any) error {
			return p.recovered("the interpreter", v)
		}),
		// The statements the rewrite inserts leave PIPESTATUS and $_ alone.
		interp.InternalCommands(internalCommand),
		interp.OpenHandler(func(ctx context.Context, name string, flag int, perm os.FileMode) (rwc io.ReadWriteCloser, err error) {
			defer func() {
				if v := recover(); v != nil {
					rwc, err = nil, p.recovered("open "+name, v)
				}
			}()
			return p.openHandler(ctx, name, flag, perm)
		}),
		interp.StatHandler(func(ctx context.Context, name string, follow bool) (fi fs.FileInfo, err error) {
			defer func() {
				if v := recover(); v != nil {
					fi, err = nil, p.recovered("stat "+name, v)
				}
			}()
			return p.statHandler(ctx, name, follow)
		}),
		interp.ReadDirHandler2(func(ctx context.Context, name string) (ents []fs.DirEntry, err error) {
			defer func() {
				if v := recover(); v != nil {
					ents, err = nil, p.recovered("readdir "+name, v)
				}
			}()
			return p.readDirHandler(ctx, name)
		}),
		interp.AccessHandler(func(ctx context.Context, name string, mode interp.AccessMode) (err error) {
			defer func() {
				if v := recover(); v != nil {
					err = p.recovered("access "+name, v)
				}
			}()
			return p.accessHandler(ctx, name, mode)
		}),
		interp.CallHandler(func(ctx context.Context, args []string) (out []string, err error) {
			defer func() {
				if v := recover(); v != nil {
					out, err = nil, p.recovered(args[0], v)
				}
			}()
			return p.callHandler(ctx, args)
		}),
		interp.ExecHandlers(func(next interp.ExecHandlerFunc) interp.ExecHandlerFunc {
			h := p.execMiddleware(next)
			return func(ctx context.Context, args []string) (err error) {
				defer func() {
					if v := recover(); v != nil {
						err = p.recovered("the command "+args[0], v)
					}
				}()
				return h(ctx, args)
			}
		}),
	}
}

// internalCommand reports whether name is one of the commands (or stand-in
// variables) the rewrite inserts for its own bookkeeping, as opposed to a
// user's command it stands for (__nook_printf is the script's printf).
func internalCommand(name string) bool {
	switch name {
	case tickCmd, varsCmd, replCmd, statusCmd, statusVar, "__nook_fail", pidVar:
		return true
	}
	return strings.HasPrefix(name, elemVar)
}
