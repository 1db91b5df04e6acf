package editmatch

import (
	"bytes"
	"sort"
	"strings"
)

// utf8BOM is the UTF-8 encoding of U+FEFF.
const utf8BOM = "\xEF\xBB\xBF"

// source is the original content prepared for matching: the BOM set
// aside, line endings normalised to LF, and enough bookkeeping to map an
// offset in the LF text back to an offset in the original bytes.
type source struct {
	orig []byte // the original content, untouched
	bom  int    // length of a leading BOM (0 or 3)
	lf   []byte // content after the BOM with CRLF and lone CR turned into LF
	// dropped holds, in increasing order, the LF-text offsets of every
	// '\n' whose preceding '\r' (of a CRLF pair) was dropped.
	dropped []int
	crlf    bool // detected line ending is CRLF
}

func newSource(orig []byte) *source {
	s := &source{orig: orig}
	content := orig
	if bytes.HasPrefix(content, []byte(utf8BOM)) {
		s.bom = len(utf8BOM)
		content = content[s.bom:]
	}
	if i := bytes.IndexByte(content, '\n'); i > 0 && content[i-1] == '\r' {
		s.crlf = true
	}
	if bytes.IndexByte(content, '\r') < 0 {
		s.lf = content
		return s
	}
	lf := make([]byte, 0, len(content))
	for i := 0; i < len(content); i++ {
		c := content[i]
		if c != '\r' {
			lf = append(lf, c)
			continue
		}
		if i+1 < len(content) && content[i+1] == '\n' {
			s.dropped = append(s.dropped, len(lf))
			continue // the '\n' is appended on the next iteration
		}
		lf = append(lf, '\n')
	}
	s.lf = lf
	return s
}

// origOffset maps a boundary in the LF text to the original bytes. A
// boundary just before a '\n' that came from CRLF maps before the '\r', so
// no mapped range ever splits a CRLF pair.
func (s *source) origOffset(lf int) int {
	n := sort.SearchInts(s.dropped, lf) // dropped CRs strictly before lf
	return s.bom + lf + n
}

// toLF normalises CRLF and lone CR to LF.
func toLF(s string) string {
	if strings.IndexByte(s, '\r') < 0 {
		return s
	}
	s = strings.ReplaceAll(s, "\r\n", "\n")
	return strings.ReplaceAll(s, "\r", "\n")
}

// insertion converts LF-normalised replacement text to the file's line
// ending.
func (s *source) insertion(lfText string) []byte {
	if s.crlf {
		return []byte(strings.ReplaceAll(lfText, "\n", "\r\n"))
	}
	return []byte(lfText)
}
