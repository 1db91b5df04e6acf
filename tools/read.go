package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/nookdev/nook/vfs"
)

// Read caps that are not options.
const (
	// maxLineSkip bounds the bytes one call scans past the shown part of
	// cut lines to find where they end; a line still going on ends the
	// page there, with a continuation inside it.
	maxLineSkip = 8 << 20
	// minWindow is the least a window of the file holds: a window ends at
	// a chunk boundary (the vfs reads whole chunks), or at the next one
	// when the first is nearer than this.
	minWindow = 64 << 10
)

func readTool(s *Set) *Tool {
	o := s.opts.Read
	lines := `numbered lines ("N<tab>text")`
	if o.NoLineNumbers {
		lines = "lines"
	}
	return &Tool{
		Name: "read",
		Description: fmt.Sprintf("Read a file. Text comes as %s, at most %d lines or %d KB per call; "+
			"a cut result says exactly how to continue. Images and PDFs are returned as media.",
			lines, o.MaxLines, o.MaxBytes/1024),
		InputSchema: schema(`{"type":"object","properties":{
			"path":{"type":"string","description":"File to read, e.g. /src/main.go"},
			"offset":{"type":"integer","minimum":1,"description":"First line to read (1-based)"},
			"limit":{"type":"integer","minimum":1,"description":"Most lines to read"},
			"byteOffset":{"type":"integer","minimum":0,"description":"Byte continuation from a previous read (nextByteOffset); needs offset"},
			"lineOffset":{"type":"integer","minimum":0,"description":"Continue inside a cut long line: byte position within line offset, as a previous read said"},
			"tail":{"type":"integer","minimum":1,"description":"Read the last N lines instead (not with offset); earlier lines: prevOffset/prevLimit"},
			"paths":{"type":"array","items":{"type":"string"},"minItems":1,"description":"Several files instead of path, sharing one call's byte cap; each gets its result or error"}},
			"additionalProperties":false}`),
		OutputSchema: schema(`{"type":"object","properties":{
			"path":{"type":"string"},
			"kind":{"type":"string","enum":["text","image","document","binary"]},
			"size":{"type":"integer","description":"File size in bytes"},
			"hash":{"type":"string","description":"Content hash of the whole file (absent in read-only mounts): pass it to edit as expectedHash"},
			"content":{"type":"string","description":"text: the lines shown, joined by newlines"},
			"startLine":{"type":"integer","description":"text: number of the first line shown"},
			"lineOffset":{"type":"integer","description":"text: byte position within startLine where content starts, when not 0"},
			"lines":{"type":"integer","description":"text: number of lines shown"},
			"totalLines":{"type":"integer","description":"text: lines in the file, present when the read reached its end"},
			"truncated":{"type":"boolean","description":"text: more of the file follows what is shown"},
			"nextOffset":{"type":"integer","description":"text: offset for the next read, when truncated"},
			"nextByteOffset":{"type":"integer","description":"text: byteOffset for the next read, when truncated"},
			"nextLineOffset":{"type":"integer","description":"text: lineOffset for the next read, when the cut fell inside a line"},
			"truncatedLines":{"type":"integer","description":"text: lines shown cut short, each marked with how to read the rest"},
			"mime":{"type":"string","description":"image, document, binary: the media type"},
			"unsupported":{"type":"boolean","description":"binary: read cannot show this file"},
			"prevOffset":{"type":"integer","description":"text: offset to read the lines before these (with limit prevLimit), after a tail or a limited read"},
			"prevLimit":{"type":"integer","description":"text: limit for reading the lines before these"},
			"files":{"type":"array","description":"paths: one entry per path, in order: a result as for path, or path and error","items":{"type":"object","properties":{
				"path":{"type":"string"},"error":{"type":"string"},"kind":{"type":"string"},"size":{"type":"integer"},"hash":{"type":"string"},
				"content":{"type":"string"},"startLine":{"type":"integer"},"lineOffset":{"type":"integer"},"lines":{"type":"integer"},
				"totalLines":{"type":"integer"},"truncated":{"type":"boolean"},"nextOffset":{"type":"integer"},"nextByteOffset":{"type":"integer"},
				"nextLineOffset":{"type":"integer"},"truncatedLines":{"type":"integer"},"mime":{"type":"string"},"unsupported":{"type":"boolean"},
				"prevOffset":{"type":"integer"},"prevLimit":{"type":"integer"}},"required":["path"]}}}}`),
		Annotations: Annotations{ReadOnly: true, Idempotent: true},
		run:         s.read,
	}
}

