package search

import (
	"encoding/binary"
	"math"
	"math/bits"
)

// A trigram filter is a Bloom filter over the byte trigrams of a chunk of
// data, lower-cased in ASCII so that it serves case-sensitive and
// case-insensitive searches alike. Its encoding is
//
//	byte 0   log2 of the bit array's length in bytes (4 to 16), or 0 when
//	         the data has no trigrams (is shorter than 3 bytes) and there
//	         is no bit array
//	uvarint  the length of the data
//	...      the bit array, as little-endian 64-bit words
//
// The trigram b0 b1 b2 is the number t = b0 | b1<<8 | b2<<16, and with
// h = hashTrigram(t) it sets bits h%64 and (h>>6)%64 of word h>>12 modulo
// the number of words. Keeping both probes in one word (a blocked Bloom
// filter) costs one memory access per trigram and, with 64-bit blocks and
// two probes, hardly raises the false-positive rate. Since the word is
// chosen modulo a power of two, a filter halves by OR-ing its two halves
// together; BuildFilter relies on that.
const (
	filterMinLog = 4  // 16 bytes
	filterMaxLog = 16 // 64 KiB
	// filterBitsPerTrigram sizes the array: with two probes, 4 to 8 bits
	// per distinct trigram (the size is a power of two) let a trigram
	// through 15% to 5% of the time; a query needs all its trigrams, so
	// one for a longer string is far more selective.
	filterBitsPerTrigram = 4
)

// BuildFilter returns the trigram filter of data, to be stored with it and
// passed to [Query.MayMatch] and [Query.MayMatchAny]. It is sized from the
// number of distinct trigrams, from 16 bytes to 64 KiB plus a short header:
// 512 KiB of Go source typically gets 8 or 16 KiB.
//
// BuildFilter processes about 420 MB/s of source code on one core of the
// development machine (BenchmarkBuildFilter).
func BuildFilter(data []byte) []byte {
	header := binary.AppendUvarint([]byte{0}, uint64(len(data)))
	if len(data) < 3 {
		return header
	}
	// Fill an array sized for as many distinct trigrams as there can be,
	// then count its set bits to estimate how many there are (linear
	// counting) and fold it down to the size that number calls for.
	words := make([]uint64, 1<<filterLog(len(data)-2)/8)
	t := uint32(lowerASCII[data[0]])<<8 | uint32(lowerASCII[data[1]])<<16
	for _, c := range data[2:] {
		t = t>>8 | uint32(lowerASCII[c])<<16
		h := hashTrigram(t)
		words[int(h>>12)&(len(words)-1)] |= trigramBits(h)
	}
	ones := 0
	for _, w := range words {
		ones += bits.OnesCount64(w)
	}
	m := float64(len(words) * 64)
	// With two probes, n distinct trigrams leave about a fraction
	// exp(-2n/m) of the bits clear.
	distinct := -m / 2 * math.Log1p(-float64(ones)/m)
	log := filterLog(int(min(math.Ceil(distinct), float64(len(data)-2))))

	folded := words[:1<<log/8]
	for rest := words[len(folded):]; len(rest) > 0; rest = rest[len(folded):] {
		for i, w := range rest[:len(folded)] {
			folded[i] |= w
		}
	}
	out := make([]byte, len(header), len(header)+8*len(folded))
	copy(out, header)
	out[0] = byte(log)
	for _, w := range folded {
		out = binary.LittleEndian.AppendUint64(out, w)
	}
	return out
}

// filterLog returns log2 of the bit-array size in bytes for n distinct
// trigrams.
func filterLog(n int) int {
	log := filterMinLog
	for log < filterMaxLog && 8<<log < n*filterBitsPerTrigram {
		log++
	}
	return log
}

// hashTrigram mixes a trigram into 32 bits: the high half of a 64-bit
// multiplicative hash, every bit of which depends on every bit of t.
func hashTrigram(t uint32) uint32 {
	return uint32(uint64(t) * 0x9e3779b97f4a7c15 >> 32)
}

// trigramBits returns the bits that a trigram with hash h sets in its
// word.
func trigramBits(h uint32) uint64 {
	return 1<<(h&63) | 1<<(h>>6&63)
}

// filterView is a decoded trigram filter.
type filterView struct {
	bits []byte // empty when the data had no trigrams
	size uint64 // length of the data
}

// parseFilter decodes a trigram filter; ok is false for anything
// BuildFilter does not produce.
func parseFilter(f []byte) (v filterView, ok bool) {
	if len(f) == 0 {
		return v, false
	}
	size, n := binary.Uvarint(f[1:])
	if n <= 0 {
		return v, false
	}
	v.size, v.bits = size, f[1+n:]
	switch log := int(f[0]); {
	case log == 0:
		return v, size < 3 && len(v.bits) == 0
	case log < filterMinLog || log > filterMaxLog:
		return v, false
	default:
		return v, size >= 3 && len(v.bits) == 1<<log
	}
}

