// nook: this file is not in upstream mvdan.cc/sh (see ../PATCHES.md, "goroutine panics").

package interp

import (
	"fmt"
	"runtime/debug"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/nookdev/nook/internal/mvsh/expand"
	"github.com/nookdev/nook/internal/mvsh/syntax"
)

// InternalError is the error of a run in which the interpreter panicked in
// one of the goroutines it starts (a pipeline stage, a background job, a
// process substitution, a here-document writer). The goroutine recovers,
// the run stops at its next statement and [Runner.Run] returns this error,
// so the panic never ends the host process.
type InternalError struct {
	// Value is the panic's value.
	Value any
	// Stack is the panicking goroutine's stack.
	Stack []byte
}

func (e *InternalError) Error() string {
	return fmt.Sprintf("internal error: %v", e.Value)
}

// PanicHandler sets a function called (in the panicking goroutine, after
// the recover) with the value of a panic of one of the interpreter's
// goroutines; the run then stops with an [*InternalError] unless the
// handler returns another error, which is used instead.
func PanicHandler(f func(v any) error) RunnerOption {
	return func(r *Runner) error {
		r.panicHandler = f
		return nil
	}
}

// goPanicState is shared by a runner and all its subshells.
type goPanicState struct {
	err atomic.Pointer[error]
}

// recoverGo is deferred by every goroutine the interpreter starts. exit,
// if not nil, is the goroutine's exit status, made fatal.
func (r *Runner) recoverGo(exit *exitStatus) {
	v := recover()
	if v == nil {
		return
	}
	err := r.recoveredPanic(v)
	if exit != nil {
		exit.fatal(err)
	}
}

// recoveredPanic records the recovered panic v of the run and returns the
// run's error for it.
func (r *Runner) recoveredPanic(v any) error {
	var err error = &InternalError{Value: v, Stack: debug.Stack()}
	if r.panicHandler != nil {
		if herr := r.panicHandler(v); herr != nil {
			err = herr
		}
	}
	if r.goPanic != nil {
		r.goPanic.err.CompareAndSwap(nil, &err)
	}
	return err
}

// goPanicked reports the error of a recovered goroutine panic of this run.
func (r *Runner) goPanicked() error {
	if r.goPanic == nil {
		return nil
	}
	if p := r.goPanic.err.Load(); p != nil {
		return *p
	}
	return nil
}

// InternalCommands sets a predicate naming the commands (and, for a
// statement that only assigns, the first variable it assigns) that the
// embedder inserts into scripts for its own bookkeeping: such a statement
// updates neither PIPESTATUS nor $_, and does not run the DEBUG trap.
func InternalCommands(f func(name string) bool) RunnerOption {
	return func(r *Runner) error {
		r.internalCmd = f
		return nil
	}
}

// internalStmt reports whether st is one of the embedder's own statements.
func (r *Runner) internalStmt(st *syntax.Stmt) bool {
	if r.internalCmd == nil {
		return false
	}
	ce, ok := st.Cmd.(*syntax.CallExpr)
	if !ok {
		return false
	}
	if len(ce.Args) > 0 {
		return r.internalCmd(ce.Args[0].Lit())
	}
	if len(ce.Assigns) > 0 && ce.Assigns[0].Name != nil {
		return r.internalCmd(ce.Assigns[0].Name.Value)
	}
	return false
}

// setPipeStatus sets PIPESTATUS to the statuses of the last pipeline.
func (r *Runner) setPipeStatus(codes []uint8) {
	list := make([]string, len(codes))
	for i, c := range codes {
		list[i] = strconv.Itoa(int(c))
	}
	r.setVar("PIPESTATUS", expand.Variable{Set: true, Kind: expand.Indexed, List: list})
}

// simpleForPipeStatus reports whether a statement running cm sets
// PIPESTATUS to its own status: every command but the compound ones
// (whose inner pipelines set it) and function declarations.
func simpleForPipeStatus(cm syntax.Command) bool {
	switch cm.(type) {
	case nil, *syntax.Block, *syntax.IfClause, *syntax.WhileClause, *syntax.ForClause,
		*syntax.CaseClause, *syntax.FuncDecl:
		return false
	}
	return true
}

// debugTrapped reports whether the DEBUG trap runs before cm: simple
// commands, (( )), [[ ]], declarations and let, as in bash.
func debugTrapped(cm syntax.Command) bool {
	switch cm.(type) {
	case *syntax.CallExpr, *syntax.ArithmCmd, *syntax.TestClause, *syntax.DeclClause, *syntax.LetClause:
		return true
	}
	return false
}

// quoteTrap quotes a trap's command as bash's trap listing does.
func quoteTrap(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
