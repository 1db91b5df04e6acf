package runtime_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/nookdev/nook"
	"github.com/nookdev/nook/runtime"
	"github.com/nookdev/nook/vfs"
)

// fsEnv is a workspace with /workspace (the root code may reach) and
// /secret/key outside it.
type fsEnv struct {
	t   testing.TB
	ctx context.Context
	fs  *vfs.FS
	ops *runtime.FSOps
}

func newFSEnv(t testing.TB, access runtime.Access) *fsEnv {
	t.Helper()
	ctx := context.Background()
	ws, err := nook.OpenMemory(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	f := ws.FS()
	for _, d := range []string{"/workspace", "/secret"} {
		if err := f.MkdirAll(ctx, d, 0); err != nil {
			t.Fatal(err)
		}
	}
	if err := f.WriteFile(ctx, "/secret/key", []byte("s3cret"), nil); err != nil {
		t.Fatal(err)
	}
	return &fsEnv{t: t, ctx: ctx, fs: f, ops: &runtime.FSOps{FS: f, Root: "/workspace", Access: access}}
}

// do runs op; args alternate names and values.
func (e *fsEnv) do(op string, kv ...any) (any, error) {
	e.t.Helper()
	args := map[string]any{}
	for i := 0; i+1 < len(kv); i += 2 {
		args[kv[i].(string)] = kv[i+1]
	}
	return e.ops.Do(e.ctx, op, args)
}

// ok runs op and fails the test on error.
func (e *fsEnv) ok(op string, kv ...any) any {
	e.t.Helper()
	v, err := e.do(op, kv...)
	if err != nil {
		e.t.Fatalf("%s %v: %v", op, kv, err)
	}
	return v
}

// fails runs op and checks its error's code and exact message.
func (e *fsEnv) fails(code, msg, op string, kv ...any) *runtime.CallError {
	e.t.Helper()
	_, err := e.do(op, kv...)
	var ce *runtime.CallError
	if !errors.As(err, &ce) {
		e.t.Fatalf("%s %v: got %v (%T), want CallError %s", op, kv, err, err, code)
	}
	if ce.Code != code || ce.Message != msg {
		e.t.Fatalf("%s %v:\n got  %s %q\n want %s %q", op, kv, ce.Code, ce.Message, code, msg)
	}
	return ce
}

// put writes a file directly.
func (e *fsEnv) put(p, data string) {
	e.t.Helper()
	if err := e.fs.WriteFile(e.ctx, p, []byte(data), &vfs.WriteOptions{MkdirAll: true}); err != nil {
		e.t.Fatal(err)
	}
}

// link plants a symlink directly (bypassing the op's checks).
func (e *fsEnv) link(target, p string) {
	e.t.Helper()
	if err := e.fs.Symlink(e.ctx, target, p); err != nil {
		e.t.Fatal(err)
	}
}

func (e *fsEnv) read(p string) string {
	e.t.Helper()
	b, err := e.fs.ReadFile(e.ctx, p)
	if err != nil {
		e.t.Fatal(err)
	}
	return string(b)
}

func (e *fsEnv) exists(p string) bool {
	_, err := e.fs.Lstat(e.ctx, p)
	return err == nil
}

func TestFSReadFile(t *testing.T) {
	e := newFSEnv(t, runtime.ReadWrite)
	e.put("/workspace/a.txt", "hello")
	e.put("/workspace/empty", "")
	if got := e.ok("readFile", "path", "/workspace/a.txt"); !bytes.Equal(got.([]byte), []byte("hello")) {
		t.Fatalf("readFile = %q", got)
	}
	if got := e.ok("readFile", "path", "/workspace/empty"); got == nil || len(got.([]byte)) != 0 {
		t.Fatalf("readFile empty = %#v", got)
	}
	ce := e.fails("ENOENT", "ENOENT: no such file or directory, open '/workspace/nope'", "readFile", "path", "/workspace/nope")
	if ce.Syscall != "open" || ce.Path != "/workspace/nope" {
		t.Fatalf("syscall/path = %q %q", ce.Syscall, ce.Path)
	}
	e.fails("EISDIR", "EISDIR: illegal operation on a directory, read", "readFile", "path", "/workspace")
	e.fails("ENOTDIR", "ENOTDIR: not a directory, open '/workspace/a.txt/x'", "readFile", "path", "/workspace/a.txt/x")
	e.fails("ENOENT", "ENOENT: no such file or directory, open '/workspace/no/x'", "readFile", "path", "/workspace/no/x")
	// Lexically cleaned paths are fine while they stay under the root.
	if got := e.ok("readFile", "path", "/workspace/./sub/../a.txt"); string(got.([]byte)) != "hello" {
		t.Fatalf("readFile cleaned = %q", got)
	}
}

func TestFSWriteFile(t *testing.T) {
	e := newFSEnv(t, runtime.ReadWrite)
	e.ok("writeFile", "path", "/workspace/a", "data", []byte("one"))
	if e.read("/workspace/a") != "one" {
		t.Fatal("write")
	}
	e.ok("writeFile", "path", "/workspace/a", "data", "two", "flag", "w")
	if e.read("/workspace/a") != "two" {
		t.Fatal("overwrite with string data")
	}
	e.ok("writeFile", "path", "/workspace/a", "data", []byte("+3"), "flag", "a")
	e.ok("writeFile", "path", "/workspace/b", "data", []byte("new"), "flag", "a")
	if e.read("/workspace/a") != "two+3" || e.read("/workspace/b") != "new" {
		t.Fatal("append")
	}
	e.fails("EEXIST", "EEXIST: file already exists, open '/workspace/a'", "writeFile", "path", "/workspace/a", "data", []byte("x"), "flag", "wx")
	e.fails("EEXIST", "EEXIST: file already exists, open '/workspace/a'", "writeFile", "path", "/workspace/a", "data", []byte("x"), "flag", "ax")
	e.ok("writeFile", "path", "/workspace/c", "data", []byte("c"), "flag", "wx")
	e.ok("writeFile", "path", "/workspace/d", "data", []byte("d"), "flag", "ax")
	e.fails("EISDIR", "EISDIR: illegal operation on a directory, open '/workspace'", "writeFile", "path", "/workspace", "data", []byte("x"))
	e.fails("ENOENT", "ENOENT: no such file or directory, open '/workspace/no/x'", "writeFile", "path", "/workspace/no/x", "data", []byte("x"))
	e.fails("ENOTDIR", "ENOTDIR: not a directory, open '/workspace/a/x'", "writeFile", "path", "/workspace/a/x", "data", []byte("x"))

	// Modes: a new file takes mode &^ 022; an existing file keeps its own.
	e.ok("writeFile", "path", "/workspace/m", "data", []byte("m"), "mode", float64(0o666))
	e.ok("writeFile", "path", "/workspace/p", "data", []byte("p"), "mode", int64(0o600))
	e.ok("writeFile", "path", "/workspace/p", "data", []byte("p2"), "mode", 0o777)
	for p, want := range map[string]float64{"/workspace/m": 0o100644, "/workspace/p": 0o100600, "/workspace/a": 0o100644} {
		if m := e.ok("stat", "path", p).(map[string]any)["mode"]; m != want {
			t.Errorf("%s mode = %o, want %o", p, int(m.(float64)), int(want))
		}
	}
	// Writing through a symlink inside the root writes its target; "wx"
	// refuses an existing link.
	e.link("a", "/workspace/la")
	e.ok("writeFile", "path", "/workspace/la", "data", []byte("via link"))
	if e.read("/workspace/a") != "via link" {
		t.Fatal("write through link")
	}
	e.fails("EEXIST", "EEXIST: file already exists, open '/workspace/la'", "writeFile", "path", "/workspace/la", "data", []byte("x"), "flag", "wx")
	e.link("created-by-link", "/workspace/dangling")
	e.ok("writeFile", "path", "/workspace/dangling", "data", []byte("d"))
	if e.read("/workspace/created-by-link") != "d" {
		t.Fatal("dangling link target not created")
	}
	e.fails("EINVAL", `EINVAL: invalid argument, fs op "writeFile" needs flag as "w", "wx", "a" or "ax"`, "writeFile", "path", "/workspace/z", "data", []byte("x"), "flag", "r")
}

func TestFSAppendConcurrent(t *testing.T) {
	e := newFSEnv(t, runtime.ReadWrite)
	const n = 50
	done := make(chan error, n)
	for i := range n {
		go func() {
			_, err := e.ops.Do(e.ctx, "writeFile", map[string]any{"path": "/workspace/log", "data": []byte(strings.Repeat(string(rune('a'+i%26)), 10) + "\n"), "flag": "a"})
			done <- err
		}()
	}
	for range n {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
	got := e.read("/workspace/log")
	lines := strings.Split(strings.TrimSuffix(got, "\n"), "\n")
	if len(lines) != n {
		t.Fatalf("%d lines, want %d", len(lines), n)
	}
	for _, l := range lines {
		if len(l) != 10 || strings.Count(l, l[:1]) != 10 {
			t.Fatalf("torn append: %q", l)
		}
	}
}

func TestFSPreadPwriteTruncate(t *testing.T) {
	e := newFSEnv(t, runtime.ReadWrite)
	e.put("/workspace/f", "0123456789")
	for _, c := range []struct {
		off, n any
		want   string
	}{{0.0, 4.0, "0123"}, {int64(5), int64(100), "56789"}, {8, 2, "89"}, {10.0, 5.0, ""}, {50.0, 5.0, ""}, {3.0, 0.0, ""}} {
		got := e.ok("pread", "path", "/workspace/f", "offset", c.off, "length", c.n)
		if string(got.([]byte)) != c.want {
			t.Errorf("pread %v %v = %q, want %q", c.off, c.n, got, c.want)
		}
	}
	e.fails("EISDIR", "EISDIR: illegal operation on a directory, read", "pread", "path", "/workspace", "offset", 0.0, "length", 1.0)
	e.fails("ENOENT", "ENOENT: no such file or directory, read '/workspace/g'", "pread", "path", "/workspace/g", "offset", 0.0, "length", 1.0)
	e.fails("EINVAL", "EINVAL: invalid argument, read", "pread", "path", "/workspace/f", "offset", -1.0, "length", 1.0)
	e.fails("EINVAL", `EINVAL: invalid argument, fs op "pread" needs offset as an integer`, "pread", "path", "/workspace/f", "offset", 1.5, "length", 1.0)

	r := e.ok("pwrite", "path", "/workspace/f", "offset", 2.0, "data", []byte("ab")).(map[string]any)
	if r["bytesWritten"] != 2.0 || r["size"] != 10.0 || e.read("/workspace/f") != "01ab456789" {
		t.Fatalf("pwrite = %v, %q", r, e.read("/workspace/f"))
	}
	// Past the end: the gap is zero-filled, as POSIX says.
	r = e.ok("pwrite", "path", "/workspace/f", "offset", 12.0, "data", []byte("Z")).(map[string]any)
	if r["size"] != 13.0 || e.read("/workspace/f") != "01ab456789\x00\x00Z" {
		t.Fatalf("pwrite past end = %v %q", r, e.read("/workspace/f"))
	}
	// Far past the end, across chunks.
	off := float64(vfs.ChunkSize*2 + 7)
	e.put("/workspace/sparse", "x")
	e.ok("pwrite", "path", "/workspace/sparse", "offset", off, "data", []byte("end"))
	b, _ := e.fs.ReadFile(e.ctx, "/workspace/sparse")
	if int64(len(b)) != int64(off)+3 || b[0] != 'x' || string(b[len(b)-3:]) != "end" || bytes.Count(b, []byte{0}) != len(b)-4 {
		t.Fatalf("sparse write: len %d", len(b))
	}
	r = e.ok("pwrite", "path", "/workspace/f", "offset", 0.0, "data", []byte("!"), "append", true).(map[string]any)
	if r["size"] != 14.0 || !strings.HasSuffix(e.read("/workspace/f"), "Z!") {
		t.Fatalf("pwrite append = %v", r)
	}
	e.fails("ENOENT", "ENOENT: no such file or directory, write '/workspace/none'", "pwrite", "path", "/workspace/none", "offset", 0.0, "data", []byte("x"))
	e.fails("EISDIR", "EISDIR: illegal operation on a directory, write '/workspace'", "pwrite", "path", "/workspace", "offset", 0.0, "data", []byte("x"))

	e.ok("truncate", "path", "/workspace/f", "length", 3.0)
	if e.read("/workspace/f") != "01a" {
		t.Fatal("truncate shrink")
	}
	e.ok("truncate", "path", "/workspace/f", "length", 5)
	if e.read("/workspace/f") != "01a\x00\x00" {
		t.Fatal("truncate grow")
	}
	e.ok("truncate", "path", "/workspace/f")
	if e.read("/workspace/f") != "" {
		t.Fatal("truncate default 0")
	}
	e.fails("ENOENT", "ENOENT: no such file or directory, open '/workspace/none'", "truncate", "path", "/workspace/none", "length", 0.0)
	e.fails("EISDIR", "EISDIR: illegal operation on a directory, open '/workspace'", "truncate", "path", "/workspace", "length", 0.0)
}

// Linux open flags.
const (
	oRDONLY = 0
	oWRONLY = 1
	oRDWR   = 2
	oCREAT  = 0o100
	oEXCL   = 0o200
	oTRUNC  = 0o1000
	oAPPEND = 0o2000
)

func TestFSOpen(t *testing.T) {
	e := newFSEnv(t, runtime.ReadWrite)
	e.put("/workspace/f", "content")
	st := e.ok("open", "path", "/workspace/f", "flags", float64(oRDONLY)).(map[string]any)
	if st["size"] != 7.0 || st["type"] != "file" {
		t.Fatalf("open r = %v", st)
	}
	e.fails("ENOENT", "ENOENT: no such file or directory, open '/workspace/g'", "open", "path", "/workspace/g", "flags", oRDONLY)
	e.fails("ENOENT", "ENOENT: no such file or directory, open '/workspace/g'", "open", "path", "/workspace/g", "flags", oRDWR)
	// 'w' creates and truncates.
	st = e.ok("open", "path", "/workspace/f", "flags", oWRONLY|oCREAT|oTRUNC).(map[string]any)
	if st["size"] != 0.0 || e.read("/workspace/f") != "" {
		t.Fatalf("open w = %v", st)
	}
	st = e.ok("open", "path", "/workspace/new", "flags", oWRONLY|oCREAT|oTRUNC, "mode", 0o640).(map[string]any)
	if st["mode"] != float64(0o100640) {
		t.Fatalf("open w new mode %o", int(st["mode"].(float64)))
	}
	e.fails("EEXIST", "EEXIST: file already exists, open '/workspace/new'", "open", "path", "/workspace/new", "flags", oWRONLY|oCREAT|oEXCL)
	e.ok("open", "path", "/workspace/app", "flags", oWRONLY|oCREAT|oAPPEND)
	if !e.exists("/workspace/app") {
		t.Fatal("open a did not create")
	}
	e.ok("open", "path", "/workspace/app", "flags", oRDWR)
	st = e.ok("open", "path", "/workspace", "flags", oRDONLY).(map[string]any)
	if st["type"] != "dir" {
		t.Fatalf("open dir = %v", st)
	}
	e.fails("EISDIR", "EISDIR: illegal operation on a directory, open '/workspace'", "open", "path", "/workspace", "flags", oWRONLY)
	e.fails("EISDIR", "EISDIR: illegal operation on a directory, open '/workspace'", "open", "path", "/workspace", "flags", oRDWR|oCREAT)
	e.fails("EINVAL", "EINVAL: invalid argument, open '/workspace/f'", "open", "path", "/workspace/f", "flags", 3)
}

func TestFSStat(t *testing.T) {
	e := newFSEnv(t, runtime.ReadWrite)
	e.put("/workspace/f", strings.Repeat("x", 1000))
	e.link("f", "/workspace/l")
	st := e.ok("stat", "path", "/workspace/f").(map[string]any)
	fi, _ := e.fs.Stat(e.ctx, "/workspace/f")
	want := map[string]any{
		"dev": 1.0, "ino": float64(fi.Inode), "mode": float64(0o100644), "nlink": 1.0, "uid": 0.0, "gid": 0.0, "rdev": 0.0,
		"size": 1000.0, "blksize": 4096.0, "blocks": 2.0,
		"atimeMs": float64(fi.Atime.UnixNano()) / 1e6, "mtimeMs": float64(fi.Mtime.UnixNano()) / 1e6, "ctimeMs": float64(fi.Ctime.UnixNano()) / 1e6,
		"birthtimeMs": float64(min(fi.Ctime.UnixNano(), fi.Mtime.UnixNano())) / 1e6, "type": "file",
		"atimeNs": strconv.FormatInt(fi.Atime.UnixNano(), 10), "mtimeNs": strconv.FormatInt(fi.Mtime.UnixNano(), 10),
		"ctimeNs": strconv.FormatInt(fi.Ctime.UnixNano(), 10), "birthtimeNs": strconv.FormatInt(min(fi.Ctime.UnixNano(), fi.Mtime.UnixNano()), 10),
	}
	if !reflect.DeepEqual(st, want) {
		t.Fatalf("stat =\n%v\nwant\n%v", st, want)
	}
	if st := e.ok("stat", "path", "/workspace/l").(map[string]any); st["type"] != "file" || st["size"] != 1000.0 {
		t.Fatalf("stat through link = %v", st)
	}
	if st := e.ok("lstat", "path", "/workspace/l").(map[string]any); st["type"] != "symlink" || st["mode"] != float64(0o120777) || st["size"] != 1.0 {
		t.Fatalf("lstat link = %v (mode %o)", st, int(st["mode"].(float64)))
	}
	if st := e.ok("stat", "path", "/workspace").(map[string]any); st["type"] != "dir" || st["mode"] != float64(0o040755) {
		t.Fatalf("stat dir = %v", st)
	}
	e.fails("ENOENT", "ENOENT: no such file or directory, stat '/workspace/nope'", "stat", "path", "/workspace/nope")
	e.fails("ENOENT", "ENOENT: no such file or directory, lstat '/workspace/nope'", "lstat", "path", "/workspace/nope")
	e.fails("ENOTDIR", "ENOTDIR: not a directory, stat '/workspace/f/x'", "stat", "path", "/workspace/f/x")
	// Results are plain JSON data that survives a round trip unchanged.
	b, err := json.Marshal(st)
	if err != nil {
		t.Fatal(err)
	}
	var back map[string]any
	json.Unmarshal(b, &back)
	if !reflect.DeepEqual(back, st) {
		t.Fatalf("stat does not round-trip through JSON:\n%v\n%v", st, back)
	}
}

func TestFSAccess(t *testing.T) {
	e := newFSEnv(t, runtime.ReadWrite)
	e.put("/workspace/f", "x")
	e.ok("access", "path", "/workspace/f")
	e.ok("access", "path", "/workspace/f", "mode", 6.0)
	e.ok("access", "path", "/workspace", "mode", 7.0)
	e.fails("ENOENT", "ENOENT: no such file or directory, access '/workspace/nope'", "access", "path", "/workspace/nope")
	e.fails("EACCES", "EACCES: permission denied, access '/workspace/f'", "access", "path", "/workspace/f", "mode", 1.0)
	e.ok("chmod", "path", "/workspace/f", "mode", 0o444)
	e.fails("EACCES", "EACCES: permission denied, access '/workspace/f'", "access", "path", "/workspace/f", "mode", 2.0)
	e.ok("access", "path", "/workspace/f", "mode", 4.0)
	e.fails("EINVAL", "EINVAL: invalid argument, access '/workspace/f'", "access", "path", "/workspace/f", "mode", 8.0)

	ro := newFSEnv(t, runtime.ReadOnly)
	ro.put("/workspace/f", "x")
	ro.ok("access", "path", "/workspace/f", "mode", 4.0)
	ro.fails("EROFS", "EROFS: read-only file system, access '/workspace/f'", "access", "path", "/workspace/f", "mode", 2.0)
}

func TestFSMkdir(t *testing.T) {
	e := newFSEnv(t, runtime.ReadWrite)
	if v := e.ok("mkdir", "path", "/workspace/d"); v != nil {
		t.Fatalf("mkdir = %v", v)
	}
	e.fails("EEXIST", "EEXIST: file already exists, mkdir '/workspace/d'", "mkdir", "path", "/workspace/d")
	e.fails("ENOENT", "ENOENT: no such file or directory, mkdir '/workspace/x/y'", "mkdir", "path", "/workspace/x/y")
	if v := e.ok("mkdir", "path", "/workspace/d/a/b/c", "recursive", true); v != "/workspace/d/a" {
		t.Fatalf("mkdir -p = %v, want the first directory created", v)
	}
	if v := e.ok("mkdir", "path", "/workspace/d/a/b", "recursive", true); v != nil {
		t.Fatalf("mkdir -p existing = %v, want nil", v)
	}
	e.put("/workspace/file", "x")
	e.fails("EEXIST", "EEXIST: file already exists, mkdir '/workspace/file'", "mkdir", "path", "/workspace/file", "recursive", true)
	e.fails("ENOTDIR", "ENOTDIR: not a directory, mkdir '/workspace/file/x'", "mkdir", "path", "/workspace/file/x", "recursive", true)
	e.ok("mkdir", "path", "/workspace/m", "mode", 0o700)
	if st := e.ok("stat", "path", "/workspace/m").(map[string]any); st["mode"] != float64(0o040700) {
		t.Fatalf("mkdir mode %o", int(st["mode"].(float64)))
	}
	// Through a link to a directory inside the root.
	e.link("d", "/workspace/ld")
	if v := e.ok("mkdir", "path", "/workspace/ld/new/deeper", "recursive", true); v != "/workspace/ld/new" {
		t.Fatalf("mkdir -p via link = %v", v)
	}
	if !e.exists("/workspace/d/new/deeper") {
		t.Fatal("mkdir via link")
	}
	// A missing root is created too.
	e.ok("rm", "path", "/workspace/d", "recursive", true)
}

func TestFSReaddir(t *testing.T) {
	e := newFSEnv(t, runtime.ReadWrite)
	e.put("/workspace/b.txt", "b")
	e.put("/workspace/a/x.txt", "x")
	e.put("/workspace/a/deep/y.txt", "y")
	e.put("/workspace/C", "c")
	e.link("a", "/workspace/la")
	got := e.ok("readdir", "path", "/workspace")
	if want := []any{"C", "a", "b.txt", "la"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("readdir = %v", got)
	}
	got = e.ok("readdir", "path", "/workspace", "withFileTypes", true)
	want := []any{
		map[string]any{"name": "C", "type": "file"}, map[string]any{"name": "a", "type": "dir"},
		map[string]any{"name": "b.txt", "type": "file"}, map[string]any{"name": "la", "type": "symlink"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("readdir withFileTypes = %v", got)
	}
	got = e.ok("readdir", "path", "/workspace", "recursive", true)
	if want := []any{"C", "a", "b.txt", "la", "a/deep", "a/x.txt", "a/deep/y.txt"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("readdir recursive = %v", got)
	}
	// Through a link: lists the target.
	if got := e.ok("readdir", "path", "/workspace/la"); !reflect.DeepEqual(got, []any{"deep", "x.txt"}) {
		t.Fatalf("readdir via link = %v", got)
	}
	if got := e.ok("readdir", "path", "/workspace/a/deep/../.."); len(got.([]any)) != 4 {
		t.Fatalf("readdir cleaned = %v", got)
	}
	e.ok("mkdir", "path", "/workspace/empty")
	if got := e.ok("readdir", "path", "/workspace/empty"); !reflect.DeepEqual(got, []any{}) {
		t.Fatalf("readdir empty = %#v", got)
	}
	e.fails("ENOENT", "ENOENT: no such file or directory, scandir '/workspace/nope'", "readdir", "path", "/workspace/nope")
	e.fails("ENOTDIR", "ENOTDIR: not a directory, scandir '/workspace/b.txt'", "readdir", "path", "/workspace/b.txt")
}

func TestFSReaddirLimits(t *testing.T) {
	e := newFSEnv(t, runtime.ReadWrite)
	e.ops.Limits.MaxDirEntries = 5
	for i := range 6 {
		e.put("/workspace/big/f"+string(rune('a'+i)), "")
	}
	e.put("/workspace/ok/a/1", "")
	e.put("/workspace/ok/a/2", "")
	e.put("/workspace/ok/b/1", "")
	const msg = "directory '/workspace/big' has more entries than one listing may return, the limit MaxDirEntries (5): use fs.opendir to read it in pages"
	e.fails("ERR_FS_DIR_TOO_LARGE", msg, "readdir", "path", "/workspace/big")
	if got := e.ok("readdir", "path", "/workspace/ok", "recursive", true); len(got.([]any)) != 5 {
		t.Fatalf("recursive at the limit = %v", got)
	}
	e.put("/workspace/ok/b/2", "")
	e.fails("ERR_FS_DIR_TOO_LARGE", strings.Replace(msg, "big", "ok", 1), "readdir", "path", "/workspace/ok", "recursive", true)

	// readdirPage reads any directory in pages.
	var names []string
	next := 0.0
	for {
		page := e.ok("readdirPage", "path", "/workspace/big", "offset", next, "limit", 4.0).(map[string]any)
		for _, ent := range page["entries"].([]any) {
			names = append(names, ent.(map[string]any)["name"].(string))
		}
		if next = page["next"].(float64); next == 0 {
			break
		}
	}
	if strings.Join(names, ",") != "fa,fb,fc,fd,fe,ff" {
		t.Fatalf("pages = %v", names)
	}
	page := e.ok("readdirPage", "path", "/workspace/big").(map[string]any)
	if len(page["entries"].([]any)) != 5 || page["next"] != 5.0 {
		t.Fatalf("default page = %v", page)
	}
}

func TestFSRemove(t *testing.T) {
	e := newFSEnv(t, runtime.ReadWrite)
	e.put("/workspace/f", "x")
	e.put("/workspace/d/a/b", "x")
	e.put("/workspace/e/x", "x")
	e.ok("mkdir", "path", "/workspace/empty")
	e.link("d", "/workspace/ld")

	e.ok("rm", "path", "/workspace/f")
	e.fails("ENOENT", "ENOENT: no such file or directory, rm '/workspace/f'", "rm", "path", "/workspace/f")
	e.ok("rm", "path", "/workspace/f", "force", true)
	e.ok("rm", "path", "/workspace/nodir/f", "force", true)
	ce := e.fails("ERR_FS_EISDIR", "Path is a directory: rm returned EISDIR (is a directory) /workspace/d", "rm", "path", "/workspace/d")
	if ce.Path != "/workspace/d" || ce.Syscall != "rm" {
		t.Fatalf("rm dir error = %+v", ce)
	}
	e.ok("rm", "path", "/workspace/ld") // the link, not its target
	if !e.exists("/workspace/d/a/b") || e.exists("/workspace/ld") {
		t.Fatal("rm link")
	}
	e.ok("rm", "path", "/workspace/d", "recursive", true)
	if e.exists("/workspace/d") {
		t.Fatal("rm -r")
	}
	e.fails("EBUSY", "EBUSY: resource busy or locked, rm '/workspace'", "rm", "path", "/workspace", "recursive", true, "force", true)
	e.fails("EBUSY", "EBUSY: resource busy or locked, rmdir '/workspace/.'", "rmdir", "path", "/workspace/.")

	e.fails("ENOTEMPTY", "ENOTEMPTY: directory not empty, rmdir '/workspace/e'", "rmdir", "path", "/workspace/e")
	e.fails("ENOTDIR", "ENOTDIR: not a directory, rmdir '/workspace/e/x'", "rmdir", "path", "/workspace/e/x")
	e.fails("ENOENT", "ENOENT: no such file or directory, rmdir '/workspace/zz'", "rmdir", "path", "/workspace/zz")
	e.ok("rmdir", "path", "/workspace/empty")
	e.ok("rmdir", "path", "/workspace/e", "recursive", true)

	e.put("/workspace/u", "x")
	e.ok("mkdir", "path", "/workspace/ud")
	e.fails("EISDIR", "EISDIR: illegal operation on a directory, unlink '/workspace/ud'", "unlink", "path", "/workspace/ud")
	e.fails("ENOENT", "ENOENT: no such file or directory, unlink '/workspace/nope'", "unlink", "path", "/workspace/nope")
	e.ok("unlink", "path", "/workspace/u")
	if e.exists("/workspace/u") {
		t.Fatal("unlink")
	}
}

func TestFSRename(t *testing.T) {
	e := newFSEnv(t, runtime.ReadWrite)
	e.put("/workspace/a", "A")
	e.put("/workspace/d/x", "x")
	e.ok("rename", "from", "/workspace/a", "to", "/workspace/b")
	if e.exists("/workspace/a") || e.read("/workspace/b") != "A" {
		t.Fatal("rename")
	}
	ce := e.fails("ENOENT", "ENOENT: no such file or directory, rename '/workspace/a' -> '/workspace/c'", "rename", "from", "/workspace/a", "to", "/workspace/c")
	if ce.Path != "/workspace/a" || ce.Dest != "/workspace/c" || ce.Syscall != "rename" {
		t.Fatalf("rename error = %+v", ce)
	}
	e.fails("EINVAL", "EINVAL: invalid argument, rename '/workspace/d' -> '/workspace/d/sub'", "rename", "from", "/workspace/d", "to", "/workspace/d/sub")
	e.fails("EACCES", "EACCES: permission denied, rename '/workspace/b' -> '/secret/b'", "rename", "from", "/workspace/b", "to", "/secret/b")
	e.fails("EACCES", "EACCES: permission denied, rename '/secret/key' -> '/workspace/k'", "rename", "from", "/secret/key", "to", "/workspace/k")
	e.fails("EBUSY", "EBUSY: resource busy or locked, rename '/workspace' -> '/workspace/x'", "rename", "from", "/workspace", "to", "/workspace/x")
	e.fails("EISDIR", "EISDIR: illegal operation on a directory, rename '/workspace/b' -> '/workspace/d'", "rename", "from", "/workspace/b", "to", "/workspace/d")
	e.ok("rename", "from", "/workspace/d", "to", "/workspace/e")
	if e.read("/workspace/e/x") != "x" {
		t.Fatal("rename dir")
	}
	// A link is renamed itself.
	e.link("e", "/workspace/le")
	e.ok("rename", "from", "/workspace/le", "to", "/workspace/le2")
	if fi, err := e.fs.Lstat(e.ctx, "/workspace/le2"); err != nil || fi.Kind != vfs.TypeSymlink {
		t.Fatal("rename link")
	}
}

func TestFSCopyFile(t *testing.T) {
	e := newFSEnv(t, runtime.ReadWrite)
	e.put("/workspace/a", "content")
	e.ok("chmod", "path", "/workspace/a", "mode", 0o600)
	e.ok("copyFile", "from", "/workspace/a", "to", "/workspace/b")
	if e.read("/workspace/b") != "content" {
		t.Fatal("copyFile")
	}
	if st := e.ok("stat", "path", "/workspace/b").(map[string]any); st["mode"] != float64(0o100600) {
		t.Fatalf("copyFile mode %o", int(st["mode"].(float64)))
	}
	e.put("/workspace/a", "changed")
	e.ok("copyFile", "from", "/workspace/a", "to", "/workspace/b")
	if e.read("/workspace/b") != "changed" {
		t.Fatal("copyFile overwrite")
	}
	e.fails("EEXIST", "EEXIST: file already exists, copyfile '/workspace/a' -> '/workspace/b'", "copyFile", "from", "/workspace/a", "to", "/workspace/b", "flags", 1.0)
	e.fails("ENOENT", "ENOENT: no such file or directory, copyfile '/workspace/no' -> '/workspace/c'", "copyFile", "from", "/workspace/no", "to", "/workspace/c")
	e.fails("EISDIR", "EISDIR: illegal operation on a directory, copyfile '/workspace' -> '/workspace/c'", "copyFile", "from", "/workspace", "to", "/workspace/c")
	e.ok("mkdir", "path", "/workspace/dir")
	e.fails("EISDIR", "EISDIR: illegal operation on a directory, copyfile '/workspace/a' -> '/workspace/dir'", "copyFile", "from", "/workspace/a", "to", "/workspace/dir")
	e.fails("EACCES", "EACCES: permission denied, copyfile '/secret/key' -> '/workspace/k'", "copyFile", "from", "/secret/key", "to", "/workspace/k")
	e.ok("copyFile", "from", "/workspace/a", "to", "/workspace/a")
	if e.read("/workspace/a") != "changed" {
		t.Fatal("copy onto itself")
	}
	// Large content streams across chunks.
	big := bytes.Repeat([]byte("0123456789abcdef"), vfs.ChunkSize/16*3+5)
	if err := e.fs.WriteFile(e.ctx, "/workspace/big", big, nil); err != nil {
		t.Fatal(err)
	}
	e.ok("copyFile", "from", "/workspace/big", "to", "/workspace/big2")
	if b, _ := e.fs.ReadFile(e.ctx, "/workspace/big2"); !bytes.Equal(b, big) {
		t.Fatal("big copy")
	}
}

func TestFSCp(t *testing.T) {
	e := newFSEnv(t, runtime.ReadWrite)
	e.put("/workspace/src/a.txt", "a")
	e.put("/workspace/src/sub/b.txt", "b")
	e.link("sub/b.txt", "/workspace/src/lb")
	e.ok("cp", "from", "/workspace/src", "to", "/workspace/dst", "recursive", true)
	if e.read("/workspace/dst/a.txt") != "a" || e.read("/workspace/dst/sub/b.txt") != "b" {
		t.Fatal("cp -r")
	}
	// Relative link targets become absolute, as in Node.
	if target, _ := e.fs.Readlink(e.ctx, "/workspace/dst/lb"); target != "/workspace/src/sub/b.txt" {
		t.Fatalf("cp link target = %q", target)
	}
	e.fails("ERR_FS_EISDIR", "Recursive option is required to copy a directory: cp returned EISDIR (/workspace/src is a directory (not copied)) /workspace/src",
		"cp", "from", "/workspace/src", "to", "/workspace/x")
	e.fails("ERR_FS_CP_EINVAL", "Invalid src or dest: cp returned EINVAL (cannot copy /workspace/src to a subdirectory of self /workspace/src/in) /workspace/src/in",
		"cp", "from", "/workspace/src", "to", "/workspace/src/in", "recursive", true)
	e.fails("ERR_FS_CP_EINVAL", "Invalid src or dest: cp returned EINVAL (src and dest cannot be the same) /workspace/src",
		"cp", "from", "/workspace/src", "to", "/workspace/src", "recursive", true)
	e.ok("cp", "from", "/workspace/src/a.txt", "to", "/workspace/one.txt")
	e.put("/workspace/src/a.txt", "a2")
	e.ok("cp", "from", "/workspace/src/a.txt", "to", "/workspace/one.txt", "force", false)
	if e.read("/workspace/one.txt") != "a" {
		t.Fatal("cp force:false overwrote")
	}
	e.fails("ERR_FS_CP_EEXIST", "Target already exists: cp returned EEXIST (/workspace/one.txt already exists) /workspace/one.txt",
		"cp", "from", "/workspace/src/a.txt", "to", "/workspace/one.txt", "force", false, "errorOnExist", true)
	e.ok("cp", "from", "/workspace/src/a.txt", "to", "/workspace/one.txt")
	if e.read("/workspace/one.txt") != "a2" {
		t.Fatal("cp overwrite")
	}
	e.fails("ERR_FS_CP_DIR_TO_NON_DIR", "Cannot overwrite non-directory with directory: cp returned EISDIR (cannot overwrite non-directory /workspace/one.txt with directory /workspace/src) /workspace/one.txt",
		"cp", "from", "/workspace/src", "to", "/workspace/one.txt", "recursive", true)
	e.fails("ENOENT", "ENOENT: no such file or directory, cp '/workspace/nope' -> '/workspace/x'", "cp", "from", "/workspace/nope", "to", "/workspace/x")
	// Copying over an existing tree merges.
	e.put("/workspace/src/new.txt", "n")
	e.ok("cp", "from", "/workspace/src", "to", "/workspace/dst", "recursive", true)
	if e.read("/workspace/dst/new.txt") != "n" || e.read("/workspace/dst/a.txt") != "a2" {
		t.Fatal("cp merge")
	}
	// dereference copies what links point to.
	e.ok("cp", "from", "/workspace/src", "to", "/workspace/deref", "recursive", true, "dereference", true)
	if fi, _ := e.fs.Lstat(e.ctx, "/workspace/deref/lb"); fi.Kind != vfs.TypeFile {
		t.Fatal("cp dereference")
	}
	// A planted link out of the root is refused, with or without dereference.
	e.link("/secret", "/workspace/src/out")
	e.fails("EACCES", "EACCES: permission denied, cp '/workspace/src/out' -> '/workspace/d2/out'",
		"cp", "from", "/workspace/src", "to", "/workspace/d2", "recursive", true, "dereference", true)
	e.fails("EACCES", "EACCES: permission denied, cp '/workspace/src/out' -> '/workspace/d3/out'",
		"cp", "from", "/workspace/src", "to", "/workspace/d3", "recursive", true)
}

func TestFSSymlinks(t *testing.T) {
	e := newFSEnv(t, runtime.ReadWrite)
	e.put("/workspace/dir/f", "F")
	e.ok("symlink", "target", "dir/f", "path", "/workspace/rel")
	e.ok("symlink", "target", "/workspace/dir", "path", "/workspace/abs")
	e.ok("symlink", "target", "../dir/f", "path", "/workspace/dir/up")
	e.ok("symlink", "target", "missing", "path", "/workspace/dangling")
	if got := e.ok("readlink", "path", "/workspace/rel"); got != "dir/f" {
		t.Fatalf("readlink = %v", got)
	}
	if got := e.ok("readFile", "path", "/workspace/abs/f"); string(got.([]byte)) != "F" {
		t.Fatal("read through abs link")
	}
	if got := e.ok("readFile", "path", "/workspace/dir/up"); string(got.([]byte)) != "F" {
		t.Fatal("read through ../ link")
	}
	if got := e.ok("realpath", "path", "/workspace/abs/up"); got != "/workspace/dir/f" {
		t.Fatalf("realpath = %v", got)
	}
	if got := e.ok("realpath", "path", "/workspace/abs/../dir"); got != "/workspace/dir" {
		t.Fatalf("realpath lexical = %v", got)
	}
	e.fails("ENOENT", "ENOENT: no such file or directory, realpath '/workspace/dangling'", "realpath", "path", "/workspace/dangling")
	e.fails("ENOENT", "ENOENT: no such file or directory, stat '/workspace/dangling'", "stat", "path", "/workspace/dangling")
	e.fails("EINVAL", "EINVAL: invalid argument, readlink '/workspace/dir'", "readlink", "path", "/workspace/dir")
	e.fails("ENOENT", "ENOENT: no such file or directory, readlink '/workspace/zz'", "readlink", "path", "/workspace/zz")
	e.fails("EEXIST", "EEXIST: file already exists, symlink 'x' -> '/workspace/rel'", "symlink", "target", "x", "path", "/workspace/rel")
	e.fails("ENOENT", "ENOENT: no such file or directory, symlink '' -> '/workspace/empty'", "symlink", "target", "", "path", "/workspace/empty")

	// Targets that resolve outside the root are refused.
	ce := e.fails("EACCES", "EACCES: permission denied, symlink '/secret' -> '/workspace/out'", "symlink", "target", "/secret", "path", "/workspace/out")
	if ce.Path != "/secret" || ce.Dest != "/workspace/out" {
		t.Fatalf("symlink error paths = %+v", ce)
	}
	e.fails("EACCES", "EACCES: permission denied, symlink '../secret' -> '/workspace/out'", "symlink", "target", "../secret", "path", "/workspace/out")
	e.fails("EACCES", "EACCES: permission denied, symlink '../../../../..' -> '/workspace/dir/out'", "symlink", "target", "../../../../..", "path", "/workspace/dir/out")
	e.fails("EACCES", "EACCES: permission denied, symlink '/' -> '/workspace/out'", "symlink", "target", "/", "path", "/workspace/out")
	e.fails("EACCES", "EACCES: permission denied, symlink 'x' -> '/secret/l'", "symlink", "target", "x", "path", "/secret/l")
	// ... also through a further link that leads out.
	e.link("/secret", "/workspace/planted")
	e.fails("EACCES", "EACCES: permission denied, symlink 'planted/key' -> '/workspace/via'", "symlink", "target", "planted/key", "path", "/workspace/via")
	// A link may point to the root itself.
	e.ok("symlink", "target", "..", "path", "/workspace/dir/root")
	if got := e.ok("realpath", "path", "/workspace/dir/root/dir/f"); got != "/workspace/dir/f" {
		t.Fatalf("realpath via root link = %v", got)
	}
	for _, p := range []string{"/workspace/out", "/workspace/via", "/secret/l"} {
		if e.exists(p) {
			t.Fatalf("%s was created", p)
		}
	}
}

func TestFSChmodUtimesMkdtemp(t *testing.T) {
	e := newFSEnv(t, runtime.ReadWrite)
	e.put("/workspace/f", "x")
	e.ok("chmod", "path", "/workspace/f", "mode", float64(0o4755))
	if st := e.ok("stat", "path", "/workspace/f").(map[string]any); st["mode"] != float64(0o104755) {
		t.Fatalf("chmod %o", int(st["mode"].(float64)))
	}
	e.fails("ENOENT", "ENOENT: no such file or directory, chmod '/workspace/zz'", "chmod", "path", "/workspace/zz", "mode", 0o644)
	e.ok("utimes", "path", "/workspace/f", "atimeMs", 1000.5, "mtimeMs", 1_700_000_000_123.0)
	st := e.ok("stat", "path", "/workspace/f").(map[string]any)
	if st["mtimeMs"] != 1_700_000_000_123.0 || st["atimeMs"] != 1000.5 {
		t.Fatalf("utimes: %v %v", st["atimeMs"], st["mtimeMs"])
	}
	if fi, _ := e.fs.Stat(e.ctx, "/workspace/f"); !fi.ModTime().Equal(time.UnixMilli(1_700_000_000_123)) {
		t.Fatal("utimes mtime")
	}
	e.fails("ENOENT", "ENOENT: no such file or directory, utime '/workspace/zz'", "utimes", "path", "/workspace/zz", "atimeMs", 0.0, "mtimeMs", 0.0)
	if got := e.ok("mkdtemp", "path", "/workspace/tmp-abc123"); got != "/workspace/tmp-abc123" {
		t.Fatalf("mkdtemp = %v", got)
	}
	if st := e.ok("stat", "path", "/workspace/tmp-abc123").(map[string]any); st["mode"] != float64(0o040700) {
		t.Fatalf("mkdtemp mode %o", int(st["mode"].(float64)))
	}
	e.fails("EEXIST", "EEXIST: file already exists, mkdtemp '/workspace/tmp-abc123'", "mkdtemp", "path", "/workspace/tmp-abc123")
	e.fails("ENOENT", "ENOENT: no such file or directory, mkdtemp '/workspace/no/tmp-x'", "mkdtemp", "path", "/workspace/no/tmp-x")
}

// TestFSConfinement tries every way out of the root.
func TestFSConfinement(t *testing.T) {
	e := newFSEnv(t, runtime.ReadWrite)
	e.put("/workspace/sub/in.txt", "in")
	e.link("/secret", "/workspace/out")                   // absolute, out
	e.link("../secret", "/workspace/relout")              // relative, out
	e.link("out", "/workspace/chain1")                    // chain: inside link to a link out
	e.link("chain1/key", "/workspace/chain2")             // longer chain
	e.link("/", "/workspace/slash")                       // the filesystem root
	e.link("sub", "/workspace/in")                        // stays inside
	e.link("/secret/../workspace/sub", "/workspace/back") // leaves lexically? no: cleans to /workspace/sub
	e.link("/secret/new", "/workspace/dangout")           // dangling, out
	if err := e.fs.MkdirAll(e.ctx, "/other", 0); err != nil {
		t.Fatal(err)
	}
	e.link("/workspace/sub", "/other/back")      // outside link pointing back in
	e.link("/other/back", "/workspace/viaother") // a hop outside, then back in
	e.link("loop2", "/workspace/loop1")
	e.link("loop1", "/workspace/loop2")

	denied := func(op, p string, kv ...any) {
		t.Helper()
		syscall := map[string]string{"readFile": "open", "writeFile": "open", "stat": "stat", "lstat": "lstat", "readdir": "scandir",
			"mkdir": "mkdir", "realpath": "realpath", "access": "access", "chmod": "chmod", "unlink": "unlink", "rm": "rm", "open": "open"}[op]
		e.fails("EACCES", "EACCES: permission denied, "+syscall+" '"+p+"'", op, append([]any{"path", p}, kv...)...)
	}
	for _, p := range []string{
		"/etc/passwd", "/", "/secret/key", "/workspace/../secret/key", "/workspace/sub/../../secret/key",
		"/workspacex/a", "/workspace/out/key", "/workspace/out", "/workspace/relout/key", "/workspace/chain1/key",
		"/workspace/chain2", "/workspace/slash/secret/key", "/workspace/slash", "/workspace/viaother/in.txt",
		"/workspace/../../../../etc/passwd", "//secret/key", "/./secret/key",
	} {
		denied("readFile", p)
		denied("stat", p)
	}
	denied("readdir", "/workspace/out")
	denied("readdir", "/workspace/slash")
	denied("realpath", "/workspace/chain2")
	denied("access", "/workspace/out/key")
	denied("chmod", "/workspace/out/key", "mode", 0o777)
	denied("writeFile", "/workspace/out/new", "data", []byte("x"))
	denied("writeFile", "/workspace/dangout", "data", []byte("x"))
	denied("writeFile", "/workspace/dangout", "data", []byte("x"), "flag", "a")
	denied("mkdir", "/workspace/out/d", "recursive", true)
	denied("mkdir", "/workspace/out/d")
	denied("open", "/workspace/out/key", "flags", 0)
	denied("open", "/workspace/dangout", "flags", oWRONLY|oCREAT)
	denied("unlink", "/workspace/out/key")
	denied("rm", "/workspace/out/key", "force", true)
	denied("lstat", "/workspace/out/key")
	e.fails("EACCES", "EACCES: permission denied, copyfile '/workspace/sub/in.txt' -> '/workspace/out/x'", "copyFile", "from", "/workspace/sub/in.txt", "to", "/workspace/out/x")
	e.fails("EACCES", "EACCES: permission denied, rename '/workspace/sub' -> '/workspace/out/sub'", "rename", "from", "/workspace/sub", "to", "/workspace/out/sub")
	e.fails("EACCES", "EACCES: permission denied, cp '/workspace/out' -> '/workspace/x'", "cp", "from", "/workspace/out", "to", "/workspace/x", "recursive", true, "dereference", true)
	e.fails("ELOOP", "ELOOP: too many symbolic links encountered, open '/workspace/loop1'", "readFile", "path", "/workspace/loop1")
	e.fails("ELOOP", "ELOOP: too many symbolic links encountered, stat '/workspace/loop2/x'", "stat", "path", "/workspace/loop2/x")
	e.fails("EINVAL", "EINVAL: invalid argument, open 'relative'", "readFile", "path", "relative")
	e.fails("EINVAL", "EINVAL: invalid argument, open", "readFile", "path", "")
	e.fails("EINVAL", "EINVAL: invalid argument, open '/workspace/a\x00b'", "readFile", "path", "/workspace/a\x00b")
	long := "/workspace/" + strings.Repeat("d/", vfs.MaxPathLength/2)
	e.fails("ENAMETOOLONG", "ENAMETOOLONG: name too long, stat '"+long+"'", "stat", "path", long)
	e.fails("EINVAL", `EINVAL: invalid argument, fs op "readFile" needs path as a string`, "readFile", "path", 3.0)
	e.fails("EINVAL", `EINVAL: invalid argument, fs op "readFile" needs path as a string`, "readFile")

	// What stays inside works, including links to the root's own files.
	for _, p := range []string{"/workspace/in/in.txt", "/workspace/back/in.txt", "/workspace/sub/../in/in.txt"} {
		if got := e.ok("readFile", "path", p); string(got.([]byte)) != "in" {
			t.Fatalf("readFile %s = %q", p, got)
		}
	}
	// The links themselves are inside the root: lstat, readlink, unlink and
	// rename work on them.
	if st := e.ok("lstat", "path", "/workspace/out").(map[string]any); st["type"] != "symlink" {
		t.Fatal("lstat out link")
	}
	if got := e.ok("readlink", "path", "/workspace/out"); got != "/secret" {
		t.Fatalf("readlink = %v", got)
	}
	e.ok("rename", "from", "/workspace/out", "to", "/workspace/out2")
	e.ok("unlink", "path", "/workspace/out2")
	e.ok("rm", "path", "/workspace/relout", "recursive", true, "force", true)
	if e.read("/secret/key") != "s3cret" || e.exists("/secret/new") || e.exists("/workspace/out2") {
		t.Fatal("the outside changed")
	}
	if l, _ := e.fs.ReadDir(e.ctx, "/secret", vfs.Page{}); len(l.Entries) != 1 {
		t.Fatalf("/secret has %d entries", len(l.Entries))
	}
}

func TestFSRootElsewhere(t *testing.T) {
	e := newFSEnv(t, runtime.ReadWrite)
	e.ops.Root = "/workspace/proj/"
	e.put("/workspace/proj/a", "a")
	e.put("/workspace/other", "o")
	e.link("../other", "/workspace/proj/up")
	if got := e.ok("readFile", "path", "/workspace/proj/a"); string(got.([]byte)) != "a" {
		t.Fatal("read")
	}
	e.fails("EACCES", "EACCES: permission denied, open '/workspace/other'", "readFile", "path", "/workspace/other")
	e.fails("EACCES", "EACCES: permission denied, open '/workspace/proj/up'", "readFile", "path", "/workspace/proj/up")
	e.fails("EACCES", "EACCES: permission denied, open '/workspace/projx'", "readFile", "path", "/workspace/projx")

	// Root "/" lets code reach everything.
	e.ops.Root = "/"
	if got := e.ok("readFile", "path", "/secret/key"); string(got.([]byte)) != "s3cret" {
		t.Fatal("root /")
	}
}

func TestFSReadOnly(t *testing.T) {
	e := newFSEnv(t, runtime.ReadOnly)
	e.put("/workspace/f", "x")
	e.put("/workspace/d/g", "g")
	e.link("f", "/workspace/l")
	for _, c := range []struct {
		msg string
		op  string
		kv  []any
	}{
		{"EROFS: read-only file system, open '/workspace/f'", "writeFile", []any{"path", "/workspace/f", "data", []byte("y")}},
		{"EROFS: read-only file system, open '/workspace/new'", "writeFile", []any{"path", "/workspace/new", "data", []byte("y"), "flag", "a"}},
		{"EROFS: read-only file system, write '/workspace/f'", "pwrite", []any{"path", "/workspace/f", "data", []byte("y"), "offset", 0.0}},
		{"EROFS: read-only file system, open '/workspace/f'", "truncate", []any{"path", "/workspace/f", "length", 0.0}},
		{"EROFS: read-only file system, open '/workspace/f'", "open", []any{"path", "/workspace/f", "flags", oWRONLY}},
		{"EROFS: read-only file system, open '/workspace/f'", "open", []any{"path", "/workspace/f", "flags", oRDONLY | oTRUNC}},
		{"EROFS: read-only file system, open '/workspace/n'", "open", []any{"path", "/workspace/n", "flags", oRDONLY | oCREAT}},
		{"EROFS: read-only file system, mkdir '/workspace/m'", "mkdir", []any{"path", "/workspace/m"}},
		{"EROFS: read-only file system, mkdir '/workspace/m/n'", "mkdir", []any{"path", "/workspace/m/n", "recursive", true}},
		{"EROFS: read-only file system, rm '/workspace/f'", "rm", []any{"path", "/workspace/f"}},
		{"EROFS: read-only file system, rmdir '/workspace/d'", "rmdir", []any{"path", "/workspace/d"}},
		{"EROFS: read-only file system, unlink '/workspace/f'", "unlink", []any{"path", "/workspace/f"}},
		{"EROFS: read-only file system, rename '/workspace/f' -> '/workspace/g'", "rename", []any{"from", "/workspace/f", "to", "/workspace/g"}},
		{"EROFS: read-only file system, copyfile '/workspace/f' -> '/workspace/g'", "copyFile", []any{"from", "/workspace/f", "to", "/workspace/g"}},
		{"EROFS: read-only file system, cp '/workspace/d' -> '/workspace/e'", "cp", []any{"from", "/workspace/d", "to", "/workspace/e", "recursive", true}},
		{"EROFS: read-only file system, symlink 'f' -> '/workspace/l2'", "symlink", []any{"target", "f", "path", "/workspace/l2"}},
		{"EROFS: read-only file system, chmod '/workspace/f'", "chmod", []any{"path", "/workspace/f", "mode", 0o600}},
		{"EROFS: read-only file system, utime '/workspace/f'", "utimes", []any{"path", "/workspace/f", "atimeMs", 0.0, "mtimeMs", 0.0}},
		{"EROFS: read-only file system, mkdtemp '/workspace/t-1'", "mkdtemp", []any{"path", "/workspace/t-1"}},
		{"EROFS: read-only file system, link '/workspace/f' -> '/workspace/h'", "link", []any{"existingPath", "/workspace/f", "newPath", "/workspace/h"}},
	} {
		ce := e.fails("EROFS", c.msg, c.op, c.kv...)
		if ce.Syscall == "" || ce.Path == "" {
			t.Fatalf("%s: %+v", c.op, ce)
		}
	}
	// Reads work, and so does a recursive mkdir that has nothing to do.
	e.ok("readFile", "path", "/workspace/l")
	e.ok("pread", "path", "/workspace/f", "offset", 0.0, "length", 1.0)
	e.ok("stat", "path", "/workspace/f")
	e.ok("readdir", "path", "/workspace", "recursive", true)
	e.ok("open", "path", "/workspace/f", "flags", oRDONLY)
	e.ok("realpath", "path", "/workspace/l")
	e.ok("mkdir", "path", "/workspace/d", "recursive", true)
	if e.read("/workspace/f") != "x" || e.exists("/workspace/g") || e.exists("/workspace/m") || e.exists("/workspace/h") {
		t.Fatal("read-only workspace changed")
	}
}

func TestFSLimits(t *testing.T) {
	e := newFSEnv(t, runtime.ReadWrite)
	e.ops.Limits.MaxCallBytes = 10
	e.put("/workspace/ten", "0123456789")
	e.put("/workspace/eleven", "0123456789a")
	e.ok("readFile", "path", "/workspace/ten")
	ce := e.fails("ERR_FS_FILE_TOO_LARGE", "file '/workspace/eleven' of 11 bytes is larger than one host call may carry, the limit MaxCallBytes (10): read or write it in ranges with a file handle (fs.open, then read/write with a position)",
		"readFile", "path", "/workspace/eleven")
	if ce.Path != "/workspace/eleven" {
		t.Fatal(ce.Path)
	}
	// pread stops at the limit: a short read.
	if got := e.ok("pread", "path", "/workspace/eleven", "offset", 0.0, "length", 100.0); string(got.([]byte)) != "0123456789" {
		t.Fatalf("pread = %q", got)
	}
	e.fails("ERR_FS_FILE_TOO_LARGE", "write of 11 bytes is larger than one host call may carry, the limit MaxCallBytes (10): read or write it in ranges with a file handle (fs.open, then read/write with a position)",
		"writeFile", "path", "/workspace/w", "data", []byte("0123456789a"))
	e.fails("ERR_FS_FILE_TOO_LARGE", "write of 11 bytes is larger than one host call may carry, the limit MaxCallBytes (10): read or write it in ranges with a file handle (fs.open, then read/write with a position)",
		"pwrite", "path", "/workspace/w", "data", []byte("0123456789a"), "offset", 0.0)
	if e.exists("/workspace/w") {
		t.Fatal("too large write created a file")
	}
}

func TestFSWorkspaceLimits(t *testing.T) {
	ctx := context.Background()
	ws, err := nook.OpenMemory(ctx, nook.WithLimits(vfs.Limits{MaxFileSize: 8}))
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	ws.FS().MkdirAll(ctx, "/workspace", 0)
	o := &runtime.FSOps{FS: ws.FS(), Root: "/workspace"}
	_, err = o.Do(ctx, "writeFile", map[string]any{"path": "/workspace/f", "data": []byte("123456789")})
	var ce *runtime.CallError
	if !errors.As(err, &ce) || ce.Code != "EFBIG" || !strings.HasPrefix(ce.Message, "EFBIG: file too large, open '/workspace/f' (") || !strings.Contains(ce.Message, "MaxFileSize") {
		t.Fatalf("EFBIG: %v", err)
	}
}

func TestFSOpsMisc(t *testing.T) {
	e := newFSEnv(t, runtime.ReadWrite)
	e.fails("ENOSYS", `ENOSYS: function not implemented, fs op "chown"`, "chown", "path", "/workspace")
	names := runtime.FSOpNames()
	if len(names) != 27 || names[0] != "access" {
		t.Fatalf("FSOpNames = %v", names)
	}
	for _, n := range names {
		if _, err := e.do(n); err == nil {
			t.Errorf("%s without arguments succeeded", n)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := e.ops.Do(ctx, "stat", map[string]any{"path": "/workspace"}); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: %v", err)
	}
	// Through the live host.
	h := runtime.NewHost(runtime.HostConfig{FS: e.fs, Root: "/workspace"})
	if _, err := h.Call(e.ctx, &runtime.Call{Kind: runtime.KindFS, Op: "writeFile", Args: map[string]any{"path": "/workspace/h", "data": []byte("host")}}); err != nil {
		t.Fatal(err)
	}
	if e.read("/workspace/h") != "host" {
		t.Fatal("host write")
	}
}
