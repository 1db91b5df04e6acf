package vfs

import (
	"io"
	"os"
	"testing"
	"testing/fstest"
)

func TestLinkSharesTheNode(t *testing.T) {
	f := openTest(t)
	put(t, f, "/a", "hello")
	noErr(t, f.Mkdir(bg, "/d", 0))
	rev := revOf(t, f)
	noErr(t, f.Link(bg, "/a", "/d/b"))
	a, b := statOf(t, f, "/a"), statOf(t, f, "/d/b")
	if a.Inode != b.Inode || a.Nlink != 2 || b.Nlink != 2 {
		t.Fatalf("after link: a = {inode %d nlink %d}, b = {inode %d nlink %d}", a.Inode, a.Nlink, b.Inode, b.Nlink)
	}
	if u := usageOf(t, f); u.Entries != 4 || u.Bytes != 5 {
		t.Errorf("a link adds an entry and no bytes: Usage = %+v", u)
	}
	ch, err := f.Changes(bg, rev, 0)
	noErr(t, err)
	if len(ch) != 1 || ch[0].Op != OpLink || ch[0].Path != "/d/b" || ch[0].OldPath != "/a" || ch[0].Kind != TypeFile {
		t.Errorf("changes = %+v", ch)
	}
	// A write through either name is seen through the other.
	put(t, f, "/d/b", "rewritten")
	expectContent(t, f, "/a", "rewritten")
	noErr(t, f.Chmod(bg, "/a", 0o600))
	if b := statOf(t, f, "/d/b"); b.Perm != 0o600 {
		t.Errorf("mode through the other name = %o", b.Perm)
	}
	if u := usageOf(t, f); u.Bytes != 9 {
		t.Errorf("bytes count once per file: Usage = %+v", u)
	}
	h1, err := f.ContentHash(bg, "/a")
	noErr(t, err)
	h2, err := f.ContentHash(bg, "/d/b")
	noErr(t, err)
	if h1 != h2 || h1 != HashContent([]byte("rewritten")) {
		t.Errorf("hashes %s %s", h1, h2)
	}

	// Removing one name leaves the other whole.
	noErr(t, f.Remove(bg, "/a", nil))
	expectMissing(t, f, "/a")
	expectContent(t, f, "/d/b", "rewritten")
	if b := statOf(t, f, "/d/b"); b.Nlink != 1 {
		t.Errorf("nlink after removing one name = %d", b.Nlink)
	}
	if u := usageOf(t, f); u.Entries != 3 || u.Bytes != 9 {
		t.Errorf("after removing one name: Usage = %+v", u)
	}
	noErr(t, f.Remove(bg, "/d/b", nil))
	if u := usageOf(t, f); u.Entries != 2 || u.Bytes != 0 {
		t.Errorf("after removing both names: Usage = %+v", u)
	}
	noErr(t, checkStorage(bg, f))
}

func TestLinkRecursiveRemoveAndRename(t *testing.T) {
	f := openTest(t)
	put(t, f, "/d/a", "one")
	noErr(t, f.Link(bg, "/d/a", "/d/b"))  // both names inside the removed tree
	noErr(t, f.Link(bg, "/d/a", "/keep")) // one outside
	put(t, f, "/d/only", "two")
	noErr(t, f.Link(bg, "/d/only", "/d/only2"))
	noErr(t, f.Remove(bg, "/d", &RemoveOptions{Recursive: true}))
	expectContent(t, f, "/keep", "one")
	if fi := statOf(t, f, "/keep"); fi.Nlink != 1 {
		t.Errorf("nlink = %d", fi.Nlink)
	}
	if u := usageOf(t, f); u.Entries != 2 || u.Bytes != 3 {
		t.Errorf("Usage = %+v", u)
	}
	noErr(t, checkStorage(bg, f))

	// Renaming onto another name of the same file does nothing (rename(2)).
	noErr(t, f.Link(bg, "/keep", "/k2"))
	noErr(t, f.Rename(bg, "/keep", "/k2"))
	expectContent(t, f, "/keep", "one")
	expectContent(t, f, "/k2", "one")
	// Renaming another file over a name drops only that name.
	put(t, f, "/other", "x")
	noErr(t, f.Rename(bg, "/other", "/k2"))
	expectContent(t, f, "/k2", "x")
	if fi := statOf(t, f, "/keep"); fi.Nlink != 1 {
		t.Errorf("nlink = %d", fi.Nlink)
	}
	if u := usageOf(t, f); u.Entries != 3 || u.Bytes != 4 {
		t.Errorf("Usage = %+v", u)
	}
	noErr(t, checkStorage(bg, f))
}

