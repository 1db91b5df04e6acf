package vfs

import (
	"context"
	"iter"
)

// Iterators over every page of a listing. Each asks for one page at a
// time (Page.Limit entries, the default page when zero, starting at
// Page.Offset) and yields its entries, so a caller never holds more than a
// page; breaking out of the loop stops at once. A failing call yields the
// zero value with its error, once, and ends the sequence. Pages are read
// one after another, each in its own snapshot: under concurrent writes an
// entry can be missed or seen twice where a page boundary moved, as with
// manual paging; use a Batch for a consistent view of a small tree.

// ReadDirAll yields every entry of the directory dir, in ReadDir's order.
//
//	for e, err := range f.ReadDirAll(ctx, "/src") {
//		if err != nil {
//			return err
//		}
//		fmt.Println(e.Name)
//	}
func (f *FS) ReadDirAll(ctx context.Context, dir string) iter.Seq2[Entry, error] {
	return f.ReadDirPages(ctx, dir, Page{})
}

// ReadDirPages is ReadDirAll with a page size and a start: the entries of
// dir from page.Offset on, page.Limit at a time.
func (f *FS) ReadDirPages(ctx context.Context, dir string, page Page) iter.Seq2[Entry, error] {
	return pages(page, func(p Page) ([]Entry, int, error) {
		l, err := f.ReadDir(ctx, dir, p)
		if err != nil {
			return nil, 0, err
		}
		return l.Entries, l.NextOffset, nil
	})
}

// FindAll yields every path below dir that matches pattern, in Find's
// order, reading opts.Limit at a time from opts.Offset on.
func (f *FS) FindAll(ctx context.Context, dir, pattern string, opts *FindOptions) iter.Seq2[Entry, error] {
	o := FindOptions{}
	if opts != nil {
		o = *opts
	}
	return pages(o.Page, func(p Page) ([]Entry, int, error) {
		o.Page = p
		l, err := f.Find(ctx, dir, pattern, &o)
		if err != nil {
			return nil, 0, err
		}
		return l.Entries, l.NextOffset, nil
	})
}

// LsAll yields every file at or below prefix, in Ls's order.
func (f *FS) LsAll(ctx context.Context, prefix string) iter.Seq2[Entry, error] {
	return pages(Page{}, func(p Page) ([]Entry, int, error) {
		l, err := f.Ls(ctx, prefix, p)
		if err != nil {
			return nil, 0, err
		}
		return l.Entries, l.NextOffset, nil
	})
}

// GrepAll yields every matching line (with its context) of a content-mode
// search, in Grep's order, reading opts.Limit matches at a time. opts.Mode
// must be GrepContent; for files and count modes use GrepFilesAll. Files
// Grep skipped (binary, too large) are not yielded: Grep's pages list them.
func (f *FS) GrepAll(ctx context.Context, query, path string, opts *GrepOptions) iter.Seq2[GrepMatch, error] {
	o := GrepOptions{}
	if opts != nil {
		o = *opts
	}
	if o.Mode != GrepContent {
		return func(yield func(GrepMatch, error) bool) {
			yield(GrepMatch{}, perr("grep", "", EINVAL, "GrepAll yields matching lines: use GrepFilesAll for the files and count modes"))
		}
	}
	return pages(o.Page, func(p Page) ([]GrepMatch, int, error) {
		o.Page = p
		r, err := f.Grep(ctx, query, path, &o)
		if err != nil {
			return nil, 0, err
		}
		return r.Matches, r.NextOffset, nil
	})
}

// GrepFilesAll yields every file with a match and its count of matching
// lines (GrepCount; GrepFiles gives the files with a zero Count), in
// Grep's order. GrepContent is taken as GrepFiles.
func (f *FS) GrepFilesAll(ctx context.Context, query, path string, opts *GrepOptions) iter.Seq2[GrepFile, error] {
	o := GrepOptions{}
	if opts != nil {
		o = *opts
	}
	if o.Mode == GrepContent {
		o.Mode = GrepFiles
	}
	return pages(o.Page, func(p Page) ([]GrepFile, int, error) {
		o.Page = p
		r, err := f.Grep(ctx, query, path, &o)
		if err != nil {
			return nil, 0, err
		}
		return r.Files, r.NextOffset, nil
	})
}

// pages yields the items of every page get returns, from start on, until a
// page says there is no next one (next == 0).
func pages[T any](start Page, get func(Page) (items []T, next int, err error)) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		p := start
		for {
			items, next, err := get(p)
			if err != nil {
				var zero T
				yield(zero, err)
				return
			}
			for _, it := range items {
				if !yield(it, nil) {
					return
				}
			}
			if next == 0 || next <= p.Offset {
				return
			}
			p.Offset = next
		}
	}
}
