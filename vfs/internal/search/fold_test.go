package search

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"
)

func TestFoldFinder(t *testing.T) {
	tests := []struct {
		needle, haystack string
		want             int
	}{
		{"hello", "say HeLLo", 4},
		{"hello", "hell", -1},
		{"hello", "", -1},
		{"x", "X", 0},
		{"a_b", "A-B a_B", 4},
		{"q", "abcQ", 3},  // rare byte in upper case only
		{"zz", "zZzz", 0}, // overlapping candidates
		{"ab", "aaaaab", 4},
		{"é", "É", -1}, // ASCII folding only (Compile never passes non-ASCII needles here)
		{"k", "\u212a", -1},
	}
	for _, tt := range tests {
		if got := foldIndex(tt.needle, tt.haystack); got != tt.want {
			t.Errorf("index(%q in %q) = %d, want %d", tt.needle, tt.haystack, got, tt.want)
		}
	}
}

// foldIndex runs a foldFinder once.
func foldIndex(needle, haystack string) int {
	cur := newFoldCursor()
	return newFoldFinder([]byte(needle)).index([]byte(haystack), 0, &cur)
}

// naiveFoldIndex is the reference for foldFinder.index.
func naiveFoldIndex(needle, haystack []byte) int {
	return bytes.Index(toLowerASCII(haystack), toLowerASCII(needle))
}

func TestFoldFinderRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	const alphabet = "aAbB-"
	random := func(n int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = alphabet[rng.IntN(len(alphabet))]
		}
		return b
	}
	for range 20000 {
		needle, haystack := random(1+rng.IntN(6)), random(rng.IntN(300))
		if got, want := foldIndex(string(needle), string(haystack)), naiveFoldIndex(needle, haystack); got != want {
			t.Fatalf("index(%q in %q) = %d, want %d", needle, haystack, got, want)
		}
	}
}

// TestFoldFinderAdversarial checks inputs on which the rare-byte loop
// would take quadratic time, so that it switches to Rabin-Karp.
func TestFoldFinderAdversarial(t *testing.T) {
	needle := []byte(strings.Repeat("b", 200) + "a")
	for _, tail := range []string{"", "BA", "bba", "x"} {
		haystack := []byte(strings.Repeat("B", 100000) + tail)
		if got, want := foldIndex(string(needle), string(haystack)), naiveFoldIndex(needle, haystack); got != want {
			t.Errorf("index with tail %q = %d, want %d", tail, got, want)
		}
	}
}
