package vfs

import (
	"errors"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A revert takes back exactly the named paths (and what is below them),
// leaving the rest; a path changed since the "after" checkpoint refuses
// it whole, naming every conflict.
func TestRevert(t *testing.T) {
	clk := newClock()
	f := openTest(t, withClock(clk))
	build(t, f)
	checkpoint(t, f, "before")
	before := dump(t, f)
	mutate(t, f, clk)
	checkpoint(t, f, "after")
	all := []string{"/src/a.txt", "/src/deep", "/docs", "/manual", "/src/run.sh", "/src/b.txt", "/link",
		"/src/b-hard", "/new", "/src/gone.txt", "/big"}

	// Someone else changes three of them afterwards: nothing is reverted.
	clk.Advance(time.Second)
	put(t, f, "/src/a.txt", "someone else")
	noErr(t, f.Remove(bg, "/new/file", nil))
	put(t, f, "/manual/extra.md", "x")
	mid := dump(t, f)
	_, err := f.Revert(bg, "before", "after", all)
	var ce *ConflictError
	if !errors.As(err, &ce) || !errors.Is(err, syscall.ESTALE) || Code(err) != ESTALE {
		t.Fatalf("revert after later changes: %v, want a ConflictError (ESTALE)", err)
	}
	want := "3 paths changed since, nothing was reverted: /manual/extra.md (created), /new/file (deleted), /src/a.txt (modified)"
	if err.Error() != want {
		t.Errorf("conflict message:\n%s\nwant\n%s", err, want)
	}
	if got := dump(t, f); got != mid {
		t.Errorf("a refused revert changed the tree:\n%s", lineDiff(got, mid))
	}

	// Put them back as they were after: the revert restores the
	// "before" tree exactly, as one revision.
	put(t, f, "/src/a.txt", "A changed\n")
	put(t, f, "/new/file", "new")
	noErr(t, f.Remove(bg, "/manual/extra.md", nil))
	rev0, _ := f.Rev(bg)
	st, err := f.Revert(bg, "before", "after", all)
	noErr(t, err)
	if st.Rev != rev0+1 {
		t.Errorf("revert committed as revision %d, want %d", st.Rev, rev0+1)
	}
	if got := dump(t, f); got != before {
		t.Errorf("after the revert:\n%s", lineDiff(got, before))
	}

	// Only the named paths: a revert of /src/a.txt alone leaves the rest.
	checkpoint(t, f, "b2")
	put(t, f, "/src/a.txt", "two")
	put(t, f, "/src/b.txt", "two")
	checkpoint(t, f, "a2")
	_, err = f.Revert(bg, "b2", "a2", []string{"/src/a.txt"})
	noErr(t, err)
	expectContent(t, f, "/src/a.txt", "A\n")
	expectContent(t, f, "/src/b.txt", "two")

	if _, err := f.Revert(bg, "", "a2", nil); Code(err) != EINVAL || err.Error() != "revert needs two checkpoints" {
		t.Errorf("revert from the live tree: %v, want EINVAL", err)
	}
	if _, err := f.Revert(bg, "b2", "nosuch", nil); Code(err) != ENOENT {
		t.Errorf("revert to a missing checkpoint: %v, want ENOENT", err)
	}
}

// lineDiff lists the lines of got and want that differ (each cut to 200
// bytes: dumps hold whole files).
func lineDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	in := func(l []string) map[string]bool {
		m := map[string]bool{}
		for _, x := range l {
			m[x] = true
		}
		return m
	}
	gm, wm := in(g), in(w)
	var b strings.Builder
	cut := func(s string) string { return s[:min(len(s), 200)] }
	for _, x := range g {
		if !wm[x] {
			b.WriteString("+ " + cut(x) + "\n")
		}
	}
	for _, x := range w {
		if !gm[x] {
			b.WriteString("- " + cut(x) + "\n")
		}
	}
	return b.String()
}
