package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/nookdev/nook/vfs"
)

// writeGrepLine writes "path<sep>line<sep>text\n", as grep -n does.
func writeGrepLine(b *strings.Builder, path string, sep byte, line int, text string) {
	b.WriteString(shown(path))
	b.WriteByte(sep)
	b.WriteString(strconv.Itoa(line))
	b.WriteByte(sep)
	b.WriteString(text)
	b.WriteByte('\n')
}

// maxGrepContext bounds context lines per side.
const maxGrepContext = 10

func grepTool(s *Set) *Tool {
	return &Tool{
		Name: "grep",
		Description: "Search file contents: a literal string by default, a regular expression (RE2) with regex. " +
			"Output: matching lines (content), file paths (files) or per-file counts (count).",
		InputSchema: schema(`{"type":"object","properties":{
			"query":{"type":"string"},
			"path":{"type":"string","description":"File or directory to search (default: the workspace root)"},
			"regex":{"type":"boolean"},
			"ignoreCase":{"type":"boolean"},
			"context":{"type":"integer","minimum":0,"maximum":10},
			"output":{"type":"string","enum":["content","files","count"]},
			"include":{"type":"array","items":{"type":"string"},"description":"Globs relative to path, e.g. **/*.go"},
			"exclude":{"type":"array","items":{"type":"string"},"description":"Globs not to walk into; replaces the default [\".git\",\"node_modules\"]"},
			"limit":{"type":"integer","minimum":1,"maximum":1000},
			"offset":{"type":"integer","minimum":0}},
			"required":["query"],"additionalProperties":false}`),
		OutputSchema: schema(`{"type":"object","properties":{
			"path":{"type":"string"},"query":{"type":"string"},"count":{"type":"integer"},
			"matches":{"type":"array","items":{"type":"object","properties":{
				"path":{"type":"string"},"line":{"type":"integer"},"text":{"type":"string"},
				"context":{"type":"array","items":{"type":"object","properties":{
					"line":{"type":"integer"},"text":{"type":"string"},"isMatch":{"type":"boolean"}}}}},
				"required":["path","line","text"]}},
			"files":{"type":"array","items":{"type":"object","properties":{
				"path":{"type":"string"},"count":{"type":"integer"}},"required":["path"]}},
			"skipped":{"type":"array","items":{"type":"object","properties":{
				"path":{"type":"string"},"reason":{"type":"string"}}}},
			"nextOffset":{"type":"integer"},
			"timedOut":{"type":"boolean","description":"the search ran out of time: the results are those found until then"}},
			"required":["path","query","count"]}`),
		Annotations: Annotations{ReadOnly: true, Idempotent: true},
		run:         s.grep,
	}
}

type grepIn struct {
	Query      string    `json:"query"`
	Path       string    `json:"path"`
	Regex      bool      `json:"regex"`
	IgnoreCase bool      `json:"ignoreCase"`
	Context    int       `json:"context"`
	Output     string    `json:"output"`
	Include    []string  `json:"include"`
	Exclude    *[]string `json:"exclude"`
	Limit      *int      `json:"limit"`
	Offset     *int      `json:"offset"`
}

type grepLine struct {
	Line    int    `json:"line"`
	Text    string `json:"text"`
	IsMatch bool   `json:"isMatch"`
}

type grepMatch struct {
	Path    string     `json:"path"`
	Line    int        `json:"line"`
	Text    string     `json:"text"`
	Context []grepLine `json:"context,omitempty"`
}

type grepFile struct {
	Path  string `json:"path"`
	Count int    `json:"count,omitempty"`
}

type grepSkip struct {
	Path   string `json:"path"`
	Reason string `json:"reason"`
}

type grepOut struct {
	Path       string      `json:"path"`
	Query      string      `json:"query"`
	Count      int         `json:"count"`
	Matches    []grepMatch `json:"matches,omitempty"`
	Files      []grepFile  `json:"files,omitempty"`
	Skipped    []grepSkip  `json:"skipped,omitempty"`
	NextOffset int         `json:"nextOffset,omitempty"`
	TimedOut   bool        `json:"timedOut,omitempty"`
}

