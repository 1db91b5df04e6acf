package search

import (
	"bytes"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

func TestBuildFilterEncoding(t *testing.T) {
	tests := []struct {
		data       string
		wantHeader []byte
		wantBits   int
	}{
		{"", []byte{0, 0}, 0},
		{"ab", []byte{0, 2}, 0},
		{"abc", []byte{4, 3}, 16},
		{strings.Repeat("abc", 1000), []byte{4, 0xb8, 0x17}, 16}, // 3 distinct trigrams
	}
	for _, tt := range tests {
		f := BuildFilter([]byte(tt.data))
		if !bytes.HasPrefix(f, tt.wantHeader) || len(f) != len(tt.wantHeader)+tt.wantBits {
			t.Errorf("BuildFilter(%d bytes) = header % x, %d bytes; want header % x and %d bytes of bits",
				len(tt.data), f[:min(len(f), len(tt.wantHeader))], len(f), tt.wantHeader, tt.wantBits)
		}
	}
}

func TestBuildFilterSize(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	random := make([]byte, 512<<10)
	for i := range random {
		random[i] = byte(rng.Uint32())
	}
	tests := []struct {
		name     string
		data     []byte
		wantBits int
	}{
		// 2,000 random trigrams, nearly all distinct: 8,000 bits → 1 KiB.
		{"2k random", random[:2002], 1 << 10},
		// Over 130,000 distinct trigrams: the 64 KiB maximum.
		{"512k random", random, 64 << 10},
		// 26 distinct trigrams, 104 bits → the 16-byte minimum.
		{"alphabet", bytes.Repeat([]byte("abcdefghijklmnopqrstuvwxyz"), 1000), 16},
		// Case does not count: the same 26 trigrams.
		{"mixed case", bytes.Repeat([]byte("abcdefghijklmNOPQRSTUVWXYZ"), 1000), 16},
	}
	for _, tt := range tests {
		f := BuildFilter(tt.data)
		v, ok := parseFilter(f)
		if !ok || len(v.bits) != tt.wantBits || v.size != uint64(len(tt.data)) {
			t.Errorf("%s: filter of %d bytes (valid %v, size %d), want %d", tt.name, len(v.bits), ok, v.size, tt.wantBits)
		}
	}
}

func TestParseFilterRejects(t *testing.T) {
	good := BuildFilter([]byte("hello, world"))
	tests := [][]byte{
		nil,
		{},
		{0},                                     // no length
		{0, 3},                                  // no bits for 3 bytes of data
		{0, 2, 0},                               // bits for no trigrams
		{3, 3},                                  // below the minimum size
		{17, 3},                                 // above the maximum size
		append([]byte{}, good[:len(good)-1]...), // short
		append(append([]byte{}, good...), 0),    // long
		{0x80, 0x80, 0x80},                      // future formats
	}
	for _, f := range tests {
		if _, ok := parseFilter(f); ok {
			t.Errorf("parseFilter(% x) accepted it", f)
		}
	}
	q := mustCompile(t, Options{Pattern: "xyzzy"}).Query()
	for _, f := range tests {
		if !q.MayMatch(f) || !q.MayMatchAny([][]byte{good, f}) {
			t.Errorf("an invalid filter (% x) ruled a file out", f)
		}
	}
}

// filters splits data into chunks of the given sizes, the last taking the
// rest, and returns their filters.
func filters(data string, sizes ...int) [][]byte {
	var out [][]byte
	for _, n := range sizes {
		n = min(n, len(data))
		out = append(out, BuildFilter([]byte(data[:n])))
		data = data[n:]
	}
	return append(out, BuildFilter([]byte(data)))
}

func TestQueryMayMatch(t *testing.T) {
	tests := []struct {
		opts    Options
		content string
		sizes   []int // chunk sizes but the last
		want    bool
	}{
		{Options{Pattern: "world"}, "hello, world", nil, true},
		{Options{Pattern: "World"}, "hello, world", nil, true}, // filters ignore case
		{Options{Pattern: "xyzzy"}, "hello, world", nil, false},
		{Options{Pattern: "worlds"}, "hello, world", nil, false},
		{Options{Pattern: `hello\s+world`, Regex: true}, "hello, world", nil, true},
		{Options{Pattern: `hello\s+worlds`, Regex: true}, "hello, world", nil, false},
		{Options{Pattern: `(?i)HELLO`, Regex: true}, "hello, world", nil, true},
		// Spanning a boundary: each side holds a whole trigram.
		{Options{Pattern: "hello"}, "xxhel" + "loxx", []int{5}, true},
		{Options{Pattern: "hello"}, "xxhe" + "lloxx", []int{4}, true},
		{Options{Pattern: "hello"}, "xxh" + "elloxx", []int{3}, true},
		{Options{Pattern: "hello"}, "xxhel" + "lxoxx", []int{5}, true}, // "hel"+"lo" is possible
		{Options{Pattern: "hello"}, "xxhe" + "lxoxx", []int{4}, false},
		{Options{Pattern: "hello"}, "xxhex" + "loxx", []int{5}, false},
		// Spanning two boundaries around a tiny chunk.
		{Options{Pattern: "hello"}, "xxh" + "el" + "loxx", []int{3, 2}, true},
		{Options{Pattern: "hello"}, "xxh" + "elx" + "loxx", []int{3, 3}, true}, // "ell" might fit
		{Options{Pattern: "hello"}, "xxh" + "elxx" + "loxx", []int{3, 4}, false},
		// Several chunks, one holding the string.
		{Options{Pattern: "hello"}, "aaaaaa" + "bbbbbb" + "hello!", []int{6, 6}, true},
		{Options{Pattern: "hello"}, "aaaaaa" + "bbbbbb" + "hallo!", []int{6, 6}, true}, // "he"+"llo"
		{Options{Pattern: "hello"}, "aaaaaa" + "bbbbbb" + "halo!!", []int{6, 6}, false},
		// Every required string must be present.
		{Options{Pattern: `abcd.*efgh`, Regex: true}, "abcd efgh", nil, true},
		{Options{Pattern: `abcd.*efgh`, Regex: true}, "abcd efgx", nil, false},
		// An empty file has no match.
		{Options{Pattern: "abc"}, "", nil, false},
		// Strings too short to have a trigram guarantee nothing.
		{Options{Pattern: "ab"}, "xyz", nil, true},
	}
	for _, tt := range tests {
		q := mustCompile(t, tt.opts).Query()
		chunks := filters(tt.content, tt.sizes...)
		if tt.content == "" {
			chunks = nil
		}
		if got := q.MayMatchAny(chunks); got != tt.want {
			t.Errorf("%+v on %q split %v: MayMatchAny = %v, want %v", tt.opts, tt.content, tt.sizes, got, tt.want)
		}
		if len(chunks) == 1 {
			if got := q.MayMatch(chunks[0]); got != tt.want {
				t.Errorf("%+v on %q: MayMatch = %v, want %v", tt.opts, tt.content, got, tt.want)
			}
		}
	}
}

func TestMatcherQuery(t *testing.T) {
	tests := []struct {
		opts Options
		want [][]byte // required strings, nil for no query
	}{
		{Options{Pattern: "ab"}, nil},
		{Options{Pattern: "Hello"}, [][]byte{[]byte("hello")}},
		{Options{Pattern: "Hello", IgnoreCase: true}, [][]byte{[]byte("hello")}},
		{Options{Pattern: "ÄRGER"}, [][]byte{[]byte("Ärger")}}, // ASCII lower case only
		// Non-ASCII folded runes break required strings.
		{Options{Pattern: "xÄRGER", IgnoreCase: true}, [][]byte{[]byte("rger")}},
		// So do k and s, whose case variants are not all ASCII.
		{Options{Pattern: "masks", IgnoreCase: true, Regex: true}, nil},
		{Options{Pattern: "makeup", IgnoreCase: true, Regex: true}, [][]byte{[]byte("eup")}},
		{Options{Pattern: "makeup", IgnoreCase: true}, [][]byte{[]byte("makeup")}}, // ASCII folding
		{Options{Pattern: `func \w+Error\(`, Regex: true}, [][]byte{[]byte("func "), []byte("error(")}},
		{Options{Pattern: `foo|bar`, Regex: true}, nil},
		{Options{Pattern: `foobar|foobaz`, Regex: true}, [][]byte{[]byte("fooba")}},
		{Options{Pattern: `x(abc)+y`, Regex: true}, [][]byte{[]byte("xabc"), []byte("abcy")}},
		{Options{Pattern: `^import "`, Regex: true}, [][]byte{[]byte(`import "`)}},
		{Options{Pattern: `a{3}`, Regex: true}, [][]byte{[]byte("aaa")}},
		{Options{Pattern: `[Ff]unc`, Regex: true}, [][]byte{[]byte("func")}},
	}
	for _, tt := range tests {
		want := newQuery(tt.want)
		if got := mustCompile(t, tt.opts).Query(); !equalQuery(got, want) {
			t.Errorf("Compile(%+v).Query() = %v, want %v", tt.opts, got, want)
		}
	}
}

func equalQuery(a, b *Query) bool {
	if a == nil || b == nil {
		return a == b
	}
	return slices.EqualFunc(a.lits, b.lits, slices.Equal)
}

// TestMayMatchAnyNoFalseNegatives checks on random content, chunkings and
// patterns that a file in which the Scanner finds a match is never ruled
// out by its filters.
func TestMayMatchAnyNoFalseNegatives(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	const alphabet = "abcAB\n"
	random := func(n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = alphabet[rng.IntN(len(alphabet))]
		}
		return string(b)
	}
	matches, skipped := 0, 0
	for iter := range 20000 {
		content := random(rng.IntN(120))
		var lit string
		if len(content) > 0 && rng.IntN(2) == 0 {
			i := rng.IntN(len(content))
			lit = content[i:min(len(content), i+3+rng.IntN(6))]
		} else {
			lit = random(3 + rng.IntN(6))
		}
		lit = strings.ReplaceAll(lit, "\n", "c")
		o := Options{Pattern: lit, IgnoreCase: rng.IntN(2) == 0}
		if rng.IntN(3) == 0 {
			// A regex requiring the two halves of lit.
			k := rng.IntN(len(lit) + 1)
			o.Pattern, o.Regex = regexp.QuoteMeta(lit[:k])+"[^x]?"+regexp.QuoteMeta(lit[k:]), true
		}
		m := mustCompile(t, o)
		n, _, err := m.NewScanner().CountFile(chunked(content), 1)
		if err != nil {
			t.Fatal(err)
		}
		var sizes []int
		for range rng.IntN(6) {
			sizes = append(sizes, rng.IntN(25))
		}
		may := m.Query().MayMatchAny(filters(content, sizes...))
		if n > 0 && !may {
			t.Fatalf("iteration %d: %+v matches %q, but MayMatchAny rules it out in chunks %v", iter, o, content, sizes)
		}
		if n > 0 {
			matches++
		} else if !may {
			skipped++
		}
	}
	// The test is only meaningful if both outcomes are common.
	if matches < 2000 || skipped < 2000 {
		t.Errorf("%d files matched and %d were ruled out: the test is too lopsided", matches, skipped)
	}
}

