package search

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"
)

// chunked returns a next function delivering data in pieces of the given
// sizes, the last piece taking the rest. Each chunk is a fresh copy, which
// the previous call's slice is overwritten with garbage, to catch a
// Scanner that keeps chunks it must not.
func chunked(data string, sizes ...int) func() ([]byte, error) {
	var prev []byte
	return func() ([]byte, error) {
		for i := range prev {
			prev[i] = '#'
		}
		if data == "" {
			return nil, io.EOF
		}
		n := len(data)
		if len(sizes) > 0 {
			n, sizes = min(sizes[0], n), sizes[1:]
		}
		prev = []byte(data[:n])
		data = data[n:]
		return prev, nil
	}
}

// everyChunked returns a next function delivering data in pieces of n
// bytes.
func everyChunked(data string, n int) func() ([]byte, error) {
	var sizes []int
	for range len(data)/n + 1 {
		sizes = append(sizes, n)
	}
	return chunked(data, sizes...)
}

func mustCompile(t testing.TB, o Options) *Matcher {
	t.Helper()
	m, err := Compile(o)
	if err != nil {
		t.Fatalf("Compile(%+v): %v", o, err)
	}
	return m
}

// scanAll returns all hits of m in the file next delivers.
func scanAll(t testing.TB, m *Matcher, next func() ([]byte, error)) ([]Hit, bool) {
	t.Helper()
	var hits []Hit
	n, binary, err := m.NewScanner().ScanFile(next, 0, func(h Hit) bool {
		hits = append(hits, h)
		return true
	})
	if err != nil {
		t.Fatal(err)
	}
	if n != len(hits) {
		t.Fatalf("ScanFile returned %d matches, emitted %d", n, len(hits))
	}
	return hits, binary
}

// dump formats hits for failure messages.
func dump(hits []Hit) string {
	var sb strings.Builder
	line := func(prefix string, l Line) {
		fmt.Fprintf(&sb, "\n\t%s%d %q", prefix, l.Num, l.Text)
		if l.IsMatch {
			sb.WriteString(" match")
		}
		if l.Truncated {
			sb.WriteString(" truncated")
		}
	}
	for _, h := range hits {
		for _, l := range h.Before {
			line("  -", l)
		}
		line("HIT", h.Line)
		for _, l := range h.After {
			line("  +", l)
		}
	}
	return sb.String()
}

// ln builds a Line.
func ln(num int, text string, isMatch bool) Line {
	return Line{Num: num, Text: text, IsMatch: isMatch}
}

