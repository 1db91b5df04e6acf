package tools

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/gif"
	"image/png"
	"io"
	"io/fs"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"testing/fstest"
	"time"

	"github.com/nookdev/nook/vfs"
)

// rdSet returns a tool set over a fresh in-memory workspace.
func rdSet(t testing.TB, opts Options) (*Set, *vfs.FS) {
	t.Helper()
	f, err := vfs.Open(bg, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return New(f, opts), f
}

// rdArgs builds read's JSON arguments.
func rdArgs(path string, kv ...any) string {
	m := map[string]any{"path": path}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i].(string)] = kv[i+1]
	}
	b, _ := json.Marshal(m)
	return string(b)
}

// rdText reads a text file and returns the typed structured result.
func rdText(t testing.TB, s *Set, args string) (readText, *Result) {
	t.Helper()
	r := ok(t, s, "read", args)
	out, isText := r.Structured.(readText)
	if !isText {
		t.Fatalf("read %s: structured %T, want readText", args, r.Structured)
	}
	return out, r
}

func sha(b []byte) string { return vfs.HashContent(b) }

func TestReadText(t *testing.T) {
	s, f := rdSet(t, Options{})
	mustWrite(t, f, "/a.txt", "alpha\nbeta\ngamma\n")
	out, r := rdText(t, s, rdArgs("/a.txt"))
	if got, want := text(r), "1\talpha\n2\tbeta\n3\tgamma"; got != want {
		t.Fatalf("text = %q, want %q", got, want)
	}
	m := structured(t, r)
	want := map[string]any{"path": "/a.txt", "kind": "text", "size": 17.0, "hash": sha([]byte("alpha\nbeta\ngamma\n")),
		"content": "1\talpha\n2\tbeta\n3\tgamma", "startLine": 1.0, "lines": 3.0, "totalLines": 3.0, "truncated": false}
	if fmt.Sprint(m) != fmt.Sprint(want) {
		t.Errorf("structured = %v\nwant %v", m, want)
	}
	if out.NextOffset != 0 || out.NextByteOffset != 0 {
		t.Errorf("complete read has a continuation: %+v", out)
	}

	// Without line numbers; offset without byteOffset rescans.
	plain, _ := rdSet(t, Options{Read: ReadOptions{NoLineNumbers: true}})
	mustWriteTo(t, plain, "/a.txt", "alpha\nbeta\ngamma\n")
	_, r = rdText(t, plain, rdArgs("/a.txt", "offset", 2))
	if got := text(r); got != "beta\ngamma" {
		t.Errorf("offset 2 = %q", got)
	}

	// A limit cuts the page; the continuation picks up exactly there.
	out, r = rdText(t, s, rdArgs("/a.txt", "limit", 2))
	if got, want := text(r), "1\talpha\n2\tbeta\n\n[Showing lines 1-2; stopped at the limit of 2 lines. To continue, read with offset=3, byteOffset=11.]"; got != want {
		t.Errorf("limit 2:\n got %q\nwant %q", got, want)
	}
	if !out.Truncated || out.NextOffset != 3 || out.NextByteOffset != 11 || out.TotalLines != nil {
		t.Errorf("limit 2 structured = %+v", out)
	}
	out, r = rdText(t, s, rdArgs("/a.txt", "offset", 3, "byteOffset", 11))
	if text(r) != "3\tgamma" || *out.TotalLines != 3 || out.Truncated {
		t.Errorf("continuation = %q %+v", text(r), out)
	}
	// A limit landing on the last line is not a truncation.
	out, _ = rdText(t, s, rdArgs("/a.txt", "limit", 3))
	if out.Truncated || out.TotalLines == nil || *out.TotalLines != 3 {
		t.Errorf("limit 3 = %+v", out)
	}
	// A limit above MaxLines is clamped, not an error.
	out, _ = rdText(t, s, rdArgs("/a.txt", "limit", 1000000))
	if out.Lines != 3 {
		t.Errorf("large limit = %+v", out)
	}
}

// mustWriteTo writes through the set's filesystem.
func mustWriteTo(t testing.TB, s *Set, p, content string) {
	t.Helper()
	mustWrite(t, s.fs, p, content)
}

