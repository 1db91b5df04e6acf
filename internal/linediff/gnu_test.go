package linediff

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// stripHeaders drops the "---" and "+++" lines.
func stripHeaders(t *testing.T, d string) string {
	t.Helper()
	if d == "" {
		return ""
	}
	lines := strings.SplitN(d, "\n", 3)
	if len(lines) < 3 || !strings.HasPrefix(lines[0], "--- ") || !strings.HasPrefix(lines[1], "+++ ") {
		t.Fatalf("bad headers in %q", d)
	}
	return lines[2]
}

// gnuDiff runs diff -U<context> on a and b.
func gnuDiff(t *testing.T, dir string, a, b []byte, context int) string {
	t.Helper()
	pa, pb := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	if err := os.WriteFile(pa, a, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(pb, b, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("diff", fmt.Sprintf("-U%d", context), pa, pb).Output()
	if err != nil {
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
			t.Fatalf("diff: %v", err)
		}
	}
	return string(out)
}

// applyPatch applies patch to a with patch(1) and returns the result.
func applyPatch(t *testing.T, dir string, a []byte, patch string) []byte {
	t.Helper()
	pa, pp, po := filepath.Join(dir, "orig"), filepath.Join(dir, "p.diff"), filepath.Join(dir, "out")
	os.Remove(po)
	if err := os.WriteFile(pa, a, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(pp, []byte(patch), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("patch", "--batch", "--silent", "--force", "-u", "-o", po, pa, pp)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("patch failed: %v\n%s\npatch:\n%s", err, out, patch)
	}
	got, err := os.ReadFile(po)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// uniqueCase builds a file of unique lines and a random edit of it, so
// that the longest common subsequence, and hence the diff, is unique.
func uniqueCase(r *rand.Rand) (a, b []byte) {
	n := r.IntN(60)
	var al, bl []string
	next := 0
	for i := range n {
		al = append(al, fmt.Sprintf("line %d", i))
	}
	for _, l := range al {
		switch r.IntN(10) {
		case 0: // delete
		case 1: // modify
			bl = append(bl, fmt.Sprintf("changed %d", next))
			next++
		case 2: // insert before
			bl = append(bl, fmt.Sprintf("new %d", next), l)
			next++
		default:
			bl = append(bl, l)
		}
	}
	for range r.IntN(3) {
		bl = append(bl, fmt.Sprintf("tail %d", next))
		next++
	}
	join := func(ls []string, nl bool) []byte {
		s := strings.Join(ls, "\n")
		if nl && len(ls) > 0 {
			s += "\n"
		}
		return []byte(s)
	}
	return join(al, r.IntN(5) != 0), join(bl, r.IntN(5) != 0)
}

func TestMatchesGNUDiff(t *testing.T) {
	if _, err := exec.LookPath("diff"); err != nil {
		t.Skip("diff not installed")
	}
	dir := t.TempDir()
	fixed := [][2]string{
		{"1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n", "x\n2\n3\n4\n5\n6\n7\n8\n9\ny\n11\n"}, // gap 2*4: one hunk
		{"1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n", "x\n2\n3\n4\n5\n6\n7\n8\n9\n10\ny\n"}, // gap 2*4+1: two
		{"a\nb", "a\nb\n"},
		{"a\nb\n", "a\nc"},
		{"", "a"},
		{"a", ""},
		{"same\nlast", "same\nlast\nmore"},
	}
	for _, c := range fixed {
		got := stripHeaders(t, Unified("a/f", "b/f", []byte(c[0]), []byte(c[1]), 4))
		if want := stripHeaders(t, gnuDiff(t, dir, []byte(c[0]), []byte(c[1]), 4)); got != want {
			t.Fatalf("a=%q b=%q\n got:\n%s\nwant:\n%s", c[0], c[1], got, want)
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 300 {
		a, b := uniqueCase(r)
		context := []int{4, 4, 3, 1, 0}[i%5]
		got := stripHeaders(t, Unified("a/f", "b/f", a, b, context))
		want := stripHeaders(t, gnuDiff(t, dir, a, b, context))
		if got != want {
			t.Fatalf("case %d (context %d)\na=%q\nb=%q\n got:\n%s\nwant:\n%s", i, context, a, b, got, want)
		}
	}
}

func TestPatchApplies(t *testing.T) {
	if _, err := exec.LookPath("patch"); err != nil {
		t.Skip("patch not installed")
	}
	dir := t.TempDir()
	r := rand.New(rand.NewPCG(3, 4))
	gen := func() []byte {
		var b bytes.Buffer
		for range r.IntN(40) {
			b.WriteString([]string{"x", "y", "z", "", "  w"}[r.IntN(5)])
			b.WriteByte('\n')
		}
		if b.Len() > 0 && r.IntN(4) == 0 {
			b.Truncate(b.Len() - 1)
		}
		return b.Bytes()
	}
	for i := range 200 {
		a, b := gen(), gen()
		if i%2 == 0 && len(a) > 0 { // a near neighbour of a, too
			b = append(append([]byte(nil), a[:len(a)/2]...), append([]byte("inserted\n"), a[len(a)/2:]...)...)
		}
		context := []int{4, 1, 0}[i%3]
		p := Unified("a/f", "b/f", a, b, context)
		if p == "" {
			if !bytes.Equal(a, b) {
				t.Fatalf("empty diff for different inputs")
			}
			continue
		}
		if got := applyPatch(t, dir, a, p); !bytes.Equal(got, b) {
			t.Fatalf("case %d: patched %q, want %q\npatch:\n%s", i, got, b, p)
		}
	}
}

// TestLargeDenseDiffIsBounded diffs two unrelated 20,000-line files: the
// search runs out of budget and falls back to one hunk, quickly, and the
// patch still applies.
func TestLargeDenseDiffIsBounded(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	gen := func() []byte {
		var b bytes.Buffer
		for range 20000 {
			fmt.Fprintf(&b, "%d\n", r.IntN(50))
		}
		return b.Bytes()
	}
	a, b := gen(), gen()
	start := time.Now()
	p := Unified("a/f", "b/f", a, b, 4)
	t.Logf("%v, %d hunks, %d bytes", time.Since(start), strings.Count(p, "@@ -"), len(p))
	if _, err := exec.LookPath("patch"); err == nil {
		if got := applyPatch(t, t.TempDir(), a, p); !bytes.Equal(got, b) {
			t.Fatal("large patch does not apply")
		}
	}
}

// TestLargeSparseDiffStaysMinimal: a few scattered edits in a big file
// stay small hunks.
func TestLargeSparseDiffStaysMinimal(t *testing.T) {
	var a bytes.Buffer
	for i := range 50000 {
		fmt.Fprintf(&a, "line %d\n", i)
	}
	b := bytes.Replace(a.Bytes(), []byte("line 100\n"), []byte("LINE 100\n"), 1)
	b = bytes.Replace(b, []byte("line 30000\n"), []byte(""), 1)
	b = bytes.Replace(b, []byte("line 49000\n"), []byte("line 49000\nnew\n"), 1)
	p := Unified("a/f", "b/f", a.Bytes(), b, 4)
	if n := strings.Count(p, "@@ -"); n != 3 {
		t.Fatalf("%d hunks:\n%s", n, p)
	}
	if n := strings.Count(p, "\n-") + strings.Count(p, "\n+") - 1; n != 4 { // minus the +++ header
		t.Fatalf("%d changed lines:\n%s", n, p)
	}
}
