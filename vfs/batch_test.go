package vfs

import (
	"errors"
	"fmt"
	"strconv"
	"sync"
	"testing"
)

func TestBatchCommitsTogether(t *testing.T) {
	f := openTest(t)
	put(t, f, "/a", "old a")
	put(t, f, "/gone", "x")
	rev := revOf(t, f)
	err := f.Batch(bg, func(b *Batch) error {
		if err := b.WriteFile("/dir/new", []byte("n"), &WriteOptions{MkdirAll: true}); err != nil {
			return err
		}
		data, err := b.ReadFile("/dir/new") // sees its own write
		if err != nil || string(data) != "n" {
			return fmt.Errorf("read own write: %q, %v", data, err)
		}
		if err := b.WriteFile("/a", seededBytes(1, 2*ChunkSize+1), nil); err != nil {
			return err
		}
		if err := b.Rename("/a", "/b"); err != nil {
			return err
		}
		return b.Remove("/gone", nil)
	})
	noErr(t, err)
	if r := revOf(t, f); r != rev+1 {
		t.Errorf("batch took revisions %d..%d, want one", rev, r)
	}
	expectContent(t, f, "/dir/new", "n")
	expectContent(t, f, "/b", string(seededBytes(1, 2*ChunkSize+1)))
	expectMissing(t, f, "/a")
	expectMissing(t, f, "/gone")
}

func TestBatchFailureChangesNothing(t *testing.T) {
	f := openTest(t)
	put(t, f, "/a", "a")
	before, rev := usageOf(t, f), revOf(t, f)
	boom := errors.New("boom")
	err := f.Batch(bg, func(b *Batch) error {
		noErr(t, b.WriteFile("/a", []byte("changed"), nil))
		noErr(t, b.WriteFile("/new", []byte("new"), nil))
		noErr(t, b.Remove("/a", nil))
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("Batch = %v, want boom", err)
	}
	// An operation's own error, returned by fn, undoes the batch too.
	err = f.Batch(bg, func(b *Batch) error {
		noErr(t, b.WriteFile("/a", []byte("changed"), nil))
		return b.Rename("/missing", "/x")
	})
	expectErr(t, err, ENOENT, "no such path: /missing")
	expectContent(t, f, "/a", "a")
	expectMissing(t, f, "/new")
	if after := usageOf(t, f); after != before || revOf(t, f) != rev {
		t.Errorf("a failed batch changed the workspace: %+v -> %+v", before, after)
	}
}

// Read-modify-write in a batch never loses an update, whoever races it.
func TestBatchReadModifyWrite(t *testing.T) {
	f := openTest(t)
	put(t, f, "/n", "0")
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 25 {
				err := f.Batch(bg, func(b *Batch) error {
					data, err := b.ReadFile("/n")
					if err != nil {
						return err
					}
					n, _ := strconv.Atoi(string(data))
					return b.WriteFile("/n", []byte(strconv.Itoa(n+1)), nil)
				})
				if err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	expectContent(t, f, "/n", "200")
}

// A batch writes into files and resizes them as FS.WriteAt and
// FS.Truncate do, on the path its own ResolveBeneath returned, in one
// revision; their errors are the FS's.
func TestBatchWriteAtTruncate(t *testing.T) {
	f := openTest(t)
	put(t, f, "/w/f", "hello")
	noErr(t, f.Symlink(bg, "f", "/w/link"))
	rev := revOf(t, f)
	err := f.Batch(bg, func(b *Batch) error {
		real, err := b.ResolveBeneath("/w", "/w/link", true)
		if err != nil || real != "/w/f" {
			return fmt.Errorf("ResolveBeneath = %q, %v", real, err)
		}
		if size, err := b.WriteAt(real, []byte("J"), 0); err != nil || size != 5 {
			return fmt.Errorf("WriteAt at 0 = %d, %v", size, err)
		}
		if size, err := b.WriteAt(real, []byte(", world"), -1); err != nil || size != 12 {
			return fmt.Errorf("WriteAt at the end = %d, %v", size, err)
		}
		if size, err := b.WriteAt(real, []byte("!"), 14); err != nil || size != 15 {
			return fmt.Errorf("WriteAt past the end = %d, %v", size, err)
		}
		if err := b.Truncate(real, 13); err != nil {
			return err
		}
		data, err := b.ReadFile(real)
		if err != nil || string(data) != "Jello, world\x00" {
			return fmt.Errorf("read own writes: %q, %v", data, err)
		}
		return nil
	})
	noErr(t, err)
	if r := revOf(t, f); r != rev+1 {
		t.Errorf("batch took revisions %d..%d, want one", rev, r)
	}
	expectContent(t, f, "/w/f", "Jello, world\x00")
	noErr(t, f.Batch(bg, func(b *Batch) error {
		if _, err := b.ResolveBeneath("/w", "/outside", true); Code(err) != EACCES {
			t.Errorf("ResolveBeneath outside = %v, want EACCES", err)
		}
		if _, err := b.WriteAt("/w/none", []byte("x"), 0); Code(err) != ENOENT {
			t.Errorf("WriteAt of a missing file = %v, want ENOENT", err)
		}
		if err := b.Truncate("/w", 0); Code(err) != EISDIR {
			t.Errorf("Truncate of a directory = %v, want EISDIR", err)
		}
		if err := b.Truncate("/w/f", -1); Code(err) != EINVAL {
			t.Errorf("Truncate to -1 = %v, want EINVAL", err)
		}
		return nil
	}))
}