func TestReadCaps(t *testing.T) {
	s, f := rdSet(t, Options{Read: ReadOptions{MaxLines: 3, MaxBytes: 20}})
	mustWrite(t, f, "/five", "1\n2\n3\n4\n5\n")
	_, r := rdText(t, s, rdArgs("/five"))
	if got, want := text(r), "1\t1\n2\t2\n3\t3\n\n[Showing lines 1-3; stopped at the 3-line cap. To continue, read with offset=4, byteOffset=6.]"; got != want {
		t.Errorf("line cap:\n got %q\nwant %q", got, want)
	}
	mustWrite(t, f, "/wide", "aaaaaa\nbbbbbb\ncccccc\n")
	out, r := rdText(t, s, rdArgs("/wide"))
	// "1\taaaaaa" is 8 bytes, "\n2\tbbbbbb" 9 more: 17; a third would make 26.
	if got, want := text(r), "1\taaaaaa\n2\tbbbbbb\n\n[Showing lines 1-2; stopped at the 20-byte output cap. To continue, read with offset=3, byteOffset=14.]"; got != want {
		t.Errorf("byte cap:\n got %q\nwant %q", got, want)
	}
	if out.NextOffset != 3 || out.NextByteOffset != 14 {
		t.Errorf("byte cap structured = %+v", out)
	}
	// Without numbers the cap counts the same way: 13 bytes fit exactly.
	plain, _ := rdSet(t, Options{Read: ReadOptions{MaxBytes: 13, NoLineNumbers: true}})
	mustWriteTo(t, plain, "/wide", "aaaaaa\nbbbbbb\ncccccc\n")
	if out, _ := rdText(t, plain, rdArgs("/wide")); out.Content != "aaaaaa\nbbbbbb" || out.NextByteOffset != 14 {
		t.Errorf("byte cap without numbers = %+v", out)
	}
	// The cap applies to the first line too: it is cut where the cap
	// falls, and the next read goes on inside it.
	mustWrite(t, f, "/one", strings.Repeat("x", 30)+"\nnext\n")
	out, r = rdText(t, s, rdArgs("/one"))
	if out.Content != "1\t"+strings.Repeat("x", 18) || !out.Truncated || out.NextOffset != 1 || out.NextByteOffset != 18 || out.NextLineOffset != 18 {
		t.Errorf("oversize first line = %+v", out)
	}
	if want := "\n\n[Showing line 1; line 1 continues past the 20-byte output cap. To continue, read with offset=1, byteOffset=18, lineOffset=18.]"; !strings.HasSuffix(text(r), want) {
		t.Errorf("oversize first line text %q, want suffix %q", text(r), want)
	}
	three, _ := rdSet(t, Options{Read: ReadOptions{MaxBytes: 3, NoLineNumbers: true}})
	mustWriteTo(t, three, "/abc", "abcdef\n")
	out, _ = rdText(t, three, rdArgs("/abc"))
	if out.Content != "abc" || !out.Truncated || out.NextByteOffset != 3 || out.NextLineOffset != 3 {
		t.Errorf("MaxBytes 3 over \"abcdef\\n\" = %+v", out)
	}
	out, _ = rdText(t, three, rdArgs("/abc", "offset", 1, "byteOffset", 3, "lineOffset", 3))
	if out.Content != "def" || out.Truncated {
		t.Errorf("the rest of the line = %+v", out)
	}
}

func TestReadErrors(t *testing.T) {
	s, f := rdSet(t, Options{})
	mustWrite(t, f, "/two.txt", "one\ntwo\n")
	mustWrite(t, f, "/two-open.txt", "one\ntwo")
	mustWrite(t, f, "/empty.txt", "")
	if err := f.MkdirAll(bg, "/dir/sub", 0); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ args, msg string }{
		{rdArgs("/nope.txt"), "File not found: /nope.txt"},
		{rdArgs("/dir"), "/dir is a directory, not a file; use ls to list it."},
		{rdArgs("/dir", "offset", 2, "byteOffset", 5), "/dir is a directory, not a file; use ls to list it."},
		{rdArgs("/two.txt/x"), "File not found: /two.txt/x"},
		{rdArgs("/two.txt", "offset", 3), "Offset 3 is beyond end of file (2 line(s))"},
		{rdArgs("/two.txt", "offset", 9), "Offset 9 is beyond end of file (2 line(s))"},
		{rdArgs("/two-open.txt", "offset", 3), "Offset 3 is beyond end of file (2 line(s))"},
		{rdArgs("/two-open.txt", "offset", 9), "Offset 9 is beyond end of file (2 line(s))"},
		{rdArgs("/empty.txt", "offset", 2), "Offset 2 is beyond end of file (0 line(s))"},
		{rdArgs("/two.txt", "offset", 2, "byteOffset", 8), "Byte continuation 8 is beyond end of file"},
		{rdArgs("/two.txt", "offset", 2, "byteOffset", 100), "Byte continuation 100 is beyond end of file"},
		{rdArgs("/two.txt", "byteOffset", 4), "offset is required when byteOffset is greater than zero"},
		{rdArgs("/two.txt", "lineOffset", 1), "offset is required when lineOffset is greater than zero"},
		{rdArgs("/two.txt", "offset", 1, "lineOffset", 4), "lineOffset 4 is beyond the end of line 1 (3 bytes)"},
		{rdArgs("/two-open.txt", "offset", 2, "lineOffset", 4), "lineOffset 4 is beyond the end of line 2 (3 bytes)"},
		{rdArgs("/a/../../x"), "Invalid path (escapes root): /a/../../x"},
		{`{}`, "invalid arguments for read: path is required"},
		{rdArgs(""), "invalid arguments for read: path is required"},
		{rdArgs("/two.txt", "offset", 0), "invalid arguments for read: offset must be at least 1, got 0"},
		{rdArgs("/two.txt", "limit", 0), "invalid arguments for read: limit must be at least 1, got 0"},
		{rdArgs("/two.txt", "byteOffset", -1), "invalid arguments for read: byteOffset must be at least 0, got -1"},
		{rdArgs("/two.txt", "lineOffset", -2), "invalid arguments for read: lineOffset must be at least 0, got -2"},
		{`{"path":"/two.txt","bogus":1}`, `invalid arguments for read: unknown field "bogus"`},
	} {
		fails(t, s, "read", c.args, c.msg)
	}
	// byteOffset 0 is the start, with or without offset.
	if _, r := rdText(t, s, rdArgs("/two.txt", "byteOffset", 0)); text(r) != "1\tone\n2\ttwo" {
		t.Errorf("byteOffset 0 = %q", text(r))
	}
	// lineOffset at the very end of a line is allowed: the rest is empty.
	if out, r := rdText(t, s, rdArgs("/two.txt", "offset", 1, "lineOffset", 3)); text(r) != "1\t\n2\ttwo" || out.LineOffset != 3 {
		t.Errorf("lineOffset at end of line = %q %+v", text(r), out)
	}
}

