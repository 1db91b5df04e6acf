package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nookdev/nook/vfs"
)

func TestSetComposition(t *testing.T) {
	s, _ := newSet(t, Options{})
	var names []string
	total := 0
	for _, tl := range s.Tools() {
		names = append(names, tl.Name)
		total += len(tl.Description)
		for _, sch := range []json.RawMessage{tl.InputSchema, tl.OutputSchema} {
			var v map[string]any
			if err := json.Unmarshal(sch, &v); err != nil || v["type"] != "object" {
				t.Errorf("%s: schema is not a JSON object schema: %s", tl.Name, sch)
			}
		}
	}
	for _, want := range []string{"read", "ls", "find", "grep", "write", "move", "delete"} {
		if !slices.Contains(names, want) {
			t.Errorf("tool %s missing from %v", want, names)
		}
	}
	if total > 2000 {
		t.Errorf("descriptions total %d characters, want at most 2,000", total)
	}
	ro, _ := newSet(t, Options{ReadOnly: true})
	var roNames []string
	for _, tl := range ro.Tools() {
		roNames = append(roNames, tl.Name)
		if !tl.Annotations.ReadOnly {
			t.Errorf("read-only set has mutating tool %s", tl.Name)
		}
	}
	if !slices.Equal(roNames, []string{"read", "ls", "find", "grep"}) {
		t.Errorf("read-only set = %v", roNames)
	}
	fails(t, ro, "write", `{"path":"/x","content":""}`, `unknown tool "write"; the tools are [read ls find grep]`)
}

func TestArgumentErrors(t *testing.T) {
	s, _ := newSet(t, Options{})
	fails(t, s, "ls", `{"path":"/","bogus":1}`, `invalid arguments for ls: unknown field "bogus"`)
	fails(t, s, "ls", `{"path":5}`, `invalid arguments for ls: path must be a string, not number`)
	fails(t, s, "ls", `[1]`, `invalid arguments for ls: expected a JSON object, got array`)
	fails(t, s, "ls", `{"path":"/","limit":0}`, `limit must be between 1 and 1000, got 0`)
	fails(t, s, "ls", `{"path":"/","limit":1001}`, `limit must be between 1 and 1000, got 1001`)
	fails(t, s, "ls", `{"path":"/","offset":-1}`, `offset must not be negative, got -1`)
	fails(t, s, "ls", `{"path":"/a/../.."}`, `Invalid path (escapes root): /a/../..`)
}

func TestLs(t *testing.T) {
	s, f := newSet(t, Options{})
	mustWrite(t, f, "/d/b.txt", "bb")
	mustWrite(t, f, "/d/a.txt", "a")
	if err := f.Symlink(bg, "a.txt", "/d/link"); err != nil {
		t.Fatal(err)
	}
	if err := f.MkdirAll(bg, "/d/sub", 0); err != nil {
		t.Fatal(err)
	}
	for i, p := range []string{"/d/a.txt", "/d/b.txt", "/d/sub"} {
		at := time.Date(2026, 1, 2, 3, 4, 5+i, 0, time.UTC)
		if err := f.Chtimes(bg, p, at, at); err != nil {
			t.Fatal(err)
		}
	}
	r := ok(t, s, "ls", `{"path":"/d"}`)
	m := structured(t, r)
	linkTime := time.UnixMilli(int64(m["entries"].([]any)[2].(map[string]any)["mtime"].(float64))).UTC().Format(time.RFC3339)
	if want := "a.txt\t1\t2026-01-02T03:04:05Z\nb.txt\t2\t2026-01-02T03:04:06Z\nlink@\t5\t" + linkTime + "\nsub/\t0\t2026-01-02T03:04:07Z\n"; text(r) != want {
		t.Errorf("ls text = %q, want %q", text(r), want)
	}
	if m["count"] != 4.0 || m["path"] != "/d" || m["nextOffset"] != nil {
		t.Errorf("ls structured = %v", m)
	}
	r = ok(t, s, "ls", `{"path":"d","limit":3}`) // relative to the root
	if !strings.HasSuffix(text(r), "[more entries: call ls again with offset=3]\n") || structured(t, r)["nextOffset"] != 3.0 {
		t.Errorf("paged ls = %q %v", text(r), structured(t, r))
	}
	r = ok(t, s, "ls", `{"path":"/d","offset":3}`)
	if text(r) != "sub/\t0\t2026-01-02T03:04:07Z\n" {
		t.Errorf("second page = %q", text(r))
	}
	fails(t, s, "ls", `{"path":"/nope"}`, "no such path: /nope")
	fails(t, s, "ls", `{"path":"/d/a.txt"}`, "not a directory: /d/a.txt")
	mustWrite(t, f, "/e/.keep", "")
	f.Remove(bg, "/e/.keep", nil)
	if r := ok(t, s, "ls", `{"path":"/e"}`); text(r) != "(empty directory)\n" {
		t.Errorf("empty ls = %q", text(r))
	}
}

