package runtime_test

import (
	"context"
	"errors"
	"io/fs"
	"testing"

	"github.com/nookdev/nook/runtime"
	"github.com/nookdev/nook/vfs"
)

// A runtime error answers errors.Is for its own code, for the io/fs
// sentinel of that code and for its cause, and vfs.Code returns its code.
func TestErrorCodes(t *testing.T) {
	rt := openWS(t, "", runtime.Options{}).Runtime()
	ctx := context.Background()

	err := rt.Respond(ctx, "nosuchrun", "nosuchrun/1", true)
	if !errors.Is(err, runtime.ENOTWAITING) {
		t.Errorf("Respond to a call that is not waiting: errors.Is(%v, ENOTWAITING) is false", err)
	}
	if c := vfs.Code(err); c != runtime.ENOTWAITING {
		t.Errorf("vfs.Code(Respond error) = %q, want ENOTWAITING", c)
	}
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, runtime.EBUSY) {
		t.Errorf("Respond error %v matches another code", err)
	}

	_, err = rt.GetExec(ctx, "nosuchrun", runtime.GetOptions{})
	if !errors.Is(err, vfs.ENOENT) || !errors.Is(err, fs.ErrNotExist) || vfs.Code(err) != vfs.ENOENT {
		t.Errorf("GetExec of an unknown run: %v (code %s), want ENOENT matching fs.ErrNotExist", err, vfs.Code(err))
	}

	cause := errors.New("the cause")
	e := &runtime.Error{Op: "exec", Code: runtime.EBUSY, Text: "busy", Err: cause}
	if !errors.Is(e, runtime.EBUSY) || !errors.Is(e, cause) || vfs.Code(e) != runtime.EBUSY {
		t.Errorf("EBUSY error with a cause: Is(EBUSY)=%v Is(cause)=%v Code=%s",
			errors.Is(e, runtime.EBUSY), errors.Is(e, cause), vfs.Code(e))
	}
	// The error's own code wins over its cause's.
	e = &runtime.Error{Op: "dispose", Code: runtime.EBUSY, Text: "busy", Err: &vfs.PathError{Code: vfs.ENOENT, Text: "x"}}
	if vfs.Code(e) != runtime.EBUSY {
		t.Errorf("vfs.Code of an EBUSY error wrapping ENOENT = %s", vfs.Code(e))
	}
}