func TestReadEmptyCRLFAndOpenEnd(t *testing.T) {
	s, f := rdSet(t, Options{})
	mustWrite(t, f, "/empty.txt", "")
	out, r := rdText(t, s, rdArgs("/empty.txt"))
	if text(r) != "[/empty.txt is empty]" || out.Content != "" || out.Lines != 0 || out.StartLine != 1 ||
		out.TotalLines == nil || *out.TotalLines != 0 || out.Size != 0 || out.Hash != sha(nil) || out.Truncated {
		t.Errorf("empty = %q %+v", text(r), out)
	}

	mustWrite(t, f, "/crlf.txt", "a\r\nb\rc\r\n\r\nlast\r")
	out, r = rdText(t, s, rdArgs("/crlf.txt"))
	if got, want := text(r), "1\ta\n2\tb\rc\n3\t\n4\tlast\r"; got != want {
		t.Errorf("crlf = %q, want %q", got, want)
	}
	if *out.TotalLines != 4 {
		t.Errorf("crlf total = %d", *out.TotalLines)
	}
	// Continuation offsets count the "\r\n".
	out, _ = rdText(t, s, rdArgs("/crlf.txt", "limit", 1))
	if out.NextByteOffset != 3 {
		t.Errorf("crlf next byte = %d", out.NextByteOffset)
	}

	// A "\r\n" split by the boundary between two windows of the file.
	var b strings.Builder
	for b.Len() < 262100 {
		b.WriteString(strings.Repeat("y", 98) + "\r\n")
	}
	b.WriteString(strings.Repeat("z", 43) + "\r\ntail\r\n")
	if b.Len() != 262100+45+6 || b.String()[vfs.ChunkSize-1] != '\r' {
		t.Fatal("bad fixture")
	}
	big, _ := rdSet(t, Options{Read: ReadOptions{MaxLines: 5000, MaxBytes: 1 << 20, NoLineNumbers: true}})
	mustWriteTo(t, big, "/split.txt", b.String())
	out, _ = rdText(t, big, rdArgs("/split.txt"))
	if want := strings.ReplaceAll(strings.TrimSuffix(b.String(), "\r\n"), "\r\n", "\n"); out.Content != want || *out.TotalLines != 2623 {
		t.Errorf("window-split CRLF: %d lines, content equal %v", out.Lines, out.Content == want)
	}

	mustWrite(t, f, "/open.txt", "one\ntwo")
	out, r = rdText(t, s, rdArgs("/open.txt"))
	if text(r) != "1\tone\n2\ttwo" || *out.TotalLines != 2 {
		t.Errorf("no final newline = %q %+v", text(r), out)
	}
	mustWrite(t, f, "/blank-end.txt", "one\n\n")
	out, _ = rdText(t, s, rdArgs("/blank-end.txt"))
	if out.Content != "1\tone\n2\t" || *out.TotalLines != 2 {
		t.Errorf("blank last line = %+v", out)
	}
}

// stripNumbers removes the "N\t" prefixes, checking they count from first.
func stripNumbers(t testing.TB, content string, first int64) []string {
	t.Helper()
	lines := strings.Split(content, "\n")
	for i, l := range lines {
		want := fmt.Sprintf("%d\t", first+int64(i))
		if !strings.HasPrefix(l, want) {
			t.Fatalf("line %d = %q, want prefix %q", i, l, want)
		}
		lines[i] = l[len(want):]
	}
	return lines
}

