package vfs

import (
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"time"
)

func testMapFS() fstest.MapFS {
	mt := time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)
	return fstest.MapFS{
		"a.txt":          {Data: []byte("hello\n"), Mode: 0o644, ModTime: mt},
		"sub/b.txt":      {Data: []byte("bye\nneedle here\n"), Mode: 0o600, ModTime: mt},
		"sub/deep/c.md":  {Data: []byte("# title\n"), Mode: 0o644, ModTime: mt},
		"sub/deep/z.bin": {Data: []byte("bin\x00ary"), Mode: 0o644, ModTime: mt},
	}
}

// mountTest mounts testMapFS at /p/m beside stored files.
func mountTest(t *testing.T) *FS {
	t.Helper()
	f := openTest(t)
	put(t, f, "/p/own.txt", "own needle\n")
	noErr(t, f.Mount(bg, "/p/m", testMapFS()))
	return f
}

func TestMountRead(t *testing.T) {
	f := mountTest(t)
	expectContent(t, f, "/p/m/a.txt", "hello\n")
	expectContent(t, f, "/p/m/sub/b.txt", "bye\nneedle here\n")
	got, err := f.ReadRange(bg, "/p/m/sub/b.txt", 4, 6)
	noErr(t, err)
	if string(got) != "needle" {
		t.Errorf("ReadRange = %q", got)
	}
	for _, off := range []int64{6, 7, 100} {
		got, err = f.ReadRange(bg, "/p/m/a.txt", off, 6)
		if err != nil || len(got) != 0 {
			t.Errorf("ReadRange(%d, 6) of a 6-byte mounted file = %q, %v; want empty", off, got, err)
		}
	}
	fi := statOf(t, f, "/p/m/sub/b.txt")
	if fi.Kind != TypeFile || fi.Bytes != 16 || fi.Perm != 0o600 || !fi.ReadOnly || fi.Inode == 0 ||
		!fi.Mtime.Equal(time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)) {
		t.Errorf("Stat of a mounted file = %+v", fi)
	}
	if fi2 := statOf(t, f, "/p/m/sub/b.txt"); fi2.Inode != fi.Inode {
		t.Errorf("mounted inode not stable: %d, %d", fi.Inode, fi2.Inode)
	}
	if d := statOf(t, f, "/p/m/sub"); d.Kind != TypeDir || !d.ReadOnly {
		t.Errorf("Stat of a mounted dir = %+v", d)
	}
	if own := statOf(t, f, "/p/own.txt"); own.ReadOnly {
		t.Errorf("a stored file is ReadOnly")
	}
	_, err = f.Stat(bg, "/p/m/nope")
	expectErr(t, err, ENOENT, "no such path: /p/m/nope")
	_, err = f.ReadFile(bg, "/p/m/nope")
	expectErr(t, err, ENOENT, "no such file: /p/m/nope")
	_, err = f.ReadFile(bg, "/p/m/sub")
	expectErr(t, err, EISDIR, "path is a directory: /p/m/sub")
	l, err := f.ReadDir(bg, "/p/m/sub", Page{})
	noErr(t, err)
	if got := paths(l.Entries); !slices.Equal(got, []string{"/p/m/sub/b.txt", "/p/m/sub/deep"}) {
		t.Errorf("ReadDir(/p/m/sub) = %v", got)
	}
	l, err = f.ReadDir(bg, "/p/m/sub/deep", Page{Limit: 1})
	noErr(t, err)
	if got := paths(l.Entries); !slices.Equal(got, []string{"/p/m/sub/deep/c.md"}) || l.NextOffset != 1 {
		t.Errorf("ReadDir page = %v next %d", got, l.NextOffset)
	}
	_, err = f.ReadDir(bg, "/p/m/a.txt", Page{})
	expectErr(t, err, ENOTDIR, "not a directory: /p/m/a.txt")
	// A handle on a mounted file.
	h, err := f.Open(bg, "/p/m/sub/b.txt")
	noErr(t, err)
	defer h.Close()
	all, err := io.ReadAll(h)
	noErr(t, err)
	if string(all) != "bye\nneedle here\n" {
		t.Errorf("handle read %q", all)
	}
	if _, err := h.Seek(4, io.SeekStart); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 6)
	if _, err := io.ReadFull(h, buf); err != nil || string(buf) != "needle" {
		t.Errorf("read after seek = %q, %v", buf, err)
	}
	hfi, err := h.Stat()
	noErr(t, err)
	if hfi.Size() != 16 || !hfi.(*FileInfo).ReadOnly {
		t.Errorf("handle Stat = %+v", hfi)
	}
	// A handle on a mounted directory.
	dh, err := f.Open(bg, "/p/m/sub")
	noErr(t, err)
	defer dh.Close()
	des, err := dh.ReadDir(-1)
	noErr(t, err)
	if len(des) != 2 || des[0].Name() != "b.txt" || !des[1].IsDir() {
		t.Errorf("mounted dir handle ReadDir = %v", des)
	}
}

