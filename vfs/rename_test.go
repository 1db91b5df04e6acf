package vfs

import (
	"io"
	"os"
	"slices"
	"testing"
)

func TestRenameFile(t *testing.T) {
	f := openTest(t)
	put(t, f, "/a", "alpha")
	in := statOf(t, f, "/a").Inode
	rev := revOf(t, f)
	noErr(t, f.Rename(bg, "/a", "/b"))
	if r := revOf(t, f); r != rev+1 {
		t.Errorf("rename took %d revisions", r-rev)
	}
	expectMissing(t, f, "/a")
	expectContent(t, f, "/b", "alpha")
	if fi := statOf(t, f, "/b"); fi.Inode != in {
		t.Errorf("rename changed the inode")
	}
	// Into another directory, with a new name.
	noErr(t, f.Mkdir(bg, "/d", 0))
	noErr(t, f.Rename(bg, "/b", "/d/c"))
	expectContent(t, f, "/d/c", "alpha")
	if u := usageOf(t, f); u.Entries != 3 || u.Bytes != 5 {
		t.Errorf("Usage = %+v", u)
	}
}

func TestRenameReplaces(t *testing.T) {
	f := openTest(t)
	put(t, f, "/src", "new")
	put(t, f, "/dst", "old content")
	dstInode := statOf(t, f, "/dst").Inode
	srcInode := statOf(t, f, "/src").Inode
	noErr(t, f.Rename(bg, "/src", "/dst"))
	expectContent(t, f, "/dst", "new")
	expectMissing(t, f, "/src")
	if fi := statOf(t, f, "/dst"); fi.Inode != srcInode || fi.Inode == dstInode {
		t.Errorf("replaced file has inode %d (src %d, old dst %d)", fi.Inode, srcInode, dstInode)
	}
	if u := usageOf(t, f); u.Entries != 2 || u.Bytes != 3 {
		t.Errorf("Usage = %+v, want Entries 2 Bytes 3", u)
	}
	// A file replaces a symlink (the link, not its target).
	put(t, f, "/target", "T")
	noErr(t, f.Symlink(bg, "/target", "/link"))
	put(t, f, "/x", "X")
	noErr(t, f.Rename(bg, "/x", "/link"))
	if fi := lstatOf(t, f, "/link"); fi.Kind != TypeFile {
		t.Errorf("/link is %v", fi.Kind)
	}
	expectContent(t, f, "/link", "X")
	expectContent(t, f, "/target", "T")
	// A directory replaces an empty directory.
	put(t, f, "/dir1/inner", "i")
	noErr(t, f.Mkdir(bg, "/dir2", 0))
	noErr(t, f.Rename(bg, "/dir1", "/dir2"))
	expectContent(t, f, "/dir2/inner", "i")
	expectMissing(t, f, "/dir1")
}

func TestRenameErrors(t *testing.T) {
	f := openTest(t)
	put(t, f, "/a/b/c/f", "x")
	put(t, f, "/f", "file")
	put(t, f, "/full/x", "x")
	noErr(t, f.Mkdir(bg, "/empty", 0))
	noErr(t, f.Mkdir(bg, "/d", 0))
	noErr(t, f.Symlink(bg, "/a", "/alink"))
	for _, tc := range []struct {
		from, to string
		code     Errno
		msg      string
	}{
		{"/a", "/full", ENOTEMPTY, "not empty: /full"},
		{"/f", "/d", EISDIR, "cannot overwrite directory: /d"},
		{"/empty", "/f", ENOTDIR, "cannot overwrite non-directory: /f"},
		{"/a/b", "/a/b/c", EINVAL, "cannot rename a directory into itself: /a/b/c"},
		{"/a/b", "/a/b/c/new", EINVAL, "cannot rename a directory into itself: /a/b/c/new"},
		{"/a", "/alink/b/z", EINVAL, "cannot rename a directory into itself: /alink/b/z"},
		{"/", "/x", EINVAL, "cannot rename root: /"},
		{"/f", "/", EINVAL, "cannot rename onto root: /"},
		{"/nope", "/x", ENOENT, "no such path: /nope"},
		{"/nope/x", "/x", ENOENT, "no such path: /nope/x"},
		{"/f", "/nope/x", ENOENT, "parent directory missing: /nope/x"},
		{"/f", "/f/x", ENOTDIR, "parent path segment is not a directory: /f/x"},
	} {
		t.Run(tc.from+"->"+tc.to, func(t *testing.T) {
			rev := revOf(t, f)
			expectErr(t, f.Rename(bg, tc.from, tc.to), tc.code, tc.msg)
			if r := revOf(t, f); r != rev {
				t.Errorf("failed rename moved the revision")
			}
		})
	}
	expectContent(t, f, "/a/b/c/f", "x")
	expectContent(t, f, "/f", "file")
	expectContent(t, f, "/full/x", "x")
}

