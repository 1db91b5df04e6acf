package vfs

import (
	"context"
	"errors"
	"io/fs"
	"syscall"
)

// Errno is a POSIX error code carried by every vfs error.
type Errno string

// The codes vfs errors carry.
const (
	ENOENT       Errno = "ENOENT"
	EEXIST       Errno = "EEXIST"
	ENOTDIR      Errno = "ENOTDIR"
	EISDIR       Errno = "EISDIR"
	ENOTEMPTY    Errno = "ENOTEMPTY"
	EINVAL       Errno = "EINVAL"
	EPERM        Errno = "EPERM"
	EROFS        Errno = "EROFS"
	ELOOP        Errno = "ELOOP"
	ENAMETOOLONG Errno = "ENAMETOOLONG"
	EIO          Errno = "EIO"
	ENOSPC       Errno = "ENOSPC"
	EFBIG        Errno = "EFBIG"
	EBADF        Errno = "EBADF"
	EXDEV        Errno = "EXDEV"
	EACCES       Errno = "EACCES"
	EBUSY        Errno = "EBUSY"
)

var sysErrno = map[Errno]syscall.Errno{
	ENOENT: syscall.ENOENT, EEXIST: syscall.EEXIST, ENOTDIR: syscall.ENOTDIR,
	EISDIR: syscall.EISDIR, ENOTEMPTY: syscall.ENOTEMPTY, EINVAL: syscall.EINVAL,
	EPERM: syscall.EPERM, EROFS: syscall.EROFS, ELOOP: syscall.ELOOP,
	ENAMETOOLONG: syscall.ENAMETOOLONG, EIO: syscall.EIO, ENOSPC: syscall.ENOSPC,
	EFBIG: syscall.EFBIG, EBADF: syscall.EBADF, EXDEV: syscall.EXDEV,
	EACCES: syscall.EACCES, EBUSY: syscall.EBUSY, ESTALE: syscall.ESTALE,
}

// Error returns the code itself, e.g. "ENOENT".
func (e Errno) Error() string { return string(e) }

// Syscall returns the host's numeric errno for e.
func (e Errno) Syscall() syscall.Errno { return sysErrno[e] }

// Is makes errors.Is(err, fs.ErrNotExist) and friends work, and matches the
// host's syscall.Errno of the same meaning.
func (e Errno) Is(target error) bool {
	switch target {
	case fs.ErrNotExist:
		return e == ENOENT
	case fs.ErrExist:
		return e == EEXIST || e == ENOTEMPTY
	case fs.ErrPermission:
		return e == EPERM || e == EROFS || e == EACCES
	case fs.ErrInvalid:
		return e == EINVAL || e == EBADF
	case fs.ErrClosed:
		return false
	}
	if se, ok := target.(syscall.Errno); ok {
		return sysErrno[e] == se
	}
	return false
}

// PathError is the error every vfs operation returns about a path. Its
// message is "<text>: <path>", as Cloudflare Computer words it.
type PathError struct {
	Op   string // the operation: "read", "write", "mkdir", ...
	Path string // the path as the caller gave it, or the canonical path
	Code Errno  // the POSIX code
	Text string // what went wrong, without the path
	Err  error  // an underlying cause, if any (wrapped)
}

func (e *PathError) Error() string {
	if e.Path == "" {
		return e.Text
	}
	return e.Text + ": " + e.Path
}

// Unwrap returns the code and the cause, so errors.Is sees both.
func (e *PathError) Unwrap() []error {
	if e.Err != nil {
		return []error{e.Code, e.Err}
	}
	return []error{e.Code}
}

// Code returns the POSIX code of err: its own when it is (or wraps) a vfs
// error, EIO for any other non-nil error, and "" for nil.
func Code(err error) Errno {
	if err == nil {
		return ""
	}
	var e Errno
	if errors.As(err, &e) {
		return e
	}
	var pe *PathError
	if errors.As(err, &pe) {
		return pe.Code
	}
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return ENOENT
	case errors.Is(err, fs.ErrExist):
		return EEXIST
	case errors.Is(err, fs.ErrPermission):
		return EPERM
	case errors.Is(err, fs.ErrInvalid):
		return EINVAL
	}
	return EIO
}

func perr(op, path string, code Errno, text string) *PathError {
	return &PathError{Op: op, Path: path, Code: code, Text: text}
}

// ioErr wraps an unexpected storage error as EIO.
func ioErr(op, path string, err error) error {
	if err == nil {
		return nil
	}
	var pe *PathError
	if errors.As(err, &pe) {
		return err
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return &PathError{Op: op, Path: path, Code: EIO, Text: "storage error (" + err.Error() + ")", Err: err}
}
