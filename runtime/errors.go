package runtime

import "github.com/nookdev/nook/vfs"

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

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// Is makes errors.Is(err, runtime.ENOTWAITING) (or vfs.ENOENT, ...) hold
// for the error's own code, and errors.Is(err, fs.ErrNotExist) and the
// other io/fs sentinels as they hold for that code's vfs.Errno.
func (e *Error) Is(target error) bool {
	if code, ok := target.(vfs.Errno); ok {
		return e.Code == code
	}
	return e.Code.Is(target)
}

// As sets a *vfs.Errno target to the error's own code (not its cause's),
// which is how vfs.Code reads it; an error without a code leaves it to the
// cause.
func (e *Error) As(target any) bool {
	if p, ok := target.(*vfs.Errno); ok && e.Code != "" {
		*p = e.Code
		return true
	}
	return false
}
