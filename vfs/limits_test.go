package vfs

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

// unchanged runs fn, which must fail, and checks that it changed neither
// the usage totals nor the revision.
func unchanged(t *testing.T, f *FS, fn func() error) error {
	t.Helper()
	before := usageOf(t, f)
	rev := revOf(t, f)
	err := fn()
	if err == nil {
		t.Fatal("operation succeeded; want an error")
	}
	if after := usageOf(t, f); after != before {
		t.Errorf("failed operation changed usage %+v -> %+v (%v)", before, after, err)
	}
	if r := revOf(t, f); r != rev {
		t.Errorf("failed operation moved the revision %d -> %d (%v)", rev, r, err)
	}
	return err
}

func TestLimitsDefaults(t *testing.T) {
	f := openTest(t)
	want := Limits{MaxFileSize: DefaultMaxFileSize, MaxTotalBytes: DefaultMaxTotalBytes, MaxEntries: DefaultMaxEntries,
		MaxPathLength: MaxPathLength, MaxNameLength: DefaultMaxNameLength, MaxPage: DefaultMaxPage, MaxChanges: DefaultMaxChanges,
		MaxTxChanges: DefaultMaxTxChanges}
	if got := f.Limits(); got != want {
		t.Errorf("Limits() = %+v, want %+v", got, want)
	}
	g := openTest(t, withLimits(Limits{MaxPathLength: 10000, MaxPage: 7}))
	if l := g.Limits(); l.MaxPathLength != MaxPathLength || l.MaxPage != 7 {
		t.Errorf("Limits() = %+v", l)
	}
}

func TestLimitMaxFileSize(t *testing.T) {
	f := openTest(t, withLimits(Limits{MaxFileSize: 100}))
	const msg = "file exceeds MaxFileSize (100 bytes): "
	noErr(t, f.WriteFile(bg, "/ok", bytes.Repeat([]byte("a"), 100), nil))
	err := unchanged(t, f, func() error { return f.WriteFile(bg, "/big", make([]byte, 101), nil) })
	expectErr(t, err, EFBIG, msg+"/big")
	err = unchanged(t, f, func() error { return f.WriteFile(bg, "/ok", make([]byte, 101), nil) })
	expectErr(t, err, EFBIG, msg+"/ok")
	err = unchanged(t, f, func() error {
		_, err := f.WriteFrom(bg, "/stream", strings.NewReader(strings.Repeat("s", 101)), nil)
		return err
	})
	expectErr(t, err, EFBIG, msg+"/stream")
	expectContent(t, f, "/ok", strings.Repeat("a", 100))
	expectMissing(t, f, "/big")
	expectMissing(t, f, "/stream")
	// Through a handle.
	h := openH(t, f, "/h", os.O_RDWR|os.O_CREATE, 0)
	_, err = h.Write(make([]byte, 101))
	expectErr(t, err, EFBIG, msg+"/h")
	_, err = h.WriteAt([]byte("xy"), 99)
	expectErr(t, err, EFBIG, msg+"/h")
	expectErr(t, h.Truncate(101), EFBIG, msg+"/h")
	_, err = h.WriteAt([]byte("x"), 99)
	noErr(t, err)
	noErr(t, h.Truncate(100))
	noErr(t, h.Close())
	if fi := statOf(t, f, "/h"); fi.Bytes != 100 {
		t.Errorf("/h is %d bytes", fi.Bytes)
	}
}

func TestLimitMaxFileSizeStreamed(t *testing.T) {
	f := openTest(t, withLimits(Limits{MaxFileSize: ChunkSize + 10}))
	const msg = "file exceeds MaxFileSize (262154 bytes): "
	put(t, f, "/p", "old")
	noErr(t, f.WriteFile(bg, "/fits", make([]byte, ChunkSize+10), nil))
	before := usageOf(t, f)
	_, err := f.WriteFrom(bg, "/p", bytes.NewReader(seededBytes(1, 2*ChunkSize)), nil)
	expectErr(t, err, EFBIG, msg+"/p")
	expectContent(t, f, "/p", "old")
	if after := usageOf(t, f); after.Bytes != before.Bytes || after.Entries != before.Entries {
		t.Errorf("usage %+v -> %+v", before, after)
	}
}

// WriteFile knows its data's size: a write over a limit must not store
// anything, not even chunks for GC to collect later.
func TestLimitFailedWriteFileStoresNothing(t *testing.T) {
	f := openTest(t, withLimits(Limits{MaxFileSize: 2 * ChunkSize, MaxTotalBytes: 3 * ChunkSize}))
	put(t, f, "/p", "old")
	err := unchanged(t, f, func() error { return f.WriteFile(bg, "/p", seededBytes(2, 2*ChunkSize+1), nil) })
	expectCode(t, err, EFBIG)
	noErr(t, f.WriteFile(bg, "/a", seededBytes(3, 2*ChunkSize), nil))
	err = unchanged(t, f, func() error { return f.WriteFile(bg, "/b", seededBytes(4, ChunkSize+100), nil) })
	expectErr(t, err, ENOSPC, "workspace exceeds MaxTotalBytes (786432 bytes): /b")
	expectContent(t, f, "/p", "old")
	expectMissing(t, f, "/b")
}

