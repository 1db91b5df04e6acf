package editmatch

import (
	"bytes"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// normIndex is a normalised copy of the LF text with a map from every
// byte boundary of the copy back to a boundary of the LF text.
//
// pos[i] is the LF offset of the boundary before text[i] (pos[len(text)]
// is the end), or -1 when that boundary does not correspond to a clean
// boundary of the LF text: inside an NFKC expansion, inside a combining
// sequence, or inside a multi-byte rune. At a line end whose trailing
// whitespace was trimmed, pos holds the offset after the whitespace (the
// boundary as a match start) and trimEnd holds the offset before it (the
// boundary as a match end).
type normIndex struct {
	text       []byte
	pos        []int32
	trimEnd    map[int32]int32
	lineStarts []int32 // offset in text of the start of every line
}

// startAt maps boundary i of the index to the LF text as a match start.
func (x *normIndex) startAt(i int) int { return int(x.pos[i]) }

// endAt maps boundary i of the index to the LF text as a match end.
func (x *normIndex) endAt(i int) int {
	if v, ok := x.trimEnd[int32(i)]; ok {
		return int(v)
	}
	return int(x.pos[i])
}

// lineEnd returns the offset of the end of line l (its '\n' or the end of
// the text).
func (x *normIndex) lineEnd(l int) int {
	if l+1 < len(x.lineStarts) {
		return int(x.lineStarts[l+1]) - 1
	}
	return len(x.text)
}

// buildBaseIndex normalises lf with the base rules: per line NFKC, the
// folding rules, then trailing whitespace trimmed.
func buildBaseIndex(lf []byte) *normIndex {
	x := &normIndex{
		text:    make([]byte, 0, len(lf)),
		pos:     make([]int32, 0, len(lf)+1),
		trimEnd: map[int32]int32{},
	}
	var it norm.Iter
	var enc [utf8.UTFMax]byte
	for lineStart := 0; ; {
		lineEnd := len(lf)
		if nl := bytes.IndexByte(lf[lineStart:], '\n'); nl >= 0 {
			lineEnd = lineStart + nl
		}
		x.lineStarts = append(x.lineStarts, int32(len(x.text)))
		line := lf[lineStart:lineEnd]
		nStart := len(x.text)
		if isASCII(line) {
			x.text = append(x.text, line...)
			for k := range line {
				x.pos = append(x.pos, int32(lineStart+k))
			}
		} else {
			it.Init(norm.NFKC, line)
			consumed := true // did the previous segment consume input?
			for !it.Done() {
				p0 := it.Pos()
				seg := it.Next()
				p1 := it.Pos()
				first := true
				for len(seg) > 0 {
					r, size := utf8.DecodeRune(seg)
					seg = seg[size:]
					f, _ := foldRune(r, baseRules)
					n := utf8.EncodeRune(enc[:], f)
					x.text = append(x.text, enc[:n]...)
					if first && consumed {
						x.pos = append(x.pos, int32(lineStart+p0))
					} else {
						x.pos = append(x.pos, -1)
					}
					for k := 1; k < n; k++ {
						x.pos = append(x.pos, -1)
					}
					first = false
				}
				consumed = p1 > p0
			}
		}
		// Trim trailing whitespace of this line.
		t := len(x.text)
		for t > nStart {
			r, size := utf8.DecodeLastRune(x.text[nStart:t])
			if !isTrimSpace(r) {
				break
			}
			t -= size
		}
		if t < len(x.text) {
			x.trimEnd[int32(t)] = x.pos[t]
			x.text = x.text[:t]
			x.pos = x.pos[:t]
		}
		x.pos = append(x.pos, int32(lineEnd)) // the line end, as a start
		if lineEnd == len(lf) {
			return x
		}
		x.text = append(x.text, '\n')
		lineStart = lineEnd + 1
	}
}

// collapsed derives an index with interior runs of spaces and tabs
// collapsed to one space (leading indentation kept), mapping straight to
// the LF text.
func (x *normIndex) collapsed() *normIndex {
	y := &normIndex{
		text:    make([]byte, 0, len(x.text)),
		pos:     make([]int32, 0, len(x.text)+1),
		trimEnd: map[int32]int32{},
	}
	for l, ls := range x.lineStarts {
		start, end := int(ls), x.lineEnd(l)
		y.lineStarts = append(y.lineStarts, int32(len(y.text)))
		i := start
		for i < end && isIndent(x.text[i]) {
			y.text = append(y.text, x.text[i])
			y.pos = append(y.pos, x.pos[i])
			i++
		}
		for i < end {
			if isIndent(x.text[i]) {
				y.text = append(y.text, ' ')
				y.pos = append(y.pos, x.pos[i])
				for i < end && isIndent(x.text[i]) {
					i++
				}
				continue
			}
			y.text = append(y.text, x.text[i])
			y.pos = append(y.pos, x.pos[i])
			i++
		}
		if v, ok := x.trimEnd[int32(end)]; ok {
			y.trimEnd[int32(len(y.text))] = v
		}
		y.pos = append(y.pos, x.pos[end])
		if end < len(x.text) {
			y.text = append(y.text, '\n')
		}
	}
	return y
}
