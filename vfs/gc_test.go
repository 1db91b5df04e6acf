package vfs

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func gcOf(t *testing.T, f *FS) GCStats {
	t.Helper()
	st, err := f.GC(bg)
	if err != nil {
		t.Fatalf("GC: %v", err)
	}
	return *st
}

// stage stores content as a streaming write stages its chunks: with no
// reference, for the write to link when it commits.
func stage(t *testing.T, f *FS, content []byte) {
	t.Helper()
	noErr(t, f.updateRaw(bg, "write", "", func(tx *wtx) error {
		_, err := tx.putBlob(newChunk(content), 0)
		return err
	}))
}

// A chunk that loses its last reference goes in that transaction; one a
// streaming write staged waits for GC, for the GC window, even when a write
// dropped its last reference meanwhile.
func TestGCWindow(t *testing.T) {
	clk := newClock()
	f := openTest(t, withClock(clk), withGCWindow(time.Hour))
	a, b := seededBytes(1, 1000), seededBytes(2, 1000)
	putBytes(t, f, "/f", a)
	putBytes(t, f, "/f", b) // a's chunk goes at once
	if u := usageOf(t, f); u.Stored != 1000 || u.Bytes != 1000 {
		t.Errorf("Usage = %+v", u)
	}
	if st := gcOf(t, f); st != (GCStats{}) {
		t.Errorf("GC with nothing staged = %+v", st)
	}
	stage(t, f, seededBytes(3, 700)) // a streaming write's chunk, not linked yet
	c := seededBytes(4, 300)
	putBytes(t, f, "/g", c)
	stage(t, f, c)       // staged again by a streaming write...
	put(t, f, "/g", "x") // ...so losing /g's reference does not delete it
	if u := usageOf(t, f); u.Stored != 1000+700+300+1 {
		t.Errorf("Usage with two staged chunks = %+v", u)
	}
	rev := revOf(t, f)
	if st := gcOf(t, f); st != (GCStats{}) {
		t.Errorf("GC inside the window = %+v", st)
	}
	clk.Advance(59 * time.Minute)
	if st := gcOf(t, f); st != (GCStats{}) {
		t.Errorf("GC after 59m = %+v", st)
	}
	clk.Advance(time.Minute)
	if st := gcOf(t, f); st != (GCStats{Blobs: 2, Bytes: 1000, Vacuumed: true}) {
		t.Errorf("GC after the window = %+v", st)
	}
	if st := gcOf(t, f); st != (GCStats{}) {
		t.Errorf("second GC = %+v", st)
	}
	if u := usageOf(t, f); u.Stored != 1001 {
		t.Errorf("Usage.Stored = %d after GC", u.Stored)
	}
	if got, _ := f.ReadFile(bg, "/f"); !bytes.Equal(got, b) {
		t.Error("content changed by GC")
	}
	if r := revOf(t, f); r != rev {
		t.Errorf("GC moved the revision %d -> %d", rev, r)
	}
}

// Many small writes of one file leave no dead chunks behind: each rewrites
// the file's last chunk, and the chunk it replaces goes at once (it used to
// wait for GC: 6,000 writes of 29 bytes made a 528 MB database).
func TestSmallWritesLeaveNoGarbage(t *testing.T) {
	f := openTest(t)
	put(t, f, "/log", "")
	line := []byte("a line of twenty-nine bytes\n")
	for i := 0; i < 6000; i++ {
		if _, err := f.WriteAt(bg, "/log", line, -1); err != nil {
			t.Fatal(err)
		}
	}
	want := int64(6000 * len(line))
	if u := usageOf(t, f); u.Bytes != want || u.Stored != want {
		t.Errorf("Usage = %+v, want %d bytes stored", u, want)
	}
}

func TestGCMultiChunkAndShared(t *testing.T) {
	clk := newClock()
	f := openTest(t, withClock(clk), withGCWindow(time.Hour))
	big := seededBytes(3, 3*ChunkSize+5)
	putBytes(t, f, "/big", big)
	putBytes(t, f, "/copy", big)
	shared := seededBytes(4, 500)
	putBytes(t, f, "/s1", shared)
	putBytes(t, f, "/s2", shared)
	noErr(t, f.Remove(bg, "/big", nil))
	noErr(t, f.Remove(bg, "/s1", nil))
	clk.Advance(2 * time.Hour)
	if st := gcOf(t, f); st != (GCStats{}) {
		t.Errorf("GC collected chunks still used by other files: %+v", st)
	}
	noErr(t, f.Remove(bg, "/copy", nil)) // the last file using big's chunks
	if st := gcOf(t, f); st != (GCStats{}) {
		t.Errorf("GC after the last reference went = %+v, want nothing left", st)
	}
	if u := usageOf(t, f); u.Stored != 500 || u.Bytes != 500 || u.Entries != 2 {
		t.Errorf("Usage = %+v", u)
	}
	expectContent(t, f, "/s2", string(shared))
}

