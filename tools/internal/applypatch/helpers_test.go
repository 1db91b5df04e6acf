package applypatch

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"slices"
	"strings"
	"testing"
)

// dirMarker as a file's content makes memFS report the path as a directory.
const dirMarker = "\x00dir"

// memFS is an in-memory Reader.
type memFS map[string]string

func (m memFS) ReadFile(path string) ([]byte, error) {
	s, ok := m[path]
	if !ok {
		return nil, &fs.PathError{Op: "read", Path: path, Err: fs.ErrNotExist}
	}
	if s == dirMarker {
		return nil, &fs.PathError{Op: "read", Path: path, Err: errors.New("is a directory")}
	}
	return []byte(s), nil
}

// applyOps performs ops on a copy of m, as a caller would.
func applyOps(m memFS, ops []Op) memFS {
	out := maps.Clone(m)
	for _, op := range ops {
		switch op.Kind {
		case Add:
			out[op.Path] = string(op.Content)
		case Delete:
			delete(out, op.Path)
		case Update:
			if op.MoveTo != "" {
				delete(out, op.Path)
				out[op.MoveTo] = string(op.Content)
			} else {
				out[op.Path] = string(op.Content)
			}
		}
	}
	return out
}

// patch joins lines into a patch text, wrapping them in the envelope.
func patch(lines ...string) string {
	return "*** Begin Patch\n" + strings.Join(lines, "\n") + "\n*** End Patch\n"
}

// plan parses and plans text against files, failing the test on a parse
// error.
func plan(t *testing.T, files memFS, cwd, text string) ([]Op, error) {
	t.Helper()
	p, err := Parse(text)
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	return p.Plan(files, cwd)
}

// describe renders ops compactly for comparison.
func describe(ops []Op) string {
	var b strings.Builder
	for _, op := range ops {
		fmt.Fprintf(&b, "%s %s", op.Kind, op.Path)
		if op.MoveTo != "" {
			fmt.Fprintf(&b, " -> %s", op.MoveTo)
		}
		if op.Kind == Update {
			fmt.Fprintf(&b, " (%d)", op.Hunks)
		}
		if op.Kind != Delete {
			fmt.Fprintf(&b, " %q", op.Content)
		}
		b.WriteString("\n")
	}
	return b.String()
}

func sortedKeys(m memFS) []string {
	return slices.Sorted(maps.Keys(m))
}