func TestScanFile(t *testing.T) {
	tests := []struct {
		name    string
		opts    Options
		content string
		want    []Hit
	}{{
		name:    "literal",
		opts:    Options{Pattern: "foo"},
		content: "foo\nbar\nxfoox\nFOO\n",
		want:    []Hit{{Line: ln(1, "foo", true)}, {Line: ln(3, "xfoox", true)}},
	}, {
		name:    "literal with regex metacharacters",
		opts:    Options{Pattern: "a.b("},
		content: "axb(\na.b(c\n",
		want:    []Hit{{Line: ln(2, "a.b(c", true)}},
	}, {
		name:    "regex",
		opts:    Options{Pattern: `^func \w+\(`, Regex: true},
		content: "package x\nfunc A() {}\n  func B() {}\nfunc (r) C()\n",
		want:    []Hit{{Line: ln(2, "func A() {}", true)}},
	}, {
		name:    "regex without literal",
		opts:    Options{Pattern: `\d{3}`, Regex: true},
		content: "a1\nb12\nc123\nd\n4567",
		want:    []Hit{{Line: ln(3, "c123", true)}, {Line: ln(5, "4567", true)}},
	}, {
		name:    "regex classes do not cross lines",
		opts:    Options{Pattern: `a\s*b|c[^x]d`, Regex: true},
		content: "a\nb\nc\nd\na b\n",
		want:    []Hit{{Line: ln(5, "a b", true)}},
	}, {
		name:    "regex matching empty",
		opts:    Options{Pattern: `^$`, Regex: true},
		content: "a\n\nb\n\r\n",
		want:    []Hit{{Line: ln(2, "", true)}, {Line: ln(4, "", true)}},
	}, {
		name:    "ignore case ASCII",
		opts:    Options{Pattern: "Hello", IgnoreCase: true},
		content: "HELLO world\nhello\nhelo\nsay hElLo\n",
		want:    []Hit{{Line: ln(1, "HELLO world", true)}, {Line: ln(2, "hello", true)}, {Line: ln(4, "say hElLo", true)}},
	}, {
		name:    "ignore case ASCII folds ASCII only",
		opts:    Options{Pattern: "kelvin", IgnoreCase: true},
		content: "KELVIN\n\u212aelvin\n",
		want:    []Hit{{Line: ln(1, "KELVIN", true)}},
	}, {
		name:    "ignore case non-ASCII literal",
		opts:    Options{Pattern: "ÄRGER", IgnoreCase: true},
		content: "kein ärger\nÄrger\nARGER\nÄRGER!\n",
		want:    []Hit{{Line: ln(1, "kein ärger", true)}, {Line: ln(2, "Ärger", true)}, {Line: ln(4, "ÄRGER!", true)}},
	}, {
		name:    "case-sensitive non-ASCII literal",
		opts:    Options{Pattern: "ÄRGER"},
		content: "ärger\nÄRGER\n",
		want:    []Hit{{Line: ln(2, "ÄRGER", true)}},
	}, {
		name:    "ignore case regex",
		opts:    Options{Pattern: `todo:\s+\w+`, Regex: true, IgnoreCase: true},
		content: "// TODO: fix\n// todo:\n// ToDo:  later\n",
		want:    []Hit{{Line: ln(1, "// TODO: fix", true)}, {Line: ln(3, "// ToDo:  later", true)}},
	}, {
		name:    "ignore case regex with Unicode folding",
		opts:    Options{Pattern: `ke.vin`, Regex: true, IgnoreCase: true},
		content: "\u212aelvin\nKELVIN\nkevin\n",
		want:    []Hit{{Line: ln(1, "\u212aelvin", true)}, {Line: ln(2, "KELVIN", true)}},
	}, {
		name:    "CRLF",
		opts:    Options{Pattern: `end$`, Regex: true},
		content: "the end\r\nend of it\r\nend\r\n",
		want:    []Hit{{Line: ln(1, "the end", true)}, {Line: ln(3, "end", true)}},
	}, {
		name:    "CRLF literal with carriage return",
		opts:    Options{Pattern: "a\r"},
		content: "a\r\na\rb\n",
		want:    []Hit{{Line: ln(2, "a\rb", true)}},
	}, {
		name:    "begin and end of text anchors are per line",
		opts:    Options{Pattern: `\Ax.*y\z`, Regex: true},
		content: "xay\nxy z\nxby\r\n",
		want:    []Hit{{Line: ln(1, "xay", true)}, {Line: ln(3, "xby", true)}},
	}, {
		name:    "final line without newline",
		opts:    Options{Pattern: "last"},
		content: "first\nthe last",
		want:    []Hit{{Line: ln(2, "the last", true)}},
	}, {
		name:    "empty file",
		opts:    Options{Pattern: "x"},
		content: "",
	}, {
		name:    "context",
		opts:    Options{Pattern: "m", Context: 2},
		content: "1\n2\n3\nm4\n5\n6\n7\n",
		want: []Hit{{
			Line:   ln(4, "m4", true),
			Before: []Line{ln(2, "2", false), ln(3, "3", false)},
			After:  []Line{ln(5, "5", false), ln(6, "6", false)},
		}},
	}, {
		name:    "context clipped at file edges",
		opts:    Options{Pattern: "m", Context: 3},
		content: "1\nm2\n3\nm4",
		want: []Hit{{
			Line:   ln(2, "m2", true),
			Before: []Line{ln(1, "1", false)},
			After:  []Line{ln(3, "3", false), ln(4, "m4", true)},
		}, {
			Line:   ln(4, "m4", true),
			Before: []Line{ln(1, "1", false), ln(2, "m2", true), ln(3, "3", false)},
		}},
	}, {
		name:    "context with adjacent matches",
		opts:    Options{Pattern: "m", Context: 1},
		content: "a\nm1\nm2\nb\n",
		want: []Hit{{
			Line:   ln(2, "m1", true),
			Before: []Line{ln(1, "a", false)},
			After:  []Line{ln(3, "m2", true)},
		}, {
			Line:   ln(3, "m2", true),
			Before: []Line{ln(2, "m1", true)},
			After:  []Line{ln(4, "b", false)},
		}},
	}, {
		name:    "binary",
		opts:    Options{Pattern: "a"},
		content: "a\x00a\n",
	}, {
		name:    "long line truncated",
		opts:    Options{Pattern: "needle", MaxLineBytes: 8},
		content: "short needle\nneedle\n",
		want: []Hit{
			{Line: Line{Num: 1, Text: "short ne", IsMatch: true, Truncated: true}},
			{Line: ln(2, "needle", true)},
		},
	}, {
		name:    "truncation keeps whole runes",
		opts:    Options{Pattern: "x", MaxLineBytes: 4},
		content: "aaéx\n",
		want:    []Hit{{Line: Line{Num: 1, Text: "aaé", IsMatch: true, Truncated: true}}},
	}, {
		name:    "truncation keeps whole runes even if that means fewer bytes",
		opts:    Options{Pattern: "x", MaxLineBytes: 3},
		content: "aaéx\n",
		want:    []Hit{{Line: Line{Num: 1, Text: "aa", IsMatch: true, Truncated: true}}},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := mustCompile(t, tt.opts)
			got, binary := scanAll(t, m, chunked(tt.content))
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("hits:\n got %s\nwant %s", dump(got), dump(tt.want))
			}
			if want := tt.name == "binary"; binary != want {
				t.Errorf("binary = %v, want %v", binary, want)
			}
			// Any split into chunks gives the same result.
			for i := 1; i < len(tt.content); i++ {
				if split, _ := scanAll(t, m, chunked(tt.content, i)); !reflect.DeepEqual(split, got) {
					t.Fatalf("split at %d:\n got %s\nwant %s", i, dump(split), dump(got))
				}
			}
			for n := 1; n <= 3; n++ {
				if split, _ := scanAll(t, m, everyChunked(tt.content, n)); !reflect.DeepEqual(split, got) {
					t.Fatalf("in %d-byte chunks:\n got %s\nwant %s", n, dump(split), dump(got))
				}
			}
		})
	}
}

