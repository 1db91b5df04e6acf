package wasm_test

import (
	"context"
	"slices"
	"testing"

	"github.com/nookdev/nook/runtime"
	"github.com/nookdev/nook/vfs"
)

// What a WASI guest wrote is undone exactly: the file it overwrote gets its
// bytes and times back, the one it created goes.
func TestUndoWASIRun(t *testing.T) {
	ctx := context.Background()
	ws := openWS(t)
	f := ws.FS()
	if err := f.WriteFile(ctx, "/workspace/out.txt", []byte("before\n"), nil); err != nil {
		t.Fatal(err)
	}
	was, err := f.Stat(ctx, "/workspace/out.txt")
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"write", "/workspace/out.txt", "from wasm"}, {"write", "/workspace/new.txt", "new"}} {
		id := "w-" + args[1][len("/workspace/"):len(args[1])-len(".txt")]
		if res := run(t, ws, runtime.ExecOptions{ID: id, Checkpoint: true}, args...); res.Status != runtime.StatusCompleted {
			t.Fatalf("%v: %s %s", args, res.Status, res.Stderr)
		}
	}
	u, err := ws.Runtime().Undo(ctx, "w-new", runtime.UndoOptions{})
	if err != nil || !slices.Equal(u.Paths, []string{"/workspace/new.txt"}) || u.Removed != 1 {
		t.Fatalf("undo w-new: %+v %v", u, err)
	}
	u, err = ws.Runtime().Undo(ctx, "w-out", runtime.UndoOptions{})
	if err != nil || !slices.Equal(u.Paths, []string{"/workspace/out.txt"}) || u.Updated != 1 {
		t.Fatalf("undo w-out: %+v %v", u, err)
	}
	data, _ := f.ReadFile(ctx, "/workspace/out.txt")
	now, err := f.Stat(ctx, "/workspace/out.txt")
	if err != nil || string(data) != "before\n" || !now.Mtime.Equal(was.Mtime) || !now.Ctime.Equal(was.Ctime) || now.Perm != was.Perm {
		t.Errorf("after undo: %q %+v, want %+v", data, now, was)
	}
	if _, err := f.Stat(ctx, "/workspace/new.txt"); vfs.Code(err) != vfs.ENOENT {
		t.Errorf("new.txt after undo: %v", err)
	}
}