func TestLimitMaxTotalBytes(t *testing.T) {
	f := openTest(t, withLimits(Limits{MaxTotalBytes: 1000}))
	const msg = "workspace exceeds MaxTotalBytes (1000 bytes): "
	noErr(t, f.WriteFile(bg, "/a", make([]byte, 600), nil))
	err := unchanged(t, f, func() error { return f.WriteFile(bg, "/b", make([]byte, 600), nil) })
	expectErr(t, err, ENOSPC, msg+"/b")
	noErr(t, f.WriteFile(bg, "/b", make([]byte, 400), nil)) // exactly full
	err = unchanged(t, f, func() error { return f.WriteFile(bg, "/a", make([]byte, 601), nil) })
	expectErr(t, err, ENOSPC, msg+"/a")
	// Shrinking and empty files are always fine.
	noErr(t, f.WriteFile(bg, "/a", make([]byte, 500), nil))
	noErr(t, f.WriteFile(bg, "/empty", nil, nil))
	noErr(t, f.Mkdir(bg, "/d", 0))
	if u := usageOf(t, f); u.Bytes != 900 {
		t.Errorf("Usage.Bytes = %d", u.Bytes)
	}
	// Through a handle: the error surfaces when the write is flushed.
	h := openH(t, f, "/b", os.O_WRONLY|os.O_APPEND, 0)
	writeAll(t, h, make([]byte, 100))
	noErr(t, h.Sync())
	writeAll(t, h, []byte("x"))
	expectErr(t, h.Sync(), ENOSPC, msg+"/b")
	if fi := statOf(t, f, "/b"); fi.Bytes != 500 {
		t.Errorf("/b is %d bytes after the failed flush", fi.Bytes)
	}
	// The workspace is full: growing by truncation fails too.
	h2 := openH(t, f, "/empty", os.O_WRONLY, 0)
	expectErr(t, h2.Truncate(1), ENOSPC, msg+"/empty")
	noErr(t, h2.Truncate(0))
}

// A handle's failed flush is reported to that handle (Sync/Close), not to
// whichever unrelated operation happened to trigger the flush.
func TestLimitHandleFlushErrorStaysWithHandle(t *testing.T) {
	f := openTest(t, withLimits(Limits{MaxTotalBytes: 10}))
	put(t, f, "/a", "aaaaa")
	h := openH(t, f, "/b", os.O_WRONLY|os.O_CREATE, 0)
	writeAll(t, h, []byte("bbbbbbbbbb")) // buffered: 15 bytes in all
	got, err := f.ReadFile(bg, "/a")
	if err != nil || string(got) != "aaaaa" {
		t.Errorf("ReadFile(/a) = %q, %v; an unrelated read must not fail with the handle's error", got, err)
	}
	err = h.Close()
	expectErr(t, err, ENOSPC, "workspace exceeds MaxTotalBytes (10 bytes): /b")
}

func TestLimitMaxEntries(t *testing.T) {
	f := openTest(t, withLimits(Limits{MaxEntries: 4}))
	const msg = "workspace exceeds MaxEntries (4): "
	put(t, f, "/a", "a")
	put(t, f, "/b", "b")
	noErr(t, f.Mkdir(bg, "/d", 0)) // root + 3 = 4
	for _, tc := range []struct {
		name string
		fn   func() error
		path string
	}{
		{"write", func() error { return f.WriteFile(bg, "/c", []byte("c"), nil) }, "/c"},
		{"mkdir", func() error { return f.Mkdir(bg, "/e", 0) }, "/e"},
		{"mkdirall", func() error { return f.MkdirAll(bg, "/x/y/z", 0) }, "/x/y/z"},
		{"symlink", func() error { return f.Symlink(bg, "/a", "/l") }, "/l"},
		{"create", func() error {
			h, err := f.OpenFile(bg, "/o", os.O_RDWR|os.O_CREATE, 0)
			if err == nil {
				h.Close()
			}
			return err
		}, "/o"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			expectErr(t, unchanged(t, f, tc.fn), ENOSPC, msg+tc.path)
			expectMissing(t, f, tc.path)
		})
	}
	expectMissing(t, f, "/x")
	// Replacing and renaming need no new entry.
	put(t, f, "/a", "a2")
	noErr(t, f.Rename(bg, "/a", "/d/a"))
	noErr(t, f.Rename(bg, "/b", "/d/a"))
	noErr(t, f.WriteFile(bg, "/c", []byte("c"), nil))
	noErr(t, f.Remove(bg, "/c", nil))
	if u := usageOf(t, f); u.Entries != 3 {
		t.Errorf("Usage.Entries = %d", u.Entries)
	}
}

