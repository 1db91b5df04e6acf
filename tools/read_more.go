package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// tailWindow is how much of the file the backward scan of a tail read
// reads at a time.
const tailWindow = 64 << 10

// tailQuery turns a tail query into a forward one: the last q.tail lines
// (at most the line cap), fewer when they would not fit the byte cap, from
// the byte offset where the first of them starts. Line numbers need the
// lines before, so it counts the file's newlines first (one pass over the
// file); the backward scan then reads only the tail.
func (r *reader) tailQuery(q readQuery) (readQuery, error) {
	o := r.s.opts.Read
	if r.maxBytes > 0 {
		o.MaxBytes = r.maxBytes
	}
	size, err := r.size()
	if err != nil || size == 0 {
		return readQuery{line: 1, lines: q.lines, tail: q.tail}, err
	}
	h, err := r.s.fs.Open(r.ctx, r.path)
	if err != nil {
		return q, err
	}
	defer h.Close()
	buf := make([]byte, 1<<20)
	var newlines int64
	var last byte
	for off := int64(0); off < size; {
		if err := r.ctx.Err(); err != nil {
			return q, err
		}
		n, err := h.ReadAt(buf, off)
		if err != nil && err != io.EOF {
			return q, err
		}
		if n == 0 {
			size = off // the file shrank since it was measured
			break
		}
		newlines += int64(bytes.Count(buf[:n], []byte{'\n'}))
		last = buf[n-1]
		off += int64(n)
	}
	total := newlines
	lineEnd := size // the end of the current line, without its "\n"
	if last == '\n' {
		lineEnd--
	} else {
		total++
	}
	want := min(q.tail, int64(q.lines))

	// Walk back line by line through windows of the file.
	win, winLo := buf[:0], lineEnd
	prevNL := func(pos int64) (int64, error) { // the last '\n' before pos, or -1
		for {
			if pos > winLo {
				if i := bytes.LastIndexByte(win[:pos-winLo], '\n'); i >= 0 {
					return winLo + int64(i), nil
				}
				pos = winLo
			}
			if pos == 0 {
				return -1, nil
			}
			lo := max(0, pos-tailWindow)
			n, err := h.ReadAt(buf[:pos-lo], lo)
			if err != nil && err != io.EOF {
				return 0, err
			}
			win, winLo = buf[:n], lo
			if err := r.ctx.Err(); err != nil {
				return 0, err
			}
		}
	}
	start, used, k := size, 0, int64(0)
	for k < want {
		nl, err := prevNL(lineEnd)
		if err != nil {
			return q, err
		}
		lineStart := nl + 1
		// What the line costs in the output: its text (a long one is cut
		// to MaxLineBytes and a marker), its joining newline, its number.
		cost := int(min(lineEnd-lineStart, int64(o.MaxLineBytes)+120)) + 1
		if !o.NoLineNumbers {
			cost += len(strconv.FormatInt(total-k, 10)) + 1
		}
		if k > 0 && used+cost > o.MaxBytes {
			break
		}
		used += cost
		k++
		start = lineStart
		if nl < 0 {
			break
		}
		lineEnd = nl
	}
	return readQuery{line: total - k + 1, byteOff: start, lines: int(k), limited: true, tail: q.tail}, nil
}

// readEntry is one file of a read of several paths: the file's structured
// result, or its path and the error.
type readEntry map[string]any

// readMany serves a read of several paths: each is read as a read of its
// own path would be, with the same position arguments, but all share one
// call's caps (Read.MaxBytes of text, Read.MaxMediaBytes of media).
func (s *Set) readMany(ctx context.Context, in readIn) (*Result, error) {
	o := s.opts.Read
	if len(in.Paths) == 0 {
		return Errorf("invalid arguments for read: paths must name at least one file"), nil
	}
	if len(in.Paths) > o.MaxPaths {
		return Errorf("read of %d paths exceeds the limit Read.MaxPaths (%d); read them in several calls.", len(in.Paths), o.MaxPaths), nil
	}
	q, res := s.readQueryOf(in)
	if res != nil {
		return res, nil
	}
	textLeft, mediaLeft := o.MaxBytes, o.MaxMediaBytes
	out := struct {
		Files []readEntry `json:"files"`
	}{Files: []readEntry{}}
	var content []Content
	var b strings.Builder
	for i, raw := range in.Paths {
		if i > 0 {
			b.WriteString("\n\n")
		}
		fmt.Fprintf(&b, "==> %s <==\n", shown(s.abs(raw)))
		if textLeft <= 0 {
			msg := fmt.Sprintf("not read: the files before it used the call's %d-byte cap; read it in another call", o.MaxBytes)
			out.Files = append(out.Files, readEntry{"path": s.abs(raw), "error": msg})
			b.WriteString(msg)
			continue
		}
		if raw == "" {
			msg := "invalid arguments for read: paths must not hold an empty path"
			out.Files = append(out.Files, readEntry{"path": raw, "error": msg})
			b.WriteString(msg)
			continue
		}
		r, err := s.readOne(ctx, raw, q, textLeft, max(mediaLeft, 1))
		if err != nil {
			if ctx.Err() != nil {
				return nil, err
			}
			r = fromError(err)
		}
		if r.IsError {
			msg := resultText(r)
			out.Files = append(out.Files, readEntry{"path": s.abs(raw), "error": msg})
			b.WriteString(msg)
			continue
		}
		var e readEntry
		data, err := json.Marshal(r.Structured)
		if err != nil {
			return nil, err
		}
		if err := json.Unmarshal(data, &e); err != nil {
			return nil, err
		}
		out.Files = append(out.Files, e)
		for _, c := range r.Content {
			switch c.Type {
			case TextContent:
				b.WriteString(c.Text)
			default:
				content = append(content, c)
				mediaLeft -= int64(len(c.Data))
			}
		}
		if t, ok := r.Structured.(readText); ok {
			textLeft -= len(t.Content)
		}
	}
	return &Result{Content: append([]Content{{Type: TextContent, Text: b.String()}}, content...), Structured: out}, nil
}
