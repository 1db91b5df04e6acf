package wasm_test

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/nookdev/nook/runtime"
	"github.com/nookdev/nook/runtime/wasm"
	"github.com/nookdev/nook/vfs"
)

var (
	linkGuestOnce sync.Once
	linkGuestBin  []byte
	linkGuestErr  error
)

func linkGuest(t *testing.T) []byte {
	t.Helper()
	linkGuestOnce.Do(func() {
		out := filepath.Join(os.TempDir(), "nook-wasm-linkguest-"+randName()+".wasm")
		linkGuestBin, linkGuestErr = buildGuest(moduleRoot(t), "./runtime/wasm/testdata/linkguest", out)
		os.Remove(out)
	})
	if linkGuestErr != nil {
		t.Fatal(linkGuestErr)
	}
	return linkGuestBin
}

// A Go guest makes hard links (os.Link), keeps a file open while one of
// its names goes, and sets times to the nanosecond.
func TestHardLinksAndNanosecondTimes(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a guest")
	}
	ws := openWS(t)
	ctx := context.Background()
	if err := ws.FS().WriteFile(ctx, "/workspace/linkguest.wasm", linkGuest(t), &vfs.WriteOptions{MkdirAll: true}); err != nil {
		t.Fatal(err)
	}
	res := runSource(t, ws, "/workspace/linkguest.wasm", runtime.ExecOptions{})
	ok(t, res)
	want := "same: true nlink: 2\nb: Jello\nexist: true\nmissing: true\ndir: true\nmtime: 2024-05-06T07:08:09.123456789Z\n"
	if string(res.Stdout) != want {
		t.Fatalf("stdout:\n%s\nwant:\n%s", res.Stdout, want)
	}
	fi, err := ws.FS().Stat(ctx, "/workspace/b")
	if err != nil {
		t.Fatal(err)
	}
	if fi.Nlink != 1 || fi.Mtime.UnixNano()%1000 != 789 {
		t.Fatalf("b: nlink %d mtime %v", fi.Nlink, fi.Mtime)
	}
}

// With the workspace root as the guest's /, /dev/null is the null device,
// and nothing reaches the workspace.
func TestDevNull(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a guest")
	}
	ws := openWSB(t, []runtime.Backend{wasm.New(wasm.Options{Mount: "/"})})
	ctx := context.Background()
	if err := ws.FS().WriteFile(ctx, "/workspace/linkguest.wasm", linkGuest(t), nil); err != nil {
		t.Fatal(err)
	}
	res := runSource(t, ws, "/workspace/linkguest.wasm", runtime.ExecOptions{}, "devnull")
	ok(t, res)
	if want := "write: 4 <nil> mode: Dcrw------- read: 0 <nil> excl: true\n"; string(res.Stdout) != want {
		t.Fatalf("stdout %q, want %q", res.Stdout, want)
	}
	if _, err := ws.FS().Lstat(ctx, "/workspace/dev"); err == nil {
		t.Fatal("/dev/null reached the workspace")
	}
}

// RootEnv gives one run its own root: the guest's files land there, and a
// root outside the backend's is refused before the run exists.
func TestRunRoot(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a guest")
	}
	ws := openWSB(t, []runtime.Backend{wasm.New(wasm.Options{Mount: "/"})})
	ctx := context.Background()
	if err := ws.FS().WriteFile(ctx, "/workspace/sub/bin/linkguest.wasm", linkGuest(t), &vfs.WriteOptions{MkdirAll: true}); err != nil {
		t.Fatal(err)
	}
	res := runSource(t, ws, "/bin/linkguest.wasm", runtime.ExecOptions{Env: map[string]string{wasm.RootEnv: "sub"}})
	ok(t, res)
	if b, err := ws.FS().ReadFile(ctx, "/workspace/sub/b"); err != nil || string(b) != "Jello" {
		t.Fatalf("/workspace/sub/b = %q, %v", b, err)
	}
	if _, err := ws.FS().Lstat(ctx, "/workspace/b"); err == nil {
		t.Fatal("the run wrote outside its root")
	}
	for _, root := range []string{"/etc", "nope", "sub/bin/linkguest.wasm"} {
		_, err := ws.Runtime().Exec(ctx, "/bin/linkguest.wasm", runtime.ExecOptions{Backend: "wasm", Env: map[string]string{wasm.RootEnv: root}})
		if err == nil {
			t.Errorf("root %s: no error", root)
		}
	}
}
