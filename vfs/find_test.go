package vfs

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// findTree builds the tree the Find tests search.
func findTree(t *testing.T) *FS {
	t.Helper()
	f := openTest(t)
	for _, p := range []string{
		"/.git/config", "/.git/objects/ab", "/README.md", "/a/x", "/a-b", "/a.txt", "/docs/a.txt", "/docs/b.md",
		"/node_modules/x/index.js", "/src/main.go", "/src/node_modules/y.js", "/src/util/u.go", "/src/util/u_test.go",
	} {
		put(t, f, p, p)
	}
	noErr(t, f.Symlink(bg, "/src", "/ln"))
	return f
}

// findAll is the whole tree in Find order: depth-first pre-order, names in
// byte order ("a" < "a-b" < "a.txt", so /a/x comes before /a-b).
var findAll = []string{
	"/.git", "/.git/config", "/.git/objects", "/.git/objects/ab", "/README.md", "/a", "/a/x", "/a-b", "/a.txt",
	"/docs", "/docs/a.txt", "/docs/b.md", "/ln", "/node_modules", "/node_modules/x", "/node_modules/x/index.js",
	"/src", "/src/main.go", "/src/node_modules", "/src/node_modules/y.js", "/src/util", "/src/util/u.go",
	"/src/util/u_test.go",
}

func findPaths(t *testing.T, f *FS, dir, pattern string, opts *FindOptions) []string {
	t.Helper()
	l, err := f.Find(bg, dir, pattern, opts)
	if err != nil {
		t.Fatalf("Find(%s, %q): %v", dir, pattern, err)
	}
	if l.NextOffset != 0 {
		t.Errorf("Find(%s, %q): NextOffset %d on a complete listing", dir, pattern, l.NextOffset)
	}
	return paths(l.Entries)
}

func TestFindPatterns(t *testing.T) {
	f := findTree(t)
	for _, tc := range []struct {
		dir, pattern string
		want         []string
	}{
		{"/", "", findAll},
		{"/", "**", findAll},
		{"/", "*", []string{"/.git", "/README.md", "/a", "/a-b", "/a.txt", "/docs", "/ln", "/node_modules", "/src"}},
		{"/", "**/*.go", []string{"/src/main.go", "/src/util/u.go", "/src/util/u_test.go"}},
		{"/", "**/*_test.go", []string{"/src/util/u_test.go"}},
		{"/", "src/*.go", []string{"/src/main.go"}},
		{"/", "?EADME.md", []string{"/README.md"}},
		{"/", "?EADME", nil},
		{"/", "docs/[ab].*", []string{"/docs/a.txt", "/docs/b.md"}},
		{"/", "docs/[!a]*", []string{"/docs/b.md"}},
		{"/", "docs/{a.txt,b.md}", []string{"/docs/a.txt", "/docs/b.md"}},
		{"/", "{a,docs}/*", []string{"/a/x", "/docs/a.txt", "/docs/b.md"}},
		{"/", "**/a.txt", []string{"/a.txt", "/docs/a.txt"}},
		{"/", "a*", []string{"/a", "/a-b", "/a.txt"}},
		{"/", "**/node_modules", []string{"/node_modules", "/src/node_modules"}},
		{"/", "src", []string{"/src"}},
		{"/", "src/**", []string{"/src", "/src/main.go", "/src/node_modules", "/src/node_modules/y.js", "/src/util",
			"/src/util/u.go", "/src/util/u_test.go"}},
		{"/", ".git/*", []string{"/.git/config", "/.git/objects"}},
		{"/", "nothing*", nil},
		// Patterns are relative to the searched directory.
		{"/src", "*.go", []string{"/src/main.go"}},
		{"/src", "**/*.go", []string{"/src/main.go", "/src/util/u.go", "/src/util/u_test.go"}},
		{"/src", "util", []string{"/src/util"}},
		{"/src", "src/*", nil},
		{"/src/util", "", []string{"/src/util/u.go", "/src/util/u_test.go"}},
		{"//src/./util/", "*test*", []string{"/src/util/u_test.go"}},
	} {
		t.Run(tc.dir+" "+tc.pattern, func(t *testing.T) {
			if got := findPaths(t, f, tc.dir, tc.pattern, nil); !slices.Equal(got, tc.want) {
				t.Errorf("Find(%s, %q) = %q\nwant %q", tc.dir, tc.pattern, got, tc.want)
			}
		})
	}
	// Symlinks are listed, not followed; through a link the target is searched.
	l, err := f.Find(bg, "/ln", "*.go", nil)
	noErr(t, err)
	if len(l.Entries) != 1 || l.Entries[0].Name != "main.go" {
		t.Errorf("Find(/ln, *.go) = %v", paths(l.Entries))
	}
	es, err := f.Find(bg, "/", "ln", nil)
	noErr(t, err)
	if len(es.Entries) != 1 || es.Entries[0].Kind != TypeSymlink || es.Entries[0].Size != 4 {
		t.Errorf("Find(/, ln) = %+v", es.Entries)
	}
	// Entry fields.
	es, err = f.Find(bg, "/docs", "b.md", nil)
	noErr(t, err)
	if e := es.Entries[0]; e.Name != "b.md" || e.Kind != TypeFile || e.Size != int64(len("/docs/b.md")) || e.Mode != 0o644 || e.Inode == 0 {
		t.Errorf("entry = %+v", e)
	}
}

