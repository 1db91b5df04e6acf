package js

import (
	"strings"
	"unicode/utf8"

	"github.com/dop251/goja"
)

// newBuffer returns a Node Buffer over b (which it takes): a Uint8Array
// whose prototype is node:buffer's Buffer.prototype.
func (r *run) newBuffer(b []byte) goja.Value {
	if r.bufferProto == nil {
		m, err := r.requireModule("node:buffer")
		if err != nil {
			panic(r.newError("Error", err.Error()))
		}
		r.bufferProto = m.(*goja.Object).Get("Buffer").(*goja.Object).Get("prototype").(*goja.Object)
	}
	u8 := r.newUint8Array(b).(*goja.Object)
	u8.SetPrototype(r.bufferProto)
	return u8
}

// decodeUTF8 decodes b as the WHATWG Encoding standard does: each maximal
// ill-formed subsequence becomes one U+FFFD (so a truncated three-byte
// sequence is one replacement, an isolated continuation byte another).
func decodeUTF8(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	var s strings.Builder
	s.Grow(len(b) + 8)
	for i := 0; i < len(b); {
		c := b[i]
		if c < 0x80 {
			s.WriteByte(c)
			i++
			continue
		}
		r, n := utf8.DecodeRune(b[i:])
		if r != utf8.RuneError || n > 1 {
			s.Write(b[i : i+n])
			i += n
			continue
		}
		// Invalid: skip the lead byte and the continuation bytes that
		// still fit a well-formed prefix.
		i += 1 + validPrefix(b[i:])
		s.WriteString("\uFFFD")
	}
	return s.String()
}

// validPrefix returns how many continuation bytes after the lead byte
// p[0] belong to a well-formed prefix of a sequence (0 when p[0] cannot
// start one).
func validPrefix(p []byte) int {
	var need int
	lo, hi := byte(0x80), byte(0xBF)
	switch c := p[0]; {
	case c >= 0xC2 && c <= 0xDF:
		need = 1
	case c == 0xE0:
		need, lo = 2, 0xA0
	case c == 0xED:
		need, hi = 2, 0x9F
	case c >= 0xE1 && c <= 0xEF:
		need = 2
	case c == 0xF0:
		need, lo = 3, 0x90
	case c == 0xF4:
		need, hi = 3, 0x8F
	case c >= 0xF1 && c <= 0xF3:
		need = 3
	default:
		return 0
	}
	n := 0
	for j := 1; j <= need && j < len(p); j++ {
		if p[j] < lo || p[j] > hi {
			break
		}
		lo, hi = 0x80, 0xBF
		n++
	}
	return n
}
