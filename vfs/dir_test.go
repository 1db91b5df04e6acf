package vfs

import (
	"io/fs"
	"slices"
	"sort"
	"testing"
)

func TestMkdir(t *testing.T) {
	f := openTest(t)
	noErr(t, f.Mkdir(bg, "/d", 0))
	noErr(t, f.Mkdir(bg, "/d/private", 0o700))
	noErr(t, f.Mkdir(bg, "/d/shared", fs.ModeSetgid|0o775))
	for p, perm := range map[string]fs.FileMode{"/d": 0o755, "/d/private": 0o700, "/d/shared": fs.ModeSetgid | 0o775} {
		fi := statOf(t, f, p)
		if fi.Kind != TypeDir || fi.Perm != perm {
			t.Errorf("%s: Kind %v Perm %o, want dir %o", p, fi.Kind, fi.Perm, perm)
		}
	}
	if u := usageOf(t, f); u.Entries != 4 || u.Bytes != 0 {
		t.Errorf("Usage = %+v", u)
	}
}

func TestMkdirErrors(t *testing.T) {
	f := openTest(t)
	noErr(t, f.Mkdir(bg, "/d", 0))
	put(t, f, "/f", "x")
	noErr(t, f.Symlink(bg, "/nowhere", "/dangling"))
	noErr(t, f.Symlink(bg, "/d", "/dlink"))
	tests := []struct {
		path string
		code Errno
		msg  string
	}{
		{"/d", EEXIST, "path exists: /d"},
		{"/f", EEXIST, "path exists: /f"},
		{"/", EEXIST, "path exists: /"},
		{"/dangling", EEXIST, "path exists: /dangling"},
		{"/dlink", EEXIST, "path exists: /dlink"},
		{"/x/y", ENOENT, "parent directory missing: /x/y"},
		{"/f/x", ENOTDIR, "parent path segment is not a directory: /f/x"},
	}
	for _, tc := range tests {
		t.Run(tc.path, func(t *testing.T) {
			rev := revOf(t, f)
			expectErr(t, f.Mkdir(bg, tc.path, 0), tc.code, tc.msg)
			if r := revOf(t, f); r != rev {
				t.Errorf("failed mkdir moved the revision")
			}
		})
	}
	// A dangling link is not followed by Mkdir.
	expectMissing(t, f, "/nowhere")
	// Through an intermediate link.
	noErr(t, f.Mkdir(bg, "/dlink/sub", 0))
	if fi := statOf(t, f, "/d/sub"); fi.Kind != TypeDir {
		t.Errorf("/d/sub: %+v", fi)
	}
}

func TestMkdirAll(t *testing.T) {
	f := openTest(t)
	rev := revOf(t, f)
	noErr(t, f.MkdirAll(bg, "/a/b/c", 0o700))
	if r := revOf(t, f); r != rev+1 {
		t.Errorf("MkdirAll of 3 directories took %d revisions, want 1", r-rev)
	}
	for p, perm := range map[string]fs.FileMode{"/a": 0o755, "/a/b": 0o755, "/a/b/c": 0o700} {
		if fi := statOf(t, f, p); fi.Kind != TypeDir || fi.Perm != perm {
			t.Errorf("%s: %+v, want dir %o", p, fi, perm)
		}
	}
	// Existing directories, the root and redundant spellings are fine and
	// change nothing.
	rev = revOf(t, f)
	for _, p := range []string{"/a/b/c", "/a", "/", "//a/./b/"} {
		noErr(t, f.MkdirAll(bg, p, 0))
	}
	if r := revOf(t, f); r != rev {
		t.Errorf("MkdirAll of existing directories moved the revision %d -> %d", rev, r)
	}
	if fi := statOf(t, f, "/a/b/c"); fi.Perm != 0o700 {
		t.Errorf("MkdirAll of an existing dir changed its mode to %o", fi.Perm)
	}
	noErr(t, f.MkdirAll(bg, "/a/b/d", 0))
	if fi := statOf(t, f, "/a/b/d"); fi.Perm != DefaultDirMode {
		t.Errorf("MkdirAll with perm 0: %o", fi.Perm)
	}
}

func TestMkdirAllThroughSymlink(t *testing.T) {
	f := openTest(t)
	noErr(t, f.MkdirAll(bg, "/real", 0))
	noErr(t, f.Symlink(bg, "/real", "/ln"))
	noErr(t, f.Symlink(bg, "../real", "/real/up")) // relative, pointing at its own dir
	noErr(t, f.MkdirAll(bg, "/ln/a/b", 0))
	for _, p := range []string{"/real/a", "/real/a/b"} {
		if fi := statOf(t, f, p); fi.Kind != TypeDir {
			t.Errorf("%s: %+v", p, fi)
		}
	}
	if fi := lstatOf(t, f, "/ln"); fi.Kind != TypeSymlink {
		t.Errorf("/ln was replaced: %+v", fi)
	}
	noErr(t, f.MkdirAll(bg, "/real/up/up/c", 0))
	if fi := statOf(t, f, "/real/c"); fi.Kind != TypeDir {
		t.Errorf("/real/c: %+v", fi)
	}
	// The link itself (a directory once followed) is fine.
	noErr(t, f.MkdirAll(bg, "/ln", 0))
}