func TestReadContinuationRoundTrip(t *testing.T) {
	s, f := rdSet(t, Options{})
	var file strings.Builder
	for i := 1; i <= 10000; i++ {
		fmt.Fprintf(&file, "line %d %s\n", i, strings.Repeat("é-x", i%17))
	}
	mustWrite(t, f, "/big.txt", file.String())

	var got []string
	args := rdArgs("/big.txt")
	calls := 0
	for {
		calls++
		out, r := rdText(t, s, args)
		if out.Hash != sha([]byte(file.String())) || out.Size != int64(file.Len()) {
			t.Fatalf("page %d: hash/size = %s/%d", calls, out.Hash, out.Size)
		}
		got = append(got, stripNumbers(t, out.Content, out.StartLine)...)
		if !out.Truncated {
			if out.TotalLines == nil || *out.TotalLines != 10000 {
				t.Fatalf("last page totalLines = %v", out.TotalLines)
			}
			break
		}
		if !strings.HasSuffix(text(r), fmt.Sprintf("To continue, read with offset=%d, byteOffset=%d.]", out.NextOffset, out.NextByteOffset)) {
			t.Fatalf("footer does not say how to continue: %q", text(r)[len(out.Content):])
		}
		if out.TotalLines != nil {
			t.Fatalf("truncated page has totalLines")
		}
		args = rdArgs("/big.txt", "offset", out.NextOffset, "byteOffset", out.NextByteOffset)
	}
	if joined := strings.Join(got, "\n") + "\n"; joined != file.String() {
		t.Fatalf("pages do not reassemble the file (%d vs %d bytes)", len(joined), file.Len())
	}
	if calls < 5 {
		t.Errorf("only %d calls: the caps did not cut", calls)
	}
	// Following nextOffset alone (rescanning) gives the same pages.
	out, _ := rdText(t, s, rdArgs("/big.txt", "offset", 5000, "limit", 2))
	out2, _ := rdText(t, s, rdArgs("/big.txt", "offset", 5000, "byteOffset", strings.Index(file.String(), "line 5000 "), "limit", 2))
	if out.Content != out2.Content || out.NextByteOffset != out2.NextByteOffset {
		t.Errorf("rescan and byte continuation differ: %+v vs %+v", out, out2)
	}
}

var markerRE = regexp.MustCompile(` … \[line truncated: ([0-9,]+|over [0-9,]+) bytes; continue with offset=(\d+), byteOffset=(\d+), lineOffset=(\d+)\]$`)

func TestReadLongLineContinuation(t *testing.T) {
	s, f := rdSet(t, Options{})
	// A 1 MB single line mixing 1-, 2-, 3- and 4-byte characters, then a
	// short line.
	var b strings.Builder
	for b.Len() < 1<<20 {
		b.WriteString("abc é € 😀 ")
	}
	long := b.String()
	mustWrite(t, f, "/min.js", long+"\nshort\n")

	out, r := rdText(t, s, rdArgs("/min.js"))
	lines := strings.Split(out.Content, "\n")
	if len(lines) != 2 || lines[1] != "2\tshort" || out.Truncated || *out.TotalLines != 2 || out.TruncatedLines != 1 {
		t.Fatalf("first read = %+v", out)
	}
	first := strings.TrimPrefix(lines[0], "1\t")
	m := markerRE.FindStringSubmatch(first)
	if m == nil {
		t.Fatalf("no marker in %q", first[max(0, len(first)-200):])
	}
	if m[1] != commas(int64(len(long))) {
		t.Errorf("marker length %s, want %s", m[1], commas(int64(len(long))))
	}
	shown := first[:len(first)-len(m[0])]
	if len(shown) > DefaultReadMaxLineBytes || len(shown) < DefaultReadMaxLineBytes-3 || !strings.HasPrefix(long, shown) {
		t.Fatalf("cut part is %d bytes", len(shown))
	}
	if m[2] != "1" || m[3] != fmt.Sprint(len(shown)) || m[4] != fmt.Sprint(len(shown)) {
		t.Errorf("marker continuation = %v", m[2:])
	}
	_ = r

	// Follow the continuation through the line.
	got := shown
	args := rdArgs("/min.js", "offset", 1, "byteOffset", len(shown), "lineOffset", len(shown))
	for calls := 0; ; calls++ {
		if calls > 100 {
			t.Fatal("too many calls")
		}
		out, r := rdText(t, s, args)
		if out.StartLine != 1 {
			t.Fatalf("startLine %d", out.StartLine)
		}
		parts := strings.SplitN(out.Content, "\n", 2)
		got += strings.TrimPrefix(parts[0], "1\t")
		if !out.Truncated {
			if len(parts) != 2 || parts[1] != "2\tshort" {
				t.Fatalf("after the long line: %q", parts[1:])
			}
			break
		}
		if len(out.Content) > DefaultReadMaxBytes || !utf8Valid(out.Content) {
			t.Fatalf("segment of %d bytes, valid UTF-8 %v", len(out.Content), utf8Valid(out.Content))
		}
		if out.NextOffset != 1 || out.NextLineOffset != int64(len(got)) || out.NextByteOffset != int64(len(got)) {
			t.Fatalf("segment continuation = %+v (have %d bytes)", out, len(got))
		}
		if !strings.HasSuffix(text(r), fmt.Sprintf("; line 1 continues past the %d-byte output cap. To continue, read with offset=1, byteOffset=%d, lineOffset=%d.]", DefaultReadMaxBytes, len(got), len(got))) {
			t.Fatalf("segment footer = %q", text(r)[len(out.Content):])
		}
		args = rdArgs("/min.js", "offset", 1, "byteOffset", out.NextByteOffset, "lineOffset", out.NextLineOffset)
	}
	if got != long {
		t.Fatalf("reassembled line differs (%d vs %d bytes)", len(got), len(long))
	}

	// offset+lineOffset without byteOffset finds the same place.
	a, _ := rdText(t, s, rdArgs("/min.js", "offset", 1, "lineOffset", 5000, "limit", 1))
	b2, _ := rdText(t, s, rdArgs("/min.js", "offset", 1, "byteOffset", 5000, "lineOffset", 5000, "limit", 1))
	if a.Content != b2.Content || a.NextByteOffset != b2.NextByteOffset || a.LineOffset != 5000 {
		t.Errorf("lineOffset with and without byteOffset differ")
	}
}