type readIn struct {
	Path       *string  `json:"path"`
	Offset     *int64   `json:"offset"`
	Limit      *int64   `json:"limit"`
	ByteOffset *int64   `json:"byteOffset"`
	LineOffset *int64   `json:"lineOffset"`
	Tail       *int64   `json:"tail"`
	Paths      []string `json:"paths"`
}

// readText is the structured result of a text read.
type readText struct {
	Path           string `json:"path"`
	Kind           string `json:"kind"`
	Size           int64  `json:"size"`
	Hash           string `json:"hash,omitempty"`
	Content        string `json:"content"`
	StartLine      int64  `json:"startLine"`
	LineOffset     int64  `json:"lineOffset,omitempty"`
	Lines          int    `json:"lines"`
	TotalLines     *int64 `json:"totalLines,omitempty"`
	Truncated      bool   `json:"truncated"`
	NextOffset     int64  `json:"nextOffset,omitempty"`
	NextByteOffset int64  `json:"nextByteOffset,omitempty"`
	NextLineOffset int64  `json:"nextLineOffset,omitempty"`
	TruncatedLines int    `json:"truncatedLines,omitempty"`
	PrevOffset     int64  `json:"prevOffset,omitempty"`
	PrevLimit      int64  `json:"prevLimit,omitempty"`
}

// readFile is the structured result of a media or binary read.
type readFile struct {
	Path        string `json:"path"`
	Kind        string `json:"kind"`
	Size        int64  `json:"size"`
	Hash        string `json:"hash,omitempty"`
	MIME        string `json:"mime"`
	Unsupported bool   `json:"unsupported,omitempty"`
}

func (s *Set) read(ctx context.Context, raw json.RawMessage) (*Result, error) {
	var in readIn
	if r := decode("read", raw, &in); r != nil {
		return r, nil
	}
	if in.Paths != nil {
		if in.Path != nil {
			return Errorf("invalid arguments for read: pass path or paths, not both"), nil
		}
		return s.readMany(ctx, in)
	}
	if in.Path == nil || *in.Path == "" {
		return Errorf("invalid arguments for read: path is required"), nil
	}
	q, res := s.readQueryOf(in)
	if res != nil {
		return res, nil
	}
	return s.readOne(ctx, *in.Path, q, 0, 0)
}

// readQueryOf checks a call's position arguments and makes its query.
func (s *Set) readQueryOf(in readIn) (readQuery, *Result) {
	for _, c := range []struct {
		name string
		v    *int64
		min  int64
	}{{"offset", in.Offset, 1}, {"limit", in.Limit, 1}, {"byteOffset", in.ByteOffset, 0}, {"lineOffset", in.LineOffset, 0}, {"tail", in.Tail, 1}} {
		if c.v != nil && *c.v < c.min {
			return readQuery{}, Errorf("invalid arguments for read: %s must be at least %d, got %d", c.name, c.min, *c.v)
		}
	}
	q := readQuery{line: 1, lines: s.opts.Read.MaxLines}
	if in.Tail != nil {
		if in.Offset != nil || in.ByteOffset != nil || in.LineOffset != nil || in.Limit != nil {
			return q, Errorf("invalid arguments for read: tail reads the last lines; it does not go with offset, limit, byteOffset or lineOffset")
		}
		q.tail = *in.Tail
		return q, nil
	}
	if in.ByteOffset != nil {
		q.byteOff = *in.ByteOffset
	}
	if in.LineOffset != nil {
		q.col = *in.LineOffset
	}
	if in.Offset != nil {
		q.line = *in.Offset
	} else if q.byteOff > 0 {
		return q, Errorf("offset is required when byteOffset is greater than zero")
	} else if q.col > 0 {
		return q, Errorf("offset is required when lineOffset is greater than zero")
	}
	if in.Limit != nil {
		q.asked = *in.Limit
		if *in.Limit < int64(q.lines) {
			q.lines, q.limited = int(*in.Limit), true
		}
	}
	return q, nil
}

// readOne reads one file; maxBytes and maxMedia, when > 0, lower the
// caps for this file (a share of a batch's budget).
func (s *Set) readOne(ctx context.Context, path string, q readQuery, maxBytes int, maxMedia int64) (*Result, error) {
	p, err := vfs.Clean(s.abs(path))
	if err != nil {
		return nil, err
	}
	r := &reader{s: s, ctx: ctx, path: p, maxBytes: maxBytes, maxMedia: maxMedia}
	defer r.close()
	res, err := r.read(q)
	if err != nil {
		return r.fail(err)
	}
	return res, nil
}