func TestMkdirAllOverFile(t *testing.T) {
	f := openTest(t)
	put(t, f, "/f", "x")
	// mkdir -p of an existing file: EEXIST, as mkdir(1) and Computer say.
	expectErr(t, f.MkdirAll(bg, "/f", 0), EEXIST, "path exists: /f")
	// mkdir -p below a file: the file is a parent segment that is not a
	// directory, ENOTDIR (mkdir(1), os.MkdirAll and Mkdir all say so).
	err := f.MkdirAll(bg, "/f/x/y", 0)
	expectCode(t, err, ENOTDIR)
	if Code(err) != ENOTDIR {
		t.Logf("MkdirAll(/f/x/y) = %v; Mkdir(/f/x) says %v", err, f.Mkdir(bg, "/f/x", 0))
	}
	expectContent(t, f, "/f", "x")
	if fi := statOf(t, f, "/f"); fi.Kind != TypeFile {
		t.Errorf("/f became %v", fi.Kind)
	}
}

func TestReadDirOrder(t *testing.T) {
	f := openTest(t)
	names := []string{"z", "é", "a", "B", "_x", "10", "9", "Z", "ä", "日本", ".hidden", "a.txt", "a-b", "a b", "~"}
	for _, n := range names {
		put(t, f, "/d/"+n, n)
	}
	noErr(t, f.Mkdir(bg, "/d/sub", 0))
	noErr(t, f.Symlink(bg, "z", "/d/zlink"))
	names = append(names, "sub", "zlink")
	want := slices.Clone(names)
	sort.Strings(want)
	l, err := f.ReadDir(bg, "/d", Page{})
	noErr(t, err)
	var got []string
	for _, e := range l.Entries {
		got = append(got, e.Name)
		if e.Path != "/d/"+e.Name {
			t.Errorf("entry %q has Path %q", e.Name, e.Path)
		}
		switch e.Name {
		case "sub":
			if e.Kind != TypeDir || e.Size != 0 || e.Mode != fs.ModeDir|0o755 || !e.Mode.IsDir() {
				t.Errorf("sub: %+v", e)
			}
		case "zlink":
			if e.Kind != TypeSymlink || e.Size != 1 || e.Mode != fs.ModeSymlink|0o777 {
				t.Errorf("zlink: %+v", e)
			}
		default:
			if e.Kind != TypeFile || e.Size != int64(len(e.Name)) || e.Mode != 0o644 || e.Inode == 0 {
				t.Errorf("%s: %+v", e.Name, e)
			}
		}
	}
	if !slices.Equal(got, want) {
		t.Errorf("ReadDir order = %q\nwant %q", got, want)
	}
	if l.NextOffset != 0 {
		t.Errorf("NextOffset = %d", l.NextOffset)
	}
	// Through a symlink, entries are named under the path given.
	noErr(t, f.Symlink(bg, "/d", "/dl"))
	l2, err := f.ReadDir(bg, "/dl", Page{})
	noErr(t, err)
	if len(l2.Entries) != len(want) || l2.Entries[0].Path != "/dl/"+want[0] {
		t.Errorf("ReadDir through link: %v", paths(l2.Entries))
	}
	// The root.
	lr, err := f.ReadDir(bg, "/", Page{})
	noErr(t, err)
	if got := paths(lr.Entries); !slices.Equal(got, []string{"/d", "/dl"}) {
		t.Errorf("ReadDir(/) = %v", got)
	}
}

