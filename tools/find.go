package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/nookdev/nook/vfs"
)

// defaultExcludes are skipped by find and grep unless a call says otherwise.
var defaultExcludes = []string{".git", "node_modules"}

func findTool(s *Set) *Tool {
	return &Tool{
		Name: "find",
		Description: "Find paths by glob under a directory: * within a segment, ** across directories, ? one character, [ab], {a,b}. " +
			"Skips .git and node_modules unless exclude says otherwise.",
		InputSchema: schema(`{"type":"object","properties":{
			"pattern":{"type":"string","description":"Glob relative to path, e.g. **/*.go"},
			"path":{"type":"string","description":"Directory to search (default: the workspace root)"},
			"type":{"type":"string","enum":["file","dir","symlink"]},
			"exclude":{"type":"array","items":{"type":"string"},"description":"Globs not to walk into; replaces the default [\".git\",\"node_modules\"]"},
			"limit":{"type":"integer","minimum":1,"maximum":1000},
			"offset":{"type":"integer","minimum":0}},
			"required":["pattern"],"additionalProperties":false}`),
		OutputSchema: schema(`{"type":"object","properties":{
			"path":{"type":"string"},"pattern":{"type":"string"},"count":{"type":"integer"},
			"entries":{"type":"array","items":{"type":"object","properties":{
				"path":{"type":"string"},"type":{"type":"string","enum":["file","dir","symlink"]}},
				"required":["path","type"]}},
			"nextOffset":{"type":"integer"}},
			"required":["path","pattern","count","entries"]}`),
		Annotations: Annotations{ReadOnly: true, Idempotent: true},
		run:         s.find,
	}
}

type findIn struct {
	Pattern string    `json:"pattern"`
	Path    string    `json:"path"`
	Type    string    `json:"type"`
	Exclude *[]string `json:"exclude"`
	Limit   *int      `json:"limit"`
	Offset  *int      `json:"offset"`
}

type findEntry struct {
	Path string `json:"path"`
	Type string `json:"type"`
}

type findOut struct {
	Path       string      `json:"path"`
	Pattern    string      `json:"pattern"`
	Count      int         `json:"count"`
	Entries    []findEntry `json:"entries"`
	NextOffset int         `json:"nextOffset,omitempty"`
}

func (s *Set) find(ctx context.Context, raw json.RawMessage) (*Result, error) {
	var in findIn
	if r := decode("find", raw, &in); r != nil {
		return r, nil
	}
	page, r := s.page(in.Limit, in.Offset)
	if r != nil {
		return r, nil
	}
	opts := &vfs.FindOptions{Page: page, Exclude: excludes(in.Exclude)}
	switch in.Type {
	case "":
	case "file":
		opts.Types = []vfs.Type{vfs.TypeFile}
	case "dir":
		opts.Types = []vfs.Type{vfs.TypeDir}
	case "symlink":
		opts.Types = []vfs.Type{vfs.TypeSymlink}
	default:
		return Errorf(`type must be "file", "dir" or "symlink", got %q`, in.Type), nil
	}
	dir := s.abs(in.Path)
	l, err := s.fs.Find(ctx, dir, in.Pattern, opts)
	if err != nil {
		return nil, err
	}
	out := findOut{Path: dir, Pattern: in.Pattern, Entries: make([]findEntry, len(l.Entries)), NextOffset: l.NextOffset}
	var b strings.Builder
	for i, e := range l.Entries {
		out.Entries[i] = findEntry{Path: e.Path, Type: e.Kind.String()}
		b.WriteString(shown(e.Path))
		if e.Kind == vfs.TypeDir {
			b.WriteByte('/')
		}
		b.WriteByte('\n')
	}
	out.Count = len(out.Entries)
	if out.Count == 0 {
		fmt.Fprintf(&b, "no paths match %q under %s\n", in.Pattern, dir)
	}
	if l.NextOffset > 0 {
		fmt.Fprintf(&b, "[more matches: call find again with offset=%d]\n", l.NextOffset)
	}
	return Text(b.String(), out), nil
}

// excludes returns a call's exclude list, or the default when it gave none.
func excludes(given *[]string) []string {
	if given == nil {
		return defaultExcludes
	}
	return *given
}
