package vfs

import (
	"fmt"
	"strings"
	"testing"
)

func TestSymlinkCreate(t *testing.T) {
	f := openTest(t)
	put(t, f, "/f", "x")
	noErr(t, f.Symlink(bg, "anything/at/all", "/l"))
	for _, tc := range []struct {
		target, path string
		code         Errno
		msg          string
	}{
		{"/f", "/l", EEXIST, "path exists: /l"},
		{"/f", "/f", EEXIST, "path exists: /f"},
		{"/f", "/", EEXIST, "cannot symlink onto root: /"},
		{"", "/e", EINVAL, "empty symlink target: /e"},
		{"a\x00b", "/e", EINVAL, "symlink target contains NUL byte: /e"},
		{"/f", "/x/l", ENOENT, "parent directory missing: /x/l"},
		{"/f", "/f/l", ENOTDIR, "parent path segment is not a directory: /f/l"},
		{strings.Repeat("t", 5000), "/e", ENAMETOOLONG, ""},
	} {
		expectErr(t, f.Symlink(bg, tc.target, tc.path), tc.code, tc.msg)
	}
	expectMissing(t, f, "/e")
	// Symlink never replaces, not even through an existing dangling link.
	noErr(t, f.Symlink(bg, "/nowhere", "/dangling"))
	expectErr(t, f.Symlink(bg, "/f", "/dangling"), EEXIST, "path exists: /dangling")
	expectMissing(t, f, "/nowhere")
	if u := usageOf(t, f); u.Entries != 4 || u.Bytes != 1 {
		t.Errorf("Usage = %+v (symlinks are entries, not bytes)", u)
	}
}

func TestWriteThroughSymlink(t *testing.T) {
	f := openTest(t)
	put(t, f, "/d/target", "old")
	noErr(t, f.Symlink(bg, "/d/target", "/abs"))
	noErr(t, f.Symlink(bg, "target", "/d/rel"))
	noErr(t, f.Symlink(bg, "../d/target", "/d/up"))
	noErr(t, f.Symlink(bg, "./sub/../target", "/d/dots"))
	in := statOf(t, f, "/d/target").Inode
	for i, p := range []string{"/abs", "/d/rel", "/d/up", "/d/dots"} {
		content := fmt.Sprintf("via %d", i)
		noErr(t, f.WriteFile(bg, p, []byte(content), nil))
		expectContent(t, f, "/d/target", content)
		if fi := lstatOf(t, f, p); fi.Kind != TypeSymlink {
			t.Errorf("write replaced the link %s: %+v", p, fi)
		}
		if fi := statOf(t, f, "/d/target"); fi.Inode != in {
			t.Errorf("write through %s changed the target inode", p)
		}
	}
	// A large (streamed) write follows too.
	big := seededBytes(4, ChunkSize+3)
	putBytes(t, f, "/abs", big)
	if got, _ := f.ReadFile(bg, "/d/target"); string(got) != string(big) {
		t.Error("streamed write through link did not reach the target")
	}
	// Exclusive does not follow: EEXIST, and the target is untouched.
	expectErr(t, f.WriteFile(bg, "/abs", []byte("no"), &WriteOptions{Exclusive: true}), EEXIST, "path exists: /abs")
	if got, _ := f.ReadFile(bg, "/d/target"); string(got) != string(big) {
		t.Error("exclusive write changed the target")
	}
	// A link to a directory: the write fails as on the directory.
	noErr(t, f.Symlink(bg, "/d", "/dlink"))
	expectErr(t, f.WriteFile(bg, "/dlink", []byte("x"), nil), EISDIR, "path is a directory: /dlink")
	// An intermediate link to a directory.
	noErr(t, f.WriteFile(bg, "/dlink/new", []byte("n"), nil))
	expectContent(t, f, "/d/new", "n")
}

func TestWriteThroughDanglingSymlink(t *testing.T) {
	f := openTest(t)
	noErr(t, f.Mkdir(bg, "/d", 0))
	noErr(t, f.Symlink(bg, "/d/created", "/dangling"))
	noErr(t, f.Symlink(bg, "created-rel", "/d/rel"))
	noErr(t, f.Symlink(bg, "/dangling", "/chain")) // link -> dangling link
	noErr(t, f.Symlink(bg, "/nodir/x", "/noparent"))
	// Exclusive does not follow a dangling link either.
	expectErr(t, f.WriteFile(bg, "/dangling", []byte("x"), &WriteOptions{Exclusive: true}), EEXIST, "path exists: /dangling")
	expectMissing(t, f, "/d/created")
	noErr(t, f.WriteFile(bg, "/chain", []byte("made"), nil))
	expectContent(t, f, "/d/created", "made")
	if fi := lstatOf(t, f, "/dangling"); fi.Kind != TypeSymlink {
		t.Errorf("/dangling: %+v", fi)
	}
	noErr(t, f.WriteFile(bg, "/d/rel", []byte("r"), nil))
	expectContent(t, f, "/d/created-rel", "r")
	// The target's parent must exist.
	expectErr(t, f.WriteFile(bg, "/noparent", []byte("x"), nil), ENOENT, "parent directory missing: /noparent")
	expectMissing(t, f, "/nodir")
}

