package editmatch

import "bytes"

// byteRank estimates how common a byte is in source code and prose
// (higher is more common). indexFast anchors its scan on the needle's
// least common byte, because needles usually start with indentation,
// which bytes.Index (anchored on the first byte) finds on every line.
var byteRank = func() (r [256]uint8) {
	for c := range 256 {
		switch {
		case c == ' ':
			r[c] = 255
		case c == '\t', c == '\n':
			r[c] = 200
		case c >= 'a' && c <= 'z':
			r[c] = 150
			if bytes.IndexByte([]byte("etaoinsrlh"), byte(c)) >= 0 {
				r[c] = 180
			}
		case bytes.IndexByte([]byte("(),.;=\"'_-/:*{}"), byte(c)) >= 0:
			r[c] = 120
		case c >= '0' && c <= '9', c >= 'A' && c <= 'Z':
			r[c] = 90
		case c < 0x80:
			r[c] = 60
		default:
			r[c] = 30
		}
	}
	return r
}()

// rareOffset returns the offset of the needle's least common byte.
func rareOffset(needle []byte) int {
	best := 0
	for i := 1; i < len(needle); i++ {
		if byteRank[needle[i]] < byteRank[needle[best]] {
			best = i
		}
	}
	return best
}

// indexFast is bytes.Index anchored on the needle's rarest byte: it jumps
// with IndexByte to that byte and verifies the whole needle there. When
// false candidates become frequent it hands over to bytes.Index, so it is
// never much slower than bytes.Index.
func indexFast(hay, needle []byte) int {
	if len(needle) < 2 || len(hay) < 1024 {
		return bytes.Index(hay, needle)
	}
	off := rareOffset(needle)
	c := needle[off]
	fails := 0
	for i := 0; i+len(needle) <= len(hay); {
		j := bytes.IndexByte(hay[i+off:len(hay)-len(needle)+off+1], c)
		if j < 0 {
			return -1
		}
		at := i + j
		if bytes.Equal(hay[at:at+len(needle)], needle) {
			return at
		}
		i = at + 1
		if fails++; fails > 16 && fails > i>>5 {
			if k := bytes.Index(hay[i:], needle); k >= 0 {
				return i + k
			}
			return -1
		}
	}
	return -1
}