func TestScanFileBinaryDetection(t *testing.T) {
	m := mustCompile(t, Options{Pattern: "a"})
	text := strings.Repeat("a\n", sniffLen/2)
	tests := []struct {
		content string
		binary  bool
	}{
		{text[:sniffLen-1] + "\x00", true},
		{text + "\x00", false}, // a NUL past the first 8 KiB does not count
	}
	for _, tt := range tests {
		for _, chunk := range []int{100, sniffLen, 1 << 20} {
			called := 0
			n, binary, err := m.NewScanner().ScanFile(everyChunked(tt.content, chunk), 0, func(Hit) bool {
				called++
				return true
			})
			if err != nil || binary != tt.binary || binary && (n != 0 || called != 0) {
				t.Errorf("NUL at %d, %d-byte chunks: n=%d binary=%v err=%v emitted=%d", strings.IndexByte(tt.content, 0), chunk, n, binary, err, called)
			}
		}
	}
}

func TestScanFileEarlyStopAndSkip(t *testing.T) {
	m := mustCompile(t, Options{Pattern: "m", Context: 1})
	content := "m1\nx\nm3\nm4\nx\nm6\n"
	tests := []struct {
		skip, stopAfter int
		wantLines       []int
		wantN           int
	}{
		{skip: 0, stopAfter: 1, wantLines: []int{1}, wantN: 1},
		{skip: 0, stopAfter: 2, wantLines: []int{1, 3}, wantN: 2},
		{skip: 2, stopAfter: 1, wantLines: []int{4}, wantN: 3},
		{skip: 3, stopAfter: 5, wantLines: []int{6}, wantN: 4},
		{skip: 9, stopAfter: 5, wantLines: nil, wantN: 4},
	}
	for _, tt := range tests {
		for chunk := 1; chunk <= len(content); chunk++ {
			var lines []int
			n, _, err := m.NewScanner().ScanFile(everyChunked(content, chunk), tt.skip, func(h Hit) bool {
				lines = append(lines, h.Line.Num)
				return len(lines) < tt.stopAfter
			})
			if err != nil || n != tt.wantN || !reflect.DeepEqual(lines, tt.wantLines) {
				t.Errorf("skip %d, stop after %d, %d-byte chunks: n=%d lines=%v err=%v, want n=%d lines=%v",
					tt.skip, tt.stopAfter, chunk, n, lines, err, tt.wantN, tt.wantLines)
			}
		}
	}
}

func TestScanFileStopsReading(t *testing.T) {
	m := mustCompile(t, Options{Pattern: "x"})
	calls := 0
	next := func() ([]byte, error) {
		calls++
		return []byte(strings.Repeat("x\n", sniffLen)), nil // never ends
	}
	if n, _, err := m.NewScanner().ScanFile(next, 0, func(Hit) bool { return false }); n != 1 || err != nil {
		t.Fatalf("ScanFile = %d, %v", n, err)
	}
	if n, _, err := m.NewScanner().CountFile(next, 3); n != 3 || err != nil {
		t.Fatalf("CountFile = %d, %v", n, err)
	}
	if calls != 2 {
		t.Errorf("next called %d times, want once per scan", calls)
	}
}