// readQuery is what a call asks for.
type readQuery struct {
	line    int64 // first line (1-based)
	byteOff int64 // where reading starts, when > 0: a continuation
	col     int64 // byte position within line where reading starts
	lines   int   // most lines to show
	limited bool  // lines comes from the call's limit
	asked   int64 // the call's limit, when it gave one
	tail    int64 // read the last tail lines, when > 0
}

// reader reads one file for one call. It sees the file through windows:
// the first is one ranged read (one transaction); later ones, needed only
// for long pages, long lines or seeks, come through a vfs.File handle, so
// a call reads about what it shows, never the whole of a large file.
type reader struct {
	s    *Set
	ctx  context.Context
	path string

	loaded bool
	buf    []byte // the current window
	bufOff int64  // the file offset of buf[0]
	eof    bool   // buf ends at the end of the file

	h    *vfs.File
	hbuf []byte
	// hashVal is the content hash read with the first window (hashed set).
	hashVal string
	hashed  bool
	line    []byte // assembles a line that spans windows

	seekErr *Result // why seek found no such position

	maxBytes int   // the text cap for this file, when > 0 (else Read.MaxBytes)
	maxMedia int64 // the media cap for this file, when > 0 (else Read.MaxMediaBytes)
}

func (r *reader) close() {
	if r.h != nil {
		r.h.Close()
	}
}

// fail turns a workspace error into the result the model sees.
func (r *reader) fail(err error) (*Result, error) {
	if r.ctx.Err() != nil {
		return nil, err
	}
	switch vfs.Code(err) {
	case vfs.ENOENT, vfs.ENOTDIR:
		return r.notFound(), nil
	case vfs.EISDIR:
		return Errorf("%s is a directory, not a file; use ls to list it.", shown(r.path)), nil
	}
	return nil, err
}

func (r *reader) notFound() *Result {
	msg := "File not found: " + shown(r.path)
	if alt := r.s.similarPaths(r.ctx, r.path); len(alt) > 0 {
		msg += " Did you mean: " + strings.Join(shownAll(alt), ", ") + "?"
	}
	return Errorf("%s", msg)
}

// windowEnd is where a window starting at off ends.
func windowEnd(off int64) int64 {
	end := (off/vfs.ChunkSize + 1) * vfs.ChunkSize
	if end-off < minWindow {
		end += vfs.ChunkSize
	}
	return end
}

// load makes the window start at off.
func (r *reader) load(off int64) error {
	if err := r.ctx.Err(); err != nil {
		return err
	}
	n := windowEnd(off) - off
	if !r.loaded {
		// The first window and the content hash from one snapshot.
		var data []byte
		err := r.s.fs.View(r.ctx, func(v *vfs.View) error {
			var err error
			if data, err = v.ReadRange(r.path, off, n); err != nil {
				return err
			}
			r.hashVal, err = v.ContentHash(r.path)
			r.hashed = err == nil
			return err
		})
		if err != nil {
			return err
		}
		r.loaded, r.buf, r.bufOff, r.eof = true, data, off, int64(len(data)) < n
		return nil
	}
	if r.h == nil {
		h, err := r.s.fs.Open(r.ctx, r.path)
		if err != nil {
			return err
		}
		r.h = h
	}
	if int64(cap(r.hbuf)) < n {
		r.hbuf = make([]byte, n)
	}
	got, err := r.h.ReadAt(r.hbuf[:n], off)
	if err != nil && err != io.EOF {
		return err
	}
	r.buf, r.bufOff, r.eof = r.hbuf[:got], off, int64(got) < n
	return nil
}

// at returns the bytes from off to the end of the window holding off,
// loading it if needed; it is empty at the end of the file.
func (r *reader) at(off int64) ([]byte, error) {
	end := r.bufOff + int64(len(r.buf))
	if r.loaded && off >= r.bufOff && (off < end || r.eof) {
		if off >= end {
			return nil, nil
		}
		return r.buf[off-r.bufOff:], nil
	}
	if err := r.load(off); err != nil {
		return nil, err
	}
	return r.buf, nil
}

