package search

import "bytes"

// lowerASCII maps every byte to its ASCII lower case; bytes other than 'A'
// to 'Z' map to themselves.
var lowerASCII = func() (t [256]byte) {
	for i := range t {
		t[i] = byte(i)
	}
	for c := 'A'; c <= 'Z'; c++ {
		t[c] = byte(c + 'a' - 'A')
	}
	return t
}()

// commonBytes lists the bytes most frequent in source code, most frequent
// first, as measured on the Go tree's hand-written .go files. Bytes not
// listed are taken to be rare.
const commonBytes = " etr\tni\nasolcduf,.p/()m0gh=\"xSbyTE{}_:1IvAC2RPOwkN4DF6L3M[]B*8-G5HUV!79&z%Y+W;\\'<qKXj|>`QZJ#^?$"

// byteRank orders bytes by frequency: the higher, the more frequent.
var byteRank = func() (r [256]int) {
	for i := range len(commonBytes) {
		r[commonBytes[i]] = len(commonBytes) - i
	}
	return r
}()

// foldFinder finds an ASCII needle in a haystack, ignoring ASCII case.
//
// It jumps between occurrences of the needle's rarest byte, in either case,
// with bytes.IndexByte (vectorised), and compares the needle around each.
// Should the comparisons cost more than the haystack is long, it finishes
// with a case-folding Rabin-Karp search, so the worst case stays linear.
type foldFinder struct {
	needle []byte // in ASCII lower case
	rare   int    // offset in needle of the rarest byte
	lo, up byte   // that byte in lower and upper case (equal if not a letter)
	hash   uint32 // Rabin-Karp hash of needle
	pow    uint32 // primeRK**len(needle), to drop a byte from a rolling hash
}

// primeRK is the multiplier of the Rabin-Karp rolling hash.
const primeRK = 16777619

func newFoldFinder(needle []byte) *foldFinder {
	f := &foldFinder{needle: make([]byte, len(needle)), pow: 1}
	for i, c := range needle {
		c = lowerASCII[c]
		f.needle[i] = c
		f.hash = f.hash*primeRK + uint32(c)
		f.pow *= primeRK
		if foldRank(c) < foldRank(f.needle[f.rare]) {
			f.rare = i
		}
	}
	f.lo = f.needle[f.rare]
	f.up = upperASCII(f.lo)
	return f
}

// foldRank is how frequent a lower-case byte is when its case is ignored.
func foldRank(c byte) int {
	return max(byteRank[c], byteRank[upperASCII(c)])
}

func upperASCII(c byte) byte {
	if 'a' <= c && c <= 'z' {
		return c - ('a' - 'A')
	}
	return c
}

// foldCursor carries a foldFinder's search through one haystack from call
// to call: the next occurrences of the rare byte in each case, at or after
// the position they were looked for from. Without it, a search for the
// rare byte in the case that is absent would run to the end of the
// haystack on every call, and the scanner calls once per matching line.
type foldCursor struct {
	lo, up int
}

// newFoldCursor returns the cursor for a new haystack.
func newFoldCursor() foldCursor {
	return foldCursor{-1, -1}
}

// index returns the offset of the first occurrence of the needle in
// b[from:], ignoring ASCII case, counted from the start of b, or -1.
// Successive calls on the same b must pass the same cursor and
// non-decreasing values of from.
func (f *foldFinder) index(b []byte, from int, cur *foldCursor) int {
	n := len(f.needle)
	// The rare byte of an occurrence at offset s is at s+f.rare, so it lies
	// in b[from+f.rare:end].
	end := len(b) - n + f.rare + 1
	work := 0
	for i := from + f.rare; i < end; {
		if cur.lo < i {
			cur.lo = indexByteFrom(b[:end], i, f.lo)
		}
		c := cur.lo
		if f.up != f.lo {
			if cur.up < i {
				cur.up = indexByteFrom(b[:end], i, f.up)
			}
			c = min(c, cur.up)
		}
		if c == end {
			return -1
		}
		s := c - f.rare
		k := foldPrefix(b[s:s+n], f.needle)
		if k == n {
			return s
		}
		if work += k + 1; work > c-from+64 {
			if j := f.rabinKarp(b[s+1:]); j >= 0 {
				return s + 1 + j
			}
			return -1
		}
		i = c + 1
	}
	return -1
}

// indexByteFrom returns the index of the first c in b[i:], counted from the
// start of b, or len(b).
func indexByteFrom(b []byte, i int, c byte) int {
	if j := bytes.IndexByte(b[i:], c); j >= 0 {
		return i + j
	}
	return len(b)
}

// foldPrefix returns the length of the longest prefix of s that equals a
// prefix of lower, which is in ASCII lower case, ignoring ASCII case.
func foldPrefix(s, lower []byte) int {
	for i, c := range lower {
		if lowerASCII[s[i]] != c {
			return i
		}
	}
	return len(lower)
}

// rabinKarp is index by Rabin-Karp over the lower-cased haystack: linear
// time whatever the input.
func (f *foldFinder) rabinKarp(b []byte) int {
	n := len(f.needle)
	if len(b) < n {
		return -1
	}
	var h uint32
	for _, c := range b[:n] {
		h = h*primeRK + uint32(lowerASCII[c])
	}
	for i := n; ; i++ {
		if h == f.hash && foldPrefix(b[i-n:i], f.needle) == n {
			return i - n
		}
		if i == len(b) {
			return -1
		}
		h = h*primeRK + uint32(lowerASCII[b[i]]) - f.pow*uint32(lowerASCII[b[i-n]])
	}
}