func TestFindTypes(t *testing.T) {
	f := findTree(t)
	for _, tc := range []struct {
		pattern string
		types   []Type
		want    []string
	}{
		{"", []Type{TypeDir}, []string{"/.git", "/.git/objects", "/a", "/docs", "/node_modules", "/node_modules/x", "/src",
			"/src/node_modules", "/src/util"}},
		{"", []Type{TypeSymlink}, []string{"/ln"}},
		{"*", []Type{TypeFile, TypeSymlink}, []string{"/README.md", "/a-b", "/a.txt", "/ln"}},
		{"**/*.go", []Type{TypeDir}, nil},
	} {
		if got := findPaths(t, f, "/", tc.pattern, &FindOptions{Types: tc.types}); !slices.Equal(got, tc.want) {
			t.Errorf("Find(%q, %v) = %q\nwant %q", tc.pattern, tc.types, got, tc.want)
		}
	}
}

func TestFindExclude(t *testing.T) {
	f := findTree(t)
	for _, tc := range []struct {
		pattern string
		exclude []string
		want    []string
	}{
		{"", []string{".git", "node_modules"}, []string{"/README.md", "/a", "/a/x", "/a-b", "/a.txt", "/docs", "/docs/a.txt",
			"/docs/b.md", "/ln", "/src", "/src/main.go", "/src/util", "/src/util/u.go", "/src/util/u_test.go"}},
		{"**/*.js", []string{"node_modules"}, nil},
		{"**/*.js", nil, []string{"/node_modules/x/index.js", "/src/node_modules/y.js"}},
		{"**/*.js", []string{"/node_modules"}, []string{"/src/node_modules/y.js"}},
		{"*", []string{"*.md", "/a"}, []string{"/.git", "/a-b", "/a.txt", "/docs", "/ln", "/node_modules", "/src"}},
		{"**/*.md", []string{"*.md"}, nil},
		{"**/u*.go", []string{"src/util"}, nil},
		{"**/*.go", []string{"*_test.go"}, []string{"/src/main.go", "/src/util/u.go"}},
		{"docs/**", []string{"docs/"}, nil},
		{"", []string{"a.txt/"}, findAll}, // dir-only pattern: a.txt is a file
		{"**/x", []string{"", "a"}, []string{"/node_modules/x"}},
	} {
		got := findPaths(t, f, "/", tc.pattern, &FindOptions{Exclude: tc.exclude})
		if !slices.Equal(got, tc.want) {
			t.Errorf("Find(%q, exclude %q) = %q\nwant %q", tc.pattern, tc.exclude, got, tc.want)
		}
	}
}

