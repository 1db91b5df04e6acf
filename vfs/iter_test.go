package vfs_test

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"testing"

	"github.com/nookdev/nook/vfs"
)

// tree350 writes /d/f000.txt ... /d/f349.txt, each with one "needle" line,
// and /d/skip.md.
func tree350(t *testing.T) *vfs.FS {
	t.Helper()
	ctx := context.Background()
	f, err := vfs.Open(ctx, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	err = f.Batch(ctx, func(b *vfs.Batch) error {
		for i := range 350 {
			if err := b.WriteFile(fmt.Sprintf("/d/f%03d.txt", i), []byte(fmt.Sprintf("line\nneedle %d\n", i)), &vfs.WriteOptions{MkdirAll: true}); err != nil {
				return err
			}
		}
		return b.WriteFile("/d/skip.md", []byte("no match\n"), nil)
	})
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func collect[T any](t *testing.T, seq func(func(T, error) bool)) []T {
	t.Helper()
	var out []T
	for v, err := range seq {
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, v)
	}
	return out
}

func paths(es []vfs.Entry) []string {
	out := make([]string, len(es))
	for i, e := range es {
		out[i] = e.Path
	}
	return out
}

// Each iterator yields every entry over several pages, in the order of the
// paged call, each once.
func TestIteratorsOverPages(t *testing.T) {
	ctx := context.Background()
	f := tree350(t)
	want := make([]string, 350)
	for i := range want {
		want[i] = fmt.Sprintf("/d/f%03d.txt", i)
	}
	withSkip := append(slices.Clone(want), "/d/skip.md")
	slices.Sort(withSkip)

	if got := paths(collect(t, f.ReadDirAll(ctx, "/d"))); !slices.Equal(got, withSkip) {
		t.Errorf("ReadDirAll: %d entries, first %v", len(got), got[:min(3, len(got))])
	}
	if got := paths(collect(t, f.ReadDirPages(ctx, "/d", vfs.Page{Limit: 100, Offset: 50}))); !slices.Equal(got, withSkip[50:]) {
		t.Errorf("ReadDirPages from 50 by 100: %d entries", len(got))
	}
	if got := paths(collect(t, f.FindAll(ctx, "/", "**/*.txt", &vfs.FindOptions{Page: vfs.Page{Limit: 64}}))); !slices.Equal(got, want) {
		t.Errorf("FindAll: %d entries", len(got))
	}
	if got := paths(collect(t, f.LsAll(ctx, "/d"))); !slices.Equal(got, withSkip) {
		t.Errorf("LsAll: %d entries", len(got))
	}
	ms := collect(t, f.GrepAll(ctx, "needle", "/d", nil))
	if len(ms) != 350 || ms[0].Path != "/d/f000.txt" || ms[0].Line != 2 || ms[0].Text != "needle 0" || ms[349].Text != "needle 349" {
		t.Errorf("GrepAll: %d matches, first %+v", len(ms), ms[0])
	}
	fs := collect(t, f.GrepFilesAll(ctx, "needle", "/d", &vfs.GrepOptions{Mode: vfs.GrepCount, Page: vfs.Page{Limit: 150}}))
	if len(fs) != 350 || fs[7].Path != "/d/f007.txt" || fs[7].Count != 1 {
		t.Errorf("GrepFilesAll: %d files, [7] %+v", len(fs), fs[min(7, len(fs)-1)])
	}
	// Breaking out stops the iteration.
	n := 0
	for range f.ReadDirAll(ctx, "/d") {
		if n++; n == 3 {
			break
		}
	}
	if n != 3 {
		t.Errorf("break: %d", n)
	}
}

// A failing call yields its error once and ends the sequence.
func TestIteratorErrors(t *testing.T) {
	ctx := context.Background()
	f := tree350(t)
	var errs []error
	for e, err := range f.ReadDirAll(ctx, "/missing") {
		if err == nil {
			t.Errorf("entry %v", e.Path)
		}
		errs = append(errs, err)
	}
	if len(errs) != 1 || !errors.Is(errs[0], fs.ErrNotExist) {
		t.Errorf("errors: %v", errs)
	}
	errs = nil
	for _, err := range f.GrepAll(ctx, "needle", "/d", &vfs.GrepOptions{Mode: vfs.GrepFiles}) {
		errs = append(errs, err)
	}
	if len(errs) != 1 || vfs.Code(errs[0]) != vfs.EINVAL {
		t.Errorf("GrepAll in files mode: %v", errs)
	}
	cctx, cancel := context.WithCancel(ctx)
	defer cancel()
	n := 0
	var last error
	for _, err := range f.FindAll(cctx, "/", "**", nil) {
		n++
		if n == 1 {
			cancel()
		}
		last = err
	}
	if !errors.Is(last, context.Canceled) || n > 201 {
		t.Errorf("cancelled: %d items, last %v", n, last)
	}
}
