package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/nookdev/nook/vfs"
)

func lsTool(s *Set) *Tool {
	return &Tool{
		Name:        "ls",
		Description: "List a directory: names, types, sizes, modification times. Pages of 200 by default; pass nextOffset as offset for more.",
		InputSchema: schema(`{"type":"object","properties":{
			"path":{"type":"string","description":"Directory, e.g. /src (default: the workspace root)"},
			"limit":{"type":"integer","minimum":1,"maximum":1000},
			"offset":{"type":"integer","minimum":0}},
			"additionalProperties":false}`),
		OutputSchema: schema(`{"type":"object","properties":{
			"path":{"type":"string"},"count":{"type":"integer"},
			"entries":{"type":"array","items":{"type":"object","properties":{
				"name":{"type":"string"},"type":{"type":"string","enum":["file","dir","symlink"]},
				"size":{"type":"integer"},"mtime":{"type":"integer","description":"milliseconds since the Unix epoch"}},
				"required":["name","type","size","mtime"]}},
			"nextOffset":{"type":"integer"}},
			"required":["path","count","entries"]}`),
		Annotations: Annotations{ReadOnly: true, Idempotent: true},
		run:         s.ls,
	}
}

type lsIn struct {
	Path   string `json:"path"`
	Limit  *int   `json:"limit"`
	Offset *int   `json:"offset"`
}

type lsEntry struct {
	Name  string `json:"name"`
	Type  string `json:"type"`
	Size  int64  `json:"size"`
	Mtime int64  `json:"mtime"`
}

type lsOut struct {
	Path       string    `json:"path"`
	Count      int       `json:"count"`
	Entries    []lsEntry `json:"entries"`
	NextOffset int       `json:"nextOffset,omitempty"`
}

func (s *Set) ls(ctx context.Context, raw json.RawMessage) (*Result, error) {
	var in lsIn
	if r := decode("ls", raw, &in); r != nil {
		return r, nil
	}
	page, r := s.page(in.Limit, in.Offset)
	if r != nil {
		return r, nil
	}
	l, err := s.fs.ReadDir(ctx, s.abs(in.Path), page)
	if err != nil {
		return nil, err
	}
	out := lsOut{Path: s.abs(in.Path), Entries: make([]lsEntry, len(l.Entries)), NextOffset: l.NextOffset}
	var b strings.Builder
	for i, e := range l.Entries {
		out.Entries[i] = lsEntry{Name: e.Name, Type: e.Kind.String(), Size: e.Size, Mtime: e.Mtime.UnixNano() / 1e6}
		name := shown(e.Name)
		switch e.Kind {
		case vfs.TypeDir:
			name += "/"
		case vfs.TypeSymlink:
			name += "@"
		}
		b.WriteString(name)
		b.WriteByte('\t')
		b.WriteString(strconv.FormatInt(e.Size, 10))
		b.WriteByte('\t')
		b.WriteString(e.Mtime.UTC().Format(time.RFC3339))
		b.WriteByte('\n')
	}
	out.Count = len(out.Entries)
	if out.Count == 0 {
		b.WriteString("(empty directory)\n")
	}
	if l.NextOffset > 0 {
		fmt.Fprintf(&b, "[more entries: call ls again with offset=%d]\n", l.NextOffset)
	}
	return Text(b.String(), out), nil
}