// size returns the file's size.
func (r *reader) size() (int64, error) {
	if r.eof {
		return r.bufOff + int64(len(r.buf)), nil
	}
	if r.h != nil {
		fi, err := r.h.Stat()
		if err != nil {
			return 0, err
		}
		return fi.Size(), nil
	}
	fi, err := r.s.fs.Stat(r.ctx, r.path)
	if err != nil {
		return 0, err
	}
	return fi.Bytes, nil
}

// whole reports whether the window holds the whole file.
func (r *reader) whole() bool { return r.loaded && r.bufOff == 0 && r.eof }

// hash returns the file's content hash (vfs.HashContent), which edit's
// expectedHash compares. The workspace derives it from the stored chunk
// hashes, so it costs the same for any file size.
func (r *reader) hash() (string, error) {
	if r.hashed {
		return r.hashVal, nil
	}
	return r.s.fs.ContentHash(r.ctx, r.path)
}

// read serves a query.
func (r *reader) read(q readQuery) (*Result, error) {
	positioned := q.byteOff > 0 || q.col > 0
	cls, mime := classifyName(r.path)
	if !positioned && (cls == classImage || cls == classDocument) {
		return r.media(cls, mime, q)
	}
	start := q.byteOff
	if err := r.load(start); err != nil {
		return nil, err
	}
	if q.byteOff > 0 && len(r.buf) == 0 {
		return Errorf("Byte continuation %d is beyond end of file", q.byteOff), nil
	}
	if start == 0 {
		head := r.buf[:min(len(r.buf), mediaSniffBytes)]
		if cls == classUnknown {
			if c, m := sniffMedia(head); c != classUnknown {
				return r.media(c, m, q)
			}
		}
		if looksBinary(r.buf, r.eof) {
			return r.binary(binaryMIME(head))
		}
	}
	if q.tail > 0 {
		var err error
		if q, err = r.tailQuery(q); err != nil {
			return nil, err
		}
	}
	return r.text(q)
}

// media returns an image or a PDF: data read once, at most MaxMediaBytes.
// Content that turns out not to be media is read as q asks.
func (r *reader) media(cls fileClass, mime string, q readQuery) (*Result, error) {
	max := r.s.opts.Read.MaxMediaBytes
	if r.maxMedia > 0 {
		max = r.maxMedia
	}
	var data []byte
	var size int64
	if r.whole() {
		data, size = r.buf, int64(len(r.buf))
	} else {
		fi, err := r.s.fs.Stat(r.ctx, r.path)
		if err != nil {
			return nil, err
		}
		if fi.IsDir() {
			return nil, &vfs.PathError{Op: "read", Path: r.path, Code: vfs.EISDIR, Text: "path is a directory"}
		}
		size = fi.Bytes
	}
	if size == 0 {
		return Errorf("Cannot attach empty file: %s", shown(r.path)), nil
	}
	tooBig := func(n int64) *Result {
		return Errorf("Read %s (%s, %d bytes), but it exceeds the %d-byte inline model output limit.", shown(r.path), mime, n, max)
	}
	if size > max {
		return tooBig(size), nil
	}
	if data == nil {
		var err error
		data, err = r.s.fs.ReadRange(r.ctx, r.path, 0, max+1)
		if err != nil {
			return nil, err
		}
		switch {
		case len(data) == 0:
			return Errorf("Could not read file bytes: %s", shown(r.path)), nil
		case int64(len(data)) > max:
			return tooBig(int64(len(data))), nil
		}
		size = int64(len(data))
	}
	// Trust the content over the name: a .jpg holding a PNG is sent as
	// image/png, and a .png holding text is read as text.
	head := data[:min(len(data), mediaSniffBytes)]
	c, m := sniffMedia(head)
	if c == classUnknown && cls == classDocument && bytes.Contains(head, []byte("%PDF-")) {
		c, m = cls, mime // a PDF may start with junk before its header
	}
	if c == classUnknown {
		r.loaded, r.buf, r.bufOff, r.eof = true, data, 0, true
		if looksBinary(data, true) {
			return r.binary(binaryMIME(head))
		}
		return r.text(q)
	}
	cls, mime = c, m
	kind, ct := "image", ImageContent
	if cls == classDocument {
		kind, ct = "document", DocumentContent
	}
	return &Result{
		Content: []Content{
			{Type: TextContent, Text: fmt.Sprintf("Read %s (%s, %d bytes).", shown(r.path), mime, len(data))},
			{Type: ct, MIME: mime, Data: data},
		},
		Structured: readFile{Path: r.path, Kind: kind, Size: size, Hash: vfs.HashContent(data), MIME: mime},
	}, nil
}

