package runtime

import (
	"io/fs"

	"github.com/nookdev/nook/vfs"
)

// Error is an error of the runtime's own operations (Exec, GetExec, ...),
// with a POSIX-style code: ENOENT for an unknown run, EEXIST for a reused
// id, EBUSY for a run that is still running or a full concurrency cap,
// EINVAL for bad options, ECANCELED after Close.
//
// The code is part of the error's chain, as a vfs error's is: errors.Is(err,
// runtime.ENOTWAITING) (or vfs.ENOENT, fs.ErrNotExist, ...) holds, and
// vfs.Code(err) returns it.
type Error struct {
	Op   string    // "exec", "getexec", "kill", "dispose"
	ID   string    // the run id, when there is one
	Code vfs.Errno // the code
	Text string    // the message
	Err  error     // the cause, if any
}

// Codes of runtime errors that vfs does not define.
const (
	EBUSY     vfs.Errno = "EBUSY"
	ECANCELED vfs.Errno = "ECANCELED"
	EACCES    vfs.Errno = "EACCES"
)

func (e *Error) Error() string { return e.Text }

// Unwrap returns the code and the cause, so errors.Is and errors.As see
// both (the code first: vfs.Code of a runtime error is its own code, not
// that of its cause).
func (e *Error) Unwrap() []error {
	if e.Err != nil {
		return []error{e.Code, e.Err}
	}
	return []error{e.Code}
}

// Is makes errors.Is(err, fs.ErrNotExist) hold for ENOENT and
// errors.Is(err, fs.ErrExist) for EEXIST.
func (e *Error) Is(target error) bool {
	switch target {
	case fs.ErrNotExist:
		return e.Code == vfs.ENOENT
	case fs.ErrExist:
		return e.Code == vfs.EEXIST
	case fs.ErrInvalid:
		return e.Code == vfs.EINVAL
	}
	return false
}
