package vfs

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/nookdev/nook/internal/sqldb"
	"github.com/nookdev/nook/vfs/internal/search"
)

func init() { buildFilter = search.BuildFilter }

// Grep searches the file at path, or every file below the directory at
// path, for lines containing query: a literal unless opts.Regex (RE2
// syntax). Files are searched in Find's order and lines in file order;
// paging counts matching lines (content mode) or files (files and count
// modes) across files. Binary files (a NUL in the first 8 KiB) and files
// over opts.MaxFileSize are skipped and listed in Skipped. Symlinks inside a
// searched directory are not followed.
//
// Candidate files come from the workspace's trigram index (see SetIndex)
// when the query has trigrams to look up: with few candidates the tree is
// not even walked. Files the index does not cover yet, and files of more
// than one chunk, are judged by the trigram filter each stored chunk
// carries. Either way, files that cannot contain a match are skipped
// without reading their bytes (such files are not opened, so a binary file
// among them is not listed in Skipped either), and the results are those
// of reading every file. Files are searched by several goroutines at once when
// the machine has the cores and the database spare connections; results
// and paging are the same as a search of one file after another. Under
// concurrent writes, a file's content may be read from a slightly later
// snapshot than the directory walk that found it.
//
// The search stops soon after ctx ends, inside a file too (see
// search.Scanner.WithContext for the one step that cannot be cut short);
// with opts.Timeout, the end of that time returns the results found so
// far instead of an error.
func (f *FS) Grep(ctx context.Context, query, path string, opts *GrepOptions) (*GrepResult, error) {
	const op = "grep"
	if opts == nil {
		opts = &GrepOptions{}
	}
	caller := ctx
	if opts.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, opts.Timeout)
		defer cancel()
	}
	p, err := f.clean(op, path)
	if err != nil {
		return nil, err
	}
	limit, offset, err := f.pageOf(opts.Page)
	if err != nil {
		return nil, err
	}
	if opts.Context < 0 {
		return nil, perr(op, "", EINVAL, fmt.Sprintf("context must be a non-negative integer, got %d", opts.Context))
	}
	if query == "" {
		return nil, perr(op, "", EINVAL, "empty pattern")
	}
	m, err := search.Compile(search.Options{Pattern: query, Regex: opts.Regex, IgnoreCase: opts.IgnoreCase, Context: opts.Context})
	if err != nil {
		return nil, perr(op, "", EINVAL, err.Error())
	}
	var include []*search.Glob
	for _, g := range opts.Include {
		cg, err := search.CompileGlob(g)
		if err != nil {
			return nil, perr(op, g, EINVAL, "invalid include pattern ("+err.Error()+")")
		}
		include = append(include, cg)
	}
	excl, err := search.NewExcluder(opts.Exclude)
	if err != nil {
		return nil, perr(op, "", EINVAL, "invalid exclude pattern ("+err.Error()+")")
	}
	maxSize := opts.MaxFileSize
	if maxSize <= 0 {
		maxSize = DefaultGrepMaxFileSize
	}
	g := &grepper{f: f, ctx: ctx, opts: opts, m: m, q: m.Query(), sc: m.NewScanner().WithContext(ctx),
		limit: limit, skip: offset, offset: offset, maxSize: maxSize, res: &GrepResult{},
		workers: min(runtime.GOMAXPROCS(0), maxGrepWorkers)}
	err = f.view(ctx, op, p, func(c *sqldb.Conn) error {
		g.c = c
		res, err := f.resolve(c, p, true)
		if err != nil {
			return resolveErr(op, p, err, "no such path")
		}
		if res.n == nil {
			return perr(op, p, ENOENT, "no such path")
		}
		if res.n.typ != TypeDir {
			e := Entry{Path: res.path, Name: res.name, Kind: res.n.typ, Size: res.n.size, Inode: res.n.inode}
			_, err := g.file(&e, "", res.mnt, nil)
			return err
		}
		if g.cands, g.indexed, err = f.indexCandidates(c, m.IndexQuery()); err != nil {
			return err
		}
		query := fmt.Sprintf("%q %v %v %d %d %q %q %d", query, opts.Regex, opts.IgnoreCase, opts.Context,
			opts.Mode, opts.Include, opts.Exclude, maxSize)
		key := func(offset int) string { return cursorKey(op, res.path, query, offset) }
		g.excl, g.include = excl, include
		var handled bool
		if handled, err = g.fromIndex(res); handled {
			if err == nil && g.stopRel != "" && g.res.NextOffset > 0 {
				f.cursors.put(key(g.res.NextOffset), cursor{from: g.stopRel, skip: g.stopSkip})
			}
			return err
		}
		from := ""
		if cur, ok := f.cursors.get(key(offset)); ok && offset > 0 {
			from, g.skip = cur.from, cur.skip
		}
		err = g.walk(res, from)
		if err == errResumeLost {
			g.skip = offset
			err = g.walk(res, "")
		}
		if err == nil && g.stopRel != "" && g.res.NextOffset > 0 {
			f.cursors.put(key(g.res.NextOffset), cursor{from: g.stopRel, skip: g.stopSkip})
		}
		return err
	})
	if err != nil && opts.Timeout > 0 && caller.Err() == nil && errors.Is(ctx.Err(), context.DeadlineExceeded) {
		// Out of time: whatever the interrupted step returned (a
		// context error, or SQLite's "interrupted"), the results found
		// so far stand, and the next page starts after them.
		g.res.TimedOut = true
		if g.res.NextOffset == 0 {
			if n := len(g.res.Matches) + len(g.res.Files); n > 0 {
				g.res.NextOffset = offset + n
			}
		}
		return g.res, nil
	}
	if err != nil {
		return nil, err
	}
	return g.res, nil
}

