package udiff

import "bytes"

// text is a byte slice split into lines. Line i is
// data[starts[i]:starts[i+1]] and keeps its '\n'; the last line may lack
// one. Offsets instead of sub-slices keep the split free of pointers.
type text struct {
	data   []byte
	starts []int
}

func splitText(data []byte) text {
	t := text{data: data, starts: make([]int, 1, bytes.Count(data, []byte{'\n'})+2)}
	for off := 0; off < len(data); {
		i := bytes.IndexByte(data[off:], '\n')
		if i < 0 {
			off = len(data)
		} else {
			off += i + 1
		}
		t.starts = append(t.starts, off)
	}
	return t
}

// n is the number of lines.
func (t text) n() int { return len(t.starts) - 1 }

// line returns line i, newline included.
func (t text) line(i int) []byte { return t.data[t.starts[i]:t.starts[i+1]] }

// FirstChangedLine returns the 1-based number of the first line of b that
// differs from a, or 0 when a and b are equal. A line's terminating
// newline is part of it, so adding or removing the final newline changes
// the last line. When b is a line-wise prefix of a (lines were only
// removed at the end), the result is b's last line (1 if b is empty).
func FirstChangedLine(a, b []byte) int {
	n := min(len(a), len(b))
	p := 0
	for p < n && a[p] == b[p] {
		p++
	}
	if p == len(a) && p == len(b) {
		return 0
	}
	// The first differing line starts after the last newline before p.
	line := 1 + bytes.Count(b[:p], []byte{'\n'})
	if total := countLines(b); line > total {
		line = max(total, 1)
	}
	return line
}

// countLines is the number of lines of b, a last unterminated line
// included.
func countLines(b []byte) int {
	n := bytes.Count(b, []byte{'\n'})
	if len(b) > 0 && b[len(b)-1] != '\n' {
		n++
	}
	return n
}
