package wasm

import (
	"context"
	"errors"

	experimentalsys "github.com/tetratelabs/wazero/experimental/sys"

	"github.com/nookdev/nook/runtime/host"
)

// errnos maps the codes of host-call errors to the errno a guest sees.
// wazero's errno set is a subset of WASI's: codes it lacks map to the
// nearest one it has (ENOSPC and EFBIG, which name a workspace limit in
// their message, become EIO; EXDEV and EBUSY, EPERM).
var errnos = map[string]experimentalsys.Errno{
	"EACCES":       experimentalsys.EACCES,
	"EAGAIN":       experimentalsys.EAGAIN,
	"EBADF":        experimentalsys.EBADF,
	"EEXIST":       experimentalsys.EEXIST,
	"EINTR":        experimentalsys.EINTR,
	"EINVAL":       experimentalsys.EINVAL,
	"EIO":          experimentalsys.EIO,
	"EISDIR":       experimentalsys.EISDIR,
	"ELOOP":        experimentalsys.ELOOP,
	"ENAMETOOLONG": experimentalsys.ENAMETOOLONG,
	"ENOENT":       experimentalsys.ENOENT,
	"ENOSYS":       experimentalsys.ENOSYS,
	"ENOTDIR":      experimentalsys.ENOTDIR,
	"ENOTEMPTY":    experimentalsys.ENOTEMPTY,
	"ENOTSUP":      experimentalsys.ENOTSUP,
	"EPERM":        experimentalsys.EPERM,
	"EROFS":        experimentalsys.EROFS,
	"EXDEV":        experimentalsys.EPERM,
	"EBUSY":        experimentalsys.EPERM,
	"ENOSPC":       experimentalsys.EIO,
	"EFBIG":        experimentalsys.EIO,
	"EMFILE":       experimentalsys.EIO,
}

// errnoOf turns the error of a host call into an errno. A limit error also
// stops the run (the guest sees EIO until it is stopped); so does the end of
// the run's context.
func (st *runState) errnoOf(err error) experimentalsys.Errno {
	if err == nil {
		return 0
	}
	var ce *host.CallError
	if errors.As(err, &ce) {
		if e, ok := errnos[ce.Code]; ok {
			return e
		}
		return experimentalsys.EIO
	}
	var le *host.LimitError
	if errors.As(err, &le) {
		st.stop(le)
		return experimentalsys.EIO
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return experimentalsys.EINTR
	}
	return experimentalsys.EIO
}
