package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"unicode/utf8"
)

// bytesText is a workspace name or path, or a line of a file, in --json
// output. Workspace names are bytes and JSON strings are Unicode, and
// encoding/json turns every byte that is not UTF-8 into U+FFFD, so two
// names could print the same and neither could be named again. A
// bytesText that is valid UTF-8 is written as any string; in one that is
// not, each byte that is not part of a UTF-8 sequence is written as the
// lone surrogate U+DC80+byte ("\udcff" for the byte 0xff): the
// surrogateescape of Python's PEP 383. JSON allows the escape;
// JavaScript's JSON.parse keeps it as a lone surrogate, and Python's
// json.loads too, whose os.fsencode gives the bytes back.
type bytesText string

// MarshalJSON implements json.Marshaler.
func (t bytesText) MarshalJSON() ([]byte, error) {
	s := string(t)
	if utf8.ValidString(s) {
		return jsonString(s), nil
	}
	var b bytes.Buffer
	b.WriteByte('"')
	for len(s) > 0 {
		r, size := utf8.DecodeRuneInString(s)
		if r == utf8.RuneError && size == 1 {
			fmt.Fprintf(&b, `\u%04x`, 0xdc00+int(s[0]))
			s = s[1:]
			continue
		}
		n := 0 // the longest valid prefix
		for n < len(s) {
			r, size := utf8.DecodeRuneInString(s[n:])
			if r == utf8.RuneError && size == 1 {
				break
			}
			n += size
		}
		q := jsonString(s[:n])
		b.Write(q[1 : len(q)-1])
		s = s[n:]
	}
	b.WriteByte('"')
	return b.Bytes(), nil
}

// jsonString is s as a JSON string, without HTML escaping (as writeJSON
// writes everything else).
func jsonString(s string) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(s) // a string always encodes
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}
