package vfs

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// A fork is a new workspace whose tree is exactly the checkpoint's, that
// then diverges independently; the two compare by checkpoint name.
func TestFork(t *testing.T) {
	clk := newClock()
	dir := t.TempDir()
	f := openTest(t, withClock(clk))
	build(t, f)
	checkpoint(t, f, "base")
	want := dump(t, f)
	mutate(t, f, clk)
	live := dump(t, f)

	path := filepath.Join(dir, "forks", "b.db")
	st, err := f.Fork(bg, "base", path)
	noErr(t, err)
	fi, err := os.Stat(path)
	noErr(t, err)
	if st.Path != path || st.Bytes != fi.Size() || st.Restore.Rev == 0 {
		t.Errorf("fork stats %+v (file %d bytes)", st, fi.Size())
	}
	g, err := Open(bg, path, &Options{Now: clk.Now})
	noErr(t, err)
	defer g.Close()
	if got := dump(t, g); got != want {
		t.Errorf("the fork is not the checkpoint:\n%s", lineDiff(got, want))
	}
	if got := dump(t, f); got != live {
		t.Errorf("forking changed the original:\n%s", lineDiff(got, live))
	}
	// Diverge: each side changes on its own.
	clk.Advance(time.Second)
	put(t, g, "/src/a.txt", "fork's own\n")
	expectContent(t, f, "/src/a.txt", "A changed\n")
	ds, err := g.Diff(bg, "base", "", nil)
	noErr(t, err)
	if len(ds) != 1 || ds[0].Path != "/src/a.txt" || ds[0].Op != DiffModified {
		t.Errorf("fork's diff from base: %+v", ds)
	}

	if _, err := f.Fork(bg, "base", path); Code(err) != EEXIST {
		t.Errorf("fork onto an existing file: %v, want EEXIST", err)
	}
	if _, err := f.Fork(bg, "nosuch", filepath.Join(dir, "c.db")); Code(err) != ENOENT {
		t.Errorf("fork of a missing checkpoint: %v, want ENOENT", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "c.db")); err == nil {
		t.Error("a failed fork left a file")
	}
}

// BenchmarkFork11k forks a workspace of 11,000 files of 12 KiB (129 MiB,
// the size), reporting the new file's size; BenchmarkCheckpoint11k
// is a checkpoint after 100 changed files of the same workspace, for
// comparison. Setup takes a while: run with -benchtime=3x.
func BenchmarkFork11k(b *testing.B) {
	f := bigWorkspace(b)
	checkpoint(b, f, "base")
	dir := b.TempDir()
	b.ResetTimer()
	var size int64
	for i := range b.N {
		st, err := f.Fork(bg, "base", filepath.Join(dir, fmt.Sprintf("fork%d.db", i)))
		noErr(b, err)
		size = st.Bytes
	}
	b.ReportMetric(float64(size)/(1<<20), "MiB/fork")
	var src int64
	for _, suffix := range []string{"", "-wal"} {
		if fi, err := os.Stat(f.db.Path() + suffix); err == nil {
			src += fi.Size()
		}
	}
	b.ReportMetric(float64(src)/(1<<20), "MiB/source")
}

func BenchmarkCheckpoint11k(b *testing.B) {
	f := bigWorkspace(b)
	checkpoint(b, f, "base")
	b.ResetTimer()
	for i := range b.N {
		b.StopTimer()
		noErr(b, f.Batch(bg, func(bt *Batch) error {
			for j := range 100 {
				if err := bt.WriteFile(fmt.Sprintf("/d%02d/f%04d.txt", j%100, j*7), []byte(fmt.Sprint("changed ", i)), nil); err != nil {
					return err
				}
			}
			return nil
		}))
		b.StartTimer()
		checkpoint(b, f, fmt.Sprint("c", i))
	}
}

// bigWorkspace writes 11,000 files of 12 KiB in 110 directories.
func bigWorkspace(b *testing.B) *FS {
	f := openTest(b, withLimits(Limits{MaxTotalBytes: 1 << 30}))
	for d := range 110 {
		noErr(b, f.Batch(bg, func(bt *Batch) error {
			for i := range 100 {
				if err := bt.WriteFile(fmt.Sprintf("/d%02d/f%04d.txt", d, d*100+i), seededBytes(uint64(d*100+i), 12<<10), &WriteOptions{MkdirAll: true}); err != nil {
					return err
				}
			}
			return nil
		}))
	}
	return f
}

// BenchmarkRestore11k restores the 11,000-file workspace after 100 files
// changed; the first iteration's setup reports the full first checkpoint.
func BenchmarkRestore11k(b *testing.B) {
	f := bigWorkspace(b)
	start := time.Now()
	checkpoint(b, f, "base")
	first := time.Since(start)
	b.ResetTimer()
	defer func() { b.ReportMetric(float64(first.Milliseconds()), "ms/first-checkpoint") }()
	for i := range b.N {
		b.StopTimer()
		noErr(b, f.Batch(bg, func(bt *Batch) error {
			for j := range 100 {
				if err := bt.WriteFile(fmt.Sprintf("/d%02d/f%04d.txt", j, j*100), []byte(fmt.Sprint("changed ", i)), nil); err != nil {
					return err
				}
			}
			return nil
		}))
		b.StartTimer()
		st, err := f.Restore(bg, "base", "")
		noErr(b, err)
		if st.Updated != 100 {
			b.Fatalf("restore: %+v, want 100 updated", st)
		}
	}
}
