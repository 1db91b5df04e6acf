package fleet

import (
	"errors"
	"fmt"

	"github.com/nookdev/nook/vfs"
)

// ErrLeaseLost is matched (errors.Is) by the error of a call that a node
// refused because it no longer holds the workspace's lease: the broker
// refused its append (a newer owner wrote to the workspace's log), its
// renewal failed, or the lease ran out before it could be renewed. The
// call was not carried out; the node stopped serving the workspace, and a
// retry reaches the current owner.
var ErrLeaseLost = errors.New("lease lost")

// ErrNoOwner is matched by the error of a call that found no node able to
// own the workspace before its deadline (no live node, or every candidate
// refused).
var ErrNoOwner = errors.New("no owner")

// ErrDraining is matched by the error of a node that refused to take a
// workspace because it is draining (Drain): it gives its workspaces up and
// takes none.
var ErrDraining = errors.New("draining")

// Error is the error of a fleet operation on a workspace. Code is its POSIX
// code (vfs.Code reads it), so errors.Is(err, fs.ErrPermission) and friends
// work; Err is the cause, if any (ErrLeaseLost, ErrNoOwner, a NATS error).
type Error struct {
	Op        string    // "call", "acquire", "append", "renew", "start"...
	Workspace string    // the workspace name, or "" for a node-wide error
	Code      vfs.Errno // the POSIX code
	Text      string    // what went wrong
	Err       error     // the cause (wrapped)
}

func (e *Error) Error() string {
	s := "fleet: " + e.Op
	if e.Workspace != "" {
		s += " " + e.Workspace
	}
	s += ": " + e.Text
	if e.Err != nil && !errors.Is(e.Err, ErrLeaseLost) && !errors.Is(e.Err, ErrNoOwner) && !errors.Is(e.Err, ErrDraining) {
		s += ": " + e.Err.Error()
	}
	return s
}

// Unwrap returns the cause and the code, so that errors.Is matches both.
func (e *Error) Unwrap() []error {
	if e.Err == nil {
		return []error{e.Code}
	}
	return []error{e.Err, e.Code}
}

func errorf(op, ws string, code vfs.Errno, cause error, format string, args ...any) *Error {
	return &Error{Op: op, Workspace: ws, Code: code, Text: fmt.Sprintf(format, args...), Err: cause}
}

// leaseLost is the error naming the lease a node lost.
func leaseLost(op, ws, node string, epoch uint64, why string) *Error {
	return errorf(op, ws, vfs.EACCES, ErrLeaseLost,
		"lease lost: node %s no longer owns workspace %s (epoch %d): %s", node, ws, epoch, why)
}