func utf8Valid(s string) bool { return strings.ToValidUTF8(s, "\uFFFD") == s }

func TestReadUnicodeCut(t *testing.T) {
	s, f := rdSet(t, Options{Read: ReadOptions{MaxLineBytes: 10, MaxBytes: 12, NoLineNumbers: true}})
	// "a" then 2-byte letters: byte 10 falls inside the fifth "é".
	mustWrite(t, f, "/u.txt", "aéééééé\n")
	out, _ := rdText(t, s, rdArgs("/u.txt"))
	if want := "aéééé … [line truncated: 13 bytes; continue with offset=1, byteOffset=9, lineOffset=9]"; out.Content != want {
		t.Errorf("cut = %q, want %q", out.Content, want)
	}
	out, _ = rdText(t, s, rdArgs("/u.txt", "offset", 1, "byteOffset", 9, "lineOffset", 9))
	if out.Content != "éé" || out.Truncated {
		t.Errorf("rest = %+v", out)
	}
	// 4-byte characters against the 12-byte segment cap.
	mustWrite(t, f, "/e.txt", "x😀😀😀😀")
	out, _ = rdText(t, s, rdArgs("/e.txt", "offset", 1, "lineOffset", 1))
	if out.Content != "😀😀😀" || out.NextLineOffset != 13 || out.NextByteOffset != 13 {
		t.Errorf("segment = %+v", out)
	}
	out, _ = rdText(t, s, rdArgs("/e.txt", "offset", 1, "lineOffset", 13))
	if out.Content != "😀" || out.Truncated {
		t.Errorf("last segment = %+v", out)
	}
}

func TestReadVeryLongLineStopsScanning(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 9 MiB")
	}
	s, f := rdSet(t, Options{})
	data := bytes.Repeat([]byte("0123456789abcdef"), (maxLineSkip+(1<<20))/16)
	if err := f.WriteFile(bg, "/huge.txt", data, nil); err != nil {
		t.Fatal(err)
	}
	out, r := rdText(t, s, rdArgs("/huge.txt"))
	if !out.Truncated || out.NextOffset != 1 || out.NextLineOffset != DefaultReadMaxLineBytes ||
		out.NextByteOffset != DefaultReadMaxLineBytes || out.Hash != sha(data) || out.Size != int64(len(data)) {
		t.Fatalf("huge line = %+v", func() readText { o := out; o.Content = ""; return o }())
	}
	m := markerRE.FindStringSubmatch(out.Content)
	if m == nil || !strings.HasPrefix(m[1], "over ") {
		t.Fatalf("marker = %v", m)
	}
	if !strings.HasSuffix(text(r), fmt.Sprintf("[Showing line 1; line 1 goes on past the %d bytes scanned for its end. To continue, read with offset=1, byteOffset=2000, lineOffset=2000.]", maxLineSkip)) {
		t.Errorf("footer = %q", text(r)[len(out.Content):])
	}
}

// countingFS counts the bytes read through its files' ReadAt.
type countingFS struct {
	fstest.MapFS
	n *atomic.Int64
}

type countingFile struct {
	fs.File
	n *atomic.Int64
}

func (c countingFS) Open(name string) (fs.File, error) {
	f, err := c.MapFS.Open(name)
	if err != nil {
		return nil, err
	}
	return countingFile{f, c.n}, nil
}

func (c countingFile) ReadAt(p []byte, off int64) (int, error) {
	n, err := c.File.(io.ReaderAt).ReadAt(p, off)
	c.n.Add(int64(n))
	return n, err
}

func (c countingFile) Read(p []byte) (int, error) {
	n, err := c.File.Read(p)
	c.n.Add(int64(n))
	return n, err
}

func TestReadReadsWhatItShows(t *testing.T) {
	s, f := rdSet(t, Options{})
	// 20 MiB of 100-byte lines "00000000 xxx…x\n".
	data := bytes.Repeat([]byte("00000000 "+strings.Repeat("x", 90)+"\n"), 20<<20/100)
	for i := 0; i*100 < len(data); i++ {
		d := strconv.AppendInt(nil, int64(i), 10)
		copy(data[i*100+8-len(d):], d)
	}
	var n atomic.Int64
	if err := f.Mount(bg, "/mnt", countingFS{fstest.MapFS{"huge.log": {Data: data}}, &n}); err != nil {
		t.Fatal(err)
	}
	out, _ := rdText(t, s, rdArgs("/mnt/huge.log"))
	if out.Lines == 0 || !out.Truncated || out.Hash != "" || out.Size != int64(len(data)) {
		t.Fatalf("first page = %d lines %+v", out.Lines, out.Truncated)
	}
	if got := n.Swap(0); got > 1<<20 {
		t.Errorf("first page of a 20 MiB file read %d bytes", got)
	}
	next := rdArgs("/mnt/huge.log", "offset", out.NextOffset, "byteOffset", out.NextByteOffset)
	out2, _ := rdText(t, s, next)
	if got := n.Swap(0); got > 1<<20 {
		t.Errorf("a byte continuation read %d bytes", got)
	}
	if want := fmt.Sprintf("%d\t%08d ", out.NextOffset, out.NextOffset-1); !strings.HasPrefix(out2.Content, want) {
		t.Errorf("continuation starts %q, want %q", out2.Content[:20], want)
	}
}