func TestLinkUnlinkWhileOpen(t *testing.T) {
	f := openTest(t)
	put(t, f, "/a", "data")
	noErr(t, f.Link(bg, "/a", "/b"))
	h, err := f.OpenFile(bg, "/a", os.O_RDWR, 0)
	noErr(t, err)
	noErr(t, f.Remove(bg, "/a", nil))
	noErr(t, f.Remove(bg, "/b", nil))
	if _, err := h.Write([]byte("DA")); err != nil {
		t.Fatal(err)
	}
	if _, err := h.Seek(0, io.SeekStart); err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(h)
	noErr(t, err)
	if string(got) != "DAta" {
		t.Errorf("read %q", got)
	}
	noErr(t, h.Close())
	if _, err := f.GC(bg); err != nil {
		t.Fatal(err)
	}
	noErr(t, checkStorage(bg, f))
	if u := usageOf(t, f); u.Entries != 1 || u.Bytes != 0 {
		t.Errorf("Usage = %+v", u)
	}
}

func TestLinkSymlinkItself(t *testing.T) {
	f := openTest(t)
	put(t, f, "/target", "t")
	noErr(t, f.Symlink(bg, "target", "/sl"))
	noErr(t, f.Link(bg, "/sl", "/sl2"))
	fi := lstatOf(t, f, "/sl2")
	if fi.Kind != TypeSymlink || fi.Target != "target" || fi.Nlink != 2 {
		t.Errorf("lstat = %+v", fi)
	}
	if fi := statOf(t, f, "/target"); fi.Nlink != 1 {
		t.Errorf("the symlink's target was linked: nlink %d", fi.Nlink)
	}
	noErr(t, f.Remove(bg, "/sl", nil))
	expectContent(t, f, "/sl2", "t")
	noErr(t, checkStorage(bg, f))
}

func TestLinkErrors(t *testing.T) {
	f := openTest(t)
	put(t, f, "/a", "x")
	put(t, f, "/b", "y")
	noErr(t, f.Mkdir(bg, "/dir", 0))
	noErr(t, f.Symlink(bg, "nowhere", "/dangling"))
	noErr(t, f.Mount(bg, "/m", fstest.MapFS{"f": {Data: []byte("m")}}))
	for _, tc := range []struct {
		from, to string
		code     Errno
		msg      string
	}{
		{"/a", "/b", EEXIST, "path exists: /b"},
		{"/a", "/dangling", EEXIST, "path exists: /dangling"},
		{"/a", "/dir", EEXIST, "path exists: /dir"},
		{"/a", "/", EEXIST, "path exists: /"},
		{"/nope", "/c", ENOENT, "no such file: /nope"},
		{"/nope/x", "/c", ENOENT, "no such file: /nope/x"},
		{"/a", "/nope/c", ENOENT, "parent directory missing: /nope/c"},
		{"/a/x", "/c", ENOTDIR, "parent path segment is not a directory: /a/x"},
		{"/a", "/a/c", ENOTDIR, "parent path segment is not a directory: /a/c"},
		{"/dir", "/c", EPERM, "cannot hard-link a directory: /dir"},
		{"/", "/c", EPERM, "cannot hard-link a directory: /"},
		{"/a", "/m/c", EROFS, "read-only mount at /m: cannot modify: /m/c"},
		{"/m/f", "/c", EXDEV, "cannot link across a read-only mount: /m/f"},
		{"/m/f", "/m/g", EROFS, "read-only mount at /m: cannot modify: /m/g"},
	} {
		rev := revOf(t, f)
		expectErr(t, f.Link(bg, tc.from, tc.to), tc.code, tc.msg)
		if r := revOf(t, f); r != rev {
			t.Errorf("failed Link(%s, %s) moved the revision", tc.from, tc.to)
		}
	}
	if fi := statOf(t, f, "/a"); fi.Nlink != 1 {
		t.Errorf("nlink = %d after failed links", fi.Nlink)
	}
}

func TestLinkQuota(t *testing.T) {
	f := openTest(t, withLimits(Limits{MaxEntries: 3, MaxTotalBytes: 10}))
	put(t, f, "/a", "0123456789") // root + a
	noErr(t, f.Link(bg, "/a", "/b"))
	expectCode(t, f.Link(bg, "/a", "/c"), ENOSPC)
	if u := usageOf(t, f); u.Entries != 3 || u.Bytes != 10 {
		t.Errorf("Usage = %+v", u)
	}
}

func TestLinkInBatch(t *testing.T) {
	f := openTest(t)
	put(t, f, "/a", "x")
	noErr(t, f.Batch(bg, func(b *Batch) error {
		if err := b.Link("/a", "/b"); err != nil {
			return err
		}
		return b.WriteFile("/b", []byte("through b"), nil)
	}))
	expectContent(t, f, "/a", "through b")
	err := f.Batch(bg, func(b *Batch) error {
		if err := b.Link("/a", "/c"); err != nil {
			return err
		}
		return b.Link("/a", "/c")
	})
	expectCode(t, err, EEXIST)
	expectMissing(t, f, "/c")
	if fi := statOf(t, f, "/a"); fi.Nlink != 2 {
		t.Errorf("nlink = %d", fi.Nlink)
	}
}