func (s *Set) grep(ctx context.Context, raw json.RawMessage) (*Result, error) {
	var in grepIn
	if r := decode("grep", raw, &in); r != nil {
		return r, nil
	}
	page, r := s.page(in.Limit, in.Offset)
	if r != nil {
		return r, nil
	}
	if in.Context < 0 || in.Context > maxGrepContext {
		return Errorf("context must be between 0 and %d, got %d", maxGrepContext, in.Context), nil
	}
	opts := &vfs.GrepOptions{Page: page, Regex: in.Regex, IgnoreCase: in.IgnoreCase, Context: in.Context,
		Include: in.Include, Exclude: excludes(in.Exclude), Timeout: s.opts.List.GrepTimeout}
	switch in.Output {
	case "", "content":
	case "files":
		opts.Mode = vfs.GrepFiles
	case "count":
		opts.Mode = vfs.GrepCount
	default:
		return Errorf(`output must be "content", "files" or "count", got %q`, in.Output), nil
	}
	dir := s.abs(in.Path)
	res, err := s.fs.Grep(ctx, in.Query, dir, opts)
	if err != nil {
		return nil, err
	}
	out := grepOut{Path: dir, Query: in.Query, NextOffset: res.NextOffset, TimedOut: res.TimedOut,
		Matches: make([]grepMatch, 0, len(res.Matches)), Files: make([]grepFile, 0, len(res.Files))}
	var b strings.Builder
	b.Grow(64 * (len(res.Matches) + len(res.Files)))
	for _, m := range res.Matches {
		gm := grepMatch{Path: m.Path, Line: m.Line, Text: m.Text}
		if len(m.Context) == 0 {
			writeGrepLine(&b, m.Path, ':', m.Line, m.Text)
		} else {
			gm.Context = make([]grepLine, 0, len(m.Context))
			for _, l := range m.Context {
				gm.Context = append(gm.Context, grepLine{Line: l.Line, Text: l.Text, IsMatch: l.IsMatch})
				sep := byte('-')
				if l.IsMatch {
					sep = ':'
				}
				writeGrepLine(&b, m.Path, sep, l.Line, l.Text)
			}
			b.WriteString("--\n")
		}
		out.Matches = append(out.Matches, gm)
	}
	for _, f := range res.Files {
		out.Files = append(out.Files, grepFile{Path: f.Path, Count: f.Count})
		if opts.Mode == vfs.GrepCount {
			fmt.Fprintf(&b, "%s:%d\n", shown(f.Path), f.Count)
		} else {
			fmt.Fprintf(&b, "%s\n", shown(f.Path))
		}
	}
	out.Count = len(out.Matches) + len(out.Files)
	for _, sk := range res.Skipped {
		out.Skipped = append(out.Skipped, grepSkip{Path: sk.Path, Reason: sk.Reason})
	}
	switch {
	case res.TimedOut:
		fmt.Fprintf(&b, "[grep stopped after the time limit GrepTimeout (%s): these are the results found until then", s.opts.List.GrepTimeout)
		if res.NextOffset > 0 {
			fmt.Fprintf(&b, "; offset=%d goes on after them", res.NextOffset)
		}
		b.WriteString(". Narrow path or include, or use a simpler pattern.]\n")
	case out.Count == 0:
		fmt.Fprintf(&b, "no matches for %q under %s\n", in.Query, dir)
	}
	if len(res.Skipped) > 0 {
		fmt.Fprintf(&b, "[%d files not searched: binary or too large]\n", len(res.Skipped))
	}
	if res.NextOffset > 0 && !res.TimedOut {
		fmt.Fprintf(&b, "[more results: call grep again with offset=%d]\n", res.NextOffset)
	}
	return Text(b.String(), out), nil
}
