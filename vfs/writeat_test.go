package vfs

import (
	"bytes"
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/nookdev/nook/internal/sqldb"
)

func TestWriteAtAndTruncate(t *testing.T) {
	f := openTest(t)
	ctx := context.Background()
	if err := f.WriteFile(ctx, "/a", []byte("hello"), nil); err != nil {
		t.Fatal(err)
	}
	check := func(want string) {
		t.Helper()
		got, err := f.ReadFile(ctx, "/a")
		if err != nil || string(got) != want {
			t.Fatalf("content %q %v, want %q", got, err, want)
		}
	}
	if n, err := f.WriteAt(ctx, "/a", []byte("J"), 0); err != nil || n != 5 {
		t.Fatal(n, err)
	}
	check("Jello")
	if n, _ := f.WriteAt(ctx, "/a", []byte("!"), -1); n != 6 {
		t.Fatal(n)
	}
	check("Jello!")
	f.WriteAt(ctx, "/a", []byte("x"), 8)
	check("Jello!\x00\x00x")
	if err := f.Truncate(ctx, "/a", 3); err != nil {
		t.Fatal(err)
	}
	check("Jel")
	f.Truncate(ctx, "/a", 5)
	check("Jel\x00\x00")
	// Across chunk boundaries.
	big := bytes.Repeat([]byte("ab"), ChunkSize)
	f.WriteAt(ctx, "/a", big, ChunkSize-3)
	got, _ := f.ReadFile(ctx, "/a")
	if int64(len(got)) != ChunkSize-3+int64(len(big)) || !bytes.Equal(got[ChunkSize-3:], big) || string(got[:5]) != "Jel\x00\x00" {
		t.Fatalf("big write: %d bytes", len(got))
	}
	if _, err := f.WriteAt(ctx, "/missing", []byte("x"), 0); Code(err) != ENOENT {
		t.Errorf("missing: %v", err)
	}
	f.Mkdir(ctx, "/d", 0o755)
	if _, err := f.WriteAt(ctx, "/d", []byte("x"), 0); Code(err) != EISDIR {
		t.Errorf("dir: %v", err)
	}
	if err := f.Truncate(ctx, "/a", -1); Code(err) != EINVAL {
		t.Errorf("negative: %v", err)
	}
}

// Appends from many goroutines never overwrite each other.
func TestConcurrentAppends(t *testing.T) {
	f := openTest(t)
	ctx := context.Background()
	f.WriteFile(ctx, "/log", nil, nil)
	var wg sync.WaitGroup
	for i := range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			f.WriteAt(ctx, "/log", []byte{byte('a' + i)}, -1)
		}()
	}
	wg.Wait()
	got, _ := f.ReadFile(ctx, "/log")
	if len(got) != 20 {
		t.Errorf("%d bytes after 20 appends: %q", len(got), got)
	}
}

// A vfs operation made with a joined context commits, or not, with the
// caller's transaction.
func TestJoinedOperations(t *testing.T) {
	f := openTest(t)
	ctx := context.Background()
	boom := errors.New("boom")
	db := f.db
	err := db.Write(ctx, func(c *sqldb.Conn) error {
		jctx := sqldb.Join(ctx, db, c)
		if err := f.WriteFile(jctx, "/kept", []byte("1"), nil); err != nil {
			return err
		}
		if _, err := f.Stat(jctx, "/kept"); err != nil {
			t.Errorf("a joined read does not see the joined write: %v", err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	db.Write(ctx, func(c *sqldb.Conn) error {
		f.WriteFile(sqldb.Join(ctx, db, c), "/dropped", []byte("1"), nil)
		return boom
	})
	if _, err := f.Stat(ctx, "/kept"); err != nil {
		t.Error(err)
	}
	if _, err := f.Stat(ctx, "/dropped"); Code(err) != ENOENT {
		t.Errorf("a write in a rolled-back transaction survived: %v", err)
	}
}
