package vfs

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

func openH(t testing.TB, f *FS, p string, flag int, perm fs.FileMode) *File {
	t.Helper()
	h, err := f.OpenFile(bg, p, flag, perm)
	if err != nil {
		t.Fatalf("OpenFile(%s, %#x): %v", p, flag, err)
	}
	t.Cleanup(func() { h.Close() })
	return h
}

func writeAll(t testing.TB, w io.Writer, p []byte) {
	t.Helper()
	n, err := w.Write(p)
	if err != nil || n != len(p) {
		t.Fatalf("Write(%d bytes) = %d, %v", len(p), n, err)
	}
}

func TestOpenFileFlags(t *testing.T) {
	f := openTest(t)
	// O_CREATE with perm; 0 means the default.
	h := openH(t, f, "/p", os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	writeAll(t, h, []byte("data"))
	noErr(t, h.Close())
	if fi := statOf(t, f, "/p"); fi.Perm != 0o600 || fi.Bytes != 4 {
		t.Errorf("created file: %+v", fi)
	}
	h = openH(t, f, "/q", os.O_RDWR|os.O_CREATE, 0)
	noErr(t, h.Close())
	if fi := statOf(t, f, "/q"); fi.Perm != DefaultFileMode || fi.Bytes != 0 {
		t.Errorf("created file: %+v", fi)
	}
	// O_EXCL on an existing file, and on a dangling link (not followed).
	noErr(t, f.Symlink(bg, "/made", "/dangling"))
	for _, p := range []string{"/p", "/dangling"} {
		_, err := f.OpenFile(bg, p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0)
		expectErr(t, err, EEXIST, "path exists: "+p)
	}
	expectMissing(t, f, "/made")
	// O_CREATE through a dangling link creates its target.
	h = openH(t, f, "/dangling", os.O_WRONLY|os.O_CREATE, 0)
	writeAll(t, h, []byte("via link"))
	noErr(t, h.Close())
	expectContent(t, f, "/made", "via link")
	// Missing file without O_CREATE.
	for _, flag := range []int{os.O_RDONLY, os.O_WRONLY, os.O_RDWR | os.O_TRUNC} {
		_, err := f.OpenFile(bg, "/nope", flag, 0)
		expectErr(t, err, ENOENT, "no such file: /nope")
	}
	_, err := f.OpenFile(bg, "/nodir/x", os.O_RDWR|os.O_CREATE, 0)
	expectCode(t, err, ENOENT)
	// O_TRUNC empties an existing file, keeping its inode and mode.
	in := statOf(t, f, "/p").Inode
	h = openH(t, f, "/p", os.O_RDWR|os.O_TRUNC, 0)
	if fi := statOf(t, f, "/p"); fi.Inode != in || fi.Bytes != 0 || fi.Perm != 0o600 {
		t.Errorf("after O_TRUNC: %+v", fi)
	}
	writeAll(t, h, []byte("xy"))
	noErr(t, h.Close())
	expectContent(t, f, "/p", "xy")
	// Directories open read-only.
	noErr(t, f.Mkdir(bg, "/d", 0))
	for _, flag := range []int{os.O_WRONLY, os.O_RDWR, os.O_RDWR | os.O_CREATE} {
		_, err := f.OpenFile(bg, "/d", flag, 0)
		expectErr(t, err, EISDIR, "path is a directory: /d")
	}
	if u := usageOf(t, f); u.Entries != 6 || u.Bytes != int64(len("xy")+len("via link")) {
		t.Errorf("Usage = %+v", u)
	}
}

func TestFileAppendTwoHandles(t *testing.T) {
	f := openTest(t)
	put(t, f, "/log", "start\n")
	h1 := openH(t, f, "/log", os.O_WRONLY|os.O_APPEND, 0)
	h2 := openH(t, f, "/log", os.O_WRONLY|os.O_APPEND, 0)
	for _, s := range []string{"1a\n", "2a\n", "1b\n", "2b\n"} {
		h := h1
		if s[0] == '2' {
			h = h2
		}
		writeAll(t, h, []byte(s))
	}
	noErr(t, h1.Close())
	noErr(t, h2.Close())
	expectContent(t, f, "/log", "start\n1a\n2a\n1b\n2b\n")
}

func TestFileAppendAfterOtherWrites(t *testing.T) {
	f := openTest(t)
	put(t, f, "/log", "123")
	h := openH(t, f, "/log", os.O_WRONLY|os.O_APPEND, 0)
	writeAll(t, h, []byte("4"))
	put(t, f, "/log", "abcdef")
	writeAll(t, h, []byte("g"))
	noErr(t, h.Close())
	expectContent(t, f, "/log", "abcdefg")
	// Appends across a chunk boundary.
	put(t, f, "/big", string(make([]byte, ChunkSize-2)))
	h = openH(t, f, "/big", os.O_WRONLY|os.O_APPEND, 0)
	writeAll(t, h, []byte("12345"))
	writeAll(t, h, []byte("678"))
	_, err := h.WriteAt([]byte("x"), 0)
	expectErr(t, err, EINVAL, "WriteAt on a file opened with O_APPEND: /big")
	noErr(t, h.Close())
	got, err := f.ReadRange(bg, "/big", ChunkSize-3, 100)
	noErr(t, err)
	if string(got) != "\x0012345678" {
		t.Errorf("tail = %q", got)
	}
}

// Two handles writing different bytes of the same chunk must not undo each
// other's writes.
func TestFileTwoHandlesSameChunk(t *testing.T) {
	f := openTest(t)
	put(t, f, "/p", "....................")
	h1 := openH(t, f, "/p", os.O_RDWR, 0)
	h2 := openH(t, f, "/p", os.O_RDWR, 0)
	_, err := h1.WriteAt([]byte("AAAA"), 0)
	noErr(t, err)
	_, err = h2.WriteAt([]byte("BBBB"), 10)
	noErr(t, err)
	noErr(t, h1.Close())
	noErr(t, h2.Close())
	expectContent(t, f, "/p", "AAAA......BBBB......")
}

// A truncate through one handle must apply after another handle's earlier
// (buffered) write, as every other mutation does.
func TestFileTruncateAfterOtherHandleWrite(t *testing.T) {
	f := openTest(t)
	put(t, f, "/p", "")
	h1 := openH(t, f, "/p", os.O_RDWR, 0)
	h2 := openH(t, f, "/p", os.O_RDWR, 0)
	writeAll(t, h1, []byte("hello world"))
	noErr(t, h2.Truncate(5))
	expectContent(t, f, "/p", "hello")
	noErr(t, h1.Close())
	noErr(t, h2.Close())
	expectContent(t, f, "/p", "hello")
}

func TestFileReadWriteSeekAcrossChunks(t *testing.T) {
	f := openTest(t)
	data := seededBytes(21, 3*ChunkSize+5)
	h := openH(t, f, "/p", os.O_RDWR|os.O_CREATE, 0)
	writeAll(t, h, data)
	if pos, err := h.Seek(0, io.SeekCurrent); err != nil || pos != int64(len(data)) {
		t.Errorf("offset after write = %d, %v", pos, err)
	}
	if pos, err := h.Seek(0, io.SeekStart); err != nil || pos != 0 {
		t.Fatalf("Seek = %d, %v", pos, err)
	}
	got, err := io.ReadAll(h)
	noErr(t, err)
	if !bytes.Equal(got, data) {
		t.Errorf("ReadAll = %d bytes, differs", len(got))
	}
	// Read at EOF.
	n, err := h.Read(make([]byte, 10))
	if n != 0 || err != io.EOF {
		t.Errorf("Read at EOF = %d, %v", n, err)
	}
	// ReadAt across a boundary, and past the end.
	buf := make([]byte, 100)
	n, err = h.ReadAt(buf, ChunkSize-50)
	if n != 100 || err != nil || !bytes.Equal(buf, data[ChunkSize-50:ChunkSize+50]) {
		t.Errorf("ReadAt across boundary = %d, %v", n, err)
	}
	n, err = h.ReadAt(buf, int64(len(data))-40)
	if n != 40 || err != io.EOF || !bytes.Equal(buf[:40], data[len(data)-40:]) {
		t.Errorf("ReadAt at the end = %d, %v", n, err)
	}
	n, err = h.ReadAt(buf, int64(len(data))+10)
	if n != 0 || err != io.EOF {
		t.Errorf("ReadAt past the end = %d, %v", n, err)
	}
	_, err = h.ReadAt(buf, -1)
	expectErr(t, err, EINVAL, "negative offset: /p")
	// WriteAt across two boundaries.
	patch := bytes.Repeat([]byte("X"), ChunkSize+20)
	_, err = h.WriteAt(patch, ChunkSize-10)
	noErr(t, err)
	copy(data[ChunkSize-10:], patch)
	if pos, _ := h.Seek(0, io.SeekCurrent); pos != int64(len(data)) {
		t.Errorf("WriteAt moved the offset to %d", pos)
	}
	got, err = f.ReadFile(bg, "/p")
	noErr(t, err)
	if !bytes.Equal(got, data) {
		t.Error("content after WriteAt differs")
	}
	// Seek whences.
	pos, err := h.Seek(-5, io.SeekEnd)
	if err != nil || pos != int64(len(data))-5 {
		t.Errorf("SeekEnd = %d, %v", pos, err)
	}
	pos, err = h.Seek(2, io.SeekCurrent)
	if err != nil || pos != int64(len(data))-3 {
		t.Errorf("SeekCurrent = %d, %v", pos, err)
	}
	small := make([]byte, 10)
	n, err = h.Read(small)
	if n != 3 || err != nil || !bytes.Equal(small[:3], data[len(data)-3:]) {
		t.Errorf("Read of last 3 = %d, %v", n, err)
	}
	_, err = h.Seek(-1, io.SeekStart)
	expectErr(t, err, EINVAL, "negative position: /p")
	_, err = h.Seek(0, 7)
	expectErr(t, err, EINVAL, "invalid whence: /p")
	// WriteTo streams the rest.
	_, err = h.Seek(ChunkSize, io.SeekStart)
	noErr(t, err)
	var out bytes.Buffer
	m, err := h.WriteTo(&out)
	if err != nil || m != int64(len(data)-ChunkSize) || !bytes.Equal(out.Bytes(), data[ChunkSize:]) {
		t.Errorf("WriteTo = %d, %v", m, err)
	}
	var _ interface {
		io.ReadWriteSeeker
		io.ReaderAt
		io.WriterAt
		io.WriterTo
		io.Closer
		fs.ReadDirFile
	} = h
}

// A read that starts in the chunk a handle read last and runs into the next
// chunk must still be complete: ReadAt returns len(p) bytes or an error.
func TestFileReadAtAfterCachedChunk(t *testing.T) {
	f := openTest(t)
	data := seededBytes(22, 2*ChunkSize)
	putBytes(t, f, "/p", data)
	h := openH(t, f, "/p", os.O_RDONLY, 0)
	for i := 0; i < 3; i++ {
		buf := make([]byte, 10)
		if _, err := h.ReadAt(buf, ChunkSize-100); err != nil {
			t.Fatal(err)
		}
		buf = make([]byte, 100)
		n, err := h.ReadAt(buf, ChunkSize-50)
		if n != 100 || err != nil || !bytes.Equal(buf, data[ChunkSize-50:ChunkSize+50]) {
			t.Fatalf("ReadAt(100 bytes at ChunkSize-50) right after a read of chunk 0 = %d, %v", n, err)
		}
	}
}

func TestFileSparseWrite(t *testing.T) {
	f := openTest(t)
	h := openH(t, f, "/sparse", os.O_RDWR|os.O_CREATE, 0)
	off := int64(2*ChunkSize + 7)
	_, err := h.WriteAt([]byte("end"), off)
	noErr(t, err)
	fi, err := h.Stat()
	noErr(t, err)
	if fi.Size() != off+3 {
		t.Errorf("size = %d, want %d", fi.Size(), off+3)
	}
	got, err := f.ReadFile(bg, "/sparse")
	noErr(t, err)
	want := append(make([]byte, off), "end"...)
	if !bytes.Equal(got, want) {
		t.Errorf("sparse file differs (len %d)", len(got))
	}
	// A gap inside one chunk.
	h2 := openH(t, f, "/small", os.O_RDWR|os.O_CREATE, 0)
	writeAll(t, h2, []byte("abc"))
	_, err = h2.WriteAt([]byte("z"), 10)
	noErr(t, err)
	expectContent(t, f, "/small", "abc\x00\x00\x00\x00\x00\x00\x00z")
	// Seeking past the end and writing.
	_, err = h2.Seek(ChunkSize+1, io.SeekStart)
	noErr(t, err)
	writeAll(t, h2, []byte("!"))
	got, err = f.ReadFile(bg, "/small")
	noErr(t, err)
	want = make([]byte, ChunkSize+2)
	copy(want, "abc\x00\x00\x00\x00\x00\x00\x00z")
	want[ChunkSize+1] = '!'
	if !bytes.Equal(got, want) {
		t.Errorf("seek-past-end write differs (len %d)", len(got))
	}
}

func TestFileTruncate(t *testing.T) {
	f := openTest(t)
	data := seededBytes(31, 2*ChunkSize+100)
	putBytes(t, f, "/p", data)
	h := openH(t, f, "/p", os.O_RDWR, 0)
	check := func(want []byte) {
		t.Helper()
		got, err := f.ReadFile(bg, "/p")
		noErr(t, err)
		if !bytes.Equal(got, want) {
			t.Errorf("content: %d bytes, want %d bytes (equal prefix: %v)", len(got), len(want),
				len(got) >= len(want) && bytes.Equal(got[:len(want)], want))
		}
		if fi := statOf(t, f, "/p"); fi.Bytes != int64(len(want)) {
			t.Errorf("Stat.Bytes = %d, want %d", fi.Bytes, len(want))
		}
		if u := usageOf(t, f); u.Bytes != int64(len(want)) {
			t.Errorf("Usage.Bytes = %d, want %d", u.Bytes, len(want))
		}
	}
	noErr(t, h.Truncate(ChunkSize+5))
	check(data[:ChunkSize+5])
	noErr(t, h.Truncate(3*ChunkSize))
	check(append(slices.Clone(data[:ChunkSize+5]), make([]byte, 2*ChunkSize-5)...))
	noErr(t, h.Truncate(ChunkSize))
	check(data[:ChunkSize])
	noErr(t, h.Truncate(10))
	check(data[:10])
	noErr(t, h.Truncate(10))
	check(data[:10])
	noErr(t, h.Truncate(0))
	check([]byte{})
	expectErr(t, h.Truncate(-1), EINVAL, "negative size: /p")
	// Truncate below a pending write.
	writeAll(t, h, []byte("0123456789"))
	noErr(t, h.Truncate(4))
	check([]byte("0123"))
	// The offset is not moved by Truncate: the next write leaves a gap.
	writeAll(t, h, []byte("X"))
	check([]byte("0123\x00\x00\x00\x00\x00\x00X"))
}

func TestFileBufferedWritesVisible(t *testing.T) {
	f := openTest(t)
	h := openH(t, f, "/p", os.O_RDWR|os.O_CREATE, 0)
	writeAll(t, h, []byte("hello"))
	// Handle Stat includes the pending bytes.
	fi, err := h.Stat()
	noErr(t, err)
	if fi.Size() != 5 || fi.Name() != "p" {
		t.Errorf("h.Stat = %d %q", fi.Size(), fi.Name())
	}
	// Every FS read sees the write without Sync.
	expectContent(t, f, "/p", "hello")
	writeAll(t, h, []byte(", world"))
	if fi := statOf(t, f, "/p"); fi.Bytes != 12 {
		t.Errorf("FS.Stat size = %d", fi.Bytes)
	}
	writeAll(t, h, []byte("!"))
	l, err := f.ReadDir(bg, "/", Page{})
	noErr(t, err)
	if len(l.Entries) != 1 || l.Entries[0].Size != 13 {
		t.Errorf("ReadDir = %+v", l.Entries)
	}
	writeAll(t, h, []byte("\nneedle"))
	res, err := f.Grep(bg, "needle", "/", nil)
	noErr(t, err)
	if len(res.Matches) != 1 || res.Matches[0].Line != 2 {
		t.Errorf("Grep = %+v", res.Matches)
	}
	writeAll(t, h, []byte("?"))
	if u := usageOf(t, f); u.Bytes != 21 {
		t.Errorf("Usage.Bytes = %d, want 21", u.Bytes)
	}
	// Another handle reads it too.
	r := openH(t, f, "/p", os.O_RDONLY, 0)
	writeAll(t, h, []byte("~"))
	got, err := io.ReadAll(r)
	noErr(t, err)
	if string(got) != "hello, world!\nneedle?~" {
		t.Errorf("other handle read %q", got)
	}
	noErr(t, h.Sync())
	noErr(t, h.Close())
}

func TestFileUnlinkedWhileOpen(t *testing.T) {
	clk := newClock()
	f := openTest(t, withClock(clk))
	data := seededBytes(41, 2*ChunkSize+17)
	putBytes(t, f, "/p", data)
	h := openH(t, f, "/p", os.O_RDWR, 0)
	noErr(t, f.Remove(bg, "/p", nil))
	expectMissing(t, f, "/p")
	if u := usageOf(t, f); u.Bytes != 0 || u.Entries != 1 {
		t.Errorf("Usage after remove = %+v", u)
	}
	got, err := io.ReadAll(h)
	noErr(t, err)
	if !bytes.Equal(got, data) {
		t.Errorf("read through the handle after remove: %d bytes", len(got))
	}
	fi, err := h.Stat()
	noErr(t, err)
	if fi.Size() != int64(len(data)) || fi.(*FileInfo).Nlink != 0 {
		t.Errorf("h.Stat after remove: size %d nlink %d", fi.Size(), fi.(*FileInfo).Nlink)
	}
	// Writes still work and stay invisible.
	_, err = h.WriteAt([]byte("new"), 0)
	noErr(t, err)
	buf := make([]byte, 3)
	_, err = h.ReadAt(buf, 0)
	noErr(t, err)
	if string(buf) != "new" {
		t.Errorf("ReadAt = %q", buf)
	}
	expectMissing(t, f, "/p")
	if u := usageOf(t, f); u.Bytes != 0 || u.Entries != 1 {
		t.Errorf("Usage after write to the unlinked file = %+v", u)
	}
	// A new file at the same name is a different file.
	put(t, f, "/p", "other")
	expectContent(t, f, "/p", "other")
	noErr(t, h.Close())
	expectContent(t, f, "/p", "other")
	clk.Advance(2 * time.Hour)
	st, err := f.GC(bg)
	noErr(t, err)
	if st.Orphans != 0 {
		t.Errorf("GC found %d orphans; Close should have deleted the file", st.Orphans)
	}
	if u := usageOf(t, f); u.Stored != int64(len("other")) || u.Bytes != 5 || u.Entries != 2 {
		t.Errorf("Usage after close and GC = %+v, want only /p's 5 bytes stored", u)
	}
}

func TestFileClosed(t *testing.T) {
	f := openTest(t)
	put(t, f, "/p", "abc")
	h, err := f.OpenFile(bg, "/p", os.O_RDWR, 0)
	noErr(t, err)
	noErr(t, h.Close())
	const msg = "file already closed: /p"
	_, err = h.Read(make([]byte, 1))
	expectErr(t, err, EBADF, msg)
	_, err = h.ReadAt(make([]byte, 1), 0)
	expectErr(t, err, EBADF, msg)
	_, err = h.Write([]byte("x"))
	expectErr(t, err, EBADF, msg)
	_, err = h.WriteAt([]byte("x"), 0)
	expectErr(t, err, EBADF, msg)
	_, err = h.Seek(0, io.SeekStart)
	expectErr(t, err, EBADF, msg)
	_, err = h.Stat()
	expectErr(t, err, EBADF, msg)
	expectErr(t, h.Truncate(0), EBADF, msg)
	expectErr(t, h.Sync(), EBADF, msg)
	expectErr(t, h.Close(), EBADF, msg)
	_, err = h.ReadDir(1)
	expectErr(t, err, EBADF, msg)
	expectContent(t, f, "/p", "abc")
	// Handles of a closed FS.
	f2 := openTest(t)
	put(t, f2, "/q", "q")
	h2, err := f2.OpenFile(bg, "/q", os.O_RDWR, 0)
	noErr(t, err)
	noErr(t, f2.Close())
	_, err = h2.Read(make([]byte, 1))
	expectCode(t, err, EBADF)
}

// Like *os.File, a closed handle's errors satisfy errors.Is(err,
// fs.ErrClosed), whose text "file already closed" they carry.
func TestFileClosedIsErrClosed(t *testing.T) {
	f := openTest(t)
	put(t, f, "/p", "abc")
	h, err := f.Open(bg, "/p")
	noErr(t, err)
	noErr(t, h.Close())
	_, err = h.Read(make([]byte, 1))
	if !errors.Is(err, fs.ErrClosed) {
		t.Errorf("errors.Is(%v, fs.ErrClosed) = false", err)
	}
	if err := h.Close(); !errors.Is(err, fs.ErrClosed) {
		t.Errorf("second Close: errors.Is(%v, fs.ErrClosed) = false", err)
	}
}

func TestFileAccessModes(t *testing.T) {
	f := openTest(t)
	put(t, f, "/p", "abc")
	w := openH(t, f, "/p", os.O_WRONLY, 0)
	_, err := w.Read(make([]byte, 1))
	expectErr(t, err, EBADF, "file not open for reading: /p")
	_, err = w.ReadAt(make([]byte, 1), 0)
	expectErr(t, err, EBADF, "file not open for reading: /p")
	r := openH(t, f, "/p", os.O_RDONLY, 0)
	_, err = r.Write([]byte("x"))
	expectErr(t, err, EBADF, "file not open for writing: /p")
	_, err = r.WriteAt([]byte("x"), 0)
	expectErr(t, err, EBADF, "file not open for writing: /p")
	expectErr(t, r.Truncate(0), EBADF, "file not open for writing: /p")
	_, err = r.ReadDir(-1)
	expectErr(t, err, ENOTDIR, "not a directory: /p")
	expectContent(t, f, "/p", "abc")
}

func TestFileDirectoryHandle(t *testing.T) {
	f := openTest(t, withLimits(Limits{MaxPage: 2}))
	names := []string{"e", "a", "d", "c", "b"}
	for _, n := range names {
		put(t, f, "/d/"+n, n)
	}
	h := openH(t, f, "/d", os.O_RDONLY, 0)
	var got []string
	for {
		des, err := h.ReadDir(2)
		if err == io.EOF {
			if len(des) != 0 {
				t.Errorf("EOF with %d entries", len(des))
			}
			break
		}
		noErr(t, err)
		if len(des) == 0 || len(des) > 2 {
			t.Fatalf("ReadDir(2) returned %d entries", len(des))
		}
		for _, de := range des {
			got = append(got, de.Name())
			if de.IsDir() || de.Type() != 0 {
				t.Errorf("%s: IsDir %v Type %v", de.Name(), de.IsDir(), de.Type())
			}
		}
	}
	if want := []string{"a", "b", "c", "d", "e"}; !slices.Equal(got, want) {
		t.Errorf("ReadDir pages = %v", got)
	}
	// Still at EOF; ReadDir(-1) returns nothing and no error.
	if des, err := h.ReadDir(1); err != io.EOF || len(des) != 0 {
		t.Errorf("ReadDir(1) at end = %d, %v", len(des), err)
	}
	if des, err := h.ReadDir(-1); err != nil || len(des) != 0 {
		t.Errorf("ReadDir(-1) at end = %d, %v", len(des), err)
	}
	// Rewind; n <= 0 returns everything, across MaxPage-sized pages.
	pos, err := h.Seek(0, io.SeekStart)
	if err != nil || pos != 0 {
		t.Errorf("rewind = %d, %v", pos, err)
	}
	des, err := h.ReadDir(0)
	noErr(t, err)
	if len(des) != 5 || des[0].Name() != "a" || des[4].Name() != "e" {
		t.Errorf("ReadDir(0) after rewind = %d entries", len(des))
	}
	info, err := des[1].Info()
	noErr(t, err)
	if info.Size() != 1 || info.Mode() != 0o644 {
		t.Errorf("entry info: %d %v", info.Size(), info.Mode())
	}
	_, err = h.Seek(1, io.SeekStart)
	expectErr(t, err, EINVAL, "directories can only rewind: /d")
	_, err = h.Read(make([]byte, 1))
	expectErr(t, err, EISDIR, "path is a directory: /d")
	fi, err := h.Stat()
	noErr(t, err)
	if !fi.IsDir() || fi.Name() != "d" {
		t.Errorf("dir handle Stat: %v %q", fi.IsDir(), fi.Name())
	}
	// Entries added after a page are seen by the next page.
	h2 := openH(t, f, "/d", os.O_RDONLY, 0)
	first, err := h2.ReadDir(2)
	noErr(t, err)
	put(t, f, "/d/zz", "")
	rest, err := h2.ReadDir(-1)
	noErr(t, err)
	var all []string
	for _, de := range append(first, rest...) {
		all = append(all, de.Name())
	}
	if want := []string{"a", "b", "c", "d", "e", "zz"}; !slices.Equal(all, want) {
		t.Errorf("ReadDir with a concurrent create = %v", all)
	}
}

// TestFileRandomOps cross-checks a random sequence of handle operations
// against a []byte model of the file.
func TestFileRandomOps(t *testing.T) {
	f := openTest(t, withGCWindow(time.Nanosecond))
	rng := rand.New(rand.NewPCG(7, 11))
	const maxSize = 3*ChunkSize + 1000
	h := openH(t, f, "/prop", os.O_RDWR|os.O_CREATE, 0)
	var model []byte
	var off int64
	randLen := func() int {
		switch r := rng.IntN(100); {
		case r < 55:
			return 1 + rng.IntN(100)
		case r < 85:
			return 1 + rng.IntN(8192)
		default:
			return 1 + rng.IntN(ChunkSize+2000)
		}
	}
	randPos := func() int64 {
		if rng.IntN(3) == 0 { // near a chunk boundary
			return max(0, int64(rng.IntN(4))*ChunkSize+int64(rng.IntN(64))-32)
		}
		return rng.Int64N(maxSize)
	}
	writeModel := func(p []byte, at int64) {
		if end := at + int64(len(p)); end > int64(len(model)) {
			model = append(model, make([]byte, end-int64(len(model)))...)
		}
		copy(model[at:], p)
	}
	compareWindow := func(i int, at int64, n int) {
		t.Helper()
		buf := make([]byte, n)
		got, err := h.ReadAt(buf, at)
		var want []byte
		if at < int64(len(model)) {
			want = model[at:min(int64(len(model)), at+int64(n))]
		}
		wantErr := error(nil)
		if len(want) < n {
			wantErr = io.EOF
		}
		if got != len(want) || err != wantErr || !bytes.Equal(buf[:got], want) {
			t.Fatalf("op %d: ReadAt(%d bytes at %d) = %d, %v; want %d, %v (file %d bytes)", i, n, at, got, err, len(want), wantErr, len(model))
		}
	}
	for i := 0; i < 500; i++ {
		switch op := rng.IntN(20); {
		case op < 6: // WriteAt
			at, p := randPos(), seededBytes(rng.Uint64(), randLen())
			n, err := h.WriteAt(p, at)
			if err != nil || n != len(p) {
				t.Fatalf("op %d: WriteAt(%d bytes at %d) = %d, %v", i, len(p), at, n, err)
			}
			writeModel(p, at)
		case op < 10: // Seek + Write
			at := randPos()
			if _, err := h.Seek(at, io.SeekStart); err != nil {
				t.Fatal(err)
			}
			p := seededBytes(rng.Uint64(), randLen())
			if n, err := h.Write(p); err != nil || n != len(p) {
				t.Fatalf("op %d: Write = %d, %v", i, n, err)
			}
			writeModel(p, at)
			off = at + int64(len(p))
			if pos, _ := h.Seek(0, io.SeekCurrent); pos != off {
				t.Fatalf("op %d: offset %d, want %d", i, pos, off)
			}
		case op < 12: // Truncate
			size := randPos()
			if err := h.Truncate(size); err != nil {
				t.Fatalf("op %d: Truncate(%d): %v", i, size, err)
			}
			if size < int64(len(model)) {
				model = model[:size]
			} else {
				model = append(model, make([]byte, size-int64(len(model)))...)
			}
		case op < 15: // ReadAt
			compareWindow(i, randPos(), randLen())
		case op < 17: // Seek from the end + Read
			back := rng.Int64N(int64(len(model)) + 1)
			pos, err := h.Seek(-back, io.SeekEnd)
			if err != nil || pos != int64(len(model))-back {
				t.Fatalf("op %d: Seek(-%d, end) = %d, %v (size %d)", i, back, pos, err, len(model))
			}
			buf := make([]byte, randLen())
			n, err := io.ReadFull(h, buf)
			want := model[pos:min(int64(len(model)), pos+int64(len(buf)))]
			if n != len(want) || !bytes.Equal(buf[:n], want) || (n < len(buf) && err == nil) {
				t.Fatalf("op %d: Read at %d = %d, %v; want %d bytes", i, pos, n, err, len(want))
			}
		case op < 19: // FS-level view of the same file
			fi, err := h.Stat()
			if err != nil || fi.Size() != int64(len(model)) {
				t.Fatalf("op %d: h.Stat size = %v, %v; want %d", i, fi, err, len(model))
			}
			at, n := randPos(), int64(randLen())
			got, err := f.ReadRange(bg, "/prop", at, n)
			var want []byte
			if at < int64(len(model)) {
				want = model[at:min(int64(len(model)), at+n)]
			}
			if err != nil || !bytes.Equal(got, want) {
				t.Fatalf("op %d: ReadRange(%d, %d) = %d bytes, %v; want %d", i, at, n, len(got), err, len(want))
			}
		default: // GC in the middle (window 1ns): must not lose live data
			if _, err := f.GC(bg); err != nil {
				t.Fatalf("op %d: GC: %v", i, err)
			}
		}
		if i%100 == 99 {
			got, err := f.ReadFile(bg, "/prop")
			if err != nil || !bytes.Equal(got, model) {
				t.Fatalf("op %d: ReadFile = %d bytes, %v; model %d bytes", i, len(got), err, len(model))
			}
		}
	}
	noErr(t, h.Close())
	got, err := f.ReadFile(bg, "/prop")
	if err != nil || !bytes.Equal(got, model) {
		t.Fatalf("after Close: ReadFile = %d bytes, %v; model %d bytes", len(got), err, len(model))
	}
	if u := usageOf(t, f); u.Bytes != int64(len(model)) {
		t.Errorf("Usage.Bytes = %d, want %d", u.Bytes, len(model))
	}
	_, err = f.GC(bg)
	noErr(t, err)
	// After GC only the live chunks remain (at most one per chunk index,
	// fewer when chunks are shared).
	if u := usageOf(t, f); u.Stored > int64(len(model)) {
		t.Errorf("Usage.Stored = %d after GC, more than the file's %d bytes", u.Stored, len(model))
	}
}

// Closing the filesystem commits what open handles still buffer.
func TestCloseFlushesHandles(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ws.db")
	f, err := Open(bg, path, nil)
	noErr(t, err)
	h, err := f.OpenFile(bg, "/pending", os.O_CREATE|os.O_WRONLY, 0)
	noErr(t, err)
	_, err = h.Write([]byte("buffered, never synced"))
	noErr(t, err)
	noErr(t, f.Close())
	f, err = Open(bg, path, nil)
	noErr(t, err)
	defer f.Close()
	expectContent(t, f, "/pending", "buffered, never synced")
}