func TestSymlinkTargetsClampedAtRoot(t *testing.T) {
	f := openTest(t)
	put(t, f, "/t", "top")
	put(t, f, "/a/b/placeholder", "")
	noErr(t, f.Symlink(bg, "../../../../../t", "/a/b/far"))
	noErr(t, f.Symlink(bg, "/../../t", "/a/absup"))
	noErr(t, f.Symlink(bg, "..", "/a/b/parent"))
	noErr(t, f.Symlink(bg, "/", "/rootlink"))
	expectContent(t, f, "/a/b/far", "top")
	expectContent(t, f, "/a/absup", "top")
	expectContent(t, f, "/a/b/parent/b/placeholder", "")
	expectContent(t, f, "/rootlink/t", "top")
	// Writes through clamped links land inside the workspace.
	noErr(t, f.Symlink(bg, "../../../../new", "/a/b/escape"))
	noErr(t, f.WriteFile(bg, "/a/b/escape", []byte("inside"), nil))
	expectContent(t, f, "/new", "inside")
	noErr(t, f.WriteFile(bg, "/rootlink/viaroot", []byte("r"), nil))
	expectContent(t, f, "/viaroot", "r")
	expectErr(t, f.WriteFile(bg, "/rootlink", []byte("r"), nil), EISDIR, "path is a directory: /rootlink")
	l, err := f.ReadDir(bg, "/rootlink", Page{})
	noErr(t, err)
	if len(l.Entries) == 0 || l.Entries[0].Path != "/rootlink/a" {
		t.Errorf("ReadDir through a link to / = %v", paths(l.Entries))
	}
}

func TestSymlinkChainsThroughDirectories(t *testing.T) {
	f := openTest(t)
	noErr(t, f.MkdirAll(bg, "/a", 0))
	noErr(t, f.MkdirAll(bg, "/b", 0))
	noErr(t, f.MkdirAll(bg, "/c", 0))
	noErr(t, f.Symlink(bg, "../b/l2", "/a/l1"))
	noErr(t, f.Symlink(bg, "/c", "/b/l2"))
	noErr(t, f.WriteFile(bg, "/a/l1/f", []byte("deep"), nil))
	expectContent(t, f, "/c/f", "deep")
	expectContent(t, f, "/a/l1/f", "deep")
	if fi := statOf(t, f, "/a/l1"); fi.Kind != TypeDir {
		t.Errorf("Stat(/a/l1) = %+v", fi)
	}
}

func TestSymlinkLoops(t *testing.T) {
	f := openTest(t)
	noErr(t, f.Symlink(bg, "/loop", "/loop"))
	noErr(t, f.Symlink(bg, "/l2", "/l1"))
	noErr(t, f.Symlink(bg, "l1", "/l2"))
	noErr(t, f.Symlink(bg, ".", "/self")) // a link to its own directory: not a loop
	put(t, f, "/x", "x")
	const msg = "too many symlinks resolving path: "
	expectErr(t, f.WriteFile(bg, "/loop", []byte("x"), nil), ELOOP, msg+"/loop")
	_, err := f.ReadFile(bg, "/loop")
	expectErr(t, err, ELOOP, msg+"/loop")
	_, err = f.Stat(bg, "/l1")
	expectErr(t, err, ELOOP, msg+"/l1")
	_, err = f.Stat(bg, "/loop/x")
	expectErr(t, err, ELOOP, msg+"/loop/x")
	expectErr(t, f.Mkdir(bg, "/l1/d", 0), ELOOP, msg+"/l1/d")
	_, err = f.ReadDir(bg, "/l2", Page{})
	expectErr(t, err, ELOOP, msg+"/l2")
	_, err = f.Open(bg, "/loop")
	expectErr(t, err, ELOOP, msg+"/loop")
	// The links themselves are fine.
	if fi := lstatOf(t, f, "/loop"); fi.Kind != TypeSymlink {
		t.Errorf("Lstat(/loop) = %+v", fi)
	}
	if got, err := f.Readlink(bg, "/l1"); err != nil || got != "/l2" {
		t.Errorf("Readlink(/l1) = %q, %v", got, err)
	}
	noErr(t, f.Remove(bg, "/loop", nil))
	expectContent(t, f, "/self/self/self/x", "x")
}

// chain makes /c<prefix>0 -> /c<prefix>1 -> ... -> /c<prefix>(n-1) -> final.
func chain(t *testing.T, f *FS, prefix string, n int, final string) string {
	t.Helper()
	for i := 0; i < n; i++ {
		target := fmt.Sprintf("/c%s%d", prefix, i+1)
		if i == n-1 {
			target = final
		}
		noErr(t, f.Symlink(bg, target, fmt.Sprintf("/c%s%d", prefix, i)))
	}
	return fmt.Sprintf("/c%s0", prefix)
}

func TestSymlinkHopBudget(t *testing.T) {
	f := openTest(t)
	put(t, f, "/target", "end")
	noErr(t, f.Mkdir(bg, "/dir", 0))
	put(t, f, "/dir/file", "in dir")
	ok40 := chain(t, f, "a", MaxSymlinkHops, "/target")
	bad41 := chain(t, f, "b", MaxSymlinkHops+1, "/target")
	expectContent(t, f, ok40, "end")
	noErr(t, f.WriteFile(bg, ok40, []byte("written"), nil))
	expectContent(t, f, "/target", "written")
	_, err := f.ReadFile(bg, bad41)
	expectErr(t, err, ELOOP, "too many symlinks resolving path: "+bad41)
	expectErr(t, f.WriteFile(bg, bad41, []byte("x"), nil), ELOOP, "too many symlinks resolving path: "+bad41)
	// Intermediate and final links share the budget: 39 links to a
	// directory plus a final link is 40; 40 plus a final link is 41.
	noErr(t, f.Symlink(bg, "/target", "/dir/final"))
	d39 := chain(t, f, "c", MaxSymlinkHops-1, "/dir")
	d40 := chain(t, f, "d", MaxSymlinkHops, "/dir")
	expectContent(t, f, d39+"/final", "written")
	expectContent(t, f, d40+"/file", "in dir")
	_, err = f.ReadFile(bg, d40+"/final")
	expectErr(t, err, ELOOP, "too many symlinks resolving path: "+d40+"/final")
}