// walk searches the files below res, starting at from (see FS.walk).
func (g *grepper) walk(res resolution, from string) error {
	err := g.f.walk(g.c, res, from, g.visit)
	if err == nil && !g.stopped {
		_, err = g.flush()
	}
	return err
}

// visit takes an entry of the walk (see visitFunc).
func (g *grepper) visit(e *Entry, rel string) (descend, stop bool, err error) {
	if err := g.ctx.Err(); err != nil {
		return false, true, err
	}
	if g.excl.Excluded(rel, e.Kind == TypeDir) {
		return false, false, nil
	}
	if e.Kind == TypeDir {
		return true, false, nil
	}
	if e.Kind != TypeFile || !includes(g.include, rel) {
		return false, false, nil
	}
	if g.ruledOut(e) {
		return false, false, nil
	}
	var mnt *mountRef
	if e.Inode >= 1<<62 {
		mnt = g.f.mountRefFor(e.Path)
	}
	if g.workers <= 1 {
		stop, err := g.file(e, rel, mnt, nil)
		return false, stop, err
	}
	g.batch = append(g.batch, grepItem{e: *e, rel: rel, mnt: mnt})
	if len(g.batch) < grepBatch {
		return false, false, nil
	}
	stop, err = g.flush()
	return false, stop, err
}

func includes(globs []*search.Glob, rel string) bool {
	if len(globs) == 0 {
		return true
	}
	for _, g := range globs {
		if g.Match(rel) {
			return true
		}
	}
	return false
}

// grepper is one Grep call's state.
type grepper struct {
	f       *FS
	ctx     context.Context
	c       *sqldb.Conn
	opts    *GrepOptions
	m       *search.Matcher
	q       *search.Query
	sc      *search.Scanner
	limit   int
	offset  int
	skip    int // results still to pass over
	maxSize int64
	res     *GrepResult

	stopRel  string // where the next page starts (when NextOffset is set)
	stopSkip int    // matches of stopRel this page already holds

	// cands holds, when indexed, the inodes of the files the trigram
	// index cannot rule out (see ruledOut).
	cands   map[int64]bool
	indexed bool

	excl    *search.Excluder
	include []*search.Glob

	workers int        // goroutines that count matches in parallel
	batch   []grepItem // files waiting for the workers, in walk order
	stopped bool       // the page is full
}

// Files are searched in parallel in batches of grepBatch by up to
// maxGrepWorkers goroutines, each with its own read transaction; each
// counts a file's matching lines (the trigram prefilter included). The
// results are then taken in walk order, so paging is exactly as when
// searching one file after another: only the files whose matches fall in
// the requested page are read again to report their lines.
const (
	grepBatch      = 128
	maxGrepWorkers = 3 // leaves one pooled reader connection for the walk
)

// grepItem is a file waiting for a worker, and what the worker found.
type grepItem struct {
	e      Entry
	rel    string
	mnt    *mountRef
	counts fileCount
}

