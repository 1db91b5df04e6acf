package runtime_test

import (
	"encoding/json"
	"strconv"
	"testing"
	"time"

	"github.com/nookdev/nook/runtime"
)

func TestFSLink(t *testing.T) {
	e := newFSEnv(t, runtime.ReadWrite)
	e.put("/workspace/a", "hello")
	e.put("/workspace/d/x", "x")
	e.ok("link", "existingPath", "/workspace/a", "newPath", "/workspace/d/b")
	a := e.ok("stat", "path", "/workspace/a").(map[string]any)
	b := e.ok("stat", "path", "/workspace/d/b").(map[string]any)
	if a["ino"] != b["ino"] || a["nlink"] != 2.0 || b["nlink"] != 2.0 {
		t.Fatalf("after link: %v / %v", a, b)
	}
	e.ok("writeFile", "path", "/workspace/d/b", "data", []byte("through b"))
	if got := e.read("/workspace/a"); got != "through b" {
		t.Fatalf("a = %q", got)
	}
	e.ok("unlink", "path", "/workspace/a")
	if got := e.read("/workspace/d/b"); got != "through b" {
		t.Fatalf("b after unlinking a = %q", got)
	}
	if st := e.ok("stat", "path", "/workspace/d/b").(map[string]any); st["nlink"] != 1.0 {
		t.Fatalf("nlink = %v", st["nlink"])
	}

	// A symlink is linked itself, not its target.
	e.link("d/x", "/workspace/sl")
	e.ok("link", "existingPath", "/workspace/sl", "newPath", "/workspace/sl2")
	if st := e.ok("lstat", "path", "/workspace/sl2").(map[string]any); st["type"] != "symlink" || st["nlink"] != 2.0 {
		t.Fatalf("lstat sl2 = %v", st)
	}

	e.fails("EEXIST", "EEXIST: file already exists, link '/workspace/d/b' -> '/workspace/d/x'",
		"link", "existingPath", "/workspace/d/b", "newPath", "/workspace/d/x")
	e.fails("ENOENT", "ENOENT: no such file or directory, link '/workspace/nope' -> '/workspace/n'",
		"link", "existingPath", "/workspace/nope", "newPath", "/workspace/n")
	e.fails("ENOENT", "ENOENT: no such file or directory, link '/workspace/d/b' -> '/workspace/nope/n'",
		"link", "existingPath", "/workspace/d/b", "newPath", "/workspace/nope/n")
	e.fails("EPERM", "EPERM: operation not permitted, link '/workspace/d' -> '/workspace/e'",
		"link", "existingPath", "/workspace/d", "newPath", "/workspace/e")
	e.fails("ENOTDIR", "ENOTDIR: not a directory, link '/workspace/d/b/c' -> '/workspace/e'",
		"link", "existingPath", "/workspace/d/b/c", "newPath", "/workspace/e")
	// Confinement: neither path may leave the root.
	e.fails("EACCES", "EACCES: permission denied, link '/secret/key' -> '/workspace/k'",
		"link", "existingPath", "/secret/key", "newPath", "/workspace/k")
	e.fails("EACCES", "EACCES: permission denied, link '/workspace/d/b' -> '/secret/b'",
		"link", "existingPath", "/workspace/d/b", "newPath", "/secret/b")
	e.link("/secret", "/workspace/out")
	e.fails("EACCES", "EACCES: permission denied, link '/workspace/out/key' -> '/workspace/k'",
		"link", "existingPath", "/workspace/out/key", "newPath", "/workspace/k")
	e.fails("EACCES", "EACCES: permission denied, link '/workspace/d/b' -> '/workspace/out/b'",
		"link", "existingPath", "/workspace/d/b", "newPath", "/workspace/out/b")
	// A relative symlink that stays inside from its own directory must
	// stay inside from the new name's too.
	e.link("../x", "/workspace/d/up")
	e.fails("EACCES", "EACCES: permission denied, link '/workspace/d/up' -> '/workspace/up'",
		"link", "existingPath", "/workspace/d/up", "newPath", "/workspace/up")
	// A symlink loop is linked like any symlink.
	e.link("loop", "/workspace/loop")
	e.ok("link", "existingPath", "/workspace/loop", "newPath", "/workspace/d/loop")
	if e.exists("/workspace/k") || e.exists("/secret/b") || e.exists("/workspace/up") {
		t.Fatal("a refused link was made")
	}
	e.fails("EINVAL", `EINVAL: invalid argument, fs op "link" needs newPath as a string`,
		"link", "existingPath", "/workspace/d/b")
}

