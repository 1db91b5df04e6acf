package tools

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/nookdev/nook/vfs"
)

func lsTool(s *Set) *Tool {
	return &Tool{
		Name:        "ls",
		Description: "List a directory: names, types, sizes, modification times. Pages of 200 by default; pass nextOffset as offset for more.",
		InputSchema: schema(fmt.Sprintf(`{"type":"object","properties":{
			"path":{"type":"string","description":"Directory, e.g. /src (default: the workspace root)"},
			"limit":{"type":"integer","minimum":1,"maximum":1000},
			"offset":{"type":"integer","minimum":0},
			"depth":{"type":"integer","minimum":1,"maximum":%d,"description":"Levels to list (default 1): 2 lists each subdirectory's entries under it, as a tree"},
			"sort":{"type":"string","enum":["name","size","mtime"],"description":"Order within each directory: name (default), size (largest first), mtime (newest first)"}},
			"additionalProperties":false}`, s.opts.List.MaxDepth)),
		OutputSchema: schema(`{"type":"object","properties":{
			"path":{"type":"string"},"count":{"type":"integer"},
			"entries":{"type":"array","items":{"type":"object","properties":{
				"name":{"type":"string"},"type":{"type":"string","enum":["file","dir","symlink"]},
				"size":{"type":"integer"},"mtime":{"type":"integer","description":"milliseconds since the Unix epoch"},
				"mode":{"type":"string","description":"type and permissions, as ls -l shows them (-rw-r--r--)"},
				"path":{"type":"string","description":"depth > 1: the entry's path"},
				"depth":{"type":"integer","description":"depth > 1: 1 for the directory's own entries, 2 for theirs, ..."}},
				"required":["name","type","size","mtime","mode"]}},
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
	Depth  *int   `json:"depth"`
	Sort   string `json:"sort"`
}

type lsEntry struct {
	Name  string `json:"name"`
	Type  string `json:"type"`
	Size  int64  `json:"size"`
	Mtime int64  `json:"mtime"`
	Mode  string `json:"mode"`
	Path  string `json:"path,omitempty"`
	Depth int    `json:"depth,omitempty"`
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
	depth := 1
	if in.Depth != nil {
		if *in.Depth < 1 || *in.Depth > s.opts.List.MaxDepth {
			return Errorf("depth must be between 1 and %d (the limit List.MaxDepth), got %d", s.opts.List.MaxDepth, *in.Depth), nil
		}
		depth = *in.Depth
	}
	switch in.Sort {
	case "", "name", "size", "mtime":
	default:
		return Errorf(`sort must be "name", "size" or "mtime", got %q`, in.Sort), nil
	}
	dir := s.abs(in.Path)
	out := lsOut{Path: dir, Entries: []lsEntry{}}
	var levels []int
	if depth == 1 && (in.Sort == "" || in.Sort == "name") {
		l, err := s.fs.ReadDir(ctx, dir, page)
		if err != nil {
			return nil, err
		}
		for _, e := range l.Entries {
			out.Entries = append(out.Entries, entryOf(e, "", 0))
		}
		out.NextOffset = l.NextOffset
	} else {
		w := lsWalk{s: s, ctx: ctx, depth: depth, sort: in.Sort, skip: page.Offset, want: page.Limit, tree: depth > 1}
		if err := w.dir(dir, 1); err != nil && err != errWalkDone {
			return nil, err
		}
		out.Entries = w.out
		if w.more {
			out.NextOffset = page.Offset + page.Limit
		}
		levels = w.levels
	}
	var b strings.Builder
	for i, e := range out.Entries {
		name := shown(e.Name)
		switch e.Type {
		case "dir":
			name += "/"
		case "symlink":
			name += "@"
		}
		if levels != nil && e.Depth > 1 {
			b.WriteString(strings.Repeat("  ", levels[i]-1))
		}
		b.WriteString(name)
		b.WriteByte('\t')
		b.WriteString(strconv.FormatInt(e.Size, 10))
		b.WriteByte('\t')
		b.WriteString(time.UnixMilli(e.Mtime).UTC().Format(time.RFC3339))
		b.WriteByte('\n')
	}
	out.Count = len(out.Entries)
	if out.Count == 0 {
		b.WriteString("(empty directory)\n")
	}
	if out.NextOffset > 0 {
		fmt.Fprintf(&b, "[more entries: call ls again with offset=%d]\n", out.NextOffset)
	}
	return Text(b.String(), out), nil
}

func entryOf(e vfs.Entry, path string, depth int) lsEntry {
	return lsEntry{Name: e.Name, Type: e.Kind.String(), Size: e.Size, Mtime: e.Mtime.UnixNano() / 1e6,
		Mode: e.Mode.String(), Path: path, Depth: depth}
}

// errWalkDone ends a walk that has its page and knows there is more.
var errWalkDone = fmt.Errorf("ls: page full")

// lsWalk lists a tree depth first, each directory's entries in the
// call's order and each subdirectory's entries right after it, and keeps
// the page [skip, skip+want) of that sequence. Symbolic links are listed,
// not followed. Sorting by size or mtime needs a whole directory at a
// time, at most List.MaxSortEntries entries.
type lsWalk struct {
	s          *Set
	ctx        context.Context
	depth      int
	sort       string
	tree       bool
	skip, want int
	out        []lsEntry
	levels     []int
	more       bool
}

func (w *lsWalk) dir(dir string, level int) error {
	var entries []vfs.Entry
	collect := w.sort == "size" || w.sort == "mtime"
	for e, err := range w.s.fs.ReadDirAll(w.ctx, dir) {
		if err != nil {
			return err
		}
		if !collect {
			if err := w.visit(e, level); err != nil {
				return err
			}
			continue
		}
		if len(entries) == w.s.opts.List.MaxSortEntries {
			return fail("%s has more than %d entries, the most ls sorts by %s (the limit List.MaxSortEntries); list it sorted by name, or use find",
				shown(dir), w.s.opts.List.MaxSortEntries, w.sort)
		}
		entries = append(entries, e)
	}
	slices.SortStableFunc(entries, func(a, b vfs.Entry) int {
		if w.sort == "size" {
			return cmp.Compare(b.Size, a.Size)
		}
		return b.Mtime.Compare(a.Mtime)
	})
	for _, e := range entries {
		if err := w.visit(e, level); err != nil {
			return err
		}
	}
	return nil
}

func (w *lsWalk) visit(e vfs.Entry, level int) error {
	if w.skip > 0 {
		w.skip--
	} else if len(w.out) == w.want {
		w.more = true
		return errWalkDone
	} else {
		le := entryOf(e, "", 0)
		if w.tree {
			le.Path, le.Depth = e.Path, level
		}
		w.out = append(w.out, le)
		w.levels = append(w.levels, level)
	}
	if e.Kind == vfs.TypeDir && level < w.depth {
		return w.dir(e.Path, level+1)
	}
	return nil
}