// binary returns the non-error result for a file read cannot show.
func (r *reader) binary(mime string) (*Result, error) {
	size, err := r.size()
	if err != nil {
		return nil, err
	}
	msg := fmt.Sprintf("%s is a binary file (%s, %d bytes); read shows only text, images and PDFs. "+
		"Use other means to inspect it, such as a tool that understands its format.", shown(r.path), mime, size)
	return Text(msg, readFile{Path: r.path, Kind: "binary", Size: size, MIME: mime, Unsupported: true}), nil
}

// lineInfo describes one line read by readLine.
type lineInfo struct {
	text   []byte // the kept bytes, cut at a UTF-8 boundary; valid until the next readLine
	length int64  // the line's length without "\n" or "\r\n"; when open, the bytes seen
	next   int64  // where the next line starts (when not open)
	cut    bool   // text is less than the whole line
	open   bool   // the scan stopped before the line ended
}

// readLine reads the line starting at pos, keeping at most keep bytes.
// When the line is longer, it scans on for its end within the skip
// budget (skip is decremented); with the budget spent it stops (open).
func (r *reader) readLine(pos int64, keep int, skip *int64) (lineInfo, error) {
	var acc []byte
	var n int64 // raw bytes of the line seen, before any "\n"
	var last byte
	first := true
	for {
		chunk, err := r.at(pos + n)
		if err != nil {
			return lineInfo{}, err
		}
		nl := false
		seg := chunk
		if i := bytes.IndexByte(chunk, '\n'); i >= 0 {
			seg, nl = chunk[:i], true
		}
		if first && nl {
			acc = seg[:min(len(seg), keep+1)] // the common case: no copy
		} else if room := keep + 1 - len(acc); room > 0 {
			if acc == nil {
				acc = r.line[:0]
			}
			acc = append(acc, seg[:min(room, len(seg))]...)
			r.line = acc
		} else {
			*skip -= int64(len(seg))
		}
		first = false
		if len(seg) > 0 {
			last = seg[len(seg)-1]
		}
		n += int64(len(seg))
		if nl || len(chunk) == 0 {
			li := lineInfo{length: n, next: pos + n}
			if nl {
				li.next++
				if last == '\r' && n > 0 {
					li.length--
				}
			}
			li.text, li.cut = cutUTF8(acc, li.length, keep)
			return li, nil
		}
		if n > int64(keep)+1 && *skip <= 0 {
			li := lineInfo{length: n, open: true}
			li.text, li.cut = cutUTF8(acc, n, keep)
			return li, nil
		}
	}
}

// cutUTF8 returns the first min(length, keep) bytes of acc, backing off to
// a UTF-8 boundary when it cuts the line.
func cutUTF8(acc []byte, length int64, keep int) ([]byte, bool) {
	if length <= int64(keep) {
		return acc[:length], false
	}
	k := keep
	for k > 0 && keep-k < utf8.UTFMax-1 && k < len(acc) && !utf8.RuneStart(acc[k]) {
		k--
	}
	return acc[:k], true
}

