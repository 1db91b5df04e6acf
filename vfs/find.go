package vfs

import (
	"context"
	"fmt"
	"slices"

	"github.com/nookdev/nook/internal/sqldb"
	"github.com/nookdev/nook/vfs/internal/search"
)

// Find lists the entries below directory dir whose path relative to dir
// matches the glob pattern ("" matches everything). Globs have *, **, ?,
// [...] and {a,b}; * matches dotfiles too. Entries come depth-first, names
// in byte order, directories before their contents; symlinks are listed,
// not followed. Directories matching opts.Exclude are not walked, and
// directories the pattern cannot match below are pruned. Result paths are
// canonical: a symlink in dir itself is expanded.
func (f *FS) Find(ctx context.Context, dir, pattern string, opts *FindOptions) (*Listing, error) {
	const op = "find"
	if opts == nil {
		opts = &FindOptions{}
	}
	p, err := f.clean(op, dir)
	if err != nil {
		return nil, err
	}
	limit, offset, err := f.pageOf(opts.Page)
	if err != nil {
		return nil, err
	}
	glob, err := search.CompileGlob(pattern)
	if err != nil {
		return nil, perr(op, pattern, EINVAL, "invalid glob pattern ("+err.Error()+")")
	}
	excl, err := search.NewExcluder(opts.Exclude)
	if err != nil {
		return nil, perr(op, "", EINVAL, "invalid exclude pattern ("+err.Error()+")")
	}
	query := fmt.Sprintf("%q %q %v", pattern, opts.Exclude, opts.Types)
	out := &Listing{}
	err = f.view(ctx, op, p, func(c *sqldb.Conn) error {
		res, err := f.resolveDir(c, op, p)
		if err != nil {
			return err
		}
		walk := func(from string, skip int) error {
			out.Entries, out.NextOffset = nil, 0
			pg := pager{out: out, limit: limit, offset: skip, base: offset}
			return f.walk(c, res, from, func(e *Entry, rel string) (bool, bool, error) {
				if err := ctx.Err(); err != nil {
					return false, true, err
				}
				isDir := e.Kind == TypeDir
				if excl.Excluded(rel, isDir) {
					return false, false, nil
				}
				if glob.Match(rel) && (len(opts.Types) == 0 || slices.Contains(opts.Types, e.Kind)) && pg.add(e) {
					f.cursors.put(cursorKey(op, res.path, query, offset+limit), cursor{from: rel})
					return false, true, nil
				}
				return isDir && glob.CouldMatchUnder(rel), false, nil
			})
		}
		if cur, ok := f.cursors.get(cursorKey(op, res.path, query, offset)); ok && offset > 0 {
			if err := walk(cur.from, 0); err != errResumeLost {
				return err
			}
		}
		return walk("", offset)
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// pager collects one page of a walk's results.
type pager struct {
	out           *Listing
	limit, offset int // page size; results to pass over first
	base          int // the caller's offset: where this page starts
	seen          int // results offered so far
}

// add offers the next result; it reports true when the page is full, so the
// walk can stop (NextOffset is then set: there is at least one more).
func (p *pager) add(e *Entry) (full bool) {
	if len(p.out.Entries) == p.limit {
		p.out.NextOffset = p.base + p.limit
		return true
	}
	if p.seen >= p.offset {
		p.out.Entries = append(p.out.Entries, *e)
	}
	p.seen++
	return false
}

// Ls lists every file (not directories or symlinks) at or below prefix, in
// walk order. A prefix that does not exist, or that is a symlink, lists
// nothing rather than failing.
func (f *FS) Ls(ctx context.Context, prefix string, page Page) (*Listing, error) {
	const op = "ls"
	p, err := f.clean(op, prefix)
	if err != nil {
		return nil, err
	}
	limit, offset, err := f.pageOf(page)
	if err != nil {
		return nil, err
	}
	out := &Listing{}
	err = f.view(ctx, op, p, func(c *sqldb.Conn) error {
		res, err := f.resolve(c, p, false)
		if err != nil || res.n == nil {
			return nil
		}
		if res.n.typ == TypeFile {
			if offset == 0 && limit > 0 {
				out.Entries = []Entry{{Path: p, Name: res.name, Kind: TypeFile, Mode: FromUnixMode(res.n.mode),
					Size: res.n.size, Mtime: nsTime(res.n.mtime), Inode: res.n.inode}}
			}
			return nil
		}
		if res.n.typ != TypeDir {
			return nil
		}
		pg := pager{out: out, limit: limit, offset: offset, base: offset}
		return f.walk(c, res, "", func(e *Entry, rel string) (bool, bool, error) {
			if err := ctx.Err(); err != nil {
				return false, true, err
			}
			if e.Kind == TypeFile && pg.add(e) {
				return false, true, nil
			}
			return true, false, nil
		})
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
