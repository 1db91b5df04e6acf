package vfs

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
)

func grepTree(t *testing.T) *FS {
	t.Helper()
	f := openTest(t)
	for p, c := range map[string]string{
		"/g/a.txt":              "hello world\nfoo.bar\nFOO.BAR\nfooXbar\nbaz\n",
		"/g/b.go":               "package b\n// foo.bar here\n",
		"/g/bin.dat":            "abc\x00def foo.bar\n",
		"/g/crlf.txt":           "line one\r\nline two\r\n",
		"/g/ctx.txt":            "a\nmatch1\nmatch2\nb\nc\nd\nmatch3\n",
		"/g/empty":              "",
		"/g/node_modules/m.txt": "foo.bar",
		"/g/sub/c.txt":          "école\nÉCOLE\nEcole\n",
	} {
		put(t, f, p, c)
	}
	noErr(t, f.Symlink(bg, "a.txt", "/g/link"))
	return f
}

type hit struct {
	path string
	line int
	text string
}

func grepHits(t *testing.T, f *FS, query, path string, opts *GrepOptions) ([]hit, *GrepResult) {
	t.Helper()
	res, err := f.Grep(bg, query, path, opts)
	if err != nil {
		t.Fatalf("Grep(%q, %s): %v", query, path, err)
	}
	var out []hit
	for _, m := range res.Matches {
		out = append(out, hit{m.Path, m.Line, m.Text})
	}
	return out, res
}