// text renders lines from the query's position.
func (r *reader) text(q readQuery) (*Result, error) {
	o := r.s.opts.Read
	if r.maxBytes > 0 {
		o.MaxBytes = r.maxBytes
	}
	pos, line := q.byteOff, q.line
	if q.byteOff == 0 {
		var err error
		if pos, err = r.seek(q); err != nil || pos < 0 {
			return r.seekErr, err
		}
	}

	out := readText{Path: r.path, Kind: "text", StartLine: line, LineOffset: q.col}
	buf := make([]byte, 0, min(o.MaxBytes+256, len(r.buf)+len(r.buf)/8+64))
	skip := int64(maxLineSkip)
	var stop string // why the page ended before the end of the file
	var nextPos, nextCol int64
	n := 0
	num := newDecimal(line) // line+n, as digits
	byteCap := func() {
		stop = fmt.Sprintf("stopped at the %d-byte output cap", o.MaxBytes)
		nextPos = pos
	}
	for n < q.lines && stop == "" {
		c, err := r.at(pos)
		if err != nil {
			return nil, err
		}
		if len(c) == 0 {
			break
		}
		// The common case: short lines ending in the window, in a tight loop.
		for (n > 0 || q.col == 0) && n < q.lines {
			i := bytes.IndexByte(c[:min(len(c), o.MaxLineBytes+2)], '\n')
			if i < 0 {
				break
			}
			t := c[:i]
			if i > 0 && t[i-1] == '\r' {
				t = t[:i-1]
			}
			if len(t) > o.MaxLineBytes {
				break
			}
			if n == 0 && len(t) > o.MaxBytes-len(num.digits())-1 {
				break // the first line may not fit the byte cap: see below
			}
			if n > 0 {
				add := 1 + len(t) // with the joining newline
				if !o.NoLineNumbers {
					add += len(num.digits()) + 1
				}
				if len(buf)+add > o.MaxBytes {
					byteCap()
					break
				}
				buf = append(buf, '\n')
			}
			if !o.NoLineNumbers {
				buf = append(buf, num.digits()...)
				buf = append(buf, '\t')
			}
			buf = append(buf, t...)
			n++
			num.inc()
			pos += int64(i) + 1
			c = c[i+1:]
		}
		if stop != "" || n == q.lines {
			break
		}
		if len(c) == 0 {
			continue // the window ended: load the next
		}

		// Anything else: a long line, a line across windows, the rest of a
		// cut line, a last line without a newline.
		lineNo := line + int64(n)
		prefix := 0
		if !o.NoLineNumbers {
			prefix = len(num.digits()) + 1
		}
		keep, budget := o.MaxLineBytes, &skip
		// The rest of a cut line, or a first line that the byte cap may
		// cut before MaxLineBytes: as much as fits, and a lineOffset to
		// go on from.
		segment := n == 0 && (q.col > 0 || o.MaxBytes-prefix < o.MaxLineBytes)
		if segment {
			var none int64
			keep, budget = max(o.MaxBytes-prefix, 1), &none
		}
		li, err := r.readLine(pos, keep, budget)
		if err != nil {
			return nil, err
		}
		col := int64(0)
		if n == 0 {
			col = q.col
		}
		rest := pos + int64(len(li.text)) // where the part not shown starts
		var marker string
		if li.cut && !segment {
			total := commas(li.length)
			if li.open {
				total = "over " + total
			}
			marker = fmt.Sprintf(" … [line truncated: %s bytes; continue with offset=%d, byteOffset=%d, lineOffset=%d]",
				total, lineNo, rest, col+int64(len(li.text)))
		}
		add := prefix + len(li.text) + len(marker)
		if n > 0 {
			add++
		}
		if n > 0 && len(buf)+add > o.MaxBytes {
			byteCap()
			break
		}
		if n > 0 {
			buf = append(buf, '\n')
		}
		if prefix > 0 {
			buf = append(buf, num.digits()...)
			buf = append(buf, '\t')
		}
		buf = append(buf, li.text...)
		buf = append(buf, marker...)
		n++
		num.inc()
		if li.cut && !segment {
			out.TruncatedLines++
		}
		if li.cut && (segment || li.open) {
			if segment {
				stop = fmt.Sprintf("line %d continues past the %d-byte output cap", lineNo, o.MaxBytes)
			} else {
				stop = fmt.Sprintf("line %d goes on past the %d bytes scanned for its end", lineNo, maxLineSkip)
			}
			nextPos, nextCol = rest, col+int64(len(li.text))
			break
		}
		pos = li.next
	}
	if stop == "" && n == q.lines {
		if c, err := r.at(pos); err != nil {
			return nil, err
		} else if len(c) > 0 {
			stop = fmt.Sprintf("stopped at the %d-line cap", q.lines)
			if q.limited {
				stop = fmt.Sprintf("stopped at the limit of %d lines", q.lines)
			}
			nextPos = pos
		}
	}
	out.Lines = n
	out.Content = unsafe.String(unsafe.SliceData(buf), len(buf)) // buf is not touched again
	if stop == "" {
		total := line + int64(n) - 1
		out.TotalLines = &total
	} else {
		out.Truncated = true
		out.NextOffset = line + int64(n)
		if nextCol > 0 {
			out.NextOffset--
		}
		out.NextByteOffset, out.NextLineOffset = nextPos, nextCol
	}
	if back := max(q.tail, q.asked); back > 0 && line > 1 && q.col == 0 {
		out.PrevLimit = min(back, line-1)
		out.PrevOffset = line - out.PrevLimit
	}
	var err error
	if out.Size, err = r.size(); err != nil {
		return nil, err
	}
	if out.Hash, err = r.hash(); err != nil {
		return nil, err
	}
	text := out.Content
	switch {
	case out.Truncated:
		shown := fmt.Sprintf("lines %d-%d", line, line+int64(n)-1)
		if n == 1 {
			shown = fmt.Sprintf("line %d", line)
		}
		next := fmt.Sprintf("offset=%d, byteOffset=%d", out.NextOffset, out.NextByteOffset)
		if out.NextLineOffset > 0 {
			next += fmt.Sprintf(", lineOffset=%d", out.NextLineOffset)
		}
		text += fmt.Sprintf("\n\n[Showing %s; %s. To continue, read with %s.]", shown, stop, next)
	case out.PrevLimit > 0 && n > 0:
		text += fmt.Sprintf("\n\n[Showing lines %d-%d of %d. Earlier lines: read with offset=%d, limit=%d.]",
			line, line+int64(n)-1, *out.TotalLines, out.PrevOffset, out.PrevLimit)
	case n == 0 && out.Size == 0:
		text = fmt.Sprintf("[%s is empty]", shown(r.path))
	case n == 0:
		text = fmt.Sprintf("[nothing to show at offset=%d, lineOffset=%d of %s]", line, q.col, shown(r.path))
	}
	return Text(text, out), nil
}