// fileCount is a file's number of matching lines, counted ahead.
type fileCount struct {
	n      int
	binary bool
	known  bool // counted; otherwise the file is searched in order
}

// ruledOut reports whether the trigram index proves that a file holds no
// match. It judges files of one stored chunk only (a match may straddle
// the chunks of a larger one, which their filters judge), and not files
// too large to search, which are listed as skipped.
func (g *grepper) ruledOut(e *Entry) bool {
	return g.indexed && e.Inode < 1<<62 && g.searchable(e) && e.Size <= ChunkSize && !g.cands[e.Inode]
}

// searchable reports whether a file needs reading at all.
func (g *grepper) searchable(e *Entry) bool { return e.Size > 0 && e.Size <= g.maxSize }

// flush counts the batch's files in parallel, then takes their results in
// order; stop reports that the page is full.
func (g *grepper) flush() (stop bool, err error) {
	batch := g.batch
	g.batch = g.batch[:0]
	if len(batch) == 0 {
		return false, nil
	}
	var next atomic.Int64
	errs := make([]error, min(g.workers, len(batch)))
	var wg sync.WaitGroup
	for w := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// A worker without a free connection does nothing: its share
			// is read in order below, on the walk's connection.
			_, errs[w] = g.f.db.TryRead(g.ctx, func(c *sqldb.Conn) error {
				sc := g.m.NewScanner().WithContext(g.ctx)
				for {
					i := int(next.Add(1)) - 1
					if i >= len(batch) {
						return nil
					}
					it := &batch[i]
					if !g.searchable(&it.e) {
						continue // empty or too large: taken in order below
					}
					n, binary, err := g.count(c, sc, &it.e, it.mnt)
					if err != nil {
						return err
					}
					it.counts = fileCount{n: n, binary: binary, known: true}
				}
			})
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return true, ioErr("grep", "", err)
	}
	for i := range batch {
		it := &batch[i]
		pre := &it.counts
		if !pre.known {
			pre = nil
		}
		stop, err := g.file(&it.e, it.rel, it.mnt, pre)
		if err != nil || stop {
			g.stopped = true
			return true, err
		}
	}
	return false, nil
}

// count counts a file's matching lines on connection c.
func (g *grepper) count(c *sqldb.Conn, sc *search.Scanner, e *Entry, mnt *mountRef) (int, bool, error) {
	next, done, err := g.reader(c, e, mnt)
	if err != nil || next == nil {
		return 0, false, err
	}
	defer done()
	limit := 0
	if g.opts.Mode == GrepFiles {
		limit = 1
	}
	return sc.CountFile(next, limit)
}

// file searches one file; stop reports that the page is full. When pre is
// set, the file's matching lines were counted ahead, and the file is read
// again only when some of them belong in the page.
func (g *grepper) file(e *Entry, rel string, mnt *mountRef, pre *fileCount) (stop bool, err error) {
	if e.Size > g.maxSize {
		g.res.Skipped = append(g.res.Skipped, GrepSkip{Path: e.Path, Reason: "too large"})
		return false, nil
	}
	if e.Size == 0 {
		return false, nil
	}
	if pre != nil && (pre.n == 0 || pre.binary || g.opts.Mode != GrepContent || g.skip >= pre.n) {
		return g.counted(e, rel, pre)
	}
	next, done, err := g.reader(g.c, e, mnt)
	if err != nil || next == nil {
		return false, err
	}
	defer done()
	var binary bool
	switch g.opts.Mode {
	case GrepContent:
		var n int
		n, binary, err = g.sc.ScanFile(next, g.skip, func(h search.Hit) bool {
			if len(g.res.Matches) == g.limit {
				g.res.NextOffset = g.offset + g.limit
				stop = true
				return false
			}
			g.res.Matches = append(g.res.Matches, toMatch(e.Path, h, g.opts.Context))
			return true
		})
		g.skip -= min(g.skip, n)
		if stop {
			// The next page starts at this file's n-th match.
			g.stopRel, g.stopSkip = rel, n-1
		}
	default:
		countLimit := 0
		if g.opts.Mode == GrepFiles {
			countLimit = 1
		}
		var n int
		n, binary, err = g.sc.CountFile(next, countLimit)
		if err == nil && n > 0 {
			if g.addFile(e, n) {
				g.stopRel = rel
				return true, nil
			}
		}
	}
	if err != nil {
		return stop, ioErr("grep", e.Path, err)
	}
	if binary {
		g.res.Skipped = append(g.res.Skipped, GrepSkip{Path: e.Path, Reason: "binary"})
	}
	return stop, nil
}

