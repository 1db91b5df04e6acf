package host

import (
	"context"
	"errors"
	"fmt"

	"github.com/nookdev/nook/vfs"
)

// fsDescriptions are the texts Node (libuv) gives each code.
var fsDescriptions = map[string]string{
	"ENOENT":       "no such file or directory",
	"EEXIST":       "file already exists",
	"ENOTDIR":      "not a directory",
	"EISDIR":       "illegal operation on a directory",
	"ENOTEMPTY":    "directory not empty",
	"EINVAL":       "invalid argument",
	"EPERM":        "operation not permitted",
	"EROFS":        "read-only file system",
	"ELOOP":        "too many symbolic links encountered",
	"ENAMETOOLONG": "name too long",
	"EBADF":        "bad file descriptor",
	"EXDEV":        "cross-device link not permitted",
	"ENOSPC":       "no space left on device",
	"EFBIG":        "file too large",
	"EACCES":       "permission denied",
	"EIO":          "i/o error",
	"EMFILE":       "too many open files",
}

// fsErr builds a filesystem error in Node's words:
//
//	ENOENT: no such file or directory, open '/workspace/a'
//	EXDEV: cross-device link not permitted, rename '/workspace/a' -> '/workspace/b'
//
// path and dest are the paths as the code gave them; either may be empty.
func fsErr(code, syscall, path, dest string) *CallError {
	desc := fsDescriptions[code]
	if desc == "" {
		desc = "unknown error"
	}
	msg := code + ": " + desc + ", " + syscall
	if path != "" || dest != "" {
		msg += " '" + path + "'"
		if dest != "" {
			msg += " -> '" + dest + "'"
		}
	}
	return &CallError{Code: code, Message: msg, Syscall: syscall, Path: path, Dest: dest}
}

// vfsErr turns an error of a vfs call into the error sandboxed code sees.
// Errors that already are a *CallError or *LimitError pass through, as do
// context errors (the run is ending; the backend reports why). ENOSPC and
// EFBIG keep the vfs's reason, which names the workspace limit that was hit.
func (o *FSOps) vfsErr(err error, syscall, path, dest string) error {
	var ce *CallError
	var le *LimitError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &ce), errors.As(err, &le):
		return err
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return err
	}
	code := string(vfs.Code(err))
	e := fsErr(code, syscall, path, dest)
	if code == "ENOSPC" || code == "EFBIG" {
		var pe *vfs.PathError
		if errors.As(err, &pe) && pe.Text != "" {
			e.Message += " (" + pe.Text + ")"
		}
	}
	return e
}

// readOnlyErr is the error of every mutation under ReadOnly access.
func readOnlyErr(syscall, path, dest string) error {
	return fsErr("EROFS", syscall, path, dest)
}

// tooLargeErr is the catchable error of a read or write whose payload is
// bigger than MaxCallBytes. Node uses the code ERR_FS_FILE_TOO_LARGE for
// files too big to read whole; the message says how to proceed.
func tooLargeErr(what string, size, max int64, path string) error {
	return &CallError{
		Code: "ERR_FS_FILE_TOO_LARGE",
		Message: fmt.Sprintf("%s of %d bytes is larger than one host call may carry, the limit MaxCallBytes (%d): "+
			"read or write it in ranges with a file handle (fs.open, then read/write with a position)", what, size, max),
		Path: path,
	}
}

// dirTooLargeErr is the catchable error of a listing with more than
// MaxDirEntries entries.
func dirTooLargeErr(syscall, path string, max int) error {
	return &CallError{
		Code: "ERR_FS_DIR_TOO_LARGE",
		Message: fmt.Sprintf("directory '%s' has more entries than one listing may return, the limit MaxDirEntries (%d): "+
			"use fs.opendir to read it in pages", path, max),
		Syscall: syscall,
		Path:    path,
	}
}

// argErr reports a missing or malformed argument of an op: a bug in the
// shim, not in the sandboxed code, so it says which argument.
func argErr(op, name, want string) error {
	return &CallError{Code: "EINVAL", Message: fmt.Sprintf("EINVAL: invalid argument, fs op %q needs %s %s", op, name, want)}
}