// seek finds where line q.line (plus q.col bytes into it) starts, scanning
// from the start of the file. When there is no such place it sets
// r.seekErr and returns -1.
func (r *reader) seek(q readQuery) (int64, error) {
	var pos int64
	for l := int64(1); l < q.line; l++ {
		lineStart := pos
		for {
			chunk, err := r.at(pos)
			if err != nil {
				return 0, err
			}
			if len(chunk) == 0 {
				total := l
				if pos == lineStart {
					total-- // the file ends with a newline (or is empty)
				}
				r.seekErr = Errorf("Offset %d is beyond end of file (%d line(s))", q.line, total)
				return -1, nil
			}
			if i := bytes.IndexByte(chunk, '\n'); i >= 0 {
				pos += int64(i) + 1
				break
			}
			pos += int64(len(chunk))
		}
	}
	if q.line > 1 {
		if chunk, err := r.at(pos); err != nil {
			return 0, err
		} else if len(chunk) == 0 {
			r.seekErr = Errorf("Offset %d is beyond end of file (%d line(s))", q.line, q.line-1)
			return -1, nil
		}
	}
	// Step q.col bytes into the line, checking it is that long.
	lineStart, end := pos, pos+q.col
	var last byte
	for pos < end {
		chunk, err := r.at(pos)
		if err != nil {
			return 0, err
		}
		seg := chunk[:min(int64(len(chunk)), end-pos)]
		i := bytes.IndexByte(seg, '\n')
		if i >= 0 || len(chunk) == 0 {
			if i > 0 {
				last = seg[i-1]
			}
			n := pos - lineStart + int64(max(i, 0))
			if i >= 0 && last == '\r' {
				n--
			}
			r.seekErr = Errorf("lineOffset %d is beyond the end of line %d (%d bytes)", q.col, q.line, n)
			return -1, nil
		}
		last = seg[len(seg)-1]
		pos += int64(len(seg))
	}
	return pos, nil
}

// decimal is a line number kept as ASCII digits, counted up in place.
type decimal struct {
	d     [20]byte
	start int
}

func newDecimal(n int64) *decimal {
	x := &decimal{}
	x.start = len(x.d) - len(strconv.AppendInt(x.d[:0:0], n, 10))
	strconv.AppendInt(x.d[x.start:x.start], n, 10)
	return x
}

func (x *decimal) digits() []byte { return x.d[x.start:] }

func (x *decimal) inc() {
	for i := len(x.d) - 1; i >= x.start; i-- {
		if x.d[i] != '9' {
			x.d[i]++
			return
		}
		x.d[i] = '0'
	}
	x.start--
	x.d[x.start] = '1'
}

// commas formats n with thousands separators: 1234567 → "1,234,567".
func commas(n int64) string {
	s := strconv.FormatInt(n, 10)
	if len(s) <= 3 {
		return s
	}
	var b strings.Builder
	pre := len(s) % 3
	if pre > 0 {
		b.WriteString(s[:pre])
	}
	for i := pre; i < len(s); i += 3 {
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		b.WriteString(s[i : i+3])
	}
	return b.String()
}
