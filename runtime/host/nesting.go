package host

import "fmt"

// JSONNestingOffset scans JSON text without recursing and returns the byte
// offset of the first bracket or brace that opens a level deeper than max,
// or -1 when the text is never nested deeper than max. Brackets inside
// strings do not count; the text need not be valid JSON (the depth is
// what a recursive decoder would reach before it finds the error).
//
// Decoders and encoders that recurse on the Go stack (goja's JSON.parse,
// encoding/json into an interface, a converter of decoded values) use it
// to refuse a deep value before it can overflow the stack, which is a
// fatal error no recover can catch.
func JSONNestingOffset[T ~string | ~[]byte](data T, max int) int {
	depth := 0
	for i := 0; i < len(data); i++ {
		switch data[i] {
		case '[', '{':
			depth++
			if depth > max {
				return i
			}
		case ']', '}':
			if depth > 0 {
				depth--
			}
		case '"':
			for i++; i < len(data) && data[i] != '"'; i++ {
				if data[i] == '\\' {
					i++
				}
			}
		}
	}
	return -1
}

// CheckJSONNesting returns a *LimitError naming MaxNestingDepth when data
// (JSON text, described by what, e.g. "the input") is nested deeper than
// max levels, and nil otherwise.
func CheckJSONNesting[T ~string | ~[]byte](what string, data T, max int) error {
	if at := JSONNestingOffset(data, max); at >= 0 {
		return &LimitError{Limit: "MaxNestingDepth", Max: int64(max),
			What: fmt.Sprintf("%s nested deeper than %d levels (at byte %d)", what, max, at)}
	}
	return nil
}