func TestFindPaging(t *testing.T) {
	f := findTree(t)
	for _, tc := range []struct {
		pattern string
		opts    FindOptions
	}{
		{"", FindOptions{}},
		{"**/*.go", FindOptions{}},
		{"", FindOptions{Exclude: []string{".git", "node_modules"}}},
		{"", FindOptions{Types: []Type{TypeDir}}},
		{"**/*.js", FindOptions{}},
	} {
		full := findPaths(t, f, "/", tc.pattern, &tc.opts)
		for _, limit := range []int{1, 2, 3, 4, 7, len(full), len(full) + 1} {
			if limit == 0 {
				continue
			}
			var got []string
			offset := 0
			for pages := 0; ; pages++ {
				if pages > len(full)+1 {
					t.Fatalf("paging does not end")
				}
				opts := tc.opts
				opts.Page = Page{Limit: limit, Offset: offset}
				l, err := f.Find(bg, "/", tc.pattern, &opts)
				noErr(t, err)
				if len(l.Entries) > limit {
					t.Fatalf("page of %d entries with limit %d", len(l.Entries), limit)
				}
				got = append(got, paths(l.Entries)...)
				if l.NextOffset == 0 {
					break
				}
				if l.NextOffset != offset+len(l.Entries) {
					t.Errorf("NextOffset %d after %d entries at offset %d", l.NextOffset, len(l.Entries), offset)
				}
				offset = l.NextOffset
			}
			if !slices.Equal(got, full) {
				t.Errorf("Find(%q, %+v) in pages of %d = %q\nwant %q", tc.pattern, tc.opts, limit, got, full)
			}
		}
	}
	l, err := f.Find(bg, "/", "", &FindOptions{Page: Page{Offset: 1000}})
	noErr(t, err)
	if len(l.Entries) != 0 || l.NextOffset != 0 {
		t.Errorf("offset past the end: %v next %d", paths(l.Entries), l.NextOffset)
	}
}

func TestFindErrors(t *testing.T) {
	f := findTree(t)
	_, err := f.Find(bg, "/README.md", "", nil)
	expectErr(t, err, ENOTDIR, "not a directory: /README.md")
	_, err = f.Find(bg, "/nope", "", nil)
	expectErr(t, err, ENOENT, "no such path: /nope")
	_, err = f.Find(bg, "rel", "", nil)
	expectErr(t, err, EINVAL, "Invalid path (must be absolute): rel")
	for _, bad := range []string{"[", "a[", "{a,b"} {
		_, err = f.Find(bg, "/", bad, nil)
		expectCode(t, err, EINVAL)
		if msg := errString(err); !strings.HasPrefix(msg, "invalid glob pattern (") || !strings.HasSuffix(msg, "): "+bad) {
			t.Errorf("Find(%q) message %q", bad, msg)
		}
	}
	_, err = f.Find(bg, "/", "", &FindOptions{Exclude: []string{"["}})
	expectCode(t, err, EINVAL)
	if msg := errString(err); !strings.HasPrefix(msg, "invalid exclude pattern (") {
		t.Errorf("bad exclude message %q", msg)
	}
	_, err = f.Find(bg, "/", "", &FindOptions{Page: Page{Limit: -1}})
	expectErr(t, err, EINVAL, "limit must be a non-negative integer, got -1")
}