func TestFind(t *testing.T) {
	s, f := newSet(t, Options{})
	for _, p := range []string{"/p/main.go", "/p/lib/u.go", "/p/.git/x.go", "/p/node_modules/m/i.go", "/p/README"} {
		mustWrite(t, f, p, "x")
	}
	r := ok(t, s, "find", `{"pattern":"**/*.go","path":"/p"}`)
	if want := "/p/lib/u.go\n/p/main.go\n"; text(r) != want {
		t.Errorf("find = %q, want %q (default excludes)", text(r), want)
	}
	r = ok(t, s, "find", `{"pattern":"**/*.go","path":"/p","exclude":[]}`)
	if n := structured(t, r)["count"]; n != 4.0 {
		t.Errorf("find with excludes off found %v, want 4: %s", n, text(r))
	}
	r = ok(t, s, "find", `{"pattern":"*","path":"/p","type":"dir"}`)
	if want := "/p/lib/\n"; text(r) != want {
		t.Errorf("find dirs = %q", text(r))
	}
	r = ok(t, s, "find", `{"pattern":"*.rs","path":"/p"}`)
	if text(r) != "no paths match \"*.rs\" under /p\n" {
		t.Errorf("no match = %q", text(r))
	}
	fails(t, s, "find", `{"pattern":"[","path":"/p"}`, "")
	fails(t, s, "find", `{"pattern":"*","type":"socket"}`, `type must be "file", "dir" or "symlink", got "socket"`)
}

func TestGrep(t *testing.T) {
	s, f := newSet(t, Options{})
	mustWrite(t, f, "/src/a.go", "package a\n// TODO one\nfunc A() {}\n")
	mustWrite(t, f, "/src/b.go", "package b\nfunc B() {} // todo two\n")
	mustWrite(t, f, "/src/node_modules/c.go", "// TODO hidden\n")
	r := ok(t, s, "grep", `{"query":"TODO","path":"/src"}`)
	if want := "/src/a.go:2:// TODO one\n"; text(r) != want {
		t.Errorf("grep = %q, want %q", text(r), want)
	}
	r = ok(t, s, "grep", `{"query":"todo","path":"/src","ignoreCase":true,"output":"files"}`)
	if want := "/src/a.go\n/src/b.go\n"; text(r) != want {
		t.Errorf("grep files = %q", text(r))
	}
	r = ok(t, s, "grep", `{"query":"t[o]do","regex":true,"ignoreCase":true,"output":"count","exclude":[]}`)
	if want := "/src/a.go:1\n/src/b.go:1\n/src/node_modules/c.go:1\n"; text(r) != want {
		t.Errorf("grep count = %q", text(r))
	}
	r = ok(t, s, "grep", `{"query":"TODO one","path":"/src/a.go","context":1}`)
	if want := "/src/a.go-1-package a\n/src/a.go:2:// TODO one\n/src/a.go-3-func A() {}\n--\n"; text(r) != want {
		t.Errorf("grep context = %q, want %q", text(r), want)
	}
	m := structured(t, r)
	if ms := m["matches"].([]any); len(ms) != 1 || len(ms[0].(map[string]any)["context"].([]any)) != 3 {
		t.Errorf("structured context = %v", m)
	}
	fails(t, s, "grep", `{"query":"(","regex":true}`, "invalid regular expression: missing closing ): `(`")
	fails(t, s, "grep", `{"query":"x","context":11}`, "context must be between 0 and 10, got 11")
	fails(t, s, "grep", `{"query":"x","output":"lines"}`, `output must be "content", "files" or "count", got "lines"`)
	if r := ok(t, s, "grep", `{"query":"zzz"}`); text(r) != "no matches for \"zzz\" under /\n" {
		t.Errorf("no match = %q", text(r))
	}
}

