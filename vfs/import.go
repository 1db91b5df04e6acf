package vfs

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"path"
	"sync"
	"time"
)

// ImportOptions control Import.
type ImportOptions struct {
	// Workers is how many files are written at once (0 means
	// DefaultImportWorkers). Concurrent writes share commits, so a few
	// workers import many small files several times faster than one.
	Workers int
	// Progress, when set, is called after each file, directory or symlink
	// with the totals so far. Calls do not overlap.
	Progress func(ImportStats)
}

// DefaultImportWorkers is Import's default concurrency.
const DefaultImportWorkers = 4

// ImportStats counts what Import brought in.
type ImportStats struct {
	Files    int64 `json:"files"`
	Dirs     int64 `json:"dirs"`
	Symlinks int64 `json:"symlinks"`
	Bytes    int64 `json:"bytes"`
	// Skipped counts entries that are neither regular files, directories
	// nor symlinks (devices, sockets, pipes), and symlinks of an fs.FS that
	// cannot read them (one that is not an fs.ReadLinkFS).
	Skipped int64 `json:"skipped"`
}

// Import copies the tree of src (from its root ".") into the directory dst,
// which is created if needed: directories, regular files (streamed, with
// their permission bits and modification times) and symlinks (verbatim,
// from an fs.ReadLinkFS such as os.DirFS; resolved inside the workspace
// like any other). Existing files are overwritten and an existing symlink
// at a file's or link's place is replaced. Each file is written atomically;
// the import as a whole is not: on error, what was imported stays, and the
// first error is returned. When the workspace keeps a trigram index,
// Import returns once the imported chunks are indexed (but for less than
// a block of them; see SetIndex).
func (f *FS) Import(ctx context.Context, dst string, src fs.FS, opts *ImportOptions) (ImportStats, error) {
	if opts == nil {
		opts = &ImportOptions{}
	}
	workers := opts.Workers
	if workers <= 0 {
		workers = DefaultImportWorkers
	}
	root, err := f.clean("import", dst)
	if err != nil {
		return ImportStats{}, err
	}
	if err := f.MkdirAll(ctx, root, 0); err != nil {
		return ImportStats{}, err
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	im := &importer{f: f, src: src, progress: opts.Progress, cancel: cancel}
	jobs := make(chan importJob)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			im.fail(im.work(ctx, jobs))
		}()
	}
	type dirTime struct {
		path  string
		mtime time.Time
	}
	var dirs []dirTime
	walkErr := fs.WalkDir(src, ".", func(rel string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if err := context.Cause(ctx); err != nil {
			return err
		}
		target := root
		if rel != "." {
			target = path.Join(root, rel)
		}
		switch {
		case d.IsDir():
			if rel == "." {
				return nil
			}
			info, err := d.Info()
			if err != nil {
				return err
			}
			if err := f.MkdirAll(ctx, target, info.Mode().Perm()); err != nil {
				return err
			}
			dirs = append(dirs, dirTime{target, info.ModTime()})
			im.count(func(s *ImportStats) { s.Dirs++ })
		case d.Type()&fs.ModeSymlink != 0:
			return im.symlink(ctx, rel, target)
		case d.Type().IsRegular():
			select {
			case jobs <- importJob{rel: rel, target: target}:
			case <-ctx.Done():
				return context.Cause(ctx)
			}
		default:
			im.count(func(s *ImportStats) { s.Skipped++ })
		}
		return nil
	})
	close(jobs)
	wg.Wait()
	im.fail(walkErr)
	if err := im.err; err != nil {
		return im.stats, err
	}
	// Directory times last, deepest first: creating their entries moved them.
	for i := len(dirs) - 1; i >= 0; i-- {
		if err := f.Chtimes(ctx, dirs[i].path, dirs[i].mtime, dirs[i].mtime); err != nil {
			return im.stats, err
		}
	}
	// The trigram index of what was imported, which the indexer builds
	// while the files are written: ready when Import returns.
	f.waitIndex(ctx)
	return im.stats, nil
}

type importJob struct {
	rel, target string
}

// importer is one Import's shared state.
type importer struct {
	f        *FS
	src      fs.FS
	progress func(ImportStats)
	cancel   context.CancelCauseFunc

	mu    sync.Mutex
	stats ImportStats
	err   error
}

// fail records the first error and stops the import.
func (im *importer) fail(err error) {
	if err == nil {
		return
	}
	im.mu.Lock()
	if im.err == nil {
		im.err = err
		im.cancel(err)
	}
	im.mu.Unlock()
}

// count updates the totals and reports progress.
func (im *importer) count(fn func(*ImportStats)) {
	im.mu.Lock()
	defer im.mu.Unlock()
	fn(&im.stats)
	if im.progress != nil {
		im.progress(im.stats)
	}
}

// Small files are committed in groups, one transaction per group, with
// their chunks hashed and filtered beforehand outside the write lock;
// larger files stream through WriteFrom one at a time.
const (
	importSmallFile  = 1 << 20 // at most this size goes into a group
	importGroupFiles = 64      // files per group at most
	importGroupBytes = 8 << 20 // bytes per group at most
)

