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