func TestWriteDeleteMove(t *testing.T) {
	s, f := newSet(t, Options{Write: WriteOptions{MaxBytes: 10}})
	r := ok(t, s, "write", `{"path":"/a/b/c.txt","content":"hello"}`)
	if text(r) != "Created /a/b/c.txt (5 bytes)" || structured(t, r)["created"] != true {
		t.Errorf("write = %q %v", text(r), structured(t, r))
	}
	if err := f.Chmod(bg, "/a/b/c.txt", 0o600); err != nil {
		t.Fatal(err)
	}
	r = ok(t, s, "write", `{"path":"/a/b/c.txt","content":"again"}`)
	if text(r) != "Overwrote /a/b/c.txt (5 bytes)" {
		t.Errorf("overwrite = %q", text(r))
	}
	if fi, _ := f.Stat(bg, "/a/b/c.txt"); fi.Perm != 0o600 {
		t.Errorf("mode after write = %o, want 600 kept", fi.Perm)
	}
	fails(t, s, "write", `{"path":"/big","content":"0123456789A"}`,
		"Content too large: 11 bytes exceeds the 10-byte write cap. Use the edit tool for incremental changes to existing files, or split the write into smaller pieces.")
	fails(t, s, "write", `{"path":"/a","content":"x"}`, "path is a directory: /a")

	ok(t, s, "move", `{"from":"/a/b/c.txt","to":"/a/d.txt"}`)
	if contentOf(t, f, "/a/d.txt") != "again" {
		t.Error("move lost content")
	}
	fails(t, s, "move", `{"from":"/a","to":"/a/b/x"}`, "cannot rename a directory into itself: /a/b/x")
	fails(t, s, "move", `{"from":"/nope","to":"/x"}`, "no such path: /nope")

	fails(t, s, "delete", `{"path":"/a"}`, "directory not empty: /a. Pass recursive: true to delete the directory and everything in it.")
	r = ok(t, s, "delete", `{"path":"/a","recursive":true}`)
	if text(r) != "Deleted dir /a" {
		t.Errorf("delete = %q", text(r))
	}
	r = ok(t, s, "delete", `{"path":"/a"}`)
	if text(r) != "/a does not exist; nothing to delete" || structured(t, r)["deleted"] != false {
		t.Errorf("delete missing = %q", text(r))
	}
	fails(t, s, "delete", `{"path":"/"}`, "cannot remove the root directory: /")
}

func TestLocks(t *testing.T) {
	l := NewLocks()
	ctx := context.Background()
	unlockA, err := l.Lock(ctx, LockRequest{Path: "/a/b"})
	if err != nil {
		t.Fatal(err)
	}
	// Unrelated paths proceed.
	unlockC, err := l.Lock(ctx, LockRequest{Path: "/c"})
	if err != nil {
		t.Fatal(err)
	}
	unlockC()
	// A subtree lock on an ancestor waits for the path lock below it.
	short, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
	defer cancel()
	if _, err := l.Lock(short, LockRequest{Path: "/a", Subtree: true}); err != context.DeadlineExceeded {
		t.Fatalf("subtree lock over a held path: %v, want to wait", err)
	}
	got := make(chan struct{})
	go func() {
		unlock, err := l.Lock(ctx, LockRequest{Path: "/a", Subtree: true})
		if err == nil {
			close(got)
			unlock()
		}
	}()
	select {
	case <-got:
		t.Fatal("subtree lock granted while /a/b is held")
	case <-time.After(20 * time.Millisecond):
	}
	unlockA()
	select {
	case <-got:
	case <-time.After(5 * time.Second):
		t.Fatal("subtree lock not granted after release")
	}
	// Sets over one FS share their table.
	s1, f := newSet(t, Options{})
	s2 := New(f, Options{})
	if s1.opts.Locks != s2.opts.Locks {
		t.Error("two sets over one FS do not share locks")
	}
}

// Concurrent writes and deletes through the tools never interleave badly:
// every file ends either deleted or with one whole write.
func TestConcurrentMutations(t *testing.T) {
	s, f := newSet(t, Options{})
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 20 {
				p := fmt.Sprintf("/shared/f%d", i%4)
				switch (g + i) % 3 {
				case 0, 1:
					ok(t, s, "write", fmt.Sprintf(`{"path":%q,"content":"writer %d round %d"}`, p, g, i))
				case 2:
					ok(t, s, "delete", fmt.Sprintf(`{"path":%q}`, p))
				}
			}
		}()
	}
	wg.Wait()
	l, err := f.ReadDir(bg, "/shared", vfs.Page{})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range l.Entries {
		if c := contentOf(t, f, e.Path); !strings.HasPrefix(c, "writer ") {
			t.Errorf("%s = %q", e.Path, c)
		}
	}
}