// tinyPNG and tinyGIF are 1x1 images.
func tinyPNG(t testing.TB) []byte {
	var b bytes.Buffer
	img := image.NewRGBA(image.Rect(0, 0, 1, 1))
	img.Set(0, 0, color.RGBA{255, 0, 0, 255})
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func tinyGIF(t testing.TB) []byte {
	var b bytes.Buffer
	img := image.NewPaletted(image.Rect(0, 0, 1, 1), color.Palette{color.Black, color.White})
	if err := gif.Encode(&b, img, nil); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestReadMedia(t *testing.T) {
	s, f := rdSet(t, Options{})
	pngData, gifData := tinyPNG(t), tinyGIF(t)
	pdf := []byte("%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n")
	webp := append([]byte("RIFF\x1a\x00\x00\x00WEBPVP8L\x0d\x00\x00\x00\x2f\x00\x00\x00\x10\x07\x10\x11\x11\x88\x88\xfe\x07\x00"), 0)
	for _, c := range []struct {
		path string
		data []byte
		ct   ContentType
		mime string
	}{
		{"/img/a.png", pngData, ImageContent, "image/png"}, // by extension
		{"/img/a.GIF", gifData, ImageContent, "image/gif"}, // by extension, any case
		{"/img/doc.pdf", pdf, DocumentContent, "application/pdf"},
		{"/img/png-data", pngData, ImageContent, "image/png"}, // by sniff
		{"/img/anim.bin", gifData, ImageContent, "image/gif"},
		{"/img/pic.dat", webp, ImageContent, "image/webp"},
		{"/img/paper", pdf, DocumentContent, "application/pdf"},
		{"/img/wrong.jpg", pngData, ImageContent, "image/png"}, // the content wins
	} {
		if err := f.WriteFile(bg, c.path, c.data, &vfs.WriteOptions{MkdirAll: true}); err != nil {
			t.Fatal(err)
		}
		r := ok(t, s, "read", rdArgs(c.path))
		if len(r.Content) != 2 {
			t.Fatalf("%s: %d content parts", c.path, len(r.Content))
		}
		if got, want := r.Content[0].Text, fmt.Sprintf("Read %s (%s, %d bytes).", c.path, c.mime, len(c.data)); got != want {
			t.Errorf("%s: text %q, want %q", c.path, got, want)
		}
		if p := r.Content[1]; p.Type != c.ct || p.MIME != c.mime || !bytes.Equal(p.Data, c.data) {
			t.Errorf("%s: media part %s %s %d bytes", c.path, p.Type, p.MIME, len(p.Data))
		}
		out := r.Structured.(readFile)
		if out.Size != int64(len(c.data)) || out.MIME != c.mime || out.Hash != sha(c.data) || out.Unsupported {
			t.Errorf("%s: structured %+v", c.path, out)
		}
	}
	// A PDF may have junk before its header; sniffing alone wants it first.
	junk := append([]byte("\xef\xbb\xbf\n"), pdf...)
	if err := f.WriteFile(bg, "/img/junk.pdf", junk, nil); err != nil {
		t.Fatal(err)
	}
	if r := ok(t, s, "read", rdArgs("/img/junk.pdf")); len(r.Content) != 2 || r.Content[1].MIME != "application/pdf" {
		t.Errorf("PDF with leading junk = %q", text(r))
	}
	// An image name holding text reads as text.
	mustWrite(t, f, "/img/notes.png", "just text\n")
	if _, r := rdText(t, s, rdArgs("/img/notes.png")); text(r) != "1\tjust text" {
		t.Errorf("text named .png = %q", text(r))
	}
	// SVG is text, by extension and by sniff.
	svg := "<?xml version=\"1.0\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\"/>\n"
	mustWrite(t, f, "/img/i.svg", svg)
	mustWrite(t, f, "/img/svgdata", svg)
	for _, p := range []string{"/img/i.svg", "/img/svgdata"} {
		if out, _ := rdText(t, s, rdArgs(p)); out.Lines != 2 {
			t.Errorf("%s: %+v", p, out)
		}
	}
	// A byte continuation into a media file reads it as text.
	if _, r := rdText(t, s, rdArgs("/img/doc.pdf", "offset", 2, "byteOffset", 9)); !strings.HasPrefix(text(r), "2\t1 0 obj") {
		t.Errorf("continuation into a PDF = %q", text(r))
	}
}

func TestReadMediaLimits(t *testing.T) {
	s, f := rdSet(t, Options{Read: ReadOptions{MaxMediaBytes: 100}})
	big := append(tinyPNG(t), make([]byte, 200)...)
	if err := f.WriteFile(bg, "/big.png", big, nil); err != nil {
		t.Fatal(err)
	}
	if err := f.WriteFile(bg, "/big-sniffed", big, nil); err != nil {
		t.Fatal(err)
	}
	mustWrite(t, f, "/empty.png", "")
	mustWrite(t, f, "/empty.pdf", "")
	if err := f.MkdirAll(bg, "/dir.png", 0); err != nil {
		t.Fatal(err)
	}
	n := len(big)
	fails(t, s, "read", rdArgs("/big.png"), fmt.Sprintf("Read /big.png (image/png, %d bytes), but it exceeds the 100-byte inline model output limit.", n))
	fails(t, s, "read", rdArgs("/big-sniffed"), fmt.Sprintf("Read /big-sniffed (image/png, %d bytes), but it exceeds the 100-byte inline model output limit.", n))
	fails(t, s, "read", rdArgs("/empty.png"), "Cannot attach empty file: /empty.png")
	fails(t, s, "read", rdArgs("/empty.pdf"), "Cannot attach empty file: /empty.pdf")
	fails(t, s, "read", rdArgs("/bgi.png"), "File not found: /bgi.png Did you mean: /big.png?")
	fails(t, s, "read", rdArgs("/dir.png"), "/dir.png is a directory, not a file; use ls to list it.")

	// The default cap is 3.5 MiB.
	d, _ := rdSet(t, Options{})
	if d.opts.Read.MaxMediaBytes != 3670016 {
		t.Errorf("default MaxMediaBytes = %d", d.opts.Read.MaxMediaBytes)
	}
}

func TestReadBinary(t *testing.T) {
	s, f := rdSet(t, Options{})
	write := func(p string, b []byte) {
		t.Helper()
		if err := f.WriteFile(bg, p, b, nil); err != nil {
			t.Fatal(err)
		}
	}
	write("/x.bin", []byte("ab\x00cd"))
	r := ok(t, s, "read", rdArgs("/x.bin"))
	if got, want := text(r), "/x.bin is a binary file (application/octet-stream, 5 bytes); read shows only text, images and PDFs. Use other means to inspect it, such as a tool that understands its format."; got != want {
		t.Errorf("binary text:\n got %q\nwant %q", got, want)
	}
	m := structured(t, r)
	if fmt.Sprint(m) != fmt.Sprint(map[string]any{"path": "/x.bin", "kind": "binary", "size": 5.0, "mime": "application/octet-stream", "unsupported": true}) {
		t.Errorf("binary structured = %v", m)
	}
	// A known type is named; a text extension does not make NULs text.
	write("/a.zip", []byte("PK\x03\x04\x14\x00\x00\x00\x08\x00"))
	write("/nul.txt", []byte("text\x00more"))
	if out := ok(t, s, "read", rdArgs("/a.zip")).Structured.(readFile); out.MIME != "application/zip" || !out.Unsupported {
		t.Errorf("zip = %+v", out)
	}
	if out := ok(t, s, "read", rdArgs("/nul.txt")).Structured.(readFile); out.Kind != "binary" {
		t.Errorf("NUL in .txt = %+v", out)
	}
	// Mostly invalid UTF-8 without a NUL is binary; a few Latin-1 bytes are not.
	noise := make([]byte, 4096)
	for i := range noise {
		noise[i] = byte(0x80 + i%0x7f)
	}
	write("/noise", noise)
	if out := ok(t, s, "read", rdArgs("/noise")).Structured.(readFile); out.Kind != "binary" {
		t.Errorf("noise = %+v", out)
	}
	write("/latin1.txt", []byte("caf\xe9 cr\xe8me br\xfbl\xe9e, na\xefve fa\xe7ade\n"))
	if out, _ := rdText(t, s, rdArgs("/latin1.txt")); out.Lines != 1 {
		t.Errorf("latin-1 = %+v", out)
	}
	// A UTF-8 character cut by the 8 KiB sniff window is not held against the file.
	write("/cut.txt", []byte(strings.Repeat("é", binarySniffBytes)))
	if out, _ := rdText(t, s, rdArgs("/cut.txt")); out.Lines != 1 {
		t.Errorf("long UTF-8 = %+v", out.Lines)
	}
	// A large binary file reports its size without being read whole.
	big := make([]byte, 3*vfs.ChunkSize)
	write("/big.bin", big)
	if out := ok(t, s, "read", rdArgs("/big.bin")).Structured.(readFile); out.Size != int64(len(big)) {
		t.Errorf("big binary = %+v", out)
	}
}

func TestReadSimilarPaths(t *testing.T) {
	s, f := rdSet(t, Options{})
	for _, p := range []string{"/src/main.go", "/src/util.go", "/src/handler.go", "/lib/main.go", "/docs/README.md", "/node_modules/x/main.go"} {
		mustWrite(t, f, p, "x\n")
	}
	for _, c := range []struct{ path, msg string }{
		{"/src/mian.go", "File not found: /src/mian.go Did you mean: /src/main.go?"},
		{"/main.go", "File not found: /main.go Did you mean: /lib/main.go, /src/main.go?"},
		{"/scr/util.go", "File not found: /scr/util.go Did you mean: /src/util.go?"},
		{"/docs/readme.md", "File not found: /docs/readme.md Did you mean: /docs/README.md?"},
		{"/src/handlers.go", "File not found: /src/handlers.go Did you mean: /src/handler.go?"},
		{"/src/main.py", "File not found: /src/main.py Did you mean: /src/main.go, /lib/main.go?"},
		{"/zzz/qqq.txt", "File not found: /zzz/qqq.txt"},
		{"/src/main.go/x", "File not found: /src/main.go/x"},
	} {
		fails(t, s, "read", rdArgs(c.path), c.msg)
	}
	// At most three suggestions.
	for _, p := range []string{"/m/a1.txt", "/m/a2.txt", "/m/a3.txt", "/m/a4.txt"} {
		mustWrite(t, f, p, "")
	}
	fails(t, s, "read", rdArgs("/m/a.txt"), "File not found: /m/a.txt Did you mean: /m/a1.txt, /m/a2.txt, /m/a3.txt?")
}

func TestReadRelativePaths(t *testing.T) {
	s, f := rdSet(t, Options{Root: "/work/proj"})
	mustWrite(t, f, "/work/proj/src/a.go", "package a\n")
	mustWrite(t, f, "/work/top.txt", "top\n")
	for _, c := range []struct{ arg, path string }{
		{"src/a.go", "/work/proj/src/a.go"},
		{"./src/../src/a.go", "/work/proj/src/a.go"},
		{"../top.txt", "/work/top.txt"},
		{"/work/top.txt", "/work/top.txt"},
	} {
		out, _ := rdText(t, s, rdArgs(c.arg))
		if out.Path != c.path || out.Lines != 1 {
			t.Errorf("%s: %+v", c.arg, out)
		}
	}
	fails(t, s, "read", rdArgs("src/b.go"), "File not found: /work/proj/src/b.go Did you mean: /work/proj/src/a.go?")
	fails(t, s, "read", rdArgs("src"), "/work/proj/src is a directory, not a file; use ls to list it.")
}

func TestReadToolContract(t *testing.T) {
	s, _ := rdSet(t, Options{})
	tl := s.Tool("read")
	if !tl.Annotations.ReadOnly || !tl.Annotations.Idempotent || tl.Annotations.Destructive {
		t.Errorf("annotations = %+v", tl.Annotations)
	}
	var in struct {
		Properties           map[string]map[string]any
		Required             []string
		AdditionalProperties bool
	}
	if err := json.Unmarshal(tl.InputSchema, &in); err != nil {
		t.Fatal(err)
	}
	// path or paths: neither is required by the schema; the tool says
	// when both or neither are given.
	if len(in.Properties) != 7 || in.Properties["offset"]["minimum"] != 1.0 || in.Properties["lineOffset"]["minimum"] != 0.0 ||
		in.Properties["tail"]["minimum"] != 1.0 || len(in.Required) != 0 || in.AdditionalProperties {
		t.Errorf("input schema = %s", tl.InputSchema)
	}
	// Every structured field is in the output schema.
	var outSchema struct{ Properties map[string]any }
	if err := json.Unmarshal(tl.OutputSchema, &outSchema); err != nil {
		t.Fatal(err)
	}
	for _, v := range []any{readText{TotalLines: new(int64)}, readFile{}} {
		b, _ := json.Marshal(v)
		var m map[string]any
		json.Unmarshal(b, &m)
		for k := range m {
			if outSchema.Properties[k] == nil {
				t.Errorf("field %s missing from the output schema", k)
			}
		}
	}
	for _, k := range []string{"nextOffset", "nextByteOffset", "nextLineOffset", "hash", "lineOffset", "truncatedLines", "unsupported", "mime"} {
		if outSchema.Properties[k] == nil {
			t.Errorf("field %s missing from the output schema", k)
		}
	}
}

// BenchmarkRead compares reading a 200-line file through the tool with
// vfs.ReadFile alone, in a workspace database file.
func BenchmarkRead(b *testing.B) {
	s, f := newSet(b, Options{})
	var file strings.Builder
	for i := 1; i <= 200; i++ {
		fmt.Fprintf(&file, "\tif err := step%d(ctx, x); err != nil { return err } // line %d\n", i, i)
	}
	mustWrite(b, f, "/src/file.go", file.String())
	args := json.RawMessage(`{"path":"/src/file.go"}`)
	b.Run("tool", func(b *testing.B) {
		b.SetBytes(int64(file.Len()))
		for b.Loop() {
			r, err := s.Call(bg, "read", args)
			if err != nil || r.IsError {
				b.Fatal(err, text(r))
			}
		}
	})
	b.Run("vfs.ReadFile", func(b *testing.B) {
		b.SetBytes(int64(file.Len()))
		for b.Loop() {
			if _, err := f.ReadFile(bg, "/src/file.go"); err != nil {
				b.Fatal(err)
			}
		}
	})
	// Both interleaved, so a busy machine slows them alike: ratio is the
	// tool's time over ReadFile's.
	b.Run("ratio", func(b *testing.B) {
		var tool, direct time.Duration
		for b.Loop() {
			t0 := time.Now()
			if r, err := s.Call(bg, "read", args); err != nil || r.IsError {
				b.Fatal(err)
			}
			t1 := time.Now()
			if _, err := f.ReadFile(bg, "/src/file.go"); err != nil {
				b.Fatal(err)
			}
			tool, direct = tool+t1.Sub(t0), direct+time.Since(t1)
		}
		b.ReportMetric(float64(tool)/float64(direct), "ratio")
		b.ReportMetric(float64(tool.Nanoseconds())/float64(b.N), "tool-ns/op")
		b.ReportMetric(float64(direct.Nanoseconds())/float64(b.N), "readfile-ns/op")
	})
}
