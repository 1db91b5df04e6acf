package search

import (
	"bytes"
	"encoding/binary"
	"errors"
	"slices"
)

// Trigrams returns the distinct trigrams of data, in increasing order,
// lower-cased in ASCII as the trigram filters are: b0 b1 b2 is the number
// b0 | b1<<8 | b2<<16. Data that a search takes to be binary (a NUL in its
// first 8 KiB) has none: the search reports no match in it, so an index
// need not find it. A [Trigrammer] does the same without allocating its
// table each time.
func Trigrams(data []byte) []uint32 {
	var tg Trigrammer
	return tg.Trigrams(data)
}

// Trigrammer computes the trigrams of chunk after chunk. Its zero value is
// ready to use; it is not safe for concurrent use.
type Trigrammer struct {
	// seen has a bit for each of the 2^24 trigrams (2 MiB), set while
	// one chunk is processed and cleared after: deduplicating this way
	// and sorting only the distinct trigrams took a third of the time of
	// sorting them all, on Go source.
	seen []uint64
}

// Trigrams is the package function Trigrams.
func (tg *Trigrammer) Trigrams(data []byte) []uint32 {
	tris := tg.AppendDistinct(nil, data)
	slices.Sort(tris)
	return tris
}

// AppendDistinct appends the trigrams of data, as Trigrams gives them but
// in the order of their first occurrence, to dst. The index sorts a whole
// block's trigrams at once, which made sorting each chunk's (half the time
// of extracting them, on Go source) a waste.
func (tg *Trigrammer) AppendDistinct(dst []uint32, data []byte) []uint32 {
	if len(data) < 3 || bytes.IndexByte(data[:min(len(data), sniffLen)], 0) >= 0 {
		return dst
	}
	if tg.seen == nil {
		tg.seen = make([]uint64, 1<<24/64)
	}
	start := len(dst)
	t := uint32(lowerASCII[data[0]]) | uint32(lowerASCII[data[1]])<<8
	for _, c := range data[2:] {
		t = t&0xffff | uint32(lowerASCII[c])<<16
		if w, bit := &tg.seen[t>>6], uint64(1)<<(t&63); *w&bit == 0 {
			*w |= bit
			dst = append(dst, t)
		}
		t >>= 8
	}
	for _, t := range dst[start:] {
		tg.seen[t>>6] = 0
	}
	return dst
}

// AppendPostings appends the encoding of docs, which must be strictly
// increasing, to dst: each doc as the uvarint of its difference from the
// one before (the first from -1), so a dense list costs a byte per entry.
func AppendPostings(dst []byte, docs []uint32) []byte {
	prev := int64(-1)
	for _, d := range docs {
		dst = binary.AppendUvarint(dst, uint64(int64(d)-prev))
		prev = int64(d)
	}
	return dst
}

// errPostings reports a posting list that AppendPostings did not produce.
var errPostings = errors.New("corrupt posting list")

// DecodePostings appends the docs encoded in p to dst. It fails on an
// encoding that AppendPostings does not produce (a zero gap, a doc beyond
// max, a truncated number).
func DecodePostings(dst []uint32, p []byte, max uint32) ([]uint32, error) {
	prev := int64(-1)
	for len(p) > 0 {
		gap, n := binary.Uvarint(p)
		if n <= 0 || gap == 0 || gap > uint64(max)+1 {
			return dst, errPostings
		}
		p = p[n:]
		prev += int64(gap)
		if prev > int64(max) {
			return dst, errPostings
		}
		dst = append(dst, uint32(prev))
	}
	return dst, nil
}

// A group of posting lists is the lists of trigrams that share their
// high 16 bits (t>>8), stored as one value: for each trigram in
// increasing order, its low byte, the uvarint length of its list, and the
// list. Grouping makes a tenth as many rows as one row per trigram, on Go
// source, and rows, not list bytes, were most of the index's size and of
// the time to write it.

// AppendGroupEntry appends the list docs of the trigram whose low byte is
// low to the group dst; entries must come in increasing low-byte order.
func AppendGroupEntry(dst []byte, low byte, docs []uint32) []byte {
	var tmp [64]byte
	list := AppendPostings(tmp[:0], docs)
	dst = append(dst, low)
	dst = binary.AppendUvarint(dst, uint64(len(list)))
	return append(dst, list...)
}

// GroupEntries calls fn with each entry of a group in order, and fails on
// an encoding that AppendGroupEntry does not produce (low bytes not
// increasing, a truncated or empty list).
func GroupEntries(group []byte, fn func(low byte, list []byte) error) error {
	prev := -1
	for len(group) > 0 {
		low := group[0]
		n, k := binary.Uvarint(group[1:])
		if int(low) <= prev || k <= 0 || n == 0 || n > uint64(len(group)-1-k) {
			return errPostings
		}
		prev = int(low)
		list := group[1+k : 1+k+int(n)]
		group = group[1+k+int(n):]
		if err := fn(low, list); err != nil {
			return err
		}
	}
	return nil
}

// GroupList returns the list of the trigram with low byte low in a group,
// or nil when the group has none.
func GroupList(group []byte, low byte) ([]byte, error) {
	var found []byte
	err := GroupEntries(group, func(l byte, list []byte) error {
		if l == low {
			found = list
		}
		return nil
	})
	return found, err
}
