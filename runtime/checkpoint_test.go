package runtime_test

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/nookdev/nook"
	"github.com/nookdev/nook/runtime"
	"github.com/nookdev/nook/runtime/js"
	"github.com/nookdev/nook/runtime/shell"
	"github.com/nookdev/nook/vfs"
)

// treeDump renders every name under root with its kind, mode, size, times
// and content or target: what an undo must put back exactly.
func treeDump(t *testing.T, f *vfs.FS, root string) string {
	t.Helper()
	ctx := context.Background()
	var b strings.Builder
	err := fs.WalkDir(f.IOFS(), strings.TrimPrefix(root, "/"), func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		st, err := f.Lstat(ctx, "/"+p)
		if err != nil {
			return err
		}
		fmt.Fprintf(&b, "/%s %s %o n%d a%d m%d", p, st.Kind, st.Perm, st.Nlink, st.Atime.UnixNano(), st.Mtime.UnixNano())
		switch st.Kind {
		case vfs.TypeSymlink:
			b.WriteString(" -> " + st.Target)
		case vfs.TypeFile:
			data, err := f.ReadFile(ctx, "/"+p)
			if err != nil {
				return err
			}
			fmt.Fprintf(&b, " %q", data)
		}
		b.WriteByte('\n')
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func openUndoWS(t *testing.T, o runtime.Options) *nook.Workspace {
	t.Helper()
	ws, err := nook.Open(context.Background(), filepath.Join(t.TempDir(), "w.db"),
		nook.WithBackends(js.New(js.Options{}), shell.New(shell.Options{})), nook.WithRuntime(o))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	return ws
}

// Undo of a JavaScript run and of a shell script puts back exactly the
// files they changed (content, modes, times, symlinks), leaves what
// others changed, refuses while a path changed since, and is undoable.
func TestUndoRuns(t *testing.T) {
	ctx := context.Background()
	ws := openUndoWS(t, runtime.Options{})
	f, rt := ws.FS(), ws.Runtime()
	put := func(p, s string) {
		t.Helper()
		if err := f.WriteFile(ctx, p, []byte(s), &vfs.WriteOptions{MkdirAll: true}); err != nil {
			t.Fatal(err)
		}
	}
	put("/workspace/src/a.txt", "A\n")
	put("/workspace/src/b.txt", "B\n")
	put("/workspace/keep.txt", "keep\n")
	if err := f.Symlink(ctx, "src/a.txt", "/workspace/link"); err != nil {
		t.Fatal(err)
	}
	if err := f.Chmod(ctx, "/workspace/src/b.txt", 0o600); err != nil {
		t.Fatal(err)
	}
	before := treeDump(t, f, "/workspace")

	res := run(t, rt, `
import { writeFile, rm, symlink, unlink, chmod, mkdir } from "node:fs/promises";
export default async () => {
  await writeFile("src/a.txt", "A by js\n");
  await rm("src/b.txt");
  await unlink("link");
  await symlink("keep.txt", "link");
  await mkdir("new/deep", { recursive: true });
  await writeFile("new/deep/n.txt", "n");
  await chmod("keep.txt", 0o755);
};`, runtime.ExecOptions{ID: "js1", Checkpoint: true, Timeout: 10 * time.Second})
	if res.Status != runtime.StatusCompleted {
		t.Fatalf("js run: %s %s", res.Status, res.Error)
	}
	// Someone else writes a file the run did not touch.
	put("/elsewhere/other.txt", "other\n")
	u, err := rt.Undo(ctx, "js1", runtime.UndoOptions{})
	if err != nil {
		t.Fatalf("undo js1: %v", err)
	}
	want := []string{"/workspace/keep.txt", "/workspace/link", "/workspace/new", "/workspace/new/deep", "/workspace/new/deep/n.txt",
		"/workspace/src/a.txt", "/workspace/src/b.txt"}
	if !slices.Equal(u.Paths, want) || u.Run != "js1" || u.Rev == 0 {
		t.Errorf("undo js1: %+v, want paths %v", u, want)
	}
	if data, err := f.ReadFile(ctx, "/elsewhere/other.txt"); string(data) != "other\n" {
		t.Errorf("the undo changed a file the run did not: %q %v", data, err)
	}
	if got := treeDump(t, f, "/workspace"); got != before {
		t.Errorf("after undo of the JS run:\n%s\nwant\n%s", got, before)
	}

	// The undo is undoable: the JS run's changes come back.
	afterJS := ""
	if _, err := rt.Undo(ctx, u.ID, runtime.UndoOptions{}); err != nil {
		t.Fatalf("undo of the undo: %v", err)
	}
	if data, _ := f.ReadFile(ctx, "/workspace/src/a.txt"); string(data) != "A by js\n" {
		t.Errorf("after redo a.txt is %q", data)
	}
	afterJS = treeDump(t, f, "/workspace")

	// A shell script; its reported changes are what is undone.
	res = run(t, rt, `echo "A by sh" > src/a.txt; mkdir -p sh/x; echo s > sh/x/s.txt; rm keep.txt`,
		runtime.ExecOptions{ID: "sh1", Backend: "shell", Checkpoint: true})
	if res.Status != runtime.StatusCompleted {
		t.Fatalf("shell run: %s %s %s", res.Status, res.Error, res.Stderr)
	}
	// A later change to one of its files: the undo is refused, whole.
	put("/workspace/sh/x/s.txt", "changed later")
	put("/workspace/sh/x/t.txt", "added later")
	mid := treeDump(t, f, "/workspace")
	_, err = rt.Undo(ctx, "sh1", runtime.UndoOptions{})
	var ce *vfs.ConflictError
	if !errors.As(err, &ce) || vfs.Code(err) != vfs.ESTALE || !errors.Is(err, syscall.ESTALE) {
		t.Fatalf("undo after a later change: %v, want a ConflictError (ESTALE)", err)
	}
	if want := "2 paths changed since, nothing was reverted: /workspace/sh/x/s.txt (modified), /workspace/sh/x/t.txt (created)"; err.Error() != want {
		t.Errorf("conflict: %q, want %q", err, want)
	}
	if got := treeDump(t, f, "/workspace"); got != mid {
		t.Errorf("a refused undo changed files:\n%s\nwant\n%s", got, mid)
	}
	put("/workspace/sh/x/s.txt", "s\n")
	if err := f.Remove(ctx, "/workspace/sh/x/t.txt", nil); err != nil {
		t.Fatal(err)
	}
	if _, err := rt.Undo(ctx, "sh1", runtime.UndoOptions{}); err != nil {
		t.Fatalf("undo sh1: %v", err)
	}
	// s.txt was rewritten (same bytes, a later mtime), so compare what
	// the JS run left, which the script's undo must give back.
	if got := treeDump(t, f, "/workspace"); got != afterJS {
		t.Errorf("after undo of the shell run:\n%s\nwant\n%s", got, afterJS)
	}

	// A run without checkpoints cannot be undone.
	run(t, rt, `true`, runtime.ExecOptions{ID: "plain", Backend: "shell"})
	_, err = rt.Undo(ctx, "plain", runtime.UndoOptions{})
	if code(err) != vfs.ENOENT || err.Error() != "run plain has no checkpoints: it was not started with Checkpoint, or they were pruned (limit MaxRunCheckpoints, 50 runs)" {
		t.Errorf("undo of a run without checkpoints: %v", err)
	}
}

// A restore (and an undo) while a run is in flight is refused with EBUSY
// naming the run, unless forced.
func TestRestoreRefusedDuringRun(t *testing.T) {
	ctx := context.Background()
	ws := openUndoWS(t, runtime.Options{CheckpointRuns: true})
	f, rt := ws.FS(), ws.Runtime()
	if err := f.WriteFile(ctx, "/workspace/a.txt", []byte("1"), &vfs.WriteOptions{MkdirAll: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.Checkpoint(ctx, "c1"); err != nil {
		t.Fatal(err)
	}
	run(t, rt, `echo 2 > a.txt`, runtime.ExecOptions{ID: "done", Backend: "shell"})
	h, err := rt.Exec(ctx, `sleep 30`, runtime.ExecOptions{ID: "slow", Backend: "shell"})
	if err != nil {
		t.Fatal(err)
	}
	_, err = rt.Restore(ctx, "c1", runtime.RestoreOptions{})
	var re *runtime.Error
	if !errors.As(err, &re) || re.Code != runtime.EBUSY || !errors.Is(err, syscall.EBUSY) || re.ID != "slow" ||
		err.Error() != "cannot restore while run slow is in flight (wait for it, kill it, or force the restore)" {
		t.Fatalf("restore during a run: %v", err)
	}
	if _, err := rt.Fork(ctx, "c1", filepath.Join(t.TempDir(), "f.db"), runtime.ForkOptions{}); code(err) != runtime.EBUSY ||
		err.Error() != "cannot fork while run slow is in flight (wait for it, kill it, or force the fork)" {
		t.Errorf("fork during a run: %v", err)
	}
	if _, err := rt.Undo(ctx, "done", runtime.UndoOptions{}); code(err) != runtime.EBUSY {
		t.Errorf("undo during a run: %v, want EBUSY", err)
	}
	if _, err := rt.Undo(ctx, "slow", runtime.UndoOptions{}); code(err) != runtime.EBUSY || err.Error() != "run slow has not finished: it cannot be undone yet" {
		t.Errorf("undo of the running run: %v", err)
	}
	if data, _ := f.ReadFile(ctx, "/workspace/a.txt"); string(data) != "2\n" {
		t.Errorf("a refused restore changed a.txt to %q", data)
	}
	st, err := rt.Restore(ctx, "c1", runtime.RestoreOptions{Force: true})
	if err != nil || st.Updated != 1 {
		t.Fatalf("forced restore: %+v %v", st, err)
	}
	if data, _ := f.ReadFile(ctx, "/workspace/a.txt"); string(data) != "1" {
		t.Errorf("after the forced restore a.txt is %q", data)
	}
	if err := rt.KillExec(ctx, "slow"); err != nil {
		t.Fatal(err)
	}
	h.Result(ctx)
	if _, err := rt.Restore(ctx, "c1", runtime.RestoreOptions{Path: "/workspace"}); err != nil {
		t.Errorf("restore once the run ended: %v", err)
	}
}