func TestScanFileError(t *testing.T) {
	m := mustCompile(t, Options{Pattern: "x"})
	boom := errors.New("boom")
	for _, first := range []string{"x\n", strings.Repeat("x\n", sniffLen)} {
		calls := 0
		next := func() ([]byte, error) {
			if calls++; calls == 1 {
				return []byte(first), nil
			}
			return nil, boom
		}
		if _, _, err := m.NewScanner().ScanFile(next, 0, func(Hit) bool { return true }); !errors.Is(err, boom) {
			t.Errorf("ScanFile error = %v, want %v", err, boom)
		}
	}
}

func TestCountFile(t *testing.T) {
	m := mustCompile(t, Options{Pattern: "ab", IgnoreCase: true})
	content := "ab\nxx\nAB ab\naB\n"
	for _, tt := range []struct{ limit, want int }{{0, 3}, {-1, 3}, {1, 1}, {2, 2}, {5, 3}} {
		for chunk := 1; chunk <= len(content); chunk++ {
			n, binary, err := m.NewScanner().CountFile(everyChunked(content, chunk), tt.limit)
			if n != tt.want || binary || err != nil {
				t.Errorf("CountFile(limit %d, %d-byte chunks) = %d, %v, %v; want %d", tt.limit, chunk, n, binary, err, tt.want)
			}
		}
	}
}

// TestScanLongLines checks lines longer than the matching limit, with the
// limit lowered to make them small.
func TestScanLongLines(t *testing.T) {
	const limit = 8
	tests := []struct {
		pattern, content string
		want             []Hit
	}{
		// The needle must lie in the first 8 bytes of a line.
		{"yz", "abcdefyz\nabcdefgyz\n", []Hit{{Line: Line{Num: 1, Text: "abcdefyz", IsMatch: true}}}},
		// A long line's rest is skipped but it counts as one line.
		{"y", "abcdefghijklyy\ny\n", []Hit{{Line: ln(2, "y", true)}}},
		{"a", "abcdefghijklaa\r\nxa", []Hit{
			{Line: Line{Num: 1, Text: "abcdefgh", IsMatch: true, Truncated: true}},
			{Line: ln(2, "xa", true)},
		}},
		// "\r\n" after exactly 8 bytes: the line is not truncated.
		{"h", "abcdefgh\r\n", []Hit{{Line: ln(1, "abcdefgh", true)}}},
		// A '\r' inside the first 8 bytes of a cut line is text.
		{"g\r", "abcdefg\rijk\n", []Hit{{Line: Line{Num: 1, Text: "abcdefg\r", IsMatch: true, Truncated: true}}}},
	}
	for _, tt := range tests {
		m := mustCompile(t, Options{Pattern: tt.pattern})
		m.matchCap, m.maxLine = limit, limit
		for chunk := 1; chunk <= len(tt.content); chunk++ {
			if got, _ := scanAll(t, m, everyChunked(tt.content, chunk)); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("%q in %q, %d-byte chunks:\n got %s\nwant %s", tt.pattern, tt.content, chunk, dump(got), dump(tt.want))
			}
		}
	}
}

func TestCompileErrors(t *testing.T) {
	tests := []struct {
		opts Options
		want string
	}{
		{Options{}, "empty pattern"},
		{Options{Regex: true}, "empty pattern"},
		{Options{Pattern: "(a", Regex: true}, "invalid regular expression: missing closing ): `(a`"},
		{Options{Pattern: "a**", Regex: true, IgnoreCase: true}, "invalid regular expression: invalid nested repetition operator: `**`"},
		{Options{Pattern: "a\nb"}, "pattern contains a newline, but lines are searched one at a time"},
		{Options{Pattern: "a", Context: -1}, "negative context -1"},
		{Options{Pattern: "a", MaxLineBytes: -1}, "negative line length limit -1"},
	}
	for _, tt := range tests {
		if _, err := Compile(tt.opts); err == nil || err.Error() != tt.want {
			t.Errorf("Compile(%+v) error = %v, want %q", tt.opts, err, tt.want)
		}
	}
}

