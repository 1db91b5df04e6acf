package runtime

import (
	"io/fs"

	"github.com/nookdev/nook/vfs"
)

// Error is an error of the runtime's own operations (Exec, GetExec, ...),
// with a POSIX-style code: ENOENT for an unknown run, EEXIST for a reused
// id, EBUSY for a run that is still running or a full concurrency cap,
// EINVAL for bad options, ECANCELED after Close.
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

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

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