// The mount root itself lists the mounted directory, not the (empty)
// stored directory it hides.
func TestMountRootListing(t *testing.T) {
	f := mountTest(t)
	want := []string{"/p/m/a.txt", "/p/m/sub"}
	l, err := f.ReadDir(bg, "/p/m", Page{})
	noErr(t, err)
	if got := paths(l.Entries); !slices.Equal(got, want) {
		t.Errorf("ReadDir(/p/m) = %v, want %v", got, want)
	}
	h, err := f.Open(bg, "/p/m")
	noErr(t, err)
	defer h.Close()
	es, err := h.ReadDirEntries(-1)
	noErr(t, err)
	if got := paths(es); !slices.Equal(got, want) {
		t.Errorf("Open(/p/m).ReadDir = %v, want %v", got, want)
	}
	if fi := statOf(t, f, "/p/m"); !fi.ReadOnly || fi.Kind != TypeDir {
		t.Errorf("Stat(/p/m) = %+v, want a read-only dir", fi)
	}
	des, err := fs.ReadDir(f.IOFS(), "p/m")
	noErr(t, err)
	if len(des) != 2 {
		t.Errorf("IOFS ReadDir(p/m) = %v", des)
	}
}

func TestMountFindGrep(t *testing.T) {
	f := mountTest(t)
	l, err := f.Find(bg, "/p/m", "", nil)
	noErr(t, err)
	want := []string{"/p/m/a.txt", "/p/m/sub", "/p/m/sub/b.txt", "/p/m/sub/deep", "/p/m/sub/deep/c.md", "/p/m/sub/deep/z.bin"}
	if got := paths(l.Entries); !slices.Equal(got, want) {
		t.Errorf("Find(/p/m) = %v", got)
	}
	l, err = f.Find(bg, "/", "**/*.txt", nil)
	noErr(t, err)
	if got := paths(l.Entries); !slices.Equal(got, []string{"/p/m/a.txt", "/p/m/sub/b.txt", "/p/own.txt"}) {
		t.Errorf("Find(/, **/*.txt) = %v", got)
	}
	l, err = f.Find(bg, "/p/m/sub", "*", &FindOptions{Types: []Type{TypeDir}})
	noErr(t, err)
	if got := paths(l.Entries); !slices.Equal(got, []string{"/p/m/sub/deep"}) {
		t.Errorf("Find dirs in /p/m/sub = %v", got)
	}
	res, err := f.Grep(bg, "needle", "/p", nil)
	noErr(t, err)
	if len(res.Matches) != 2 || res.Matches[0].Path != "/p/m/sub/b.txt" || res.Matches[0].Line != 2 ||
		res.Matches[0].Text != "needle here" || res.Matches[1].Path != "/p/own.txt" {
		t.Errorf("Grep(/p) = %+v", res.Matches)
	}
	if len(res.Skipped) != 1 || res.Skipped[0] != (GrepSkip{Path: "/p/m/sub/deep/z.bin", Reason: "binary"}) {
		t.Errorf("Grep skipped %+v", res.Skipped)
	}
	res, err = f.Grep(bg, "NEEDLE", "/p/m/sub/b.txt", &GrepOptions{IgnoreCase: true})
	noErr(t, err)
	if len(res.Matches) != 1 || res.Matches[0].Path != "/p/m/sub/b.txt" {
		t.Errorf("Grep of one mounted file = %+v", res.Matches)
	}
	res, err = f.Grep(bg, "title", "/p/m", &GrepOptions{Mode: GrepFiles})
	noErr(t, err)
	if len(res.Files) != 1 || res.Files[0].Path != "/p/m/sub/deep/c.md" {
		t.Errorf("Grep files = %+v", res.Files)
	}
}

