package vfs

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"testing"
	"time"
)

func TestWriteFileCreateAndOverwrite(t *testing.T) {
	clk := newClock()
	f := openTest(t, withClock(clk))
	t1 := clk.Now()
	noErr(t, f.WriteFile(bg, "/p", []byte("first"), nil))
	fi := statOf(t, f, "/p")
	if fi.Kind != TypeFile || fi.Perm != DefaultFileMode || fi.Bytes != 5 || !fi.Mtime.Equal(t1) || fi.Nlink != 1 {
		t.Errorf("new file: %+v", fi)
	}
	t2 := clk.Advance(time.Minute)
	noErr(t, f.WriteFile(bg, "/p", []byte("second!"), nil))
	fi2 := statOf(t, f, "/p")
	if fi2.Inode != fi.Inode {
		t.Errorf("overwrite changed the inode: %d -> %d", fi.Inode, fi2.Inode)
	}
	if fi2.Bytes != 7 || !fi2.Mtime.Equal(t2) || !fi2.Ctime.Equal(t2) {
		t.Errorf("after overwrite: %+v", fi2)
	}
	expectContent(t, f, "/p", "second!")
	if u := usageOf(t, f); u.Bytes != 7 || u.Entries != 2 {
		t.Errorf("Usage = %+v, want Bytes 7 Entries 2", u)
	}
	// Shrinking to empty.
	noErr(t, f.WriteFile(bg, "/p", nil, nil))
	expectContent(t, f, "/p", "")
	if u := usageOf(t, f); u.Bytes != 0 || u.Entries != 2 {
		t.Errorf("Usage = %+v, want Bytes 0 Entries 2", u)
	}
}

func TestWriteFileMode(t *testing.T) {
	f := openTest(t)
	put(t, f, "/p", "a")
	noErr(t, f.Chmod(bg, "/p", 0o600))
	noErr(t, f.WriteFile(bg, "/p", []byte("b"), nil))
	if fi := statOf(t, f, "/p"); fi.Perm != 0o600 {
		t.Errorf("overwrite without Mode: Perm = %o, want 600 (kept)", fi.Perm)
	}
	// A large (streamed) overwrite keeps the mode too.
	noErr(t, f.WriteFile(bg, "/p", make([]byte, ChunkSize+1), nil))
	if fi := statOf(t, f, "/p"); fi.Perm != 0o600 {
		t.Errorf("streamed overwrite: Perm = %o, want 600", fi.Perm)
	}
	noErr(t, f.WriteFile(bg, "/p", []byte("c"), &WriteOptions{Mode: 0o640}))
	if fi := statOf(t, f, "/p"); fi.Perm != 0o640 {
		t.Errorf("overwrite with Mode 640: Perm = %o", fi.Perm)
	}
	noErr(t, f.WriteFile(bg, "/new", []byte("c"), &WriteOptions{Mode: fs.ModeSetuid | 0o755}))
	fi := statOf(t, f, "/new")
	if fi.Perm != fs.ModeSetuid|0o755 || fi.Mode() != fs.ModeSetuid|0o755 || fi.Mode().Perm() != 0o755 {
		t.Errorf("create with Mode u+s,0755: Perm = %v, Mode() = %v", fi.Perm, fi.Mode())
	}
	noErr(t, f.WriteFile(bg, "/masked", []byte("c"), &WriteOptions{Mode: fs.ModeDir | fs.ModeSymlink | 0o170600}))
	if fi := statOf(t, f, "/masked"); fi.Perm != 0o600 || fi.Mode() != 0o600 {
		t.Errorf("Mode keeps only permission bits: Perm = %v, want -rw-------", fi.Perm)
	}
}

