package runtime

import (
	"context"

	"github.com/nookdev/nook/vfs"
)

// FSOps performs the filesystem calls of sandboxed code (KindFS), confined
// to Root with the given Access.
type FSOps struct {
	FS     *vfs.FS
	Root   string
	Access Access
	Limits Limits
}

// Do performs one filesystem operation.
func (o *FSOps) Do(ctx context.Context, op string, args map[string]any) (any, error) {
	return nil, &CallError{Code: "ENOSYS", Message: "ENOSYS: function not implemented, " + op, Syscall: op}
}
