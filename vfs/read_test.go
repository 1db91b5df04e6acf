package vfs

import (
	"bytes"
	"io/fs"
	"math"
	"testing"
	"time"
)

func TestReadFileErrors(t *testing.T) {
	f := openTest(t)
	put(t, f, "/f", "x")
	noErr(t, f.Mkdir(bg, "/d", 0))
	tests := []struct {
		path string
		code Errno
		msg  string
	}{
		{"/nope", ENOENT, "no such file: /nope"},
		{"/x/y", ENOENT, "no such file: /x/y"},
		{"/d", EISDIR, "path is a directory: /d"},
		{"/", EISDIR, "path is a directory: /"},
		{"/f/x", ENOTDIR, "parent path segment is not a directory: /f/x"},
	}
	for _, tc := range tests {
		t.Run(tc.path, func(t *testing.T) {
			_, err := f.ReadFile(bg, tc.path)
			expectErr(t, err, tc.code, tc.msg)
			_, err = f.ReadRange(bg, tc.path, 0, 1)
			expectErr(t, err, tc.code, tc.msg)
		})
	}
}

func TestReadRange(t *testing.T) {
	f := openTest(t)
	data := seededBytes(11, 3*ChunkSize+5)
	size := int64(len(data))
	putBytes(t, f, "/p", data)
	tests := []struct {
		off, n int64
		want   []byte
	}{
		{0, 0, nil},
		{0, 10, data[:10]},
		{ChunkSize - 10, 20, data[ChunkSize-10 : ChunkSize+10]},
		{ChunkSize, ChunkSize, data[ChunkSize : 2*ChunkSize]},
		{ChunkSize - 1, 2*ChunkSize + 2, data[ChunkSize-1 : 3*ChunkSize+1]},
		{size - 3, 10, data[size-3:]},
		{size, 10, nil},
		{size + 100, 10, nil},
		{5, size, data[5:]},
		{0, size + 1000, data},
		{5, math.MaxInt64, data[5:]},
	}
	for _, tc := range tests {
		got, err := f.ReadRange(bg, "/p", tc.off, tc.n)
		if err != nil {
			t.Errorf("ReadRange(%d, %d): %v", tc.off, tc.n, err)
			continue
		}
		if !bytes.Equal(got, tc.want) {
			t.Errorf("ReadRange(%d, %d) = %d bytes, want %d bytes", tc.off, tc.n, len(got), len(tc.want))
		}
	}
	_, err := f.ReadRange(bg, "/p", -1, 1)
	expectErr(t, err, EINVAL, "invalid read offset: -1: /p")
	_, err = f.ReadRange(bg, "/p", 0, -1)
	expectErr(t, err, EINVAL, "invalid read length: -1: /p")
	// Empty file.
	put(t, f, "/empty", "")
	got, err := f.ReadRange(bg, "/empty", 0, 10)
	noErr(t, err)
	if len(got) != 0 {
		t.Errorf("ReadRange of empty file = %q", got)
	}
}

func TestStatFields(t *testing.T) {
	clk := newClock()
	f := openTest(t, withClock(clk))
	t1 := clk.Now()
	put(t, f, "/dir/f.txt", "hello")
	fi := statOf(t, f, "/dir/f.txt")
	want := FileInfo{Path: "/dir/f.txt", Inode: fi.Inode, Kind: TypeFile, Perm: 0o644, Bytes: 5, Nlink: 1,
		Atime: time.Unix(0, t1.UnixNano()), Mtime: time.Unix(0, t1.UnixNano()), Ctime: time.Unix(0, t1.UnixNano()), Rev: fi.Rev}
	if *fi != want {
		t.Errorf("Stat = %+v\nwant   %+v", *fi, want)
	}
	if fi.Inode <= rootInode || fi.Rev <= 0 {
		t.Errorf("Inode %d, Rev %d", fi.Inode, fi.Rev)
	}
	if fi.Name() != "f.txt" || fi.Size() != 5 || fi.IsDir() || fi.Mode() != 0o644 || !fi.ModTime().Equal(t1) || fi.Sys() != fi {
		t.Errorf("fs.FileInfo view: %s %d %v %v %v", fi.Name(), fi.Size(), fi.IsDir(), fi.Mode(), fi.ModTime())
	}
	d := statOf(t, f, "/dir")
	if d.Kind != TypeDir || d.Perm != 0o755 || d.Bytes != 0 || !d.IsDir() || d.Mode() != fs.ModeDir|0o755 || d.Name() != "dir" {
		t.Errorf("dir Stat = %+v (Mode %v)", d, d.Mode())
	}
	root := statOf(t, f, "/")
	if root.Kind != TypeDir || root.Inode != rootInode || root.Name() != "/" || root.Perm != 0o755 {
		t.Errorf("root Stat = %+v", root)
	}
	// Overwrite: same inode, new mtime and revision.
	t2 := clk.Advance(time.Hour)
	put(t, f, "/dir/f.txt", "hello, world")
	fi2 := statOf(t, f, "/dir/f.txt")
	if fi2.Inode != fi.Inode || !fi2.Mtime.Equal(t2) || fi2.Bytes != 12 || fi2.Rev <= fi.Rev {
		t.Errorf("after overwrite: %+v", fi2)
	}
	// Rename: same inode, mtime unchanged, ctime moves.
	t3 := clk.Advance(time.Hour)
	noErr(t, f.Rename(bg, "/dir/f.txt", "/g.txt"))
	fi3 := statOf(t, f, "/g.txt")
	if fi3.Inode != fi.Inode || !fi3.Mtime.Equal(t2) || !fi3.Ctime.Equal(t3) || fi3.Path != "/g.txt" {
		t.Errorf("after rename: %+v", fi3)
	}
	// Chmod and Chtimes.
	t4 := clk.Advance(time.Hour)
	noErr(t, f.Chmod(bg, "/g.txt", 0o600))
	fi4 := statOf(t, f, "/g.txt")
	if fi4.Perm != 0o600 || !fi4.Ctime.Equal(t4) || !fi4.Mtime.Equal(t2) {
		t.Errorf("after chmod: %+v", fi4)
	}
	// Chmod keeps the permission, setuid, setgid and sticky bits of an
	// io/fs mode, and drops the rest: type bits, and Unix-style high
	// permission bits, which io/fs does not define (os.Chmod does the same).
	noErr(t, f.Chmod(bg, "/g.txt", fs.ModeDir|fs.ModeSetuid|fs.ModeSetgid|fs.ModeSticky|0o7777))
	if fi := statOf(t, f, "/g.txt"); fi.Perm != fs.ModeSetuid|fs.ModeSetgid|fs.ModeSticky|0o777 || fi.Mode() != fi.Perm {
		t.Errorf("chmod keeps the 12 permission bits: Perm %v, Mode %v", fi.Perm, fi.Mode())
	}
	at, mt := time.Unix(1000, 5), time.Unix(2000, 7)
	noErr(t, f.Chtimes(bg, "/g.txt", at, mt))
	fi5 := statOf(t, f, "/g.txt")
	if !fi5.Atime.Equal(at) || !fi5.Mtime.Equal(mt) {
		t.Errorf("after chtimes: %+v", fi5)
	}
	noErr(t, f.Chtimes(bg, "/g.txt", time.Time{}, time.Unix(3000, 0)))
	fi6 := statOf(t, f, "/g.txt")
	if !fi6.Atime.Equal(at) || !fi6.Mtime.Equal(time.Unix(3000, 0)) {
		t.Errorf("zero atime must be kept: %+v", fi6)
	}
	expectErr(t, f.Chmod(bg, "/nope", 0o600), ENOENT, "no such path: /nope")
	expectErr(t, f.Chtimes(bg, "/nope", at, mt), ENOENT, "no such path: /nope")
}