func TestGCReusedChunkSurvives(t *testing.T) {
	clk := newClock()
	f := openTest(t, withClock(clk), withGCWindow(time.Hour))
	a := seededBytes(5, 2000)
	putBytes(t, f, "/f", a)
	put(t, f, "/f", "other") // a unreferenced at T0
	clk.Advance(2 * time.Hour)
	putBytes(t, f, "/g", a) // a referenced again before any GC
	bigA := seededBytes(6, 2*ChunkSize+1)
	putBytes(t, f, "/h", bigA)
	noErr(t, f.Remove(bg, "/h", nil))
	clk.Advance(2 * time.Hour)
	// A streamed write re-stages the same chunks: they must survive too.
	_, err := f.WriteFrom(bg, "/h2", bytes.NewReader(bigA), nil)
	noErr(t, err)
	// Every chunk that was unreferenced has been referenced again.
	if st := gcOf(t, f); st != (GCStats{}) {
		t.Errorf("GC = %+v, want nothing collected", st)
	}
	if got, _ := f.ReadFile(bg, "/g"); !bytes.Equal(got, a) {
		t.Error("/g lost its content to GC")
	}
	if got, _ := f.ReadFile(bg, "/h2"); !bytes.Equal(got, bigA) {
		t.Error("/h2 lost its content to GC")
	}
	clk.Advance(10 * time.Hour)
	gcOf(t, f)
	if got, _ := f.ReadFile(bg, "/g"); !bytes.Equal(got, a) {
		t.Error("/g lost its content to a later GC")
	}
	if got, _ := f.ReadFile(bg, "/h2"); !bytes.Equal(got, bigA) {
		t.Error("/h2 lost its content to a later GC")
	}
	if u := usageOf(t, f); u.Stored != int64(len(a)+len("other")+len(bigA)) {
		t.Errorf("Usage.Stored = %d, want the live %d", u.Stored, len(a)+len("other")+len(bigA))
	}
}

// A streamed write that fails leaves nothing stored (its staged chunks are
// dropped at once, not left for GC), and never drops chunks other files use.
func TestGCStagedChunksOfFailedWrite(t *testing.T) {
	clk := newClock()
	f := openTest(t, withClock(clk), withGCWindow(time.Hour))
	boom := errors.New("boom")
	_, err := f.WriteFrom(bg, "/p", &pieceReader{data: seededBytes(7, 2*ChunkSize), n: ChunkSize, err: boom}, nil)
	expectCode(t, err, EIO)
	if u := usageOf(t, f); u != (Usage{Entries: 1}) {
		t.Errorf("Usage after the failed write = %+v, want nothing stored", u)
	}
	clk.Advance(time.Hour)
	if st := gcOf(t, f); st != (GCStats{}) {
		t.Errorf("GC after a failed write = %+v, want nothing left to collect", st)
	}
	// Chunks shared with a live file survive the failed write's cleanup.
	keep := seededBytes(11, 2*ChunkSize+7)
	putBytes(t, f, "/keep", keep)
	before := usageOf(t, f)
	_, err = f.WriteFrom(bg, "/p", &pieceReader{data: keep[:2*ChunkSize], n: 4096, err: boom}, nil)
	expectCode(t, err, EIO)
	if after := usageOf(t, f); after != before {
		t.Errorf("usage %+v -> %+v", before, after)
	}
	clk.Advance(2 * time.Hour)
	if st := gcOf(t, f); st != (GCStats{}) {
		t.Errorf("GC = %+v", st)
	}
	if got, err := f.ReadFile(bg, "/keep"); err != nil || !bytes.Equal(got, keep) {
		t.Errorf("/keep after a failed write of the same chunks: %d bytes, %v", len(got), err)
	}
}

// hookReader calls hook once, after n bytes were read.
type hookReader struct {
	r    io.Reader
	n    int
	hook func()
}