func TestGrepLiteralAndRegex(t *testing.T) {
	f := grepTree(t)
	for _, tc := range []struct {
		name, query string
		opts        GrepOptions
		want        []hit
	}{
		{"literal", "foo.bar", GrepOptions{}, []hit{
			{"/g/a.txt", 2, "foo.bar"}, {"/g/b.go", 2, "// foo.bar here"}, {"/g/node_modules/m.txt", 1, "foo.bar"}}},
		{"metachars literal", "(x)[y]*+?", GrepOptions{}, nil},
		{"regex", `^foo.bar$`, GrepOptions{Regex: true}, []hit{
			{"/g/a.txt", 2, "foo.bar"}, {"/g/a.txt", 4, "fooXbar"}, {"/g/node_modules/m.txt", 1, "foo.bar"}}},
		{"regex escaped", `fo+\.bar`, GrepOptions{Regex: true}, []hit{
			{"/g/a.txt", 2, "foo.bar"}, {"/g/b.go", 2, "// foo.bar here"}, {"/g/node_modules/m.txt", 1, "foo.bar"}}},
		{"ignore case", "foo.bar", GrepOptions{IgnoreCase: true}, []hit{
			{"/g/a.txt", 2, "foo.bar"}, {"/g/a.txt", 3, "FOO.BAR"}, {"/g/b.go", 2, "// foo.bar here"},
			{"/g/node_modules/m.txt", 1, "foo.bar"}}},
		{"regex ignore case", `^FOO`, GrepOptions{Regex: true, IgnoreCase: true}, []hit{
			{"/g/a.txt", 2, "foo.bar"}, {"/g/a.txt", 3, "FOO.BAR"}, {"/g/a.txt", 4, "fooXbar"},
			{"/g/node_modules/m.txt", 1, "foo.bar"}}},
		{"non-ascii", "école", GrepOptions{}, []hit{{"/g/sub/c.txt", 1, "école"}}},
		{"non-ascii ignore case", "école", GrepOptions{IgnoreCase: true}, []hit{
			{"/g/sub/c.txt", 1, "école"}, {"/g/sub/c.txt", 2, "ÉCOLE"}}},
		{"ascii ignore case", "ECOLE", GrepOptions{IgnoreCase: true}, []hit{{"/g/sub/c.txt", 3, "Ecole"}}},
		{"crlf stripped", "line", GrepOptions{}, []hit{{"/g/crlf.txt", 1, "line one"}, {"/g/crlf.txt", 2, "line two"}}},
		{"crlf anchored", `one$`, GrepOptions{Regex: true}, []hit{{"/g/crlf.txt", 1, "line one"}}},
		{"include", "o", GrepOptions{Include: []string{"*.txt"}, Mode: GrepContent}, []hit{
			{"/g/a.txt", 1, "hello world"}, {"/g/a.txt", 2, "foo.bar"}, {"/g/a.txt", 4, "fooXbar"},
			{"/g/crlf.txt", 1, "line one"}, {"/g/crlf.txt", 2, "line two"}}},
		{"exclude", "foo.bar", GrepOptions{Exclude: []string{"node_modules"}}, []hit{
			{"/g/a.txt", 2, "foo.bar"}, {"/g/b.go", 2, "// foo.bar here"}}},
		{"include and exclude", "bar", GrepOptions{Include: []string{"**/*.txt"}, Exclude: []string{"a.txt"}}, []hit{
			{"/g/node_modules/m.txt", 1, "foo.bar"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, _ := grepHits(t, f, tc.query, "/g", &tc.opts)
			if !slices.Equal(got, tc.want) {
				t.Errorf("Grep(%q, %+v) = %v\nwant %v", tc.query, tc.opts, got, tc.want)
			}
		})
	}
}

func TestGrepContext(t *testing.T) {
	f := grepTree(t)
	res, err := f.Grep(bg, "match", "/g/ctx.txt", &GrepOptions{Context: 1})
	noErr(t, err)
	want := []GrepMatch{
		{Path: "/g/ctx.txt", Line: 2, Text: "match1", Context: []GrepLine{
			{Line: 1, Text: "a"}, {Line: 2, Text: "match1", IsMatch: true}, {Line: 3, Text: "match2", IsMatch: true}}},
		{Path: "/g/ctx.txt", Line: 3, Text: "match2", Context: []GrepLine{
			{Line: 2, Text: "match1", IsMatch: true}, {Line: 3, Text: "match2", IsMatch: true}, {Line: 4, Text: "b"}}},
		{Path: "/g/ctx.txt", Line: 7, Text: "match3", Context: []GrepLine{
			{Line: 6, Text: "d"}, {Line: 7, Text: "match3", IsMatch: true}}},
	}
	if !reflect.DeepEqual(res.Matches, want) {
		t.Errorf("Context 1:\n got %+v\nwant %+v", res.Matches, want)
	}
	res, err = f.Grep(bg, "match1", "/g/ctx.txt", &GrepOptions{Context: 3})
	noErr(t, err)
	wantCtx := []GrepLine{{Line: 1, Text: "a"}, {Line: 2, Text: "match1", IsMatch: true}, {Line: 3, Text: "match2"},
		{Line: 4, Text: "b"}, {Line: 5, Text: "c"}}
	if len(res.Matches) != 1 || !reflect.DeepEqual(res.Matches[0].Context, wantCtx) {
		t.Errorf("Context 3: %+v", res.Matches)
	}
	// Without Context, no context lines.
	res, err = f.Grep(bg, "match1", "/g/ctx.txt", nil)
	noErr(t, err)
	if len(res.Matches) != 1 || res.Matches[0].Context != nil {
		t.Errorf("no context: %+v", res.Matches)
	}
	// Context does not cross files.
	res, err = f.Grep(bg, "hello", "/g", &GrepOptions{Context: 2})
	noErr(t, err)
	if len(res.Matches) != 1 || len(res.Matches[0].Context) != 3 || res.Matches[0].Context[0].Line != 1 {
		t.Errorf("context at the start of a file: %+v", res.Matches)
	}
}

func TestGrepModes(t *testing.T) {
	f := grepTree(t)
	res, err := f.Grep(bg, "foo", "/g", &GrepOptions{IgnoreCase: true, Mode: GrepCount})
	noErr(t, err)
	wantCount := []GrepFile{{"/g/a.txt", 3}, {"/g/b.go", 1}, {"/g/node_modules/m.txt", 1}}
	if !slices.Equal(res.Files, wantCount) || res.Matches != nil {
		t.Errorf("count mode = %+v (matches %v)", res.Files, res.Matches)
	}
	res, err = f.Grep(bg, "foo", "/g", &GrepOptions{IgnoreCase: true, Mode: GrepFiles})
	noErr(t, err)
	var files []string
	for _, fl := range res.Files {
		files = append(files, fl.Path)
	}
	if !slices.Equal(files, []string{"/g/a.txt", "/g/b.go", "/g/node_modules/m.txt"}) {
		t.Errorf("files mode = %+v", res.Files)
	}
}

func TestGrepPaging(t *testing.T) {
	f := grepTree(t)
	for i := 0; i < 4; i++ {
		put(t, f, "/g/more/f"+string(rune('0'+i)), strings.Repeat("o line\nno\n", i+1))
	}
	for _, opts := range []GrepOptions{
		{},
		{Context: 1},
		{Context: 2, IgnoreCase: true},
		{Mode: GrepFiles},
		{Mode: GrepCount},
		{Regex: true, Mode: GrepCount},
	} {
		full, err := f.Grep(bg, "o", "/g", &opts)
		noErr(t, err)
		if full.NextOffset != 0 {
			t.Fatalf("full result has NextOffset %d", full.NextOffset)
		}
		total := len(full.Matches) + len(full.Files)
		for _, limit := range []int{1, 2, 3, 5, total - 1, total, total + 1} {
			if limit <= 0 {
				continue
			}
			var matches []GrepMatch
			var gfiles []GrepFile
			offset := 0
			for pages := 0; ; pages++ {
				if pages > total+1 {
					t.Fatal("paging does not end")
				}
				o := opts
				o.Page = Page{Limit: limit, Offset: offset}
				res, err := f.Grep(bg, "o", "/g", &o)
				noErr(t, err)
				if n := len(res.Matches) + len(res.Files); n > limit {
					t.Fatalf("page of %d with limit %d", n, limit)
				}
				matches = append(matches, res.Matches...)
				gfiles = append(gfiles, res.Files...)
				if res.NextOffset == 0 {
					break
				}
				if res.NextOffset != offset+limit {
					t.Errorf("NextOffset %d at offset %d, limit %d", res.NextOffset, offset, limit)
				}
				offset = res.NextOffset
			}
			if !reflect.DeepEqual(matches, full.Matches) || !slices.Equal(gfiles, full.Files) {
				t.Errorf("opts %+v, pages of %d: concatenation differs from the full result\n got %+v %+v\nwant %+v %+v",
					opts, limit, matches, gfiles, full.Matches, full.Files)
			}
		}
	}
}

func TestGrepSkips(t *testing.T) {
	f := grepTree(t)
	_, res := grepHits(t, f, "foo.bar", "/g", nil)
	if !slices.Equal(res.Skipped, []GrepSkip{{Path: "/g/bin.dat", Reason: "binary"}}) {
		t.Errorf("Skipped = %+v", res.Skipped)
	}
	// A binary file given as the target.
	got, res := grepHits(t, f, "foo", "/g/bin.dat", nil)
	if got != nil || !slices.Equal(res.Skipped, []GrepSkip{{Path: "/g/bin.dat", Reason: "binary"}}) {
		t.Errorf("binary target: %v, skipped %+v", got, res.Skipped)
	}
	// A NUL after the first 8 KiB does not make a file binary.
	put(t, f, "/late/nul", strings.Repeat("x", 9000)+"\x00\nfind me\n")
	got, _ = grepHits(t, f, "find me", "/late", nil)
	if len(got) != 1 || got[0].line != 2 {
		t.Errorf("late NUL: %v", got)
	}
	// Too large files are skipped and listed.
	got, res = grepHits(t, f, "o", "/g", &GrepOptions{MaxFileSize: 17})
	for _, h := range got {
		if h.path == "/g/a.txt" || h.path == "/g/crlf.txt" || h.path == "/g/ctx.txt" || h.path == "/g/b.go" {
			t.Errorf("a file over MaxFileSize was searched: %v", h)
		}
	}
	var large []string
	for _, s := range res.Skipped {
		if s.Reason != "binary" {
			large = append(large, s.Path)
			if s.Reason != "too large" {
				t.Errorf("Skipped reason for %s = %q, want %q", s.Path, s.Reason, "too large")
			}
		}
	}
	if !slices.Equal(large, []string{"/g/a.txt", "/g/b.go", "/g/crlf.txt", "/g/ctx.txt", "/g/sub/c.txt"}) {
		t.Errorf("too large skipped = %v", large)
	}
}

func TestGrepAcrossChunkBoundary(t *testing.T) {
	f := openTest(t)
	putBytes(t, f, "/span/long", []byte(strings.Repeat("a", ChunkSize-3)+"NEEDLE\n"))
	putBytes(t, f, "/span/short", []byte(strings.Repeat("a", ChunkSize-4)+"\nNEEDLE\n"))
	got, _ := grepHits(t, f, "NEEDLE", "/span", nil)
	if len(got) != 2 || got[0].path != "/span/long" || got[0].line != 1 || got[1] != (hit{"/span/short", 2, "NEEDLE"}) {
		t.Errorf("Grep across the chunk boundary = %v", clipHits(got))
	}
	res, err := f.Grep(bg, "needle", "/span", &GrepOptions{IgnoreCase: true, Mode: GrepCount})
	noErr(t, err)
	if !slices.Equal(res.Files, []GrepFile{{"/span/long", 1}, {"/span/short", 1}}) {
		t.Errorf("count = %+v", res.Files)
	}
	res, err = f.Grep(bg, `E{2}DLE$`, "/span", &GrepOptions{Regex: true, Mode: GrepCount})
	noErr(t, err)
	if len(res.Files) != 2 {
		t.Errorf("regex count = %+v", res.Files)
	}
	// The long line's text is capped but the match is reported.
	res, err = f.Grep(bg, "NEEDLE", "/span/long", &GrepOptions{Context: 1})
	noErr(t, err)
	if len(res.Matches) != 1 || len(res.Matches[0].Context) != 1 || !res.Matches[0].Context[0].Truncated ||
		len(res.Matches[0].Text) >= ChunkSize {
		t.Errorf("long line: %d matches", len(res.Matches))
	}
}

func clipHits(hs []hit) []hit {
	out := slices.Clone(hs)
	for i := range out {
		out[i].text = clip(out[i].text)
	}
	return out
}

func TestGrepTargets(t *testing.T) {
	f := grepTree(t)
	got, _ := grepHits(t, f, "hello", "/g/a.txt", nil)
	if !slices.Equal(got, []hit{{"/g/a.txt", 1, "hello world"}}) {
		t.Errorf("single file = %v", got)
	}
	// Include does not apply to a file target.
	got, _ = grepHits(t, f, "hello", "/g/a.txt", &GrepOptions{Include: []string{"*.go"}})
	if len(got) != 1 {
		t.Errorf("single file with include = %v", got)
	}
	// A link given as the target is followed; links inside a directory
	// are not.
	got, _ = grepHits(t, f, "hello", "/g/link", nil)
	if len(got) != 1 || got[0].line != 1 {
		t.Errorf("link target = %v", got)
	}
	got, _ = grepHits(t, f, "hello", "/g", nil)
	if !slices.Equal(got, []hit{{"/g/a.txt", 1, "hello world"}}) {
		t.Errorf("directory = %v", got)
	}
	got, _ = grepHits(t, f, "anything", "/g/empty", nil)
	if got != nil {
		t.Errorf("empty file = %v", got)
	}
}

func TestGrepErrors(t *testing.T) {
	f := grepTree(t)
	_, err := f.Grep(bg, "(", "/g", &GrepOptions{Regex: true})
	expectCode(t, err, EINVAL)
	if !strings.Contains(errString(err), "missing closing )") {
		t.Errorf("invalid regex message %q", errString(err))
	}
	_, err = f.Grep(bg, "(", "/g", nil) // literal: fine
	noErr(t, err)
	_, err = f.Grep(bg, "", "/g", nil)
	expectErr(t, err, EINVAL, "empty pattern")
	_, err = f.Grep(bg, "a\nb", "/g", nil)
	expectCode(t, err, EINVAL)
	_, err = f.Grep(bg, "x", "/g", &GrepOptions{Context: -1})
	expectErr(t, err, EINVAL, "context must be a non-negative integer, got -1")
	_, err = f.Grep(bg, "x", "/g", &GrepOptions{Page: Page{Offset: -1}})
	expectErr(t, err, EINVAL, "offset must be a non-negative integer, got -1")
	_, err = f.Grep(bg, "x", "/nope", nil)
	expectErr(t, err, ENOENT, "no such path: /nope")
	_, err = f.Grep(bg, "x", "/g/a.txt/x", nil)
	expectErr(t, err, ENOTDIR, "parent path segment is not a directory: /g/a.txt/x")
	_, err = f.Grep(bg, "x", "/g", &GrepOptions{Include: []string{"["}})
	expectCode(t, err, EINVAL)
	_, err = f.Grep(bg, "x", "/g", &GrepOptions{Exclude: []string{"["}})
	expectCode(t, err, EINVAL)
}

// Files are counted in parallel batches; paging must come out exactly as a
// one-file-at-a-time search: check every page boundary across batches.
func TestGrepParallelPaging(t *testing.T) {
	f := openTest(t)
	var want []string // path:line of every match, in walk order
	for i := range 3*grepBatch + 17 {
		p := fmt.Sprintf("/t/d%d/f%04d.txt", i%3, i)
		var b strings.Builder
		for l := 1; l <= 6; l++ {
			if (i+l)%5 == 0 || (i%7 == 0 && l == 3) {
				b.WriteString("needle here\n")
			} else {
				b.WriteString("hay\n")
			}
		}
		if i%50 == 0 {
			b.WriteString("\x00") // a NUL in the first 8 KiB: skipped as binary
		}
		put(t, f, p, b.String())
	}
	all, err := f.Grep(bg, "needle", "/t", &GrepOptions{Page: Page{Limit: 1000}})
	noErr(t, err)
	for _, m := range all.Matches {
		want = append(want, fmt.Sprintf("%s:%d", m.Path, m.Line))
	}
	if len(want) < 2*grepBatch || all.NextOffset != 0 {
		t.Fatalf("setup: %d matches, next %d", len(want), all.NextOffset)
	}
	for _, limit := range []int{1, 7, 200} {
		var got []string
		for off := 0; ; {
			res, err := f.Grep(bg, "needle", "/t", &GrepOptions{Page: Page{Limit: limit, Offset: off}})
			noErr(t, err)
			for _, m := range res.Matches {
				got = append(got, fmt.Sprintf("%s:%d", m.Path, m.Line))
			}
			if res.NextOffset == 0 {
				break
			}
			off = res.NextOffset
		}
		if !slices.Equal(got, want) {
			t.Errorf("limit %d: %d matches paged, want %d (first diff at %d)", limit, len(got), len(want), firstDiff(got, want))
		}
	}
	// Count mode pages over files the same way.
	counts, err := f.Grep(bg, "needle", "/t", &GrepOptions{Mode: GrepCount, Page: Page{Limit: 1000}})
	noErr(t, err)
	var paged []GrepFile
	for off := 0; ; {
		res, err := f.Grep(bg, "needle", "/t", &GrepOptions{Mode: GrepCount, Page: Page{Limit: 13, Offset: off}})
		noErr(t, err)
		paged = append(paged, res.Files...)
		if res.NextOffset == 0 {
			break
		}
		off = res.NextOffset
	}
	if !slices.Equal(paged, counts.Files) {
		t.Errorf("count mode: paged %d files, one page %d", len(paged), len(counts.Files))
	}
}

// bigSlowFile writes a 16 MB file of short lines over which (.*){1000}
// takes minutes, and returns its number of lines.
func bigSlowFile(t *testing.T, f *FS, p string) int {
	t.Helper()
	line := strings.Repeat("x", 63) + "\n"
	n := (16 << 20) / len(line)
	put(t, f, p, strings.Repeat(line, n))
	return n
}

// A pathological expression over a big file: Timeout returns the lines
// found so far, in order, with TimedOut set and the offset to go on from.
func TestGrepTimeout(t *testing.T) {
	f := openTest(t)
	lines := bigSlowFile(t, f, "/big.txt")
	put(t, f, "/z.txt", "x\n")
	start := time.Now()
	res, err := f.Grep(bg, "(.*){1000}", "/", &GrepOptions{Regex: true, Timeout: 200 * time.Millisecond, Page: Page{Limit: 1000}})
	noErr(t, err)
	if d := time.Since(start); d > time.Minute {
		t.Errorf("Grep with a 200ms timeout took %v", d)
	}
	if !res.TimedOut {
		t.Fatalf("Grep over %d slow lines did not time out: %d matches", lines, len(res.Matches))
	}
	for i, m := range res.Matches {
		if m.Path != "/big.txt" || m.Line != i+1 {
			t.Fatalf("match %d is %s:%d, want /big.txt:%d", i, m.Path, m.Line, i+1)
		}
	}
	if n := len(res.Matches); n > 0 && res.NextOffset != n || n == 0 && res.NextOffset != 0 {
		t.Errorf("%d matches, NextOffset %d", n, res.NextOffset)
	}
	// Counting stops too, and a file it did not finish is not listed.
	res, err = f.Grep(bg, "(.*){1000}", "/", &GrepOptions{Regex: true, Mode: GrepCount, Timeout: 100 * time.Millisecond})
	noErr(t, err)
	if !res.TimedOut || len(res.Files) != 0 || res.NextOffset != 0 {
		t.Errorf("count mode: TimedOut %v, files %v, NextOffset %d", res.TimedOut, res.Files, res.NextOffset)
	}
}

// The end of the caller's context stops a search inside a file, with the
// context's error.
func TestGrepCancelInsideFile(t *testing.T) {
	f := openTest(t)
	bigSlowFile(t, f, "/big.txt")
	ctx, cancel := context.WithTimeout(bg, 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := f.Grep(ctx, "(.*){1000}", "/", &GrepOptions{Regex: true, Timeout: time.Hour})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Grep after its context ended: %v", err)
	}
	if d := time.Since(start); d > time.Minute {
		t.Errorf("Grep took %v after its context ended", d)
	}
}