// refScan is the obvious implementation of ScanFile: split the whole
// content into lines and test each.
func refScan(o Options, matchCap int, content string) []Hit {
	var match func(string) bool
	switch {
	case o.Regex && o.IgnoreCase:
		match = regexp.MustCompile("(?i)" + o.Pattern).MatchString
	case o.Regex:
		match = regexp.MustCompile(o.Pattern).MatchString
	case o.IgnoreCase && !isASCII(o.Pattern):
		match = regexp.MustCompile("(?i)" + regexp.QuoteMeta(o.Pattern)).MatchString
	case o.IgnoreCase:
		lower := string(toLowerASCII([]byte(o.Pattern)))
		match = func(s string) bool { return strings.Contains(string(toLowerASCII([]byte(s))), lower) }
	default:
		match = func(s string) bool { return strings.Contains(s, o.Pattern) }
	}
	maxLine := min(o.MaxLineBytes, matchCap)
	raw := strings.SplitAfter(content, "\n")
	if raw[len(raw)-1] == "" {
		raw = raw[:len(raw)-1]
	}
	lines := make([]Line, len(raw))
	for i, r := range raw {
		text := strings.TrimSuffix(strings.TrimSuffix(r, "\n"), "\r")
		l := Line{Num: i + 1, Text: text, IsMatch: match(text[:min(len(text), matchCap)])}
		if len(text) > maxLine {
			l.Text, l.Truncated = text[:runeBoundary([]byte(text), maxLine)], true
		}
		lines[i] = l
	}
	var hits []Hit
	for i, l := range lines {
		if !l.IsMatch {
			continue
		}
		h := Hit{Line: l}
		if b := lines[max(0, i-o.Context):i]; len(b) > 0 {
			h.Before = b
		}
		if a := lines[i+1 : min(len(lines), i+1+o.Context)]; len(a) > 0 {
			h.After = a
		}
		hits = append(hits, h)
	}
	return hits
}

// TestScanFileRandom compares ScanFile with refScan on random content,
// patterns and chunkings.
func TestScanFileRandom(t *testing.T) {
	const matchCap = 12
	rng := rand.New(rand.NewPCG(1, 2))
	alphabet := []string{"a", "b", "A", "B", "\n", "\n", "\r", "é", "ab", "\r\n", "K", "\u212a"}
	patterns := []Options{
		{Pattern: "a"}, {Pattern: "ab"}, {Pattern: "aba"}, {Pattern: "bAb"},
		{Pattern: "a", IgnoreCase: true}, {Pattern: "ab", IgnoreCase: true}, {Pattern: "abba", IgnoreCase: true},
		{Pattern: "k", IgnoreCase: true}, {Pattern: "é", IgnoreCase: true}, {Pattern: "\r"},
		{Pattern: "a\rb"}, {Pattern: "É", IgnoreCase: true},
		{Pattern: "a+b", Regex: true}, {Pattern: "^a", Regex: true}, {Pattern: "b$", Regex: true},
		{Pattern: `^$`, Regex: true}, {Pattern: `a.b`, Regex: true}, {Pattern: `(?s)a.b`, Regex: true},
		{Pattern: `\bab\b`, Regex: true}, {Pattern: `[^a]b`, Regex: true}, {Pattern: `a\s*b`, Regex: true},
		{Pattern: `b\r`, Regex: true}, {Pattern: `ab|ba`, Regex: true}, {Pattern: `(?i)ab+a`, Regex: true},
		{Pattern: `\Aa`, Regex: true}, {Pattern: `a\z`, Regex: true}, {Pattern: `(?m)a$`, Regex: true},
		{Pattern: `x*`, Regex: true}, {Pattern: `k`, Regex: true, IgnoreCase: true}, {Pattern: `aab`, Regex: true, IgnoreCase: true},
	}
	for iter := range 3000 {
		var sb strings.Builder
		for range rng.IntN(60) {
			sb.WriteString(alphabet[rng.IntN(len(alphabet))])
		}
		content := sb.String()
		o := patterns[rng.IntN(len(patterns))]
		o.Context = rng.IntN(3)
		o.MaxLineBytes = 1 + rng.IntN(matchCap+2)
		m := mustCompile(t, o)
		m.matchCap, m.maxLine = matchCap, min(o.MaxLineBytes, matchCap)
		m.window = 1 + rng.IntN(16)
		want := refScan(o, matchCap, content)
		var sizes []int
		for range 8 {
			sizes = append(sizes, rng.IntN(8))
		}
		got, _ := scanAll(t, m, chunked(content, sizes...))
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("iteration %d: %+v over %+q in chunks %v:\n got %s\nwant %s", iter, o, content, sizes, dump(got), dump(want))
		}
		n, _, _ := m.NewScanner().CountFile(chunked(content, sizes...), 0)
		if n != len(want) {
			t.Fatalf("iteration %d: %+v over %q: CountFile = %d, want %d", iter, o, content, n, len(want))
		}
	}
}