func TestLimitNameAndPathLength(t *testing.T) {
	f := openTest(t, withLimits(Limits{MaxNameLength: 8, MaxPathLength: 20}))
	const nameMsg = "name exceeds MaxNameLength (8 bytes): "
	const pathMsg = "path exceeds MaxPathLength (20 bytes): "
	put(t, f, "/12345678", "ok")
	noErr(t, f.Mkdir(bg, "/dir", 0))
	long := "/123456789"
	wide := "/ééééé" // 5 runes, 10 bytes
	for _, tc := range []struct {
		name string
		fn   func(p string) error
	}{
		{"write", func(p string) error { return f.WriteFile(bg, p, []byte("x"), nil) }},
		{"mkdir", func(p string) error { return f.Mkdir(bg, p, 0) }},
		{"mkdirall", func(p string) error { return f.MkdirAll(bg, p, 0) }},
		{"symlink", func(p string) error { return f.Symlink(bg, "/dir", p) }},
		{"rename", func(p string) error { return f.Rename(bg, "/12345678", p) }},
		{"create", func(p string) error {
			h, err := f.OpenFile(bg, p, os.O_WRONLY|os.O_CREATE, 0)
			if err == nil {
				h.Close()
			}
			return err
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			expectErr(t, unchanged(t, f, func() error { return tc.fn(long) }), ENAMETOOLONG, nameMsg+long)
			expectErr(t, unchanged(t, f, func() error { return tc.fn("/dir" + wide) }), ENAMETOOLONG, nameMsg+"/dir"+wide)
		})
	}
	// 20 bytes is fine, 21 is not, for every operation (reads included).
	p20 := "/dir/aaaaaaa/bbbbbbb" // 20 bytes
	p21 := p20 + "c"
	noErr(t, f.WriteFile(bg, p20, []byte("x"), &WriteOptions{MkdirAll: true}))
	expectErr(t, f.WriteFile(bg, p21, []byte("x"), nil), ENAMETOOLONG, pathMsg+p21)
	_, err := f.Stat(bg, p21)
	expectErr(t, err, ENAMETOOLONG, pathMsg+p21)
	_, err = f.ReadFile(bg, "/dir/../dir/aaaaaaa/bbbbbbb")
	noErr(t, err) // the canonical path counts, not the spelling
	expectErr(t, f.Symlink(bg, strings.Repeat("t", 21), "/l"), ENAMETOOLONG, "symlink target exceeds MaxPathLength: /l")
	noErr(t, f.Symlink(bg, strings.Repeat("t", 20), "/l"))
}

func TestLimitMaxPage(t *testing.T) {
	f := openTest(t, withLimits(Limits{MaxPage: 3}))
	for _, n := range []string{"a", "b", "c", "d", "e"} {
		put(t, f, "/d/"+n, "match\n")
	}
	for _, page := range []Page{{}, {Limit: 10}, {Limit: 3}} {
		l, err := f.ReadDir(bg, "/d", page)
		noErr(t, err)
		if len(l.Entries) != 3 || l.NextOffset != 3 {
			t.Errorf("ReadDir(%+v) = %d entries, next %d", page, len(l.Entries), l.NextOffset)
		}
		l, err = f.Find(bg, "/d", "", &FindOptions{Page: page})
		noErr(t, err)
		if len(l.Entries) != 3 || l.NextOffset != 3 {
			t.Errorf("Find(%+v) = %d entries, next %d", page, len(l.Entries), l.NextOffset)
		}
		l, err = f.Ls(bg, "/d", page)
		noErr(t, err)
		if len(l.Entries) != 3 || l.NextOffset != 3 {
			t.Errorf("Ls(%+v) = %d entries, next %d", page, len(l.Entries), l.NextOffset)
		}
		res, err := f.Grep(bg, "match", "/d", &GrepOptions{Page: page})
		noErr(t, err)
		if len(res.Matches) != 3 || res.NextOffset != 3 {
			t.Errorf("Grep(%+v) = %d matches, next %d", page, len(res.Matches), res.NextOffset)
		}
		res, err = f.Grep(bg, "match", "/d", &GrepOptions{Page: page, Mode: GrepFiles})
		noErr(t, err)
		if len(res.Files) != 3 || res.NextOffset != 3 {
			t.Errorf("Grep files(%+v) = %d files, next %d", page, len(res.Files), res.NextOffset)
		}
	}
	l, err := f.ReadDir(bg, "/d", Page{Limit: 2})
	noErr(t, err)
	if len(l.Entries) != 2 || l.NextOffset != 2 {
		t.Errorf("ReadDir(Limit 2) = %d entries, next %d", len(l.Entries), l.NextOffset)
	}
	l, err = f.ReadDir(bg, "/d", Page{Limit: 10, Offset: 3})
	noErr(t, err)
	if len(l.Entries) != 2 || l.NextOffset != 0 {
		t.Errorf("ReadDir last page = %d entries, next %d", len(l.Entries), l.NextOffset)
	}
}
