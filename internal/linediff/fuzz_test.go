package linediff

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"testing"
)

// applyUnified is a strict unified-diff applier for tests: context and
// deleted lines must match a exactly, hunks must be in order, and the
// counts in the headers must agree with the bodies.
func applyUnified(a []byte, patch string) ([]byte, error) {
	if patch == "" {
		return a, nil
	}
	at := Lines(a)
	lines := strings.SplitAfter(patch, "\n")
	if len(lines) < 3 || !strings.HasPrefix(lines[0], "--- ") || !strings.HasPrefix(lines[1], "+++ ") {
		return nil, fmt.Errorf("bad headers")
	}
	var out bytes.Buffer
	next := 0 // next line of a to copy
	i := 2
	for i < len(lines) && lines[i] != "" {
		var aStart, aLen, bStart, bLen int
		if err := parseHeader(lines[i], &aStart, &aLen, &bStart, &bLen); err != nil {
			return nil, err
		}
		i++
		first := aStart - 1
		if aLen == 0 {
			first = aStart
		}
		if first < next {
			return nil, fmt.Errorf("hunk out of order")
		}
		for ; next < first; next++ {
			out.WriteString(at[next])
		}
		gotA, gotB := 0, 0
		for i < len(lines) && lines[i] != "" && !strings.HasPrefix(lines[i], "@@ ") {
			l := lines[i]
			i++
			body := l[1:]
			if i < len(lines) && lines[i] == NoNewline {
				body = strings.TrimSuffix(body, "\n")
				i++
			}
			switch l[0] {
			case ' ', '-':
				if next >= len(at) || at[next] != body {
					return nil, fmt.Errorf("line %d: %q does not match %q", next+1, body, at[min(next, len(at)-1)])
				}
				next++
				gotA++
				if l[0] == ' ' {
					out.WriteString(body)
					gotB++
				}
			case '+':
				out.WriteString(body)
				gotB++
			default:
				return nil, fmt.Errorf("bad line %q", l)
			}
		}
		if gotA != aLen || gotB != bLen {
			return nil, fmt.Errorf("counts %d,%d vs header %d,%d", gotA, gotB, aLen, bLen)
		}
	}
	for ; next < len(at); next++ {
		out.WriteString(at[next])
	}
	return out.Bytes(), nil
}

func parseHeader(h string, aStart, aLen, bStart, bLen *int) error {
	var ar, br string
	if _, err := fmt.Sscanf(h, "@@ -%s +%s @@\n", &ar, &br); err != nil {
		return fmt.Errorf("bad hunk header %q", h)
	}
	parse := func(r string, start, n *int) error {
		s, c, ok := strings.Cut(r, ",")
		var err error
		if *start, err = strconv.Atoi(s); err != nil {
			return err
		}
		*n = 1
		if ok {
			*n, err = strconv.Atoi(c)
		}
		return err
	}
	if err := parse(ar, aStart, aLen); err != nil {
		return err
	}
	return parse(br, bStart, bLen)
}

func FuzzUnified(f *testing.F) {
	f.Add("a\nb\nc\n", "a\nx\nc", 4)
	f.Add("", "x", 0)
	f.Add("x\ny\nx\ny\nz", "y\nx\nz\nz\n", 1)
	f.Fuzz(func(t *testing.T, a, b string, context int) {
		context = int(uint(context) % 6)
		p := Unified("a/f", "b/f", []byte(a), []byte(b), context)
		if (p == "") != (a == b) {
			t.Fatalf("empty diff = %v for equal = %v", p == "", a == b)
		}
		got, err := applyUnified([]byte(a), p)
		if err != nil {
			t.Fatalf("%v\npatch:\n%s", err, p)
		}
		if string(got) != b {
			t.Fatalf("patched %q, want %q\npatch:\n%s", got, b, p)
		}
		// Small inputs: the diff is minimal.
		al, bl := Lines([]byte(a)), Lines([]byte(b))
		if len(al)*len(bl) <= 10000 {
			del, ins := Edits(al, bl)
			checkAlignment(t, al, bl, del, ins, true)
		}
	})
}