func TestWriteFileErrors(t *testing.T) {
	f := openTest(t)
	put(t, f, "/f", "file")
	put(t, f, "/p", "old")
	noErr(t, f.Mkdir(bg, "/d", 0))
	for _, size := range []int{3, ChunkSize + 7} { // one transaction, and streamed
		data := make([]byte, size)
		tests := []struct {
			path string
			opts *WriteOptions
			code Errno
			msg  string
		}{
			{"/", nil, EISDIR, "cannot write to the root directory: /"},
			{"/p", &WriteOptions{Exclusive: true}, EEXIST, "path exists: /p"},
			{"/x/y", nil, ENOENT, "parent directory missing: /x/y"},
			{"/x/y/z", nil, ENOENT, "parent directory missing: /x/y/z"},
			{"/f/x", nil, ENOTDIR, "parent path segment is not a directory: /f/x"},
			{"/f/x", &WriteOptions{MkdirAll: true}, ENOTDIR, ""},
			{"/f/x/y", &WriteOptions{MkdirAll: true}, ENOTDIR, ""},
			{"/d", nil, EISDIR, "path is a directory: /d"},
			{"/d", &WriteOptions{MkdirAll: true}, EISDIR, "path is a directory: /d"},
			{"/d", &WriteOptions{Exclusive: true}, EEXIST, "path exists: /d"},
		}
		for _, tc := range tests {
			before := usageOf(t, f)
			rev := revOf(t, f)
			err := f.WriteFile(bg, tc.path, data, tc.opts)
			t.Run(tc.path, func(t *testing.T) {
				t.Logf("size %d, opts %+v", size, tc.opts)
				expectErr(t, err, tc.code, tc.msg)
			})
			if after := usageOf(t, f); after.Bytes != before.Bytes || after.Entries != before.Entries {
				t.Errorf("failed write of %s changed usage %+v -> %+v", tc.path, before, after)
			}
			if r := revOf(t, f); r != rev {
				t.Errorf("failed write of %s moved the revision %d -> %d", tc.path, rev, r)
			}
		}
	}
	expectContent(t, f, "/p", "old")
	expectContent(t, f, "/f", "file")
	expectMissing(t, f, "/x")
}

func TestWriteFileMkdirAll(t *testing.T) {
	f := openTest(t)
	noErr(t, f.WriteFile(bg, "/a/b/c.txt", []byte("deep"), &WriteOptions{MkdirAll: true}))
	expectContent(t, f, "/a/b/c.txt", "deep")
	for _, d := range []string{"/a", "/a/b"} {
		if fi := statOf(t, f, d); fi.Kind != TypeDir || fi.Perm != DefaultDirMode {
			t.Errorf("%s: %+v", d, fi)
		}
	}
	// Existing parents are fine, and a large write creates parents too.
	big := seededBytes(1, 2*ChunkSize+3)
	noErr(t, f.WriteFile(bg, "/a/b/big", big, &WriteOptions{MkdirAll: true}))
	noErr(t, f.WriteFile(bg, "/n/e/w/big", big, &WriteOptions{MkdirAll: true}))
	for _, p := range []string{"/a/b/big", "/n/e/w/big"} {
		if got, _ := f.ReadFile(bg, p); !bytes.Equal(got, big) {
			t.Errorf("%s: content differs", p)
		}
	}
	// MkdirAll and Exclusive together.
	noErr(t, f.WriteFile(bg, "/q/r", []byte("x"), &WriteOptions{MkdirAll: true, Exclusive: true}))
	expectErr(t, f.WriteFile(bg, "/q/r", []byte("y"), &WriteOptions{MkdirAll: true, Exclusive: true}), EEXIST, "path exists: /q/r")
	// MkdirAll creates all missing parents in one revision.
	rev := revOf(t, f)
	put(t, f, "/one/two/three/f", "x")
	if r := revOf(t, f); r != rev+1 {
		t.Errorf("WriteFile with MkdirAll took %d revisions, want 1", r-rev)
	}
}

