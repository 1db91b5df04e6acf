package vfs

import (
	"context"
	"errors"
	"os"
	"testing"
)

// The stored-chunk hash equals the hash of the content, whichever way the
// file was written.
func TestContentHash(t *testing.T) {
	f := openTest(t)
	for _, n := range []int{0, 1, ChunkSize, ChunkSize + 1, 3*ChunkSize + 7} {
		data := seededBytes(uint64(n), n)
		putBytes(t, f, "/f", data)
		got, err := f.ContentHash(bg, "/f")
		noErr(t, err)
		if want := HashContent(data); got != want {
			t.Errorf("%d bytes: ContentHash %s, HashContent %s", n, got, want)
		}
	}
	// Written through a handle in pieces, then patched in the middle.
	data := seededBytes(9, 2*ChunkSize+100)
	h, err := f.OpenFile(bg, "/h", os.O_CREATE|os.O_RDWR, 0)
	noErr(t, err)
	for off := 0; off < len(data); off += 1000 {
		_, err := h.Write(data[off:min(off+1000, len(data))])
		noErr(t, err)
	}
	copy(data[ChunkSize-2:], "XYZW")
	_, err = h.WriteAt([]byte("XYZW"), ChunkSize-2)
	noErr(t, err)
	noErr(t, h.Close())
	got, err := f.ContentHash(bg, "/h")
	noErr(t, err)
	if want := HashContent(data); got != want {
		t.Errorf("handle-written file: ContentHash %s, HashContent %s", got, want)
	}
	_, err = f.ContentHash(bg, "/")
	expectErr(t, err, EISDIR, "path is a directory: /")
	_, err = f.ContentHash(bg, "/nope")
	expectErr(t, err, ENOENT, "no such file: /nope")
}

// Ping takes the writer and changes nothing; a closed workspace fails it
// with EIO.
func TestPing(t *testing.T) {
	ctx := context.Background()
	f := openTest(t)
	rev, _ := f.Rev(ctx)
	if err := f.Ping(ctx); err != nil {
		t.Fatal(err)
	}
	if r, _ := f.Rev(ctx); r != rev {
		t.Errorf("Ping took revision %d (was %d)", r, rev)
	}
	f.Close()
	var pe *PathError
	if err := f.Ping(ctx); !errors.As(err, &pe) || pe.Code != EIO || pe.Op != "ping" || pe.Text != "workspace is closed" {
		t.Errorf("Ping of a closed workspace: %v", err)
	}
}