func ExampleScanner_ScanFile() {
	m, err := Compile(Options{Pattern: "TODO", Context: 1})
	if err != nil {
		panic(err)
	}
	chunks := [][]byte{[]byte("a\n// TO"), []byte("DO: b\nc\n")}
	next := func() ([]byte, error) {
		if len(chunks) == 0 {
			return nil, io.EOF
		}
		c := chunks[0]
		chunks = chunks[1:]
		return c, nil
	}
	m.NewScanner().ScanFile(next, 0, func(h Hit) bool {
		for _, l := range h.Before {
			fmt.Printf("%d-%s\n", l.Num, l.Text)
		}
		fmt.Printf("%d:%s\n", h.Line.Num, h.Line.Text)
		for _, l := range h.After {
			fmt.Printf("%d-%s\n", l.Num, l.Text)
		}
		return true
	})
	// Output:
	// 1-a
	// 2:// TODO: b
	// 3-c
}

// A scan with a context stops soon after the context ends, inside a file
// and a chunk, even with an expression that makes every line slow: it
// returns the context's error and the matches found until then.
func TestScanContext(t *testing.T) {
	line := strings.Repeat("a", 79) + "\n"
	data := strings.Repeat(line, (4<<20)/len(line))
	for _, o := range []Options{
		{Pattern: "(.*){1000}", Regex: true},  // slow on every line
		{Pattern: "(.*){1000}b", Regex: true}, // slow, and never matches
	} {
		m := mustCompile(t, o)
		ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		start := time.Now()
		n, _, err := m.NewScanner().WithContext(ctx).CountFile(chunked(data), 0)
		cancel()
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("%s: CountFile = %d, %v; want the deadline's error", o.Pattern, n, err)
		}
		if total := strings.Count(data, "\n"); n >= total && o.Pattern == "(.*){1000}" {
			t.Errorf("%s: counted %d of %d lines after the deadline", o.Pattern, n, total)
		}
		if d := time.Since(start); d > 30*time.Second {
			t.Errorf("%s: CountFile took %v after a 50ms deadline", o.Pattern, d)
		}
	}
	// Without an end, the same scanner counts every line.
	m := mustCompile(t, Options{Pattern: "a$", Regex: true})
	if n, _, err := m.NewScanner().WithContext(context.Background()).CountFile(chunked(data), 0); err != nil || n != strings.Count(data, "\n") {
		t.Errorf("CountFile with a live context = %d, %v", n, err)
	}
}

// A large expression searches less of each line, so that one search of one
// line, which nothing interrupts, stays within regexStepBudget; a small one
// searches all of MaxMatchLineBytes.
func TestLargeRegexSearchesLessOfALine(t *testing.T) {
	small := mustCompile(t, Options{Pattern: `x+needle$`, Regex: true})
	big := mustCompile(t, Options{Pattern: `(.*){1000}needle$`, Regex: true})
	if small.MatchLineBytes() != MaxMatchLineBytes {
		t.Errorf("x+needle searches %d bytes of a line, want %d", small.MatchLineBytes(), MaxMatchLineBytes)
	}
	if n := big.MatchLineBytes(); n < minMatchLineBytes || n > 64<<10 {
		t.Errorf("(.*){1000}needle searches %d bytes of a line", n)
	}
	line := strings.Repeat("x", 200<<10) + "needle\n"
	if n, _, err := small.NewScanner().CountFile(chunked(line), 0); n != 1 || err != nil {
		t.Errorf("x+needle over a 200 KB line: %d, %v", n, err)
	}
	// The big expression sees the line cut before "needle", as a line over
	// MaxMatchLineBytes is for any pattern.
	if n, _, err := big.NewScanner().CountFile(chunked(line), 0); n != 0 || err != nil {
		t.Errorf("(.*){1000}needle over a 200 KB line: %d, %v", n, err)
	}
	short := strings.Repeat("x", 100) + "needle\n"
	if n, _, err := big.NewScanner().CountFile(chunked(short), 0); n != 1 || err != nil {
		t.Errorf("(.*){1000}needle over a short line: %d, %v", n, err)
	}
}