// goSource returns at least limit bytes of Go source files from
// $(go env GOROOT)/src, one slice per file, or skips the test.
func goSource(tb testing.TB, limit int) [][]byte {
	tb.Helper()
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		tb.Skipf("go env GOROOT: %v", err)
	}
	root := filepath.Join(strings.TrimSpace(string(out)), "src")
	var files [][]byte
	total := 0
	filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		switch {
		case total >= limit:
			return fs.SkipAll
		case err != nil:
			return nil // skip what cannot be read
		case d.IsDir() && d.Name() == "testdata":
			return fs.SkipDir
		case d.Type().IsRegular() && strings.HasSuffix(path, ".go"):
			if b, err := os.ReadFile(path); err == nil {
				files = append(files, b)
				total += len(b)
			}
		}
		return nil
	})
	if total < limit {
		tb.Skipf("only %d bytes of Go source under %s", total, root)
	}
	return files
}

// TestFilterFalsePositives measures how often the filter of a real Go
// file lets through a 14-byte string that the file does not contain, and
// how many of those are due to the Bloom filter rather than to the file
// having all the string's trigrams, just not together.
func TestFilterFalsePositives(t *testing.T) {
	files := goSource(t, 8<<20)
	rng := rand.New(rand.NewPCG(7, 8))
	// Draw the needles from the second half of the files and test them
	// against the first half.
	half := len(files) / 2
	tested, passed, bloom := 0, 0, 0
	for range 4000 {
		src := files[half+rng.IntN(len(files)-half)]
		if len(src) < 14 {
			continue
		}
		i := rng.IntN(len(src) - 13)
		needle := toLowerASCII(src[i : i+14])
		if bytes.IndexByte(needle, '\n') >= 0 {
			continue
		}
		q := newQuery([][]byte{needle})
		for range 5 {
			file := files[rng.IntN(half)]
			lower := toLowerASCII(file)
			if len(file) > 512<<10 || bytes.Contains(lower, needle) {
				continue
			}
			tested++
			if !q.MayMatch(BuildFilter(file)) {
				continue
			}
			passed++
			for j := range len(needle) - 2 {
				if !bytes.Contains(lower, needle[j:j+3]) {
					bloom++
					break
				}
			}
		}
	}
	rate, bloomRate := float64(passed)/float64(tested), float64(bloom)/float64(tested)
	t.Logf("false positives: %d of %d (%.2f%%), %d (%.2f%%) due to the Bloom filter", passed, tested, 100*rate, bloom, 100*bloomRate)
	if tested < 10000 || rate > 0.05 || bloomRate > 0.01 {
		t.Errorf("false positives %.2f%% (Bloom %.2f%%) over %d files, want at most 5%% (1%%) over 10,000", 100*rate, 100*bloomRate, tested)
	}
}
