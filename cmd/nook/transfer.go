package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"time"

	"github.com/nookdev/nook/vfs"
)

// The host transfer commands: import and export.

var cmdImport = &command{
	name: "import", group: "Host transfer", synopsis: "HOSTDIR [PATH]",
	summary: "copy a host directory tree into the workspace",
	help: `Copies the host directory HOSTDIR into the workspace directory PATH
(default /, created when missing): directories are created, files streamed
in with their mode and modification time, symlinks recreated as symlinks with
their target unchanged (they are never followed). Existing workspace files are
overwritten; nothing is deleted. HOSTDIR may also be a single file, which is
copied to PATH (or into it, when PATH is a directory).

A progress line is shown on standard error when it is a terminal. The
summary "imported N files, M bytes in Xs (Y MB/s)" goes to standard output.`,
	run: runImport,
}

// transferStats are the totals of an import or export.
type transferStats struct {
	Files    int64   `json:"files"`
	Dirs     int64   `json:"dirs"`
	Symlinks int64   `json:"symlinks"`
	Bytes    int64   `json:"bytes"`
	Skipped  int64   `json:"skipped"`
	Seconds  float64 `json:"seconds"`
}

func (s *transferStats) summary(verb string) string {
	mbs := 0.0
	if s.Seconds > 0 {
		mbs = float64(s.Bytes) / 1e6 / s.Seconds
	}
	return fmt.Sprintf("%s %d files, %d bytes in %.2fs (%.1f MB/s)", verb, s.Files, s.Bytes, s.Seconds, mbs)
}

func runImport(a *app, fl *flag.FlagSet, args []string) error {
	if err := a.parse(fl, args, 1, 2); err != nil {
		return err
	}
	host := fl.Arg(0)
	dst := "/"
	if fl.NArg() == 2 {
		dst = wsPath(fl.Arg(1))
	}
	hi, err := os.Stat(host)
	if err != nil {
		return err
	}
	f, err := a.workspace()
	if err != nil {
		return err
	}
	dst, err = vfs.Clean(dst)
	if err != nil {
		return err
	}
	start := time.Now()
	im := &importer{a: a, f: f}
	if !hi.IsDir() {
		if fi, err := f.Stat(a.ctx, dst); err == nil && fi.IsDir() {
			dst = joinPath(dst, filepath.Base(host))
		}
		im.prog = newProgress(a, "importing", 1, hi.Size())
		err = im.file(host, dst, hi)
	} else {
		// A trailing separator makes WalkDir follow HOSTDIR when it is itself
		// a symlink to a directory; symlinks below it are never followed.
		root := filepath.Clean(host) + string(filepath.Separator)
		var files, bytes int64
		if isTerminal(a.stderr) && !a.json {
			files, bytes = countHost(root)
		}
		im.prog = newProgress(a, "importing", files, bytes)
		err = im.tree(root, dst)
	}
	im.prog.done()
	if err != nil {
		return err
	}
	im.stats.Seconds = time.Since(start).Seconds()
	return a.emit(im.stats, func() error {
		a.printf("%s\n", im.stats.summary("imported"))
		return nil
	})
}

type importer struct {
	a     *app
	f     *vfs.FS
	stats transferStats
	prog  *progress
}

// tree imports the host directory root with vfs.Import, which writes
// several files at once so that their commits are shared.
func (im *importer) tree(root, dst string) error {
	st, err := im.f.Import(im.a.ctx, dst, os.DirFS(root), &vfs.ImportOptions{
		Progress: func(s vfs.ImportStats) { im.prog.set(s.Files, s.Bytes) },
	})
	im.stats.Files, im.stats.Dirs, im.stats.Symlinks = st.Files, st.Dirs, st.Symlinks
	im.stats.Bytes, im.stats.Skipped = st.Bytes, st.Skipped
	if st.Skipped > 0 {
		im.a.warnf("import: skipped %d entries that are not regular files, directories or symlinks", st.Skipped)
	}
	return err
}

func (im *importer) file(hp, target string, info fs.FileInfo) error {
	ctx := im.a.ctx
	r, err := os.Open(hp)
	if err != nil {
		return err
	}
	defer r.Close()
	mode := info.Mode() & (fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky)
	var src io.Reader = r
	if im.prog != nil {
		src = io.TeeReader(r, im.prog)
	}
	n, err := im.f.WriteFrom(ctx, target, src, &vfs.WriteOptions{Mode: mode, MkdirAll: true})
	if err != nil {
		return err
	}
	if mode == 0 {
		// WriteOptions.Mode 0 means "default"; a host file really had 0000.
		if err := im.f.Chmod(ctx, target, 0); err != nil {
			return err
		}
	}
	if err := im.f.Chtimes(ctx, target, info.ModTime(), info.ModTime()); err != nil {
		return err
	}
	im.stats.Files++
	im.stats.Bytes += n
	im.prog.file()
	return nil
}

// countHost counts the regular files and their bytes below root, for the
// progress line. Errors are left for the real walk to report.
func countHost(root string) (files, bytes int64) {
	filepath.WalkDir(root, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if info, err := d.Info(); err == nil {
				files++
				bytes += info.Size()
			}
		}
		return nil
	})
	return files, bytes
}

