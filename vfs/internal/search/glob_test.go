package search

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/bmatcuk/doublestar/v4"
)

func mustGlob(t testing.TB, pattern string) *Glob {
	t.Helper()
	g, err := CompileGlob(pattern)
	if err != nil {
		t.Fatalf("CompileGlob(%q): %v", pattern, err)
	}
	return g
}

func TestGlobMatch(t *testing.T) {
	tests := []struct {
		pattern, path string
		want          bool
	}{
		{"", "a", true},
		{"", "a/b/c.go", true},
		{"*.go", "main.go", true},
		{"*.go", "cmd/main.go", false}, // no slash: top level only
		{"*.go", ".hidden.go", true},   // no hidden-file rule
		{"**/*.go", "main.go", true},
		{"**/*.go", "a/b/main.go", true},
		{"**/*.go", "a/b/main.c", false},
		{"src/**", "src", true},
		{"src/**", "src/a/b", true},
		{"src/**", "srcx/a", false},
		{"src/**/test/*.go", "src/test/a.go", true},
		{"src/**/test/*.go", "src/x/y/test/a.go", true},
		{"src/**/test/*.go", "src/x/y/test/z/a.go", false},
		{"a?c", "abc", true},
		{"a?c", "a/c", false},
		{"[abc].txt", "b.txt", true},
		{"[!abc].txt", "d.txt", true},
		{"[!abc].txt", "a.txt", false},
		{"*.{go,md}", "README.md", true},
		{"*.{go,md}", "x.txt", false},
		{"{cmd,internal}/**/*.go", "internal/x/y.go", true},
		{`\*.go`, "*.go", true},
		{`\*.go`, "a.go", false},
		{strings.Repeat("{a,b}", 8) + "[{,}]", "abababab,", true}, // 256 patterns; braces in a class do not count
	}
	for _, tt := range tests {
		if got := mustGlob(t, tt.pattern).Match(tt.path); got != tt.want {
			t.Errorf("Glob(%q).Match(%q) = %v, want %v", tt.pattern, tt.path, got, tt.want)
		}
	}
}