// has reports whether the filter may contain the trigram with hash h.
func (v filterView) has(h uint32) bool {
	if len(v.bits) == 0 {
		return false
	}
	i := h >> 12 & uint32(len(v.bits)/8-1)
	b := trigramBits(h)
	return binary.LittleEndian.Uint64(v.bits[8*i:])&b == b
}

// Query is a set of strings that a file must contain to hold a match,
// checked against the trigram filters of the file's chunks. The nil
// *Query requires nothing: it may match every file.
type Query struct {
	// lits holds, for each required string, the hashes of its trigrams in
	// order (lower-cased in ASCII, like the filters).
	lits [][]uint32
}

// newQuery returns the query requiring the ASCII lower-case strings lits;
// strings shorter than a trigram require nothing. It returns nil if no
// string is left.
func newQuery(lits [][]byte) *Query {
	q := &Query{}
	for _, lit := range lits {
		if len(lit) < 3 {
			continue
		}
		hashes := make([]uint32, len(lit)-2)
		for i := range hashes {
			hashes[i] = hashTrigram(uint32(lit[i]) | uint32(lit[i+1])<<8 | uint32(lit[i+2])<<16)
		}
		q.lits = append(q.lits, hashes)
	}
	if len(q.lits) == 0 {
		return nil
	}
	return q
}

// MayMatch reports whether a file stored as the single chunk with trigram
// filter f may contain a match. An f that BuildFilter did not produce,
// such as nil, may contain anything.
func (q *Query) MayMatch(f []byte) bool {
	if q == nil {
		return true
	}
	v, ok := parseFilter(f)
	if !ok {
		return true
	}
	views := []filterView{v}
	return q.mayMatch(views)
}

// MayMatchAny reports whether a file stored as chunks whose trigram
// filters are filters, in file order, may contain a match; a false result
// guarantees that it contains none, even when matches could span chunk
// boundaries. A file with no chunks is empty and matches nothing. A filter
// that BuildFilter did not produce, such as nil, may contain anything.
func (q *Query) MayMatchAny(filters [][]byte) bool {
	if q == nil {
		return true
	}
	views := make([]filterView, len(filters))
	for i, f := range filters {
		var ok bool
		if views[i], ok = parseFilter(f); !ok {
			return true
		}
	}
	return q.mayMatch(views)
}

func (q *Query) mayMatch(chunks []filterView) bool {
	for _, lit := range q.lits {
		if !mayContain(chunks, lit) {
			return false
		}
	}
	return true
}

// mayContain reports whether a file made of chunks, in order, may contain a
// string L of length l = len(tris)+2 whose trigrams, lower-cased, hash to
// tris.
//
// Suppose the file contains L. Exactly one of these holds for an
// occurrence of it:
//
//  1. It lies within one chunk, whose filter then has all of L's trigrams.
//  2. It spans exactly one boundary, between chunks i-1 and i, with its
//     first b bytes in chunk i-1, 1 <= b <= l-1. Chunk i-1 ends with L[:b],
//     so its filter has L's first b-2 trigrams (if b > 2), and chunk i
//     starts with L[b:], so its filter has L's last l-2-b (if b < l-2).
//     With P the length of the longest run of L's trigrams, from the
//     first, that chunk i-1's filter has, and S that of the longest run to
//     the last that chunk i's has, this needs b-2 <= P and l-2-b <= S:
//     some b with max(1, l-2-S) <= b <= min(l-1, P+2).
//  3. It spans two or more boundaries. Some chunk then lies strictly
//     inside the occurrence, past its first byte and before its last, so
//     it is neither the file's first chunk nor its last and is at most l-2
//     bytes long.
//
// Bloom filters have no false negatives, so when no chunk or pair of
// adjacent chunks passes these tests, the file does not contain L. For
// l >= 5 a match across a boundary always leaves a whole trigram in one
// of the chunks (b >= 3 or l-b >= 3), so a file of large chunks is skipped
// whenever no chunk has any trigram of L; for shorter strings and for tiny
// chunks the tests degrade to "may contain" rather than err.
func mayContain(chunks []filterView, tris []uint32) bool {
	l := len(tris) + 2
	prevLead := 0
	for i, c := range chunks {
		lead := 0
		for lead < len(tris) && c.has(tris[lead]) {
			lead++
		}
		if lead == len(tris) {
			return true // case 1
		}
		if i > 0 {
			trail := 0
			for trail < len(tris) && c.has(tris[len(tris)-1-trail]) {
				trail++
			}
			if max(1, l-2-trail) <= min(l-1, prevLead+2) {
				return true // case 2
			}
		}
		if i > 0 && i < len(chunks)-1 && c.size <= uint64(l-2) {
			return true // case 3
		}
		prevLead = lead
	}
	return false
}