func (h *hookReader) Read(p []byte) (int, error) {
	if h.n <= 0 && h.hook != nil {
		h.hook()
		h.hook = nil
	}
	m, err := h.r.Read(p[:min(len(p), max(h.n, 1))])
	h.n -= m
	return m, err
}

// A streamed write slower than the GC window loses its staged chunks to GC;
// it must fail cleanly (the documented "retry" error), not link missing data.
func TestGCDuringSlowStreamedWrite(t *testing.T) {
	clk := newClock()
	f := openTest(t, withClock(clk), withGCWindow(time.Hour))
	put(t, f, "/p", "old")
	data := seededBytes(10, 3*ChunkSize)
	r := &hookReader{r: bytes.NewReader(data), n: 2 * ChunkSize, hook: func() {
		clk.Advance(2 * time.Hour)
		if st := gcOf(t, f); st.Blobs != 2 {
			t.Errorf("GC during the write = %+v, want the 2 staged chunks", st)
		}
	}}
	_, err := f.WriteFrom(bg, "/p", r, nil)
	expectErr(t, err, EIO, "a staged chunk was collected before the write finished; retry: /p")
	expectContent(t, f, "/p", "old")
	// Retrying works.
	_, err = f.WriteFrom(bg, "/p", bytes.NewReader(data), nil)
	noErr(t, err)
	if got, _ := f.ReadFile(bg, "/p"); !bytes.Equal(got, data) {
		t.Error("retried write differs")
	}
}

// A file removed while a process held it open, which then died (here: its
// FS closed without closing the handle), is an orphan for the next GC.
func TestGCOrphans(t *testing.T) {
	clk := newClock()
	path := filepath.Join(t.TempDir(), "ws.db")
	opts := &Options{Now: clk.Now, GCWindow: time.Hour}
	f1, err := Open(bg, path, opts)
	noErr(t, err)
	data := seededBytes(8, 2*ChunkSize+10)
	putBytes(t, f1, "/o", data)
	h, err := f1.OpenFile(bg, "/o", os.O_RDONLY, 0)
	noErr(t, err)
	noErr(t, f1.Remove(bg, "/o", nil))
	if st := gcOf(t, f1); st.Orphans != 0 {
		t.Errorf("GC collected a file open in this process: %+v", st)
	}
	noErr(t, f1.Close())
	h.Close()

	f2, err := Open(bg, path, opts)
	noErr(t, err)
	defer f2.Close()
	if u := usageOf(t, f2); u.Entries != 1 || u.Bytes != 0 || u.Stored != int64(len(data)) {
		t.Errorf("Usage on reopen = %+v", u)
	}
	if st := gcOf(t, f2); st != (GCStats{Orphans: 1}) {
		t.Errorf("GC = %+v, want one orphan", st)
	}
	clk.Advance(time.Hour)
	if st := gcOf(t, f2); st != (GCStats{Blobs: 3, Bytes: int64(len(data)), Vacuumed: true}) {
		t.Errorf("GC of the orphan's chunks = %+v", st)
	}
	if u := usageOf(t, f2); u != (Usage{Entries: 1}) {
		t.Errorf("Usage = %+v", u)
	}
}

// Content written by one FS value is read by another on the same database
// (another process), and survives reopening.
func TestReopenAndShare(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ws.db")
	f1, err := Open(bg, path, nil)
	noErr(t, err)
	defer f1.Close()
	f2, err := Open(bg, path, nil)
	noErr(t, err)
	defer f2.Close()
	data := seededBytes(9, ChunkSize+9)
	putBytes(t, f1, "/shared/x", data)
	if got, err := f2.ReadFile(bg, "/shared/x"); err != nil || !bytes.Equal(got, data) {
		t.Errorf("second FS read %d bytes, %v", len(got), err)
	}
	noErr(t, f2.Rename(bg, "/shared/x", "/shared/y"))
	expectMissing(t, f1, "/shared/x")
	noErr(t, f1.Close())
	f3, err := Open(bg, path, nil)
	noErr(t, err)
	defer f3.Close()
	if got, err := f3.ReadFile(bg, "/shared/y"); err != nil || !bytes.Equal(got, data) {
		t.Errorf("reopened FS read %d bytes, %v", len(got), err)
	}
	if r1, r3 := revOf(t, f2), revOf(t, f3); r1 != r3 {
		t.Errorf("revisions differ: %d, %d", r1, r3)
	}
}