func TestFSTimesNanoseconds(t *testing.T) {
	e := newFSEnv(t, runtime.ReadWrite)
	e.put("/workspace/f", "x")
	at := time.Date(2001, 2, 3, 4, 5, 6, 123456789, time.UTC)
	mt := time.Date(2024, 5, 6, 7, 8, 9, 987654321, time.UTC)
	e.ok("utimes", "path", "/workspace/f",
		"atimeNs", strconv.FormatInt(at.UnixNano(), 10), "mtimeNs", strconv.FormatInt(mt.UnixNano(), 10))
	st := e.ok("stat", "path", "/workspace/f").(map[string]any)
	// Through the journal's JSON and back.
	b, _ := json.Marshal(st)
	var back map[string]any
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if back["atimeNs"] != strconv.FormatInt(at.UnixNano(), 10) || back["mtimeNs"] != strconv.FormatInt(mt.UnixNano(), 10) {
		t.Fatalf("times = %v %v", back["atimeNs"], back["mtimeNs"])
	}
	fi, _ := e.fs.Stat(e.ctx, "/workspace/f")
	if !fi.Atime.Equal(at) || !fi.Mtime.Equal(mt) {
		t.Fatalf("stored %d %d", fi.Atime.UnixNano(), fi.Mtime.UnixNano())
	}
	// Ns wins over Ms; Ms alone still works.
	e.ok("utimes", "path", "/workspace/f", "atimeMs", 1.0, "mtimeMs", 2.0, "atimeNs", "5", "mtimeNs", int64(7))
	fi, _ = e.fs.Stat(e.ctx, "/workspace/f")
	if fi.Atime.UnixNano() != 5 || fi.Mtime.UnixNano() != 7 {
		t.Fatalf("stored %d %d", fi.Atime.UnixNano(), fi.Mtime.UnixNano())
	}
	e.fails("EINVAL", `EINVAL: invalid argument, fs op "utimes" needs atimeNs as decimal nanoseconds`,
		"utimes", "path", "/workspace/f", "atimeNs", "1.5", "mtimeNs", "1")
	e.fails("EINVAL", `EINVAL: invalid argument, fs op "utimes" needs mtimeMs as a number`,
		"utimes", "path", "/workspace/f", "atimeNs", "1")
}

// lutimes sets the times of a symlink itself and leaves its target's.
func TestFSLutimes(t *testing.T) {
	e := newFSEnv(t, runtime.ReadWrite)
	e.put("/workspace/f", "x")
	e.link("f", "/workspace/l")
	before, _ := e.fs.Stat(e.ctx, "/workspace/f")
	e.ok("lutimes", "path", "/workspace/l", "atimeNs", "5", "mtimeNs", "7")
	li, _ := e.fs.Lstat(e.ctx, "/workspace/l")
	fi, _ := e.fs.Stat(e.ctx, "/workspace/f")
	if li.Atime.UnixNano() != 5 || li.Mtime.UnixNano() != 7 || !fi.Mtime.Equal(before.Mtime) || !fi.Atime.Equal(before.Atime) {
		t.Fatalf("link %v %v, target %v %v (was %v %v)", li.Atime, li.Mtime, fi.Atime, fi.Mtime, before.Atime, before.Mtime)
	}
	e.fails("ENOENT", "ENOENT: no such file or directory, lutime '/workspace/none'",
		"lutimes", "path", "/workspace/none", "atimeNs", "5", "mtimeNs", "7")
}