func TestWriteFileSizes(t *testing.T) {
	f := openTest(t)
	sizes := []int{0, 1, ChunkSize - 1, ChunkSize, ChunkSize + 1, 2 * ChunkSize, 3*ChunkSize + 5}
	var total int64
	for i, n := range sizes {
		data := seededBytes(uint64(i+1), n)
		p := "/s" + string(rune('a'+i))
		noErr(t, f.WriteFile(bg, p, data, nil))
		total += int64(n)
		got, err := f.ReadFile(bg, p)
		noErr(t, err)
		if !bytes.Equal(got, data) {
			t.Errorf("size %d: round trip differs (got %d bytes)", n, len(got))
		}
		if fi := statOf(t, f, p); fi.Bytes != int64(n) {
			t.Errorf("size %d: Stat.Bytes = %d", n, fi.Bytes)
		}
	}
	if u := usageOf(t, f); u.Bytes != total {
		t.Errorf("Usage.Bytes = %d, want %d", u.Bytes, total)
	}
	// Overwrites grow and shrink across chunk counts.
	for i, n := range []int{3*ChunkSize + 5, 1, 2*ChunkSize + 1, ChunkSize, 0, ChunkSize + 1} {
		data := seededBytes(uint64(100+i), n)
		noErr(t, f.WriteFile(bg, "/grow", data, nil))
		got, err := f.ReadFile(bg, "/grow")
		noErr(t, err)
		if !bytes.Equal(got, data) {
			t.Errorf("overwrite to %d bytes: round trip differs (got %d bytes)", n, len(got))
		}
	}
}

// pieceReader returns its data in pieces of at most n bytes.
type pieceReader struct {
	data []byte
	n    int
	err  error // returned instead of io.EOF once data is used up
}

func (r *pieceReader) Read(p []byte) (int, error) {
	if len(r.data) == 0 {
		if r.err != nil {
			return 0, r.err
		}
		return 0, io.EOF
	}
	n := min(len(p), r.n, len(r.data))
	copy(p, r.data[:n])
	r.data = r.data[n:]
	return n, nil
}

func TestWriteFromStreams(t *testing.T) {
	f := openTest(t)
	for i, size := range []int{0, 5, ChunkSize, ChunkSize + 1, 600 << 10, 3*ChunkSize + 5} {
		data := seededBytes(uint64(i+7), size)
		p := "/w" + string(rune('a'+i))
		n, err := f.WriteFrom(bg, p, &pieceReader{data: data, n: 7777}, nil)
		noErr(t, err)
		if n != int64(size) {
			t.Errorf("WriteFrom(%d bytes) returned %d", size, n)
		}
		got, err := f.ReadFile(bg, p)
		noErr(t, err)
		if !bytes.Equal(got, data) {
			t.Errorf("WriteFrom(%d bytes): round trip differs (got %d bytes)", size, len(got))
		}
		if fi := statOf(t, f, p); fi.Bytes != int64(size) {
			t.Errorf("WriteFrom(%d bytes): size %d", size, fi.Bytes)
		}
	}
	// Overwrite an existing file by streaming: same inode.
	in := statOf(t, f, "/wa").Inode
	data := seededBytes(99, 2*ChunkSize+9)
	_, err := f.WriteFrom(bg, "/wa", bytes.NewReader(data), nil)
	noErr(t, err)
	if fi := statOf(t, f, "/wa"); fi.Inode != in || fi.Bytes != int64(len(data)) {
		t.Errorf("streamed overwrite: %+v (inode was %d)", fi, in)
	}
}

