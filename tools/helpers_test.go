package tools

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nookdev/nook/vfs"
)

var bg = context.Background()

// newSet returns a tool set over a fresh workspace in a real database file.
func newSet(t testing.TB, opts Options) (*Set, *vfs.FS) {
	t.Helper()
	f, err := vfs.Open(bg, filepath.Join(t.TempDir(), "ws.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return New(f, opts), f
}

// call calls a tool with JSON arguments and returns its result.
func call(t testing.TB, s *Set, name, args string) *Result {
	t.Helper()
	r, err := s.Call(bg, name, json.RawMessage(args))
	if err != nil {
		t.Fatalf("%s %s: %v", name, args, err)
	}
	return r
}

// text is a result's text content.
func text(r *Result) string {
	var b strings.Builder
	for _, c := range r.Content {
		if c.Type == TextContent {
			b.WriteString(c.Text)
		}
	}
	return b.String()
}

// ok calls a tool and fails the test on an error result.
func ok(t testing.TB, s *Set, name, args string) *Result {
	t.Helper()
	r := call(t, s, name, args)
	if r.IsError {
		t.Fatalf("%s %s: error result: %s", name, args, text(r))
	}
	return r
}

// fails calls a tool and checks it returns an error result with exactly msg.
func fails(t testing.TB, s *Set, name, args, msg string) {
	t.Helper()
	r := call(t, s, name, args)
	if !r.IsError {
		t.Errorf("%s %s: not an error: %s", name, args, text(r))
		return
	}
	if msg != "" && text(r) != msg {
		t.Errorf("%s %s:\n got %q\nwant %q", name, args, text(r), msg)
	}
}

// structured round-trips a result's structured value through JSON.
func structured(t testing.TB, r *Result) map[string]any {
	t.Helper()
	b, err := json.Marshal(r.Structured)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func mustWrite(t testing.TB, f *vfs.FS, p, content string) {
	t.Helper()
	if err := f.WriteFile(bg, p, []byte(content), &vfs.WriteOptions{MkdirAll: true}); err != nil {
		t.Fatal(err)
	}
}

func contentOf(t testing.TB, f *vfs.FS, p string) string {
	t.Helper()
	b, err := f.ReadFile(bg, p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
