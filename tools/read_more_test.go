package tools

import (
	"fmt"
	"strings"
	"testing"
)

func numbered(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "line %d\n", i)
	}
	return b.String()
}

// tail reads the last lines with their numbers, and prevOffset/prevLimit
// walk backwards until the first line.
func TestReadTail(t *testing.T) {
	s, f := rdSet(t, Options{})
	mustWrite(t, f, "/log.txt", numbered(10))
	out, r := rdText(t, s, rdArgs("/log.txt", "tail", 3))
	if out.Content != "8\tline 8\n9\tline 9\n10\tline 10" || out.StartLine != 8 || out.Lines != 3 ||
		out.TotalLines == nil || *out.TotalLines != 10 || out.Truncated || out.PrevOffset != 5 || out.PrevLimit != 3 {
		t.Errorf("tail 3 = %+v", out)
	}
	if want := out.Content + "\n\n[Showing lines 8-10 of 10. Earlier lines: read with offset=5, limit=3.]"; text(r) != want {
		t.Errorf("text = %q, want %q", text(r), want)
	}
	// Backwards: each page's prev continuation leads to the one before.
	var pages []string
	off, lim := out.PrevOffset, out.PrevLimit
	for off > 0 {
		p, _ := rdText(t, s, rdArgs("/log.txt", "offset", off, "limit", lim))
		pages = append(pages, fmt.Sprintf("%d+%d", p.StartLine, p.Lines))
		off, lim = p.PrevOffset, p.PrevLimit
	}
	if fmt.Sprint(pages) != "[5+3 2+3 1+1]" {
		t.Errorf("pages backwards = %v", pages)
	}
	// More lines than the file has; no final newline; a one-line file.
	mustWrite(t, f, "/short.txt", "a\nb")
	if out, _ := rdText(t, s, rdArgs("/short.txt", "tail", 50)); out.Content != "1\ta\n2\tb" || out.StartLine != 1 || out.PrevLimit != 0 {
		t.Errorf("tail of short = %+v", out)
	}
	mustWrite(t, f, "/empty.txt", "")
	if out, r := rdText(t, s, rdArgs("/empty.txt", "tail", 5)); out.Lines != 0 || text(r) != "[/empty.txt is empty]" {
		t.Errorf("tail of empty = %+v %q", out, text(r))
	}
	fails(t, s, "read", rdArgs("/log.txt", "tail", 3, "offset", 2),
		"invalid arguments for read: tail reads the last lines; it does not go with offset, limit, byteOffset or lineOffset")
	fails(t, s, "read", rdArgs("/log.txt", "tail", 0), "invalid arguments for read: tail must be at least 1, got 0")
}

// A tail larger than the byte cap keeps the last lines that fit, and
// crosses the backward scan's windows.
func TestReadTailByteCap(t *testing.T) {
	s, f := rdSet(t, Options{Read: ReadOptions{MaxBytes: 100, NoLineNumbers: true}})
	mustWrite(t, f, "/big.txt", numbered(30000)) // ~320 KB: several windows
	out, _ := rdText(t, s, rdArgs("/big.txt", "tail", 1000))
	// "line 29992".."line 30000": 9 lines of 10 bytes and 8 joins = 98.
	if out.StartLine != 29992 || out.Lines != 9 || !strings.HasPrefix(out.Content, "line 29992\n") ||
		!strings.HasSuffix(out.Content, "line 30000") || out.Truncated || out.PrevOffset != 28992 || out.PrevLimit != 1000 {
		t.Errorf("tail = %+v", out)
	}
	// The line cap holds too.
	s2, _ := rdSet(t, Options{Read: ReadOptions{MaxLines: 4}})
	mustWrite(t, s2.fs, "/big.txt", numbered(30000))
	if out, _ := rdText(t, s2, rdArgs("/big.txt", "tail", 10)); out.StartLine != 29997 || out.Lines != 4 {
		t.Errorf("tail under MaxLines = %+v", out)
	}
}

// paths reads several files in one call: each its own result or error, in
// order, all within one byte cap.
func TestReadPaths(t *testing.T) {
	s, f := rdSet(t, Options{})
	mustWrite(t, f, "/a.txt", "alpha\n")
	mustWrite(t, f, "/b.txt", numbered(5))
	r := ok(t, s, "read", `{"paths":["/a.txt","/missing.txt","b.txt"],"tail":2}`)
	m := structured(t, r)
	files := m["files"].([]any)
	if len(files) != 3 {
		t.Fatalf("files = %v", files)
	}
	a, miss, b := files[0].(map[string]any), files[1].(map[string]any), files[2].(map[string]any)
	if a["path"] != "/a.txt" || a["content"] != "1\talpha" || a["kind"] != "text" || a["error"] != nil {
		t.Errorf("a = %v", a)
	}
	if miss["path"] != "/missing.txt" || miss["error"] != "File not found: /missing.txt" {
		t.Errorf("missing = %v", miss)
	}
	if b["path"] != "/b.txt" || b["content"] != "4\tline 4\n5\tline 5" || b["prevOffset"] != 2.0 {
		t.Errorf("b = %v", b)
	}
	want := "==> /a.txt <==\n1\talpha\n\n==> /missing.txt <==\nFile not found: /missing.txt\n\n==> /b.txt <==\n" +
		"4\tline 4\n5\tline 5\n\n[Showing lines 4-5 of 5. Earlier lines: read with offset=2, limit=2.]"
	if text(r) != want {
		t.Errorf("text =\n%s\nwant\n%s", text(r), want)
	}
	fails(t, s, "read", `{"path":"/a.txt","paths":["/b.txt"]}`, "invalid arguments for read: pass path or paths, not both")
	fails(t, s, "read", `{"paths":[]}`, "invalid arguments for read: paths must name at least one file")
}

// The files of one call share Read.MaxBytes: a file after the cap is spent
// is not read, and says so; Read.MaxPaths bounds the count.
func TestReadPathsBudget(t *testing.T) {
	s, f := rdSet(t, Options{Read: ReadOptions{MaxBytes: 60, NoLineNumbers: true, MaxPaths: 3}})
	mustWrite(t, f, "/a.txt", strings.Repeat("a", 45)+"\n")
	mustWrite(t, f, "/b.txt", strings.Repeat("b", 15)+"\n"+strings.Repeat("c", 15)+"\n")
	mustWrite(t, f, "/c.txt", "c\n")
	m := structured(t, ok(t, s, "read", `{"paths":["/a.txt","/b.txt","/c.txt"]}`))
	files := m["files"].([]any)
	a, b, c := files[0].(map[string]any), files[1].(map[string]any), files[2].(map[string]any)
	if len(a["content"].(string)) != 45 || b["content"] != strings.Repeat("b", 15) || b["truncated"] != true || b["nextOffset"] != 2.0 {
		t.Errorf("a = %v, b = %v", a, b)
	}
	if c["error"] != "not read: the files before it used the call's 60-byte cap; read it in another call" {
		t.Errorf("c = %v", c)
	}
	fails(t, s, "read", `{"paths":["/a","/b","/c","/d"]}`, "read of 4 paths exceeds the limit Read.MaxPaths (3); read them in several calls.")
}