func TestReadDirPaging(t *testing.T) {
	f := openTest(t)
	var all []string
	for _, n := range []string{"a", "b", "c", "d", "e", "f", "g"} {
		put(t, f, "/d/"+n, "")
		all = append(all, "/d/"+n)
	}
	var got []string
	offset, pages := 0, 0
	for {
		l, err := f.ReadDir(bg, "/d", Page{Limit: 3, Offset: offset})
		noErr(t, err)
		got = append(got, paths(l.Entries)...)
		pages++
		if l.NextOffset == 0 {
			break
		}
		if l.NextOffset != offset+3 || len(l.Entries) != 3 {
			t.Fatalf("page at %d: %d entries, NextOffset %d", offset, len(l.Entries), l.NextOffset)
		}
		offset = l.NextOffset
	}
	if pages != 3 || !slices.Equal(got, all) {
		t.Errorf("%d pages: %v", pages, got)
	}
	for _, tc := range []struct {
		page Page
		want []string
		next int
	}{
		{Page{Limit: 7}, all, 0},
		{Page{Limit: 6}, all[:6], 6},
		{Page{Limit: 1, Offset: 6}, all[6:], 0},
		{Page{Offset: 7}, nil, 0},
		{Page{Offset: 100}, nil, 0},
		{Page{Offset: 2}, all[2:], 0},
	} {
		l, err := f.ReadDir(bg, "/d", tc.page)
		noErr(t, err)
		if !slices.Equal(paths(l.Entries), tc.want) || l.NextOffset != tc.next {
			t.Errorf("ReadDir(%+v) = %v next %d, want %v next %d", tc.page, paths(l.Entries), l.NextOffset, tc.want, tc.next)
		}
	}
	_, err := f.ReadDir(bg, "/d", Page{Limit: -1})
	expectErr(t, err, EINVAL, "limit must be a non-negative integer, got -1")
	_, err = f.ReadDir(bg, "/d", Page{Offset: -2})
	expectErr(t, err, EINVAL, "offset must be a non-negative integer, got -2")
}

func TestReadDirErrors(t *testing.T) {
	f := openTest(t)
	put(t, f, "/f", "x")
	noErr(t, f.Symlink(bg, "/f", "/flink"))
	noErr(t, f.Symlink(bg, "/gone", "/dangling"))
	for _, tc := range []struct {
		path string
		code Errno
		msg  string
	}{
		{"/f", ENOTDIR, "not a directory: /f"},
		{"/flink", ENOTDIR, "not a directory: /flink"},
		{"/nope", ENOENT, "no such path: /nope"},
		{"/nope/deeper", ENOENT, "no such path: /nope/deeper"},
		{"/dangling", ENOENT, "no such path: /dangling"},
		{"/f/x", ENOTDIR, "parent path segment is not a directory: /f/x"},
	} {
		_, err := f.ReadDir(bg, tc.path, Page{})
		expectErr(t, err, tc.code, tc.msg)
	}
}

// UnixMode and FromUnixMode map the 12 Unix permission bits to io/fs and
// back; ReadDir's Entry.Mode and Stat's Mode() agree with them.
func TestModeConversion(t *testing.T) {
	for _, c := range []struct {
		unix uint32
		mode fs.FileMode
	}{
		{0, 0},
		{0o644, 0o644},
		{0o4755, fs.ModeSetuid | 0o755},
		{0o2775, fs.ModeSetgid | 0o775},
		{0o1777, fs.ModeSticky | 0o777},
		{0o7000, fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky},
	} {
		if got := FromUnixMode(c.unix); got != c.mode {
			t.Errorf("FromUnixMode(%04o) = %v, want %v", c.unix, got, c.mode)
		}
		if got := UnixMode(c.mode); got != c.unix {
			t.Errorf("UnixMode(%v) = %04o, want %04o", c.mode, got, c.unix)
		}
		// Type bits (and a stat(2) file type) are dropped.
		if got := UnixMode(c.mode | fs.ModeDir | fs.ModeSymlink); got != c.unix {
			t.Errorf("UnixMode(%v|d|L) = %04o, want %04o", c.mode, got, c.unix)
		}
		if got := FromUnixMode(c.unix | 0o170000); got != c.mode {
			t.Errorf("FromUnixMode(%o) = %v, want %v", c.unix|0o170000, got, c.mode)
		}
	}
	f := openTest(t)
	noErr(t, f.Mkdir(bg, "/d", fs.ModeSticky|0o777))
	put(t, f, "/d/f", "x")
	noErr(t, f.Chmod(bg, "/d/f", fs.ModeSetuid|fs.ModeSetgid|0o750))
	noErr(t, f.Symlink(bg, "f", "/d/l"))
	want := map[string]fs.FileMode{"/d": fs.ModeDir | fs.ModeSticky | 0o777, "/d/f": fs.ModeSetuid | fs.ModeSetgid | 0o750, "/d/l": fs.ModeSymlink | 0o777}
	l, err := f.ReadDir(bg, "/", Page{})
	noErr(t, err)
	l2, err := f.ReadDir(bg, "/d", Page{})
	noErr(t, err)
	for _, e := range append(l.Entries, l2.Entries...) {
		if e.Mode != want[e.Path] {
			t.Errorf("ReadDir %s: Mode %v, want %v", e.Path, e.Mode, want[e.Path])
		}
		fi := lstatOf(t, f, e.Path)
		if fi.Mode() != want[e.Path] || fi.Perm != want[e.Path]&^fs.ModeType {
			t.Errorf("Lstat %s: Mode() %v Perm %v, want %v", e.Path, fi.Mode(), fi.Perm, want[e.Path])
		}
	}
}
