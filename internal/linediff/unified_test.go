package linediff

import (
	"math/rand/v2"
	"strings"
	"testing"
)

func TestUnifiedCases(t *testing.T) {
	tests := []struct {
		name, a, b string
		context    int
		want       string
	}{
		{"equal", "a\nb\n", "a\nb\n", 4, ""},
		{"both empty", "", "", 4, ""},
		{"add to empty", "", "x\ny\n", 4, "@@ -0,0 +1,2 @@\n+x\n+y\n"},
		{"delete all", "x\n", "", 4, "@@ -1 +0,0 @@\n-x\n"},
		{"one line", "a\nb\nc\n", "a\nB\nc\n", 4, "@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n"},
		{"context 0", "a\nb\nc\n", "a\nB\nc\n", 0, "@@ -2 +2 @@\n-b\n+B\n"},
		{"pure insert context 0", "a\nc\n", "a\nb\nc\n", 0, "@@ -1,0 +2 @@\n+b\n"},
		{"pure delete context 0", "a\nb\nc\n", "a\nc\n", 0, "@@ -2 +1,0 @@\n-b\n"},
		{"add final newline", "a\nb", "a\nb\n", 4, "@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b\n"},
		{"drop final newline", "a\nb\n", "a\nb", 4, "@@ -1,2 +1,2 @@\n a\n-b\n+b\n\\ No newline at end of file\n"},
		{"no newline context", "a\nb\nc", "A\nb\nc", 4, "@@ -1,3 +1,3 @@\n-a\n+A\n b\n c\n\\ No newline at end of file\n"},
		{"negative context", "a\nb\n", "a\nc\n", -1, "@@ -2 +2 @@\n-b\n+c\n"},
		{
			"merge within 2*context", "1\n2\n3\n4\n5\n6\n", "x\n2\n3\n4\n5\ny\n", 2,
			"@@ -1,6 +1,6 @@\n-1\n+x\n 2\n 3\n 4\n 5\n-6\n+y\n",
		},
		{
			"split beyond 2*context", "1\n2\n3\n4\n5\n6\n7\n", "x\n2\n3\n4\n5\n6\ny\n", 2,
			"@@ -1,3 +1,3 @@\n-1\n+x\n 2\n 3\n@@ -5,3 +5,3 @@\n 5\n 6\n-7\n+y\n",
		},
	}
	for _, tc := range tests {
		got := Unified("a/f", "b/f", []byte(tc.a), []byte(tc.b), tc.context)
		if tc.want != "" {
			tc.want = "--- a/f\n+++ b/f\n" + tc.want
		}
		if got != tc.want {
			t.Errorf("%s:\n got %q\nwant %q", tc.name, got, tc.want)
		}
	}
}

// TestLineDiffMinimal checks on every small pair over a two-letter
// alphabet that the diff is a valid alignment of minimal size.
func TestLineDiffMinimal(t *testing.T) {
	seqs := []string{""}
	for n := 1; n <= 6; n++ {
		for mask := 0; mask < 1<<n; mask++ {
			var b strings.Builder
			for i := range n {
				b.WriteByte("xy"[mask>>i&1])
			}
			seqs = append(seqs, b.String())
		}
	}
	for _, sa := range seqs {
		for _, sb := range seqs {
			a, b := strings.Split(sa, ""), strings.Split(sb, "")
			if sa == "" {
				a = nil
			}
			if sb == "" {
				b = nil
			}
			del, ins := Edits(textOf(a), textOf(b))
			checkAlignment(t, a, b, del, ins, true)
		}
	}
}

// checkAlignment verifies that the unchanged lines pair up equal and, if
// minimal is set, that their number is the LCS length.
func checkAlignment(t *testing.T, a, b []string, del, ins []bool, minimal bool) {
	t.Helper()
	var keptA, keptB []string
	for i, d := range del {
		if !d {
			keptA = append(keptA, a[i])
		}
	}
	for j, d := range ins {
		if !d {
			keptB = append(keptB, b[j])
		}
	}
	if strings.Join(keptA, "\x00") != strings.Join(keptB, "\x00") || len(keptA) != len(keptB) {
		t.Fatalf("%q -> %q: unchanged lines differ: %q vs %q", a, b, keptA, keptB)
	}
	if minimal {
		if l := lcs(a, b); len(keptA) != l {
			t.Fatalf("%q -> %q: kept %d lines, LCS is %d", a, b, len(keptA), l)
		}
	}
}

// textOf makes lines of the given strings, each followed by a newline
// unless it already ends with one.
func textOf(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = strings.TrimSuffix(l, "\n") + "\n"
	}
	return out
}

func lcs(a, b []string) int {
	prev, cur := make([]int, len(b)+1), make([]int, len(b)+1)
	for i := range a {
		for j := range b {
			if a[i] == b[j] {
				cur[j+1] = prev[j] + 1
			} else {
				cur[j+1] = max(cur[j], prev[j+1])
			}
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

func TestBudgetFallback(t *testing.T) {
	a := []string{"p\n", "1\n", "2\n", "3\n", "s\n"}
	b := []string{"p\n", "2\n", "x\n", "3\n", "s\n"}
	del, ins := edits(textOf(a), textOf(b), Git, 0)
	checkAlignment(t, a, b, del, ins, false)
	// The common prefix and suffix survive; the middle is one replacement.
	wantDel := []bool{false, true, true, false, false}
	wantIns := []bool{false, true, true, false, false}
	for i := range wantDel {
		if del[i] != wantDel[i] || ins[i] != wantIns[i] {
			t.Fatalf("del %v ins %v", del, ins)
		}
	}
}

// TestRandomDiffsMinimalAndApply checks many random pairs over small
// alphabets: the alignment is minimal and the patch applies.
func TestRandomDiffsMinimalAndApply(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for iter := range 3000 {
		alpha := 2 + r.IntN(4)
		gen := func(n int) []string {
			ls := make([]string, n)
			for i := range ls {
				ls[i] = string(rune('a'+r.IntN(alpha))) + "\n"
			}
			return ls
		}
		a := gen(r.IntN(80))
		b := gen(r.IntN(80))
		if iter%3 == 0 { // b as an edit of a
			b = append([]string(nil), a...)
			for range 1 + r.IntN(6) {
				k := r.IntN(len(b) + 1)
				switch r.IntN(3) {
				case 0:
					b = append(b[:k], append([]string{"z\n"}, b[k:]...)...)
				case 1:
					if k < len(b) {
						b = append(b[:k], b[k+1:]...)
					}
				default:
					if k < len(b) {
						b[k] = "y\n"
					}
				}
			}
		}
		del, ins := Edits(textOf(a), textOf(b))
		checkAlignment(t, a, b, del, ins, true)
		sa, sb := strings.Join(a, ""), strings.Join(b, "")
		p := Unified("a/f", "b/f", []byte(sa), []byte(sb), r.IntN(5))
		got, err := applyUnified([]byte(sa), p)
		if err != nil || string(got) != sb {
			t.Fatalf("patch does not apply: %v\n%s", err, p)
		}
	}
}
