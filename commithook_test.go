package nook_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/nookdev/nook"
	"github.com/nookdev/nook/vfs"
)

// The commit hook sees each committed write with the database's path, can
// copy the database as of that commit, fails the writes of a commit when
// it fails, and its handle is dead once it returns.
func TestCommitHook(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	path := filepath.Join(dir, "ws.nook")
	var (
		commits int
		paths   = map[string]bool{}
		backup  string
		fail    error
		kept    nook.Commit
	)
	ws, err := nook.Open(ctx, path, nook.WithCommitHook(func(c nook.Commit) error {
		commits++
		paths[c.Path()] = true
		if backup != "" {
			if err := c.Backup(backup); err != nil {
				return err
			}
			backup = ""
		}
		kept = c
		return fail
	}))
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	opened := commits
	if opened == 0 || len(paths) != 1 || !paths[path] {
		t.Fatalf("opening: %d commits with paths %v, want some with %s", opened, paths, path)
	}
	if err := ws.FS().WriteFile(ctx, "/a.txt", []byte("one\n"), nil); err != nil {
		t.Fatal(err)
	}
	if commits != opened+1 {
		t.Errorf("a write made %d commits, want 1", commits-opened)
	}
	// A copy as of the next commit has /b.txt, which that commit wrote.
	backup = filepath.Join(dir, "copy.nook")
	want := backup
	if err := ws.FS().WriteFile(ctx, "/b.txt", []byte("two\n"), nil); err != nil {
		t.Fatal(err)
	}
	cp, err := nook.Open(ctx, want)
	if err != nil {
		t.Fatal(err)
	}
	for p, c := range map[string]string{"/a.txt": "one\n", "/b.txt": "two\n"} {
		if got, err := cp.FS().ReadFile(ctx, p); err != nil || string(got) != c {
			t.Errorf("%s in the backup: %q %v, want %q", p, got, err, c)
		}
	}
	cp.Close()
	if err := kept.Backup(filepath.Join(dir, "late.nook")); err == nil ||
		err.Error() != "vfs: commit handle used after its hook returned" {
		t.Errorf("Backup after the hook returned: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "late.nook")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a late Backup wrote a file: %v", err)
	}
	// A failing hook fails the write, as a storage error wrapping its
	// error.
	fail = fmt.Errorf("log refused: %w", vfs.EACCES)
	err = ws.FS().WriteFile(ctx, "/c.txt", []byte("three\n"), nil)
	const wantErr = "storage error (log refused: EACCES): /c.txt"
	if err == nil || err.Error() != wantErr || !errors.Is(err, fail) || !errors.Is(err, vfs.EACCES) || vfs.Code(err) != vfs.EIO {
		t.Errorf("write with a failing hook: %v, want %q (EIO wrapping the hook's error)", err, wantErr)
	}
}
