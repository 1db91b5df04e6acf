package nook_test

import (
	"context"
	"errors"
	"io/fs"
	"path/filepath"
	"testing"
	"testing/fstest"
	"time"

	"github.com/nookdev/nook"
	"github.com/nookdev/nook/vfs"
)

func TestOpenPersists(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "sub", "ws.db") // parent created on demand
	ws, err := nook.Open(ctx, path, nook.WithSyncFull())
	if err != nil {
		t.Fatal(err)
	}
	if ws.Path() != path {
		t.Errorf("Path() = %q, want %q", ws.Path(), path)
	}
	if err := ws.FS().WriteFile(ctx, "/a/b.txt", []byte("data"), &vfs.WriteOptions{MkdirAll: true}); err != nil {
		t.Fatal(err)
	}
	if err := ws.Close(); err != nil {
		t.Fatal(err)
	}
	if err := ws.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}

	ws, err = nook.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	got, err := ws.FS().ReadFile(ctx, "/a/b.txt")
	if err != nil || string(got) != "data" {
		t.Fatalf("ReadFile after reopen = %q, %v", got, err)
	}
}

func TestOpenEmptyPath(t *testing.T) {
	for _, p := range []string{"", ":memory:"} {
		_, err := nook.Open(context.Background(), p)
		if vfs.Code(err) != vfs.EINVAL {
			t.Errorf("Open(%q) = %v, want EINVAL", p, err)
		}
	}
}

func TestOpenMemoryIsPrivate(t *testing.T) {
	ctx := context.Background()
	a, err := nook.OpenMemory(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := nook.OpenMemory(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if err := a.FS().WriteFile(ctx, "/x", []byte("1"), nil); err != nil {
		t.Fatal(err)
	}
	if _, err := b.FS().Stat(ctx, "/x"); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("second in-memory workspace sees the first one's file: %v", err)
	}
	if a.Path() != ":memory:" {
		t.Errorf("Path() = %q", a.Path())
	}
}

func TestWithClock(t *testing.T) {
	ctx := context.Background()
	at := time.Date(2030, 1, 2, 3, 4, 5, 6, time.UTC)
	ws, err := nook.OpenMemory(ctx, nook.WithClock(func() time.Time { return at }))
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	if err := ws.FS().WriteFile(ctx, "/f", []byte("x"), nil); err != nil {
		t.Fatal(err)
	}
	fi, err := ws.FS().Stat(ctx, "/f")
	if err != nil {
		t.Fatal(err)
	}
	if !fi.ModTime().Equal(at) {
		t.Errorf("mtime = %v, want %v", fi.ModTime(), at)
	}
}

func TestWithLimits(t *testing.T) {
	ctx := context.Background()
	ws, err := nook.OpenMemory(ctx, nook.WithLimits(vfs.Limits{MaxFileSize: 10}))
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	if got := ws.FS().Limits().MaxFileSize; got != 10 {
		t.Fatalf("MaxFileSize = %d", got)
	}
	err = ws.FS().WriteFile(ctx, "/big", make([]byte, 11), nil)
	if vfs.Code(err) != vfs.EFBIG {
		t.Fatalf("oversized write: %v, want EFBIG", err)
	}
	if ws.FS().Limits().MaxEntries != vfs.DefaultMaxEntries {
		t.Errorf("zero limits must keep their defaults")
	}
}

func TestWithMount(t *testing.T) {
	ctx := context.Background()
	host := fstest.MapFS{
		"docs/a.md": {Data: []byte("# A\n")},
		"b.txt":     {Data: []byte("bee")},
	}
	ws, err := nook.OpenMemory(ctx, nook.WithMount("/ref", host), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	got, err := ws.FS().ReadFile(ctx, "/ref/docs/a.md")
	if err != nil || string(got) != "# A\n" {
		t.Fatalf("ReadFile on mount = %q, %v", got, err)
	}
	err = ws.FS().WriteFile(ctx, "/ref/b.txt", []byte("x"), nil)
	if vfs.Code(err) != vfs.EROFS {
		t.Fatalf("write on read-only mount: %v, want EROFS", err)
	}
}

func TestWithMountError(t *testing.T) {
	ctx := context.Background()
	_, err := nook.OpenMemory(ctx, nook.WithMount("relative", fstest.MapFS{}))
	if err == nil {
		t.Fatal("mount at a relative path succeeded")
	}
	if vfs.Code(err) != vfs.EINVAL {
		t.Errorf("code = %s, want EINVAL (%v)", vfs.Code(err), err)
	}
}

func TestSharedDatabaseAcrossHandles(t *testing.T) {
	// Two workspaces on one file (as two processes would) see each other's
	// committed writes.
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "ws.db")
	a, err := nook.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := nook.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if err := a.FS().WriteFile(ctx, "/shared", []byte("v1"), nil); err != nil {
		t.Fatal(err)
	}
	got, err := b.FS().ReadFile(ctx, "/shared")
	if err != nil || string(got) != "v1" {
		t.Fatalf("other handle reads %q, %v", got, err)
	}
}