func TestRenameSamePathIsNoop(t *testing.T) {
	f := openTest(t)
	put(t, f, "/a", "x")
	noErr(t, f.Mkdir(bg, "/d", 0))
	noErr(t, f.Symlink(bg, "/a", "/l"))
	rev := revOf(t, f)
	noErr(t, f.Rename(bg, "/a", "/a"))
	noErr(t, f.Rename(bg, "/a", "//a/"))
	noErr(t, f.Rename(bg, "/d", "/d"))
	noErr(t, f.Rename(bg, "/l", "/l"))
	if r := revOf(t, f); r != rev {
		t.Errorf("no-op renames moved the revision %d -> %d", rev, r)
	}
	expectContent(t, f, "/a", "x")
	if fi := lstatOf(t, f, "/l"); fi.Kind != TypeSymlink {
		t.Errorf("/l: %+v", fi)
	}
}

func TestRenameDirectorySubtree(t *testing.T) {
	f := openTest(t)
	files := map[string]string{"/src/a.txt": "a", "/src/sub/b.txt": "b", "/src/sub/deep/c.txt": "c"}
	for p, c := range files {
		put(t, f, p, c)
	}
	noErr(t, f.Symlink(bg, "sub/b.txt", "/src/rel"))
	noErr(t, f.Mkdir(bg, "/dst", 0))
	noErr(t, f.Rename(bg, "/src", "/dst/moved"))
	expectMissing(t, f, "/src")
	for p, c := range files {
		expectContent(t, f, "/dst/moved"+p[len("/src"):], c)
	}
	// A relative link inside moves with its directory.
	expectContent(t, f, "/dst/moved/rel", "b")
	l, err := f.Find(bg, "/dst", "", nil)
	noErr(t, err)
	want := []string{"/dst/moved", "/dst/moved/a.txt", "/dst/moved/rel", "/dst/moved/sub", "/dst/moved/sub/b.txt",
		"/dst/moved/sub/deep", "/dst/moved/sub/deep/c.txt"}
	if got := paths(l.Entries); !slices.Equal(got, want) {
		t.Errorf("Find after rename = %v", got)
	}
	if u := usageOf(t, f); u.Entries != 9 {
		t.Errorf("Usage.Entries = %d, want 9", u.Entries)
	}
}

func TestRenameSymlinkItself(t *testing.T) {
	f := openTest(t)
	put(t, f, "/d/target", "t")
	noErr(t, f.Symlink(bg, "/d", "/dl"))
	noErr(t, f.Rename(bg, "/dl", "/dl2"))
	if fi := lstatOf(t, f, "/dl2"); fi.Kind != TypeSymlink || fi.Target != "/d" {
		t.Errorf("/dl2: %+v", fi)
	}
	expectMissing(t, f, "/dl")
	expectContent(t, f, "/d/target", "t")
	// An intermediate link in the destination is followed.
	put(t, f, "/x", "x")
	noErr(t, f.Rename(bg, "/x", "/dl2/x"))
	expectContent(t, f, "/d/x", "x")
}

func TestRenameKeepsOpenHandle(t *testing.T) {
	f := openTest(t)
	put(t, f, "/a", "hello")
	h, err := f.OpenFile(bg, "/a", os.O_RDWR, 0)
	noErr(t, err)
	defer h.Close()
	noErr(t, f.Rename(bg, "/a", "/b"))
	got, err := io.ReadAll(h)
	noErr(t, err)
	if string(got) != "hello" {
		t.Errorf("read after rename = %q", got)
	}
	_, err = h.Write([]byte(" world"))
	noErr(t, err)
	expectContent(t, f, "/b", "hello world")
	expectMissing(t, f, "/a")
	noErr(t, h.Close())
	expectContent(t, f, "/b", "hello world")
	// Renaming a file opened elsewhere onto another name, then replacing
	// it, leaves the handle reading the file it opened.
	put(t, f, "/c", "cccc")
	h2, err := f.Open(bg, "/c")
	noErr(t, err)
	defer h2.Close()
	put(t, f, "/other", "other")
	noErr(t, f.Rename(bg, "/other", "/c"))
	got, err = io.ReadAll(h2)
	noErr(t, err)
	if string(got) != "cccc" {
		t.Errorf("handle on a replaced file reads %q, want its own content", got)
	}
	noErr(t, h2.Close())
	if u := usageOf(t, f); u.Entries != 3 || u.Bytes != int64(len("hello world")+len("other")) {
		t.Errorf("Usage = %+v", u)
	}
}