var cmdExport = &command{
	name: "export", reads: true, group: "Host transfer", synopsis: "PATH HOSTDIR",
	summary: "copy a workspace tree out to a host directory",
	help: `Copies the workspace directory PATH into the host directory HOSTDIR
(created when missing): the inverse of import. Files keep their mode and
modification time, symlinks are recreated with their target unchanged.
Existing host files are overwritten. Nothing is ever written outside HOSTDIR:
all host writes go through an os.Root opened on HOSTDIR, so a symlink or a
name that would lead outside it is refused. When PATH is a file or a symlink,
it is copied to HOSTDIR/<its name>.`,
	run: runExport,
}

func runExport(a *app, fl *flag.FlagSet, args []string) error {
	f, err := a.parseOpen(fl, args, 2, 2)
	if err != nil {
		return err
	}
	src, host := wsPath(fl.Arg(0)), fl.Arg(1)
	fi, err := f.Lstat(a.ctx, src)
	if err != nil {
		return err
	}
	if fi.Kind == vfs.TypeSymlink {
		// A symlink to a directory exports the directory's content.
		if ti, err := f.Stat(a.ctx, src); err == nil && ti.IsDir() {
			fi = ti
		}
	}
	if err := os.MkdirAll(host, 0o755); err != nil {
		return err
	}
	root, err := os.OpenRoot(host)
	if err != nil {
		return err
	}
	defer root.Close()
	start := time.Now()
	ex := &exporter{a: a, f: f, root: root}
	ex.prog = newProgress(a, "exporting", 0, 0)
	if fi.IsDir() {
		err = ex.tree(fi.Path, ".")
	} else {
		err = ex.node(entryOf(fi), fi.Name())
	}
	ex.prog.done()
	if err != nil {
		return err
	}
	ex.stats.Seconds = time.Since(start).Seconds()
	return a.emit(ex.stats, func() error {
		a.printf("%s\n", ex.stats.summary("exported"))
		return nil
	})
}

type exporter struct {
	a     *app
	f     *vfs.FS
	root  *os.Root
	stats transferStats
	prog  *progress
}

// tree copies the content of the workspace directory dir to the host
// directory rel (relative to the root).
func (ex *exporter) tree(dir, rel string) error {
	off := 0
	for {
		l, err := ex.f.ReadDir(ex.a.ctx, dir, vfs.Page{Offset: off, Limit: ex.f.Limits().MaxPage})
		if err != nil {
			return err
		}
		for _, e := range l.Entries {
			if err := ex.node(e, path.Join(rel, e.Name)); err != nil {
				return err
			}
		}
		if l.NextOffset == 0 || len(l.Entries) == 0 {
			return nil
		}
		off = l.NextOffset
	}
}

func (ex *exporter) node(e vfs.Entry, rel string) error {
	ctx := ex.a.ctx
	if err := ctx.Err(); err != nil {
		return err
	}
	if !filepath.IsLocal(filepath.FromSlash(rel)) {
		return fmt.Errorf("export: refusing to write %q outside %s", rel, ex.root.Name())
	}
	hp := filepath.FromSlash(rel)
	mode := e.Mode &^ fs.ModeType
	switch e.Kind {
	case vfs.TypeDir:
		if hi, err := ex.root.Lstat(hp); err == nil && !hi.IsDir() {
			if err := ex.root.Remove(hp); err != nil {
				return err
			}
		}
		if err := ex.root.Mkdir(hp, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
			return err
		}
		if err := ex.tree(e.Path, rel); err != nil {
			return err
		}
		ex.stats.Dirs++
		if err := ex.root.Chmod(hp, mode); err != nil {
			return err
		}
		return ex.root.Chtimes(hp, e.Mtime, e.Mtime)
	case vfs.TypeSymlink:
		target, err := ex.f.Readlink(ctx, e.Path)
		if err != nil {
			return err
		}
		if err := ex.removeNonDir(hp); err != nil {
			return err
		}
		if err := ex.root.Symlink(target, hp); err != nil {
			return err
		}
		ex.stats.Symlinks++
		return nil
	default:
		if err := ex.removeNonDir(hp); err != nil {
			return err
		}
		r, err := ex.f.NewReader(ctx, e.Path)
		if err != nil {
			return err
		}
		defer r.Close()
		w, err := ex.root.OpenFile(hp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
		if err != nil {
			return err
		}
		n, err := io.Copy(io.MultiWriter(w, ex.prog), r)
		if cerr := w.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return err
		}
		if err := ex.root.Chmod(hp, mode); err != nil {
			return err
		}
		if err := ex.root.Chtimes(hp, e.Mtime, e.Mtime); err != nil {
			return err
		}
		ex.stats.Files++
		ex.stats.Bytes += n
		ex.prog.file()
		return nil
	}
}

// removeNonDir removes a host symlink or file in the way of a new node, so
// that nothing is written through a pre-existing symlink.
func (ex *exporter) removeNonDir(hp string) error {
	hi, err := ex.root.Lstat(hp)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		return err
	}
	if hi.IsDir() {
		return fmt.Errorf("export: %s: is a directory on the host", filepath.Join(ex.root.Name(), hp))
	}
	return ex.root.Remove(hp)
}
