package vfs

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

// checkIndexGrep writes files into a new in-memory workspace, indexes them
// and greps for pattern with the index and by scanning: the results must
// be the same.
func checkIndexGrep(t *testing.T, files []string, pattern string, regex, fold bool) {
	t.Helper()
	f, err := Open(bg, "", nil)
	noErr(t, err)
	defer f.Close()
	for i, content := range files {
		put(t, f, fmt.Sprintf("/d/f%d", i), content)
	}
	st, err := f.RebuildIndex(bg)
	noErr(t, err)
	if st.Unindexed != 0 {
		t.Fatalf("after RebuildIndex: %+v, want nothing unindexed", st)
	}
	if pattern == "" {
		return
	}
	for _, mode := range []GrepMode{GrepContent, GrepCount} {
		grepBoth(t, f, pattern, GrepOptions{Regex: regex, IgnoreCase: fold, Mode: mode})
	}
}

func FuzzIndexGrep(f *testing.F) {
	for _, seed := range []struct {
		data, pattern string
		regex, fold   bool
	}{
		{"hello world|HELLO there|nothing", "hello", false, false},
		{"hello world|HELLO there|nothing", "hello", false, true},
		{"func f(ctx context.Context)|func g()", `func \w+\(ctx`, true, false},
		{"abc\ndef|ab\ncdef|xyz", "abc|def", true, false},
		{"straße|STRASSE|strasse", "straße", false, true},
		{"KELVIN|\u212aelvin|kelvin", "kelvin", false, true},
		{"a1b|a22b|ab", `a\d*b`, true, false},
		{"x\r\ny|x\ny", `x$`, true, false},
		{"aaa|aaaa|aa", `a{3}`, true, false},
		{"foobar|bar|fooba", `(foo)?bar`, true, false},
		{"s\u017ftop|sstop|SSTOP", `(?i)sstop`, true, false},
		{"abc\x00abc|abc", "abc", false, false},
		{"tab\there|tab here", `tab\s+here`, true, false},
		{"[x]|x", `[`, true, false},
	} {
		f.Add(seed.data, seed.pattern, seed.regex, seed.fold)
	}
	f.Fuzz(func(t *testing.T, data, pattern string, regex, fold bool) {
		if len(data) > 4096 || len(pattern) > 64 {
			return
		}
		checkIndexGrep(t, strings.SplitN(data, "|", 8), pattern, regex, fold)
	})
}

// TestIndexGrepRandom runs FuzzIndexGrep's check on random files and
// patterns for a short while (longer without -short).
func TestIndexGrepRandom(t *testing.T) {
	d := 3 * time.Second
	if testing.Short() {
		d = time.Second
	}
	r := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 7))
	alphabet := []string{"a", "b", "c", "A", "B", "ab", "bc", "abc", "\n", "\r\n", " ", "x", "ß", "K", "\u212a", "k", "ſ", "s", "S"}
	pieces := []string{"a", "b", "c", "ab", "abc", "bca", ".", "*", "+", "?", "|", "(", ")", "[ab]", "[^a]", `\w`, `\s`, "^", "$", "k", "s", "ß", "{2}", `\b`}
	word := func(n int, from []string) string {
		var b strings.Builder
		for range n {
			b.WriteString(from[r.IntN(len(from))])
		}
		return b.String()
	}
	n := 0
	for start := time.Now(); time.Since(start) < d; n++ {
		files := make([]string, 1+r.IntN(6))
		for i := range files {
			files[i] = word(r.IntN(40), alphabet)
		}
		regex := r.IntN(2) == 0
		pattern := word(1+r.IntN(5), alphabet)
		if regex {
			pattern = word(1+r.IntN(6), pieces)
		} else {
			pattern = strings.ReplaceAll(pattern, "\n", "")
		}
		fold := r.IntN(3) == 0
		if pattern == "" {
			continue
		}
		checkIndexGrep(t, files, pattern, regex, fold)
		if t.Failed() {
			t.Fatalf("files %q pattern %q regex %v fold %v", files, pattern, regex, fold)
		}
	}
	t.Logf("%d random cases", n)
}