// counted takes a file whose matching lines were counted ahead and need not
// be read again: none match, it is binary, the mode reports counts, or all
// of its matches come before the page.
func (g *grepper) counted(e *Entry, rel string, pre *fileCount) (stop bool, err error) {
	switch {
	case pre.binary:
		g.res.Skipped = append(g.res.Skipped, GrepSkip{Path: e.Path, Reason: "binary"})
	case pre.n == 0:
	case g.opts.Mode == GrepContent:
		g.skip -= pre.n
	default:
		if g.addFile(e, pre.n) {
			g.stopRel = rel
			return true, nil
		}
	}
	return false, nil
}

// addFile records a matching file (files and count modes); it reports true
// when the page was already full.
func (g *grepper) addFile(e *Entry, n int) (full bool) {
	switch {
	case g.skip > 0:
		g.skip--
	case len(g.res.Files) == g.limit:
		g.res.NextOffset = g.offset + g.limit
		return true
	default:
		g.res.Files = append(g.res.Files, GrepFile{Path: e.Path, Count: n})
	}
	return false
}

// reader returns a chunk iterator over a file read on connection c, or nil
// when its trigram filters prove it cannot match.
func (g *grepper) reader(c *sqldb.Conn, e *Entry, mnt *mountRef) (func() ([]byte, error), func(), error) {
	if mnt != nil {
		buf := make([]byte, min(e.Size, ChunkSize))
		var off int64
		return func() ([]byte, error) {
			if off >= e.Size {
				return nil, io.EOF
			}
			n, err := mnt.readAt(buf, off)
			off += int64(n)
			if err == nil && n == 0 {
				return nil, io.EOF
			}
			return buf[:n], err
		}, func() {}, nil
	}
	if g.q != nil {
		s, err := c.Query(`SELECT filter FROM vfs_filters WHERE id >= ? AND id < ? ORDER BY id`, filterID(e.Inode, 0), filterID(e.Inode+1, 0))
		if err != nil {
			return nil, nil, err
		}
		var filters [][]byte
		for s.Step() {
			filters = append(filters, s.ColumnBlob(0, nil))
		}
		if err := sqldb.Done(s, nil); err != nil {
			return nil, nil, err
		}
		if !g.q.MayMatchAny(filters) {
			return nil, nil, nil
		}
	}
	s, err := c.Query(`SELECT d.data FROM vfs_chunks c JOIN vfs_blob_data d ON d.id = c.blob WHERE c.inode = ? ORDER BY c.idx`, e.Inode)
	if err != nil {
		return nil, nil, err
	}
	next := func() ([]byte, error) {
		if err := g.ctx.Err(); err != nil {
			return nil, err
		}
		if s.Step() {
			return s.ColumnRawBlob(0), nil
		}
		if err := s.Err(); err != nil {
			return nil, err
		}
		return nil, io.EOF
	}
	return next, func() { sqldb.Done(s, nil) }, nil
}

func toMatch(path string, h search.Hit, context int) GrepMatch {
	m := GrepMatch{Path: path, Line: h.Line.Num, Text: h.Line.Text}
	if context > 0 {
		m.Context = make([]GrepLine, 0, len(h.Before)+1+len(h.After))
		for _, l := range h.Before {
			m.Context = append(m.Context, grepLine(l))
		}
		m.Context = append(m.Context, grepLine(h.Line))
		for _, l := range h.After {
			m.Context = append(m.Context, grepLine(l))
		}
	}
	return m
}

// mountRefFor finds the mount holding p.
func (f *FS) mountRefFor(p string) *mountRef {
	for _, m := range *f.mounts.Load() {
		if within(p, m.root) {
			r := rel(p, m.root)
			if r == "" {
				r = "."
			}
			return &mountRef{m: m, rel: r}
		}
	}
	return nil
}

func grepLine(l search.Line) GrepLine {
	return GrepLine{Line: l.Num, Text: l.Text, IsMatch: l.IsMatch, Truncated: l.Truncated}
}