func TestMountReadOnly(t *testing.T) {
	f := mountTest(t)
	noErr(t, f.Symlink(bg, "/p/m", "/ln"))
	noErr(t, f.Symlink(bg, "/p/m/a.txt", "/lf"))
	put(t, f, "/x", "x")
	noErr(t, f.Mkdir(bg, "/emptydir", 0))
	ro := func(p string) string { return "read-only mount at /p/m: cannot modify: " + p }
	type op struct {
		name string
		do   func() error
		msg  string // "" checks only the prefix
	}
	open := func(p string, flag int) func() error {
		return func() error {
			h, err := f.OpenFile(bg, p, flag, 0)
			if err == nil {
				h.Close()
			}
			return err
		}
	}
	ops := []op{
		// Under the root.
		{"write new", func() error { return f.WriteFile(bg, "/p/m/x", []byte("x"), nil) }, ro("/p/m/x")},
		{"write existing", func() error { return f.WriteFile(bg, "/p/m/a.txt", []byte("x"), nil) }, ro("/p/m/a.txt")},
		{"write mkdirall", func() error {
			return f.WriteFile(bg, "/p/m/new/x", []byte("x"), &WriteOptions{MkdirAll: true})
		}, ro("/p/m/new/x")},
		{"write stream", func() error {
			_, err := f.WriteFrom(bg, "/p/m/big", strings.NewReader(strings.Repeat("x", ChunkSize+1)), nil)
			return err
		}, ro("/p/m/big")},
		{"mkdir", func() error { return f.Mkdir(bg, "/p/m/d", 0) }, ro("/p/m/d")},
		{"mkdirall", func() error { return f.MkdirAll(bg, "/p/m/d/e", 0) }, ""},
		{"rm file", func() error { return f.Remove(bg, "/p/m/a.txt", nil) }, ro("/p/m/a.txt")},
		{"rm -rf dir", func() error { return f.Remove(bg, "/p/m/sub", &RemoveOptions{Recursive: true, Force: true}) }, ro("/p/m/sub")},
		{"rename out", func() error { return f.Rename(bg, "/p/m/a.txt", "/y") }, ro("/p/m/a.txt")},
		{"rename in", func() error { return f.Rename(bg, "/x", "/p/m/x") }, ro("/p/m/x")},
		{"chmod", func() error { return f.Chmod(bg, "/p/m/a.txt", 0o600) }, ro("/p/m/a.txt")},
		{"chtimes", func() error { return f.Chtimes(bg, "/p/m/a.txt", time.Now(), time.Now()) }, ro("/p/m/a.txt")},
		{"symlink", func() error { return f.Symlink(bg, "/x", "/p/m/l") }, ro("/p/m/l")},
		{"open rdwr", open("/p/m/a.txt", os.O_RDWR), ro("/p/m/a.txt")},
		{"open wronly", open("/p/m/a.txt", os.O_WRONLY), ro("/p/m/a.txt")},
		{"open create", open("/p/m/new", os.O_RDWR|os.O_CREATE), ro("/p/m/new")},
		{"open trunc", open("/p/m/a.txt", os.O_RDONLY|os.O_TRUNC), ro("/p/m/a.txt")},
		// At the root.
		{"rm root", func() error { return f.Remove(bg, "/p/m", &RemoveOptions{Recursive: true}) }, ro("/p/m")},
		{"rename root", func() error { return f.Rename(bg, "/p/m", "/elsewhere") }, ro("/p/m")},
		{"rename onto root", func() error { return f.Rename(bg, "/emptydir", "/p/m") }, ro("/p/m")},
		{"chmod root", func() error { return f.Chmod(bg, "/p/m", 0o700) }, ro("/p/m")},
		{"write root", func() error { return f.WriteFile(bg, "/p/m", []byte("x"), nil) }, ro("/p/m")},
		// Above the root.
		{"rm -r parent", func() error { return f.Remove(bg, "/p", &RemoveOptions{Recursive: true}) }, ro("/p")},
		{"rename parent", func() error { return f.Rename(bg, "/p", "/q") }, ro("/p")},
		{"replace parent", func() error { return f.Rename(bg, "/emptydir", "/p") }, ro("/p")},
		// Through symlinks into the mount.
		{"write via link", func() error { return f.WriteFile(bg, "/ln/x", []byte("x"), nil) }, ""},
		{"write via file link", func() error { return f.WriteFile(bg, "/lf", []byte("x"), nil) }, ""},
		{"mkdir via link", func() error { return f.Mkdir(bg, "/ln/d", 0) }, ""},
		{"mkdirall via link", func() error { return f.MkdirAll(bg, "/ln/d/e", 0) }, ""},
		{"rm via link", func() error { return f.Remove(bg, "/ln/a.txt", nil) }, ""},
		{"chmod via link", func() error { return f.Chmod(bg, "/lf", 0o600) }, ""},
		{"rename via link", func() error { return f.Rename(bg, "/ln/a.txt", "/z") }, ""},
		{"symlink via link", func() error { return f.Symlink(bg, "/x", "/ln/l") }, ""},
		{"open via link", open("/lf", os.O_WRONLY), ""},
		{"create via link", open("/ln/new", os.O_WRONLY|os.O_CREATE), ""},
	}
	for _, o := range ops {
		t.Run(o.name, func(t *testing.T) {
			before := usageOf(t, f)
			rev := revOf(t, f)
			err := o.do()
			expectErr(t, err, EROFS, o.msg)
			if !strings.HasPrefix(errString(err), "read-only mount at /p/m: cannot modify: ") {
				t.Errorf("message %q", errString(err))
			}
			if after := usageOf(t, f); after != before {
				t.Errorf("usage changed %+v -> %+v", before, after)
			}
			if r := revOf(t, f); r != rev {
				t.Errorf("revision moved")
			}
		})
	}
	expectContent(t, f, "/p/m/a.txt", "hello\n")
	expectContent(t, f, "/x", "x")
	// Removing the link itself (outside the mount) is fine.
	noErr(t, f.Remove(bg, "/lf", nil))
	expectContent(t, f, "/p/m/a.txt", "hello\n")
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// Paths beside a mount (not at, under or above its root) stay writable, and
// creating an existing ancestor directory modifies nothing.
func TestMountSiblingsWritable(t *testing.T) {
	f := mountTest(t)
	check := func(what string, err error) {
		t.Helper()
		if err != nil {
			t.Errorf("%s: %v", what, err)
		}
	}
	check("WriteFile /p/plain", f.WriteFile(bg, "/p/plain", []byte("p"), nil))
	check("WriteFile /p/sibling with MkdirAll", f.WriteFile(bg, "/p/sibling", []byte("s"), &WriteOptions{MkdirAll: true}))
	check("WriteFile /p/new/deep with MkdirAll", f.WriteFile(bg, "/p/new/deep", []byte("d"), &WriteOptions{MkdirAll: true}))
	check("Mkdir /p/dir", f.Mkdir(bg, "/p/dir", 0))
	check("Rename /p/plain /p/dir/plain", f.Rename(bg, "/p/plain", "/p/dir/plain"))
	check("Remove -r /p/dir", f.Remove(bg, "/p/dir", &RemoveOptions{Recursive: true}))
	check("MkdirAll /p", f.MkdirAll(bg, "/p", 0))
	check("MkdirAll /p/other/x", f.MkdirAll(bg, "/p/other/x", 0))
	check("MkdirAll /p/m", f.MkdirAll(bg, "/p/m", 0))
	check("MkdirAll /p/m/sub", f.MkdirAll(bg, "/p/m/sub", 0))
	check("Mount /p/m2", f.Mount(bg, "/p/m2", fstest.MapFS{"x": {Data: []byte("x2")}}))
	expectMissing(t, f, "/p/plain")
}

func TestMountNesting(t *testing.T) {
	f := mountTest(t)
	for _, tc := range []struct{ root, msg string }{
		{"/p/m", "mounts may not nest (existing mount at /p/m): /p/m"},
		{"/p/m/sub", "mounts may not nest (existing mount at /p/m): /p/m/sub"},
		{"/p", "mounts may not nest (existing mount at /p/m): /p"},
		{"/", "mounts may not nest (existing mount at /p/m): /"},
	} {
		expectErr(t, f.Mount(bg, tc.root, fstest.MapFS{}), EINVAL, tc.msg)
	}
	// Siblings are fine.
	noErr(t, f.Mount(bg, "/m2", fstest.MapFS{"x": {Data: []byte("x2")}}))
	expectContent(t, f, "/m2/x", "x2")
	expectContent(t, f, "/p/m/a.txt", "hello\n")
	// A file cannot be a mount point.
	put(t, f, "/file", "f")
	if err := f.Mount(bg, "/file", fstest.MapFS{}); err == nil {
		t.Error("Mount on a file succeeded")
	}
	put(t, f, "/file", "still writable")
}

func TestMountOSDirFS(t *testing.T) {
	dir := t.TempDir()
	noErr(t, os.MkdirAll(filepath.Join(dir, "src", "pkg"), 0o755))
	noErr(t, os.WriteFile(filepath.Join(dir, "src", "main.go"), []byte("package main\n\nfunc main() {}\n"), 0o644))
	noErr(t, os.WriteFile(filepath.Join(dir, "src", "pkg", "p.go"), []byte("package pkg\n// TODO: find me\n"), 0o644))
	big := seededBytes(8, ChunkSize+100)
	noErr(t, os.WriteFile(filepath.Join(dir, "big.bin"), big, 0o644))
	f := openTest(t)
	noErr(t, f.Mount(bg, "/host", os.DirFS(dir)))
	expectContent(t, f, "/host/src/main.go", "package main\n\nfunc main() {}\n")
	got, err := f.ReadFile(bg, "/host/big.bin")
	noErr(t, err)
	if string(got) != string(big) {
		t.Errorf("big mounted file differs (%d bytes)", len(got))
	}
	tail, err := f.ReadRange(bg, "/host/big.bin", ChunkSize-2, 4)
	noErr(t, err)
	if string(tail) != string(big[ChunkSize-2:ChunkSize+2]) {
		t.Errorf("ReadRange across chunk size differs")
	}
	l, err := f.ReadDir(bg, "/host/src", Page{})
	noErr(t, err)
	if got := paths(l.Entries); !slices.Equal(got, []string{"/host/src/main.go", "/host/src/pkg"}) {
		t.Errorf("ReadDir = %v", got)
	}
	l, err = f.Find(bg, "/host", "**/*.go", nil)
	noErr(t, err)
	if got := paths(l.Entries); !slices.Equal(got, []string{"/host/src/main.go", "/host/src/pkg/p.go"}) {
		t.Errorf("Find = %v", got)
	}
	res, err := f.Grep(bg, "TODO", "/host", nil)
	noErr(t, err)
	if len(res.Matches) != 1 || res.Matches[0].Path != "/host/src/pkg/p.go" || res.Matches[0].Line != 2 {
		t.Errorf("Grep = %+v", res.Matches)
	}
	expectErr(t, f.WriteFile(bg, "/host/src/new.go", []byte("x"), nil), EROFS, "read-only mount at /host: cannot modify: /host/src/new.go")
	if _, err := os.Stat(filepath.Join(dir, "src", "new.go")); !os.IsNotExist(err) {
		t.Errorf("host file created: %v", err)
	}
}

func TestMountAtRoot(t *testing.T) {
	f := openTest(t)
	noErr(t, f.Mount(bg, "/", testMapFS()))
	expectContent(t, f, "/a.txt", "hello\n")
	expectErr(t, f.WriteFile(bg, "/new", []byte("x"), nil), EROFS, "read-only mount at /: cannot modify: /new")
	expectErr(t, f.Mkdir(bg, "/d", 0), EROFS, "read-only mount at /: cannot modify: /d")
	l, err := f.Find(bg, "/", "*", nil)
	noErr(t, err)
	if got := paths(l.Entries); !slices.Equal(got, []string{"/a.txt", "/sub"}) {
		t.Errorf("Find(/, *) = %v", got)
	}
	rl, err := f.ReadDir(bg, "/", Page{})
	noErr(t, err)
	if got := paths(rl.Entries); !slices.Equal(got, []string{"/a.txt", "/sub"}) {
		t.Errorf("ReadDir(/) = %v", got)
	}
}
