package tools

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// lsTreeWS makes /p with files of distinct sizes and times and a nested
// directory.
func lsTreeWS(t *testing.T, opts Options) *Set {
	t.Helper()
	s, f := newSet(t, opts)
	mustWrite(t, f, "/p/a.txt", "a")
	mustWrite(t, f, "/p/big.bin", strings.Repeat("x", 100))
	mustWrite(t, f, "/p/src/main.go", "package main\n")
	mustWrite(t, f, "/p/src/deep/x.go", "x")
	if err := f.Chmod(bg, "/p/a.txt", 0o600); err != nil {
		t.Fatal(err)
	}
	for i, p := range []string{"/p/src/deep/x.go", "/p/src/deep", "/p/src/main.go", "/p/src", "/p/big.bin", "/p/a.txt"} {
		at := time.Date(2026, 1, 2, 3, 4, i, 0, time.UTC)
		if err := f.Chtimes(bg, p, at, at); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

func lsNames(t *testing.T, r *Result) string {
	t.Helper()
	var names []string
	for _, e := range structured(t, r)["entries"].([]any) {
		m := e.(map[string]any)
		if p, ok := m["path"].(string); ok {
			names = append(names, fmt.Sprintf("%s:%v", p, m["depth"]))
		} else {
			names = append(names, m["name"].(string))
		}
	}
	return strings.Join(names, " ")
}

func TestLsDepth(t *testing.T) {
	s := lsTreeWS(t, Options{List: ListOptions{MaxDepth: 3}})
	r := ok(t, s, "ls", `{"path":"/p","depth":2}`)
	if got := lsNames(t, r); got != "/p/a.txt:1 /p/big.bin:1 /p/src:1 /p/src/deep:2 /p/src/main.go:2" {
		t.Errorf("depth 2 = %s", got)
	}
	want := "a.txt\t1\t2026-01-02T03:04:05Z\nbig.bin\t100\t2026-01-02T03:04:04Z\nsrc/\t0\t2026-01-02T03:04:03Z\n" +
		"  deep/\t0\t2026-01-02T03:04:01Z\n  main.go\t13\t2026-01-02T03:04:02Z\n"
	if text(r) != want {
		t.Errorf("text = %q, want %q", text(r), want)
	}
	// Paged like any listing: the pages join up to the whole tree.
	var all []string
	for off := 0; ; {
		r := ok(t, s, "ls", fmt.Sprintf(`{"path":"/p","depth":3,"limit":2,"offset":%d}`, off))
		all = append(all, lsNames(t, r))
		next, _ := structured(t, r)["nextOffset"].(float64)
		if next == 0 {
			break
		}
		off = int(next)
	}
	if got := strings.Join(all, " | "); got != "/p/a.txt:1 /p/big.bin:1 | /p/src:1 /p/src/deep:2 | /p/src/deep/x.go:3 /p/src/main.go:2" {
		t.Errorf("pages = %s", got)
	}
	fails(t, s, "ls", `{"path":"/p","depth":4}`, "depth must be between 1 and 3 (the limit List.MaxDepth), got 4")
	fails(t, s, "ls", `{"path":"/p","depth":0}`, "depth must be between 1 and 3 (the limit List.MaxDepth), got 0")
}

func TestLsSortAndMode(t *testing.T) {
	s := lsTreeWS(t, Options{List: ListOptions{MaxSortEntries: 3}})
	if got := lsNames(t, ok(t, s, "ls", `{"path":"/p","sort":"size"}`)); got != "big.bin a.txt src" {
		t.Errorf("by size = %s", got)
	}
	if got := lsNames(t, ok(t, s, "ls", `{"path":"/p","sort":"mtime"}`)); got != "a.txt big.bin src" {
		t.Errorf("by mtime = %s", got)
	}
	if got := lsNames(t, ok(t, s, "ls", `{"path":"/p","sort":"size","depth":2}`)); got != "/p/big.bin:1 /p/a.txt:1 /p/src:1 /p/src/main.go:2 /p/src/deep:2" {
		t.Errorf("tree by size = %s", got)
	}
	if got := lsNames(t, ok(t, s, "ls", `{"path":"/p","sort":"name","limit":2}`)); got != "a.txt big.bin" {
		t.Errorf("by name = %s", got)
	}
	m := structured(t, ok(t, s, "ls", `{"path":"/p"}`))
	es := m["entries"].([]any)
	if es[0].(map[string]any)["mode"] != "-rw-------" || es[2].(map[string]any)["mode"] != "drwxr-xr-x" {
		t.Errorf("modes = %v", es)
	}
	fails(t, s, "ls", `{"path":"/p","sort":"age"}`, `sort must be "name", "size" or "mtime", got "age"`)
	mustWrite(t, s.fs, "/p/z", "")
	fails(t, s, "ls", `{"path":"/p","sort":"size"}`,
		"/p has more than 3 entries, the most ls sorts by size (the limit List.MaxSortEntries); list it sorted by name, or use find")
}