func TestWriteFromReaderErrorKeepsOldContent(t *testing.T) {
	f := openTest(t)
	put(t, f, "/p", "old content")
	fi := statOf(t, f, "/p")
	boom := errors.New("boom")
	for _, size := range []int{10, ChunkSize + 10, 2*ChunkSize + 100} {
		before := usageOf(t, f)
		rev := revOf(t, f)
		_, err := f.WriteFrom(bg, "/p", &pieceReader{data: seededBytes(3, size), n: 7777, err: boom}, nil)
		expectErr(t, err, EIO, "reading source failed (boom): /p")
		if !errors.Is(err, boom) {
			t.Errorf("error does not wrap the reader's error: %v", err)
		}
		expectContent(t, f, "/p", "old content")
		fi2 := statOf(t, f, "/p")
		if fi2.Inode != fi.Inode || fi2.Bytes != fi.Bytes || fi2.Mtime != fi.Mtime {
			t.Errorf("failed write changed the node: %+v -> %+v", fi, fi2)
		}
		if after := usageOf(t, f); after.Bytes != before.Bytes || after.Entries != before.Entries {
			t.Errorf("failed write changed usage: %+v -> %+v", before, after)
		}
		if r := revOf(t, f); r != rev {
			t.Errorf("failed write moved the revision %d -> %d", rev, r)
		}
		// A failing stream to a new path creates nothing.
		_, err = f.WriteFrom(bg, "/new", &pieceReader{data: seededBytes(3, size), n: 7777, err: boom}, nil)
		expectCode(t, err, EIO)
		expectMissing(t, f, "/new")
	}
}

func TestWriteFileDedup(t *testing.T) {
	f := openTest(t)
	data := seededBytes(42, 1<<20)
	s0 := usageOf(t, f).Stored
	putBytes(t, f, "/one", data)
	s1 := usageOf(t, f).Stored
	if s1-s0 != 1<<20 {
		t.Errorf("first 1 MiB file stored %d bytes, want %d", s1-s0, 1<<20)
	}
	putBytes(t, f, "/two", data)
	putBytes(t, f, "/dir/three", data)
	if s2 := usageOf(t, f).Stored; s2 != s1 {
		t.Errorf("identical files stored again: Stored %d -> %d", s1, s2)
	}
	if u := usageOf(t, f); u.Bytes != 3<<20 {
		t.Errorf("Usage.Bytes = %d, want %d", u.Bytes, 3<<20)
	}
	// Identical chunks inside one file are stored once.
	s3 := usageOf(t, f).Stored
	putBytes(t, f, "/zeros", make([]byte, 4*ChunkSize))
	if s4 := usageOf(t, f).Stored; s4-s3 != ChunkSize {
		t.Errorf("4 zero chunks stored %d bytes, want %d", s4-s3, ChunkSize)
	}
	if got, _ := f.ReadFile(bg, "/zeros"); !bytes.Equal(got, make([]byte, 4*ChunkSize)) {
		t.Error("zeros round trip differs")
	}
	for _, p := range []string{"/one", "/two", "/dir/three"} {
		if got, _ := f.ReadFile(bg, p); !bytes.Equal(got, data) {
			t.Errorf("%s differs", p)
		}
	}
}

func TestInMemoryFS(t *testing.T) {
	f, err := Open(bg, "", nil)
	noErr(t, err)
	defer f.Close()
	data := seededBytes(5, 2*ChunkSize+11)
	noErr(t, f.WriteFile(bg, "/a/b.bin", data, &WriteOptions{MkdirAll: true}))
	got, err := f.ReadFile(bg, "/a/b.bin")
	noErr(t, err)
	if !bytes.Equal(got, data) {
		t.Error("in-memory round trip differs")
	}
	put(t, f, "/a/c.txt", "hello\n")
	l, err := f.ReadDir(bg, "/a", Page{})
	noErr(t, err)
	if got := paths(l.Entries); len(got) != 2 || got[0] != "/a/b.bin" || got[1] != "/a/c.txt" {
		t.Errorf("ReadDir = %v", got)
	}
	noErr(t, f.Remove(bg, "/a", &RemoveOptions{Recursive: true}))
	if u := usageOf(t, f); u.Entries != 1 || u.Bytes != 0 {
		t.Errorf("Usage = %+v", u)
	}
	st, err := f.GC(bg)
	noErr(t, err)
	if st.Vacuumed {
		t.Error("in-memory GC reports a vacuum")
	}
	noErr(t, f.Close())
	_, err = f.ReadFile(bg, "/x")
	expectCode(t, err, EIO)
}