func TestStatErrors(t *testing.T) {
	f := openTest(t)
	put(t, f, "/f", "x")
	_, err := f.Stat(bg, "/nope")
	expectErr(t, err, ENOENT, "no such path: /nope")
	_, err = f.Lstat(bg, "/nope/x")
	expectErr(t, err, ENOENT, "no such path: /nope/x")
	_, err = f.Stat(bg, "/f/x")
	expectErr(t, err, ENOTDIR, "parent path segment is not a directory: /f/x")
}

func TestLstatReadlink(t *testing.T) {
	f := openTest(t)
	put(t, f, "/d/target.txt", "content")
	noErr(t, f.Symlink(bg, "target.txt", "/d/rel"))
	noErr(t, f.Symlink(bg, "/d/target.txt", "/abs"))
	noErr(t, f.Symlink(bg, "/nowhere", "/dangling"))
	for p, target := range map[string]string{"/d/rel": "target.txt", "/abs": "/d/target.txt", "/dangling": "/nowhere"} {
		fi := lstatOf(t, f, p)
		if fi.Kind != TypeSymlink || fi.Bytes != int64(len(target)) || fi.Target != target || fi.Perm != 0o777 ||
			fi.Mode()&fs.ModeSymlink == 0 || fi.Size() != int64(len(target)) {
			t.Errorf("Lstat(%s) = %+v", p, fi)
		}
		got, err := f.Readlink(bg, p)
		noErr(t, err)
		if got != target {
			t.Errorf("Readlink(%s) = %q, want %q", p, got, target)
		}
	}
	for _, p := range []string{"/d/rel", "/abs"} {
		fi := statOf(t, f, p)
		if fi.Kind != TypeFile || fi.Bytes != 7 || fi.Path != p {
			t.Errorf("Stat(%s) through link = %+v", p, fi)
		}
	}
	_, err := f.Stat(bg, "/dangling")
	expectErr(t, err, ENOENT, "no such path: /dangling")
	// Readlink through an intermediate link.
	noErr(t, f.Symlink(bg, "/d", "/dl"))
	got, err := f.Readlink(bg, "/dl/rel")
	noErr(t, err)
	if got != "target.txt" {
		t.Errorf("Readlink(/dl/rel) = %q", got)
	}
	_, err = f.Readlink(bg, "/d/target.txt")
	expectErr(t, err, EINVAL, "not a symlink: /d/target.txt")
	_, err = f.Readlink(bg, "/d")
	expectErr(t, err, EINVAL, "not a symlink: /d")
	_, err = f.Readlink(bg, "/nope")
	expectErr(t, err, ENOENT, "no such path: /nope")
	// Chmod follows the link; the link keeps 0777.
	noErr(t, f.Chmod(bg, "/abs", 0o600))
	if fi := statOf(t, f, "/d/target.txt"); fi.Perm != 0o600 {
		t.Errorf("chmod through link: target Perm %o", fi.Perm)
	}
	if fi := lstatOf(t, f, "/abs"); fi.Perm != 0o777 {
		t.Errorf("chmod through link changed the link: %o", fi.Perm)
	}
}
