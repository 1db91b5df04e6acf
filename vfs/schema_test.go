package vfs

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/ncruces/go-sqlite3"
)

// A database written by a newer nook is refused, not misread, and keeps its
// data.
func TestOpenRefusesNewerSchema(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ws.db")
	f, err := Open(bg, path, nil)
	noErr(t, err)
	put(t, f, "/keep", "data")
	noErr(t, f.Close())

	c, err := sqlite3.Open(path)
	noErr(t, err)
	noErr(t, c.Exec(`UPDATE vfs_state SET schema_version = 99`))
	noErr(t, c.Close())

	_, err = Open(bg, path, nil)
	expectErr(t, err, EIO, fmt.Sprintf("Unsupported workspace filesystem schema version 99 (this build supports up to %d)", SchemaVersion))

	c, err = sqlite3.Open(path)
	noErr(t, err)
	noErr(t, c.Exec(fmt.Sprintf(`UPDATE vfs_state SET schema_version = %d`, SchemaVersion)))
	noErr(t, c.Close())
	f, err = Open(bg, path, nil)
	noErr(t, err)
	defer f.Close()
	expectContent(t, f, "/keep", "data")
}

// Reopening a workspace keeps everything, and the schema is created once.
func TestReopen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ws.db")
	f, err := Open(bg, path, nil)
	noErr(t, err)
	put(t, f, "/a/b", "x")
	rev := revOf(t, f)
	noErr(t, f.Close())
	f, err = Open(bg, path, nil)
	noErr(t, err)
	defer f.Close()
	expectContent(t, f, "/a/b", "x")
	if r := revOf(t, f); r != rev {
		t.Errorf("revision %d after reopen, was %d", r, rev)
	}
}

// Watch sees changes another process (here: another FS on the same file)
// commits, within the poll interval.
func TestWatchOtherProcess(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ws.db")
	a, err := Open(bg, path, nil)
	noErr(t, err)
	defer a.Close()
	b, err := Open(bg, path, nil)
	noErr(t, err)
	defer b.Close()
	ctx, cancel := context.WithTimeout(bg, 10*time.Second)
	defer cancel()
	ch := a.Watch(ctx, revOf(t, a))
	put(t, b, "/from-b", "hi")
	select {
	case c := <-ch:
		if c.Op != OpCreate || c.Path != "/from-b" {
			t.Errorf("watch got %+v", c)
		}
	case <-ctx.Done():
		t.Fatal("no change seen from the other FS")
	}
}
