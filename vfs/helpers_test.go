package vfs

import (
	"context"
	"path/filepath"
	"testing"
)

// openTest opens a fresh filesystem in a real database file.
func openTest(t testing.TB, opts ...func(*Options)) *FS {
	t.Helper()
	o := &Options{}
	for _, fn := range opts {
		fn(o)
	}
	f, err := Open(context.Background(), filepath.Join(t.TempDir(), "ws.db"), o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}