// Walks page through directories 128 entries at a time; the order and the
// pre-order descent must survive page boundaries.
func TestFindLargeDirectory(t *testing.T) {
	f := openTest(t)
	var want []string
	for i := 0; i < 300; i++ {
		p := fmt.Sprintf("/big/f%03d", i)
		if i == 150 || i == 260 {
			put(t, f, p+"/inner", "")
			want = append(want, p, p+"/inner")
			continue
		}
		put(t, f, p, "")
		want = append(want, p)
	}
	if got := findPaths(t, f, "/big", "", &FindOptions{Page: Page{Limit: 1000}}); !slices.Equal(got, want) {
		t.Errorf("Find over 300 entries: %d results, first difference at %d", len(got), firstDiff(got, want))
	}
	got := findPaths(t, f, "/big", "*/inner", nil)
	if !slices.Equal(got, []string{"/big/f150/inner", "/big/f260/inner"}) {
		t.Errorf("Find(*/inner) = %v", got)
	}
	l, err := f.Ls(bg, "/big", Page{Limit: 1000})
	noErr(t, err)
	if len(l.Entries) != 300 {
		t.Errorf("Ls = %d files", len(l.Entries))
	}
}

func firstDiff(a, b []string) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

func TestLs(t *testing.T) {
	f := findTree(t)
	l, err := f.Ls(bg, "/", Page{})
	noErr(t, err)
	want := []string{"/.git/config", "/.git/objects/ab", "/README.md", "/a/x", "/a-b", "/a.txt", "/docs/a.txt", "/docs/b.md",
		"/node_modules/x/index.js", "/src/main.go", "/src/node_modules/y.js", "/src/util/u.go", "/src/util/u_test.go"}
	if got := paths(l.Entries); !slices.Equal(got, want) {
		t.Errorf("Ls(/) = %q", got)
	}
	for prefix, want := range map[string][]string{
		"/docs":        {"/docs/a.txt", "/docs/b.md"},
		"/docs/b.md":   {"/docs/b.md"},
		"/nope":        nil,
		"/nope/deeper": nil,
		"/ln":          nil, // a symlink prefix lists nothing
	} {
		l, err := f.Ls(bg, prefix, Page{})
		noErr(t, err)
		if got := paths(l.Entries); !slices.Equal(got, want) {
			t.Errorf("Ls(%s) = %q, want %q", prefix, got, want)
		}
	}
	l, err = f.Ls(bg, "/", Page{Limit: 5, Offset: 5})
	noErr(t, err)
	if got := paths(l.Entries); !slices.Equal(got, want[5:10]) || l.NextOffset != 10 {
		t.Errorf("Ls page = %q next %d", got, l.NextOffset)
	}
}

// A next page resumes where the previous one stopped (by name), so entries
// added before that point do not shift the following pages, and a position
// whose directory vanished falls back to walking from the start.
func TestFindResumesByPosition(t *testing.T) {
	f := openTest(t)
	for _, d := range []string{"a", "b", "c"} {
		for i := range 4 {
			put(t, f, fmt.Sprintf("/r/%s/f%d", d, i), "x")
		}
	}
	page := func(off int) *Listing {
		l, err := f.Find(bg, "/r", "**", &FindOptions{Page: Page{Limit: 5, Offset: off}, Types: []Type{TypeFile}})
		noErr(t, err)
		return l
	}
	p1 := page(0)
	if got := paths(p1.Entries); !slices.Equal(got, []string{"/r/a/f0", "/r/a/f1", "/r/a/f2", "/r/a/f3", "/r/b/f0"}) || p1.NextOffset != 5 {
		t.Fatalf("page 1 = %v next %d", got, p1.NextOffset)
	}
	put(t, f, "/r/a/f00", "new, before the position")
	p2 := page(p1.NextOffset)
	if got := paths(p2.Entries); !slices.Equal(got, []string{"/r/b/f1", "/r/b/f2", "/r/b/f3", "/r/c/f0", "/r/c/f1"}) {
		t.Errorf("page 2 after an insert before the position = %v", got)
	}
	// The remembered position for offset 10 is /r/c/f2; remove /r/c.
	noErr(t, f.Remove(bg, "/r/c", &RemoveOptions{Recursive: true}))
	p3 := page(p2.NextOffset)
	if got := paths(p3.Entries); len(got) != 0 || p3.NextOffset != 0 {
		// From the start, offset 10 of the 9 remaining files is empty.
		t.Errorf("page 3 after its directory vanished = %v next %d", got, p3.NextOffset)
	}
}