// importItem is a small file read and chunked, ready to commit.
type importItem struct {
	target string
	opts   WriteOptions
	size   int64
	chunks []chunk
	zero   bool // mode 0000, which WriteOptions.Mode cannot say: set after
}

// work imports the files it receives until jobs closes or ctx ends.
func (im *importer) work(ctx context.Context, jobs <-chan importJob) error {
	var group []importItem
	var bytes int64
	flush := func() error {
		if len(group) == 0 {
			return nil
		}
		err := im.commit(ctx, group)
		group, bytes = group[:0], 0
		return err
	}
	for j := range jobs {
		if ctx.Err() != nil {
			continue // drain: the import already failed
		}
		item, small, err := im.prepare(j)
		if err != nil {
			return err
		}
		if !small {
			if err := im.file(ctx, j); err != nil {
				return err
			}
			continue
		}
		group = append(group, item)
		bytes += item.size
		if len(group) >= importGroupFiles || bytes >= importGroupBytes {
			if err := flush(); err != nil {
				return err
			}
		}
	}
	return flush()
}

// prepare reads a small file and chunks it; small is false for a file too
// large to group, which the caller streams instead.
func (im *importer) prepare(j importJob) (importItem, bool, error) {
	r, err := im.src.Open(j.rel)
	if err != nil {
		return importItem{}, false, err
	}
	defer r.Close()
	info, err := r.Stat()
	if err != nil {
		return importItem{}, false, err
	}
	if info.Size() > importSmallFile {
		return importItem{}, false, nil
	}
	data, err := io.ReadAll(io.LimitReader(r, importSmallFile+1))
	if err != nil {
		return importItem{}, false, err
	}
	if int64(len(data)) > importSmallFile { // it grew meanwhile
		return importItem{}, false, nil
	}
	mode := info.Mode().Perm()
	item := importItem{target: j.target, size: int64(len(data)), zero: mode == 0,
		opts: WriteOptions{Mode: mode, ModTime: info.ModTime(), NoFollow: true}}
	for off := 0; off < len(data); off += ChunkSize {
		item.chunks = append(item.chunks, newChunk(data[off:min(off+ChunkSize, len(data))]))
	}
	return item, true, nil
}

// commit writes a group of prepared files in one transaction.
func (im *importer) commit(ctx context.Context, group []importItem) error {
	f := im.f
	err := f.update(ctx, "import", group[0].target, func(t *wtx) error {
		for i := range group {
			it := &group[i]
			if it.size > f.lim.MaxFileSize {
				return f.tooBig("write", it.target)
			}
			err := f.writeInTx(t, it.target, &it.opts, it.size, func(t *wtx) ([]chunkRef, error) {
				refs := make([]chunkRef, 0, len(it.chunks))
				for _, ch := range it.chunks {
					id, err := t.putBlob(ch, 1)
					if err != nil {
						return nil, err
					}
					refs = append(refs, chunkRef{blob: id, size: int64(len(ch.data)), filter: ch.filter})
				}
				return refs, nil
			})
			if err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	for _, it := range group {
		if it.zero {
			if err := f.Chmod(ctx, it.target, 0); err != nil {
				return err
			}
		}
		im.count(func(s *ImportStats) { s.Files++; s.Bytes += it.size })
	}
	return nil
}

func (im *importer) file(ctx context.Context, j importJob) error {
	if ctx.Err() != nil {
		return nil // the import already failed
	}
	r, err := im.src.Open(j.rel)
	if err != nil {
		return err
	}
	defer r.Close()
	info, err := r.Stat()
	if err != nil {
		return err
	}
	mode := info.Mode().Perm()
	n, err := im.f.WriteFrom(ctx, j.target, r, &WriteOptions{Mode: mode, ModTime: info.ModTime(), NoFollow: true})
	if err != nil {
		return err
	}
	if mode == 0 { // Mode 0 means "keep or default": set a real 0000 apart
		if err := im.f.Chmod(ctx, j.target, 0); err != nil {
			return err
		}
	}
	im.count(func(s *ImportStats) { s.Files++; s.Bytes += n })
	return nil
}

func (im *importer) symlink(ctx context.Context, rel, target string) error {
	rl, ok := im.src.(fs.ReadLinkFS)
	if !ok {
		im.count(func(s *ImportStats) { s.Skipped++ })
		return nil
	}
	link, err := rl.ReadLink(rel)
	if err != nil {
		return err
	}
	if old, err := im.f.Lstat(ctx, target); err == nil {
		if old.Kind == TypeSymlink && old.Target == link {
			im.count(func(s *ImportStats) { s.Symlinks++ })
			return nil
		}
		if err := im.f.Remove(ctx, target, nil); err != nil {
			return err
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	if err := im.f.Symlink(ctx, link, target); err != nil {
		return err
	}
	im.count(func(s *ImportStats) { s.Symlinks++ })
	return nil
}