func TestCompileGlobInvalid(t *testing.T) {
	tooMany := strings.Repeat("{a,b}", 8) + "{a,b,c}" // 768 patterns
	for _, p := range []string{"[", "[]", "a[!]", "{a,b", "a}", `a\`, tooMany, "{a,{b,c,d,e}}" + tooMany[5:]} {
		_, err := CompileGlob(p)
		if !errors.Is(err, doublestar.ErrBadPattern) || !strings.Contains(err.Error(), p) {
			t.Errorf("CompileGlob(%q) error = %v, want ErrBadPattern naming the pattern", p, err)
		}
	}
}

func TestCouldMatchUnder(t *testing.T) {
	tests := []struct {
		pattern, dir string
		want         bool
	}{
		{"", "anything", true},
		{"*.go", "", true},
		{"*.go", "src", false},
		{"**/*.go", "a/b/c", true},
		{"src/**/*.go", "src", true},
		{"src/**/*.go", "src/a/b", true},
		{"src/**/*.go", "docs", false},
		{"src/**/*.go", "docs/src", false},
		{"src/*.go", "src", true},
		{"src/*.go", "src/a", false},
		{"src/*/x.go", "src/a", true},
		{"src/*/x.go", "src/a/b", false},
		{"src/**", "src/a/b/c", true},
		{"src/**", "lib", false},
		{"s?c/*", "src", true},
		{"s?c/*", "sxyc", false},
		{"[st]rc/*", "trc", true},
		{"[st]rc/*", "arc", false},
		{"a/**/b/*.go", "a/x/y", true},
		{"a/**/b/*.go", "c", false},
		{"a/**/b", "a/x/b", true}, // a/x/b/b
		{"*/b", "x", true},
		{"*/b", "x/b", false},
		{"{src,lib}/*.go", "lib", true},
		{"{src,lib}/*.go", "doc", false},
		{"{src,lib}/*.go", "lib/x", false},
		// Unanalysable segments: always true.
		{"{a/b,c}/d", "x", true},
		{`a\/b/c`, "x", true},
		{"a[^x]b/c", "q", true}, // [^x] matches '/'
		{"a/{*,x}*/b", "a/y/z/w", true},
	}
	for _, tt := range tests {
		if got := mustGlob(t, tt.pattern).CouldMatchUnder(tt.dir); got != tt.want {
			t.Errorf("Glob(%q).CouldMatchUnder(%q) = %v, want %v", tt.pattern, tt.dir, got, tt.want)
		}
	}
}

// TestCouldMatchUnderRandom checks on random patterns and paths built from
// small alphabets, so that many pairs match, that CouldMatchUnder never
// prunes a directory above a matching path, and that it does prune.
func TestCouldMatchUnderRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	segs := []string{"a", "b", "*", "**", "?", "[ab]", "[!a]", "{a,b}", "a*", "*b", "{a,}*", "{a/b,c}", "a?", "[^a]b"}
	comps := []string{"a", "b", "ab", "ba", "c", ".a"}
	pruned := 0
	for range 20000 {
		var p, path []string
		for range 1 + rng.IntN(4) {
			p = append(p, segs[rng.IntN(len(segs))])
		}
		for range 1 + rng.IntN(5) {
			path = append(path, comps[rng.IntN(len(comps))])
		}
		g := mustGlob(t, strings.Join(p, "/"))
		for i := 1; i < len(path); i++ {
			dir := strings.Join(path[:i], "/")
			if !g.CouldMatchUnder(dir) {
				pruned++
				if g.Match(strings.Join(path, "/")) {
					t.Fatalf("Glob(%q) matches %q but CouldMatchUnder(%q) is false", g.pattern, strings.Join(path, "/"), dir)
				}
			}
		}
	}
	if pruned < 5000 {
		t.Errorf("only %d directories pruned", pruned)
	}
}

// FuzzGlob checks that Match agrees with doublestar.Match and that
// CouldMatchUnder never prunes a directory above a matching path.
func FuzzGlob(f *testing.F) {
	seeds := [][2]string{
		{"*.go", "main.go"},
		{"**/*.go", "a/b/c.go"},
		{"src/**/*.go", "src/a/b.go"},
		{"src/**", "src/x/y"},
		{"a/**/b/**/c", "a/x/b/y/z/c"},
		{"{a,b}/*/c", "b/x/c"},
		{"{a/b,c}/d", "a/b/d"},
		{"a/{,x/}b", "a/x/b"},
		{"a/{**,x}/b", "a/c/d/b"},
		{"a[^x]b/c", "a/b/c"},
		{`a\/b/c`, "a/b/c"},
		{"[a-c]?/[!d]*/e", "bq/zz/e"},
		{"**/", "a/"},
		{"a//b", "a//b"},
		{"/a/*", "/a/b"},
		{"x/**/", "x/y/"},
		{"*{*,a}/b", "q/b"},
		{"{a,{b,c}}/[/]/d", "c///d"},
		{"*{0,}/x/c", "/x/c"},
	}
	for _, s := range seeds {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, pattern, path string) {
		g, err := CompileGlob(pattern)
		if err != nil {
			if !errors.Is(err, doublestar.ErrBadPattern) {
				t.Fatalf("CompileGlob(%q) error %v does not wrap ErrBadPattern", pattern, err)
			}
			return
		}
		got := g.Match(path)
		if want, err := doublestar.Match(pattern, path); pattern != "" && err == nil && got != want {
			t.Fatalf("Glob(%q).Match(%q) = %v, doublestar says %v", pattern, path, got, want)
		}
		if !got {
			return
		}
		for i := range len(path) {
			if path[i] == '/' && !g.CouldMatchUnder(path[:i]) {
				t.Fatalf("Glob(%q) matches %q but CouldMatchUnder(%q) is false", pattern, path, path[:i])
			}
		}
	})
}
