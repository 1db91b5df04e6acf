package vfs

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"testing/fstest"
	"time"
)

func TestImportHostTree(t *testing.T) {
	dir := t.TempDir()
	mtime := time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC)
	files := map[string]string{
		"a.txt":            "alpha\n",
		"src/main.go":      "package main\n",
		"src/pkg/p.go":     "package pkg\n",
		"empty":            "",
		"big.bin":          string(seededBytes(11, 2*ChunkSize+3)),
		"ünï/ćödé.txt":     "unicode\n",
		"deep/a/b/c/d.txt": "deep\n",
	}
	for p, c := range files {
		hp := filepath.Join(dir, p)
		noErr(t, os.MkdirAll(filepath.Dir(hp), 0o755))
		noErr(t, os.WriteFile(hp, []byte(c), 0o640))
		noErr(t, os.Chtimes(hp, mtime, mtime))
	}
	noErr(t, os.Chmod(filepath.Join(dir, "src/main.go"), 0o755))
	noErr(t, os.Chmod(filepath.Join(dir, "empty"), 0))
	noErr(t, os.Symlink("src/main.go", filepath.Join(dir, "link")))
	noErr(t, os.Symlink("/etc/passwd", filepath.Join(dir, "abs")))
	noErr(t, os.Chmod(filepath.Join(dir, "deep"), 0o700))

	f := openTest(t)
	// An existing file and an existing symlink at the targets are replaced.
	put(t, f, "/dst/a.txt", "old")
	put(t, f, "/elsewhere", "must not change")
	noErr(t, f.MkdirAll(bg, "/dst/ünï", 0))
	noErr(t, f.Symlink(bg, "/elsewhere", "/dst/ünï/ćödé.txt"))

	var last ImportStats
	calls := 0
	st, err := f.Import(bg, "/dst", os.DirFS(dir), &ImportOptions{Workers: 3, Progress: func(s ImportStats) { last = s; calls++ }})
	noErr(t, err)
	want := ImportStats{Files: 7, Dirs: 7, Symlinks: 2, Bytes: int64(len(files["a.txt"]) + len(files["src/main.go"]) +
		len(files["src/pkg/p.go"]) + len(files["big.bin"]) + len(files["ünï/ćödé.txt"]) + len(files["deep/a/b/c/d.txt"]))}
	if st != want {
		t.Errorf("stats = %+v, want %+v", st, want)
	}
	if last != want || calls != 16 {
		t.Errorf("last progress %+v after %d calls, want %+v after 16", last, calls, want)
	}
	for p, c := range files {
		expectContent(t, f, "/dst/"+p, c)
		if fi := statOf(t, f, "/dst/"+p); !fi.Mtime.Equal(mtime) {
			t.Errorf("%s: mtime %v, want %v", p, fi.Mtime, mtime)
		}
	}
	expectContent(t, f, "/elsewhere", "must not change")
	if fi := lstatOf(t, f, "/dst/ünï/ćödé.txt"); fi.Kind != TypeFile {
		t.Errorf("the symlink in the way was written through: %v", fi.Kind)
	}
	for p, perm := range map[string]fs.FileMode{"src/main.go": 0o755, "a.txt": 0o640, "empty": 0, "deep": 0o700} {
		if fi := statOf(t, f, "/dst/"+p); fi.Perm != perm {
			t.Errorf("%s: perm %o, want %o", p, fi.Perm, perm)
		}
	}
	if fi := lstatOf(t, f, "/dst/link"); fi.Kind != TypeSymlink || fi.Target != "src/main.go" {
		t.Errorf("link = %+v", fi)
	}
	expectContent(t, f, "/dst/link", "package main\n")
	if fi := lstatOf(t, f, "/dst/abs"); fi.Target != "/etc/passwd" {
		t.Errorf("abs = %+v", fi)
	}
	// Resolved inside the workspace: there is no /etc/passwd here.
	_, err = f.ReadFile(bg, "/dst/abs")
	expectCode(t, err, ENOENT)

	// Importing again changes no content and adds nothing.
	before := usageOf(t, f)
	_, err = f.Import(bg, "/dst", os.DirFS(dir), nil)
	noErr(t, err)
	if after := usageOf(t, f); after.Bytes != before.Bytes || after.Entries != before.Entries {
		t.Errorf("re-import changed usage %+v -> %+v", before, after)
	}
}

// failFS fails to open one file.
type failFS struct {
	fstest.MapFS
	bad string
}

var errUnreadable = errors.New("unreadable")

func (f failFS) Open(name string) (fs.File, error) {
	if name == f.bad {
		return nil, &fs.PathError{Op: "open", Path: name, Err: errUnreadable}
	}
	return f.MapFS.Open(name)
}

func TestImportStopsAtFirstError(t *testing.T) {
	src := fstest.MapFS{}
	for i := range 50 {
		src[filepath.Join("d", string(rune('a'+i%26))+string(rune('a'+i/26)))] = &fstest.MapFile{Data: []byte("x")}
	}
	f := openTest(t)
	_, err := f.Import(bg, "/in", failFS{MapFS: src, bad: "d/ka"}, nil)
	if !errors.Is(err, errUnreadable) {
		t.Fatalf("Import = %v, want the source's error", err)
	}
	// Read-only mounts refuse imports into them, before anything is walked.
	noErr(t, f.Mount(bg, "/ro", fstest.MapFS{"x": {Data: []byte("x")}}))
	_, err = f.Import(bg, "/ro/in", src, nil)
	expectCode(t, err, EROFS)
}

func TestImportSkipsWhatItCannotCopy(t *testing.T) {
	src := fstest.MapFS{
		"f":    {Data: []byte("f")},
		"link": {Data: []byte("f"), Mode: fs.ModeSymlink},
		"pipe": {Mode: fs.ModeNamedPipe},
	}
	f := openTest(t)
	// Hide MapFS's ReadLink: a plain fs.FS cannot tell a link's target.
	st, err := f.Import(bg, "/", struct{ fs.FS }{src}, nil)
	noErr(t, err)
	if st != (ImportStats{Files: 1, Bytes: 1, Skipped: 2}) {
		t.Errorf("stats = %+v", st)
	}
	l, err := f.ReadDir(bg, "/", Page{})
	noErr(t, err)
	if got := paths(l.Entries); !slices.Equal(got, []string{"/f"}) {
		t.Errorf("imported %v", got)
	}
}