// A pathological expression over a big file: grep returns promptly, after
// GrepTimeout, with the matches found so far and a note.
func TestGrepTimeout(t *testing.T) {
	s, f := newSet(t, Options{List: ListOptions{GrepTimeout: 200 * time.Millisecond}})
	mustWrite(t, f, "/big.txt", strings.Repeat(strings.Repeat("x", 63)+"\n", (16<<20)/64))
	start := time.Now()
	r := ok(t, s, "grep", `{"query":"(.*){1000}","regex":true,"output":"count"}`)
	if d := time.Since(start); d > time.Minute {
		t.Errorf("grep with a 200ms budget took %v", d)
	}
	if want := "[grep stopped after the time limit GrepTimeout (200ms): these are the results found until then. Narrow path or include, or use a simpler pattern.]\n"; text(r) != want {
		t.Errorf("timed-out grep:\n%q\nwant\n%q", text(r), want)
	}
	if m := structured(t, r); m["timedOut"] != true || m["count"] != 0.0 {
		t.Errorf("structured: %v", m)
	}
	r = ok(t, s, "grep", `{"query":"(.*){1000}","regex":true,"limit":1000}`)
	m := structured(t, r)
	n := int(m["count"].(float64))
	if m["timedOut"] != true || n == 1000 {
		t.Fatalf("content grep: %v", m)
	}
	if n > 0 && !strings.HasSuffix(text(r), fmt.Sprintf("; offset=%d goes on after them. Narrow path or include, or use a simpler pattern.]\n", n)) {
		t.Errorf("content grep with %d matches:\n%s", n, text(r)[max(0, len(text(r))-300):])
	}
}

// Names with control characters are quoted in the tools' text, as ls -b
// does, and kept raw in the structured results.
func TestControlCharactersInNames(t *testing.T) {
	s, f := newSet(t, Options{})
	nl, esc := "/c/a\nb.txt", "/c/\x1b[31mred"
	mustWrite(t, f, nl, "needle\n")
	mustWrite(t, f, esc, "needle\n")
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for _, p := range []string{nl, esc} {
		if err := f.Chtimes(bg, p, at, at); err != nil {
			t.Fatal(err)
		}
	}
	r := ok(t, s, "ls", `{"path":"/c"}`)
	if want := "\"\\x1b[31mred\"\t7\t2026-01-02T03:04:05Z\n\"a\\nb.txt\"\t7\t2026-01-02T03:04:05Z\n"; text(r) != want {
		t.Errorf("ls text = %q, want %q", text(r), want)
	}
	if e := structured(t, r)["entries"].([]any); e[1].(map[string]any)["name"] != "a\nb.txt" {
		t.Errorf("structured ls name = %q", e[1].(map[string]any)["name"])
	}
	r = ok(t, s, "find", `{"pattern":"*","path":"/c"}`)
	if want := "\"/c/\\x1b[31mred\"\n\"/c/a\\nb.txt\"\n"; text(r) != want {
		t.Errorf("find text = %q, want %q", text(r), want)
	}
	r = ok(t, s, "grep", `{"query":"needle","path":"/c"}`)
	if want := "\"/c/\\x1b[31mred\":1:needle\n\"/c/a\\nb.txt\":1:needle\n"; text(r) != want {
		t.Errorf("grep text = %q, want %q", text(r), want)
	}
	if m := structured(t, r)["matches"].([]any); m[1].(map[string]any)["path"] != nl {
		t.Errorf("structured grep path = %q", m[1].(map[string]any)["path"])
	}
	r = ok(t, s, "grep", `{"query":"needle","path":"/c","output":"count"}`)
	if want := "\"/c/\\x1b[31mred\":1\n\"/c/a\\nb.txt\":1\n"; text(r) != want {
		t.Errorf("grep count text = %q, want %q", text(r), want)
	}
	fails(t, s, "read", `{"path":"/c/x\ny"}`, `File not found: "/c/x\ny"`)
	r = ok(t, s, "write", `{"path":"/c/new\u0007","content":"x"}`)
	if want := `Created "/c/new\a" (1 bytes)`; text(r) != want {
		t.Errorf("write text = %q, want %q", text(r), want)
	}
}
