package vfs

import (
	"testing"
)

func TestRemoveFileAndEmptyDir(t *testing.T) {
	f := openTest(t)
	put(t, f, "/d/f", "12345")
	noErr(t, f.Mkdir(bg, "/e", 0))
	if u := usageOf(t, f); u.Entries != 4 || u.Bytes != 5 {
		t.Fatalf("Usage = %+v", u)
	}
	noErr(t, f.Remove(bg, "/d/f", nil))
	expectMissing(t, f, "/d/f")
	if u := usageOf(t, f); u.Entries != 3 || u.Bytes != 0 {
		t.Errorf("after removing the file: Usage = %+v", u)
	}
	noErr(t, f.Remove(bg, "/d", nil))
	noErr(t, f.Remove(bg, "/e/", &RemoveOptions{}))
	expectMissing(t, f, "/d")
	expectMissing(t, f, "/e")
	if u := usageOf(t, f); u.Entries != 1 || u.Bytes != 0 {
		t.Errorf("after removing everything: Usage = %+v", u)
	}
	l, err := f.ReadDir(bg, "/", Page{})
	noErr(t, err)
	if len(l.Entries) != 0 {
		t.Errorf("root still lists %v", paths(l.Entries))
	}
	// The name is free again.
	put(t, f, "/d", "now a file")
	expectContent(t, f, "/d", "now a file")
}

func TestRemoveErrors(t *testing.T) {
	f := openTest(t)
	put(t, f, "/d/f", "x")
	put(t, f, "/file", "x")
	for _, tc := range []struct {
		path string
		opts *RemoveOptions
		code Errno
		msg  string
	}{
		{"/d", nil, ENOTEMPTY, "directory not empty: /d"},
		{"/d", &RemoveOptions{Force: true}, ENOTEMPTY, "directory not empty: /d"},
		{"/", nil, EPERM, "cannot remove the root directory: /"},
		{"/", &RemoveOptions{Recursive: true, Force: true}, EPERM, "cannot remove the root directory: /"},
		{"//./", &RemoveOptions{Recursive: true}, EPERM, "cannot remove the root directory: /"},
		{"/nope", nil, ENOENT, "no such path: /nope"},
		{"/nope/x", nil, ENOENT, "no such path: /nope/x"},
		{"/nope/x", &RemoveOptions{Recursive: true}, ENOENT, "no such path: /nope/x"},
		{"/file/x", nil, ENOTDIR, "parent path segment is not a directory: /file/x"},
	} {
		rev := revOf(t, f)
		expectErr(t, f.Remove(bg, tc.path, tc.opts), tc.code, tc.msg)
		if r := revOf(t, f); r != rev {
			t.Errorf("failed Remove(%s) moved the revision", tc.path)
		}
	}
	expectContent(t, f, "/d/f", "x")
	// Force makes a missing path, or a missing parent, a success.
	rev := revOf(t, f)
	noErr(t, f.Remove(bg, "/nope", &RemoveOptions{Force: true}))
	noErr(t, f.Remove(bg, "/nope/deeper/still", &RemoveOptions{Force: true}))
	noErr(t, f.Remove(bg, "/nope", &RemoveOptions{Force: true, Recursive: true}))
	if r := revOf(t, f); r != rev {
		t.Errorf("Remove -f of missing paths moved the revision %d -> %d", rev, r)
	}
}

func TestRemoveRecursive(t *testing.T) {
	f := openTest(t)
	put(t, f, "/keep/k", "keep")
	big := seededBytes(1, 2*ChunkSize+1)
	putBytes(t, f, "/t/big", big)
	put(t, f, "/t/a/b/c/deep.txt", "deep")
	put(t, f, "/t/a/x", "xx")
	noErr(t, f.Mkdir(bg, "/t/empty", 0))
	noErr(t, f.Symlink(bg, "/keep", "/t/a/linkToKeep"))
	before := usageOf(t, f)
	rev := revOf(t, f)
	noErr(t, f.Remove(bg, "/t", &RemoveOptions{Recursive: true}))
	if r := revOf(t, f); r != rev+1 {
		t.Errorf("recursive remove took %d revisions, want 1", r-rev)
	}
	for _, p := range []string{"/t", "/t/big", "/t/a/b/c/deep.txt", "/t/a"} {
		expectMissing(t, f, p)
	}
	// The symlink inside was removed, not followed.
	expectContent(t, f, "/keep/k", "keep")
	after := usageOf(t, f)
	if after.Entries != 3 || after.Bytes != 4 {
		t.Errorf("Usage %+v -> %+v, want Entries 3 (root, /keep, /keep/k) Bytes 4", before, after)
	}
	// Recursive on a file or an empty directory works too.
	put(t, f, "/single", "s")
	noErr(t, f.Remove(bg, "/single", &RemoveOptions{Recursive: true}))
	expectMissing(t, f, "/single")
}

func TestRemoveSymlink(t *testing.T) {
	f := openTest(t)
	put(t, f, "/dir/f", "target")
	noErr(t, f.Symlink(bg, "/dir/f", "/flink"))
	noErr(t, f.Symlink(bg, "/dir", "/dlink"))
	noErr(t, f.Symlink(bg, "/gone", "/dangling"))
	noErr(t, f.Remove(bg, "/flink", nil))
	expectMissing(t, f, "/flink")
	expectContent(t, f, "/dir/f", "target")
	// A link to a directory is removed itself, even with Recursive.
	noErr(t, f.Remove(bg, "/dlink", &RemoveOptions{Recursive: true}))
	expectMissing(t, f, "/dlink")
	expectContent(t, f, "/dir/f", "target")
	noErr(t, f.Remove(bg, "/dangling", nil))
	expectMissing(t, f, "/dangling")
	// An intermediate link is followed.
	noErr(t, f.Symlink(bg, "/dir", "/dlink"))
	noErr(t, f.Remove(bg, "/dlink/f", nil))
	expectMissing(t, f, "/dir/f")
	if fi := lstatOf(t, f, "/dlink"); fi.Kind != TypeSymlink {
		t.Errorf("/dlink: %+v", fi)
	}
	if u := usageOf(t, f); u.Entries != 3 || u.Bytes != 0 {
		t.Errorf("Usage = %+v, want root, /dir, /dlink", u)
	}
}
