package wasm

import (
	"io/fs"
	"math"
	"path"
	"strconv"
	"strings"

	experimentalsys "github.com/tetratelabs/wazero/experimental/sys"
	"github.com/tetratelabs/wazero/sys"

	"github.com/nookdev/nook/runtime/host"
)

// vfsFS is the guest's filesystem: wazero's experimental sys.FS over the
// run's host. wazero hands it paths relative to the mount ("." for the
// mount itself), already cleaned and refused when they climb out with "..";
// every operation becomes one or a few path-based fs calls through the
// host (runtime.FSOps), which confine them to Root again, symlinks included.
// File descriptors are kept here (see file): the host keeps no handle.
type vfsFS struct {
	experimentalsys.UnimplementedFS
	st   *runState
	root string // workspace directory
	// files are the open regular files, so that a rename or unlink the
	// guest makes through this FS can follow them; dirs the open
	// directories, whose paths follow renames.
	files map[*file]struct{}
	dirs  map[*file]struct{}
}

func newFS(st *runState) *vfsFS {
	return &vfsFS{st: st, root: st.opts.Root, files: map[*file]struct{}{}, dirs: map[*file]struct{}{}}
}

// abs returns the workspace path of p, a path relative to the mount, and
// whether p ended in a slash.
func (v *vfsFS) abs(p string) (string, bool) {
	slash := strings.HasSuffix(p, "/")
	if p == "" || p == "." {
		return v.root, slash
	}
	return path.Join(v.root, path.Clean("/"+p)), slash
}

// call performs one fs op through the host.
func (v *vfsFS) call(op string, args map[string]any) (any, experimentalsys.Errno) {
	res, err := v.st.host.Call(v.st.ctx, &host.Call{Kind: host.KindFS, Op: op, Args: args})
	if err != nil {
		return nil, v.st.errnoOf(err)
	}
	return res, 0
}

func (v *vfsFS) stat(op, p string) (sys.Stat_t, experimentalsys.Errno) {
	res, errno := v.call(op, map[string]any{"path": p})
	if errno != 0 {
		return sys.Stat_t{}, errno
	}
	return toStat(res), 0
}

// toStat converts the stats of an fs op.
func toStat(v any) sys.Stat_t {
	m, _ := v.(map[string]any)
	num := func(k string) float64 {
		f, _ := m[k].(float64)
		return f
	}
	// Exact nanoseconds when the op gives them (decimal strings), else the
	// float milliseconds.
	ns := func(k string) int64 {
		if s, ok := m[strings.TrimSuffix(k, "Ms")+"Ns"].(string); ok {
			if n, err := strconv.ParseInt(s, 10, 64); err == nil {
				return n
			}
		}
		return int64(math.Round(num(k) * 1e6))
	}
	mode := uint32(num("mode"))
	fm := fs.FileMode(mode & 0o777)
	if mode&0o4000 != 0 {
		fm |= fs.ModeSetuid
	}
	if mode&0o2000 != 0 {
		fm |= fs.ModeSetgid
	}
	if mode&0o1000 != 0 {
		fm |= fs.ModeSticky
	}
	switch mode & 0o170000 {
	case 0o040000:
		fm |= fs.ModeDir
	case 0o120000:
		fm |= fs.ModeSymlink
	}
	return sys.Stat_t{
		Dev:   uint64(num("dev")),
		Ino:   uint64(num("ino")),
		Mode:  fm,
		Nlink: uint64(num("nlink")),
		Size:  int64(num("size")),
		Atim:  ns("atimeMs"),
		Mtim:  ns("mtimeMs"),
		Ctim:  ns("ctimeMs"),
	}
}

// Stat implements sys.FS.
func (v *vfsFS) Stat(p string) (sys.Stat_t, experimentalsys.Errno) {
	if v.isDevNull(p) {
		return devNullStat, 0
	}
	wp, slash := v.abs(p)
	st, errno := v.stat("stat", wp)
	if errno == 0 && slash && !st.Mode.IsDir() {
		return sys.Stat_t{}, experimentalsys.ENOTDIR
	}
	return st, errno
}

// Lstat implements sys.FS. A trailing slash follows a final symlink, as
// POSIX says.
func (v *vfsFS) Lstat(p string) (sys.Stat_t, experimentalsys.Errno) {
	if v.isDevNull(p) {
		return devNullStat, 0
	}
	wp, slash := v.abs(p)
	if slash {
		return v.Stat(p)
	}
	return v.stat("lstat", wp)
}

// OpenFile implements sys.FS.
func (v *vfsFS) OpenFile(p string, flag experimentalsys.Oflag, perm fs.FileMode) (experimentalsys.File, experimentalsys.Errno) {
	if v.isDevNull(p) {
		switch {
		case flag&experimentalsys.O_DIRECTORY != 0:
			return nil, experimentalsys.ENOTDIR
		case flag&experimentalsys.O_CREAT != 0 && flag&experimentalsys.O_EXCL != 0:
			return nil, experimentalsys.EEXIST
		}
		return &nullFile{append: flag&experimentalsys.O_APPEND != 0}, 0
	}
	wp, slash := v.abs(p)
	if v.st.noFollow {
		if _, errno := v.stat("lstat", wp); errno != 0 {
			return nil, errno
		}
		return &linkTimes{fs: v, wp: wp}, 0
	}
	acc := flag & (experimentalsys.O_RDONLY | experimentalsys.O_RDWR | experimentalsys.O_WRONLY)
	f := &file{fs: v, path: wp, readable: acc != experimentalsys.O_WRONLY, writable: acc != experimentalsys.O_RDONLY,
		append: flag&experimentalsys.O_APPEND != 0}
	f.seeker = newSeeker(f)
	creat := flag&experimentalsys.O_CREAT != 0
	excl := flag&experimentalsys.O_EXCL != 0
	if flag&experimentalsys.O_NOFOLLOW != 0 && !(creat && excl) {
		st, errno := v.stat("lstat", wp)
		switch {
		case errno == experimentalsys.ENOENT && creat:
		case errno != 0:
			return nil, errno
		case st.Mode&fs.ModeSymlink != 0:
			if flag&experimentalsys.O_DIRECTORY != 0 {
				return nil, experimentalsys.ENOTDIR
			}
			return nil, experimentalsys.ELOOP
		}
	}
	var st sys.Stat_t
	var errno experimentalsys.Errno
	if !f.writable && !creat && flag&experimentalsys.O_TRUNC == 0 {
		st, errno = v.stat("stat", wp)
	} else {
		lf := 0 // Linux open(2) flags, as runtime.FSOps takes them
		switch acc {
		case experimentalsys.O_WRONLY:
			lf = 1
		case experimentalsys.O_RDWR:
			lf = 2
		}
		if creat {
			lf |= 0o100
		}
		if excl {
			lf |= 0o200
		}
		if flag&experimentalsys.O_TRUNC != 0 {
			lf |= 0o1000
		}
		if f.append {
			lf |= 0o2000
		}
		if perm == 0 {
			perm = 0o666
		}
		var res any
		res, errno = v.call("open", map[string]any{"path": wp, "flags": float64(lf), "mode": float64(perm.Perm())})
		if errno == 0 {
			st = toStat(res)
		}
	}
	if errno != 0 {
		return nil, errno
	}
	f.ino = st.Ino
	f.dir = st.Mode.IsDir()
	v.st.lastOpenDir = f.dir
	f.mode = st.Mode
	switch {
	case f.dir && f.writable:
		return nil, experimentalsys.EISDIR
	case !f.dir && (slash || flag&experimentalsys.O_DIRECTORY != 0):
		return nil, experimentalsys.ENOTDIR
	}
	if f.dir {
		v.dirs[f] = struct{}{}
	} else {
		v.files[f] = struct{}{}
		f.know(st)
	}
	return f, 0
}

// Mkdir implements sys.FS.
func (v *vfsFS) Mkdir(p string, perm fs.FileMode) experimentalsys.Errno {
	wp, _ := v.abs(p)
	_, errno := v.call("mkdir", map[string]any{"path": wp, "mode": float64(perm.Perm())})
	return errno
}

// Chmod implements sys.FS.
func (v *vfsFS) Chmod(p string, perm fs.FileMode) experimentalsys.Errno {
	wp, _ := v.abs(p)
	_, errno := v.call("chmod", map[string]any{"path": wp, "mode": float64(perm & 0o7777)})
	return errno
}

// Rename implements sys.FS. Open files follow the node they were opened
// on: a renamed file (or any file below a renamed directory) is reached by
// its new path, and an open file that the rename replaces keeps its content
// (it is detached, as an unlinked one is).
func (v *vfsFS) Rename(from, to string) experimentalsys.Errno {
	if dotted(from) || dotted(to) {
		return experimentalsys.EINVAL
	}
	wf, _ := v.abs(from)
	wt, _ := v.abs(to)
	var fromIno uint64
	if len(v.files) > 0 {
		if st, errno := v.stat("lstat", wf); errno == 0 {
			fromIno = st.Ino
		}
		if st, errno := v.stat("lstat", wt); errno == 0 && st.Ino != fromIno {
			v.detachName(st, wt)
		}
	}
	if _, errno := v.call("rename", map[string]any{"from": wf, "to": wt}); errno != 0 {
		return errno
	}
	move := func(f *file) {
		switch {
		case fromIno != 0 && f.ino == fromIno && !f.detached:
			f.path = wt
		case strings.HasPrefix(f.path, wf+"/"):
			f.path = wt + f.path[len(wf):]
		case f.path == wf && f.dir:
			f.path = wt
		}
	}
	for f := range v.files {
		move(f)
	}
	for f := range v.dirs {
		move(f)
	}
	return 0
}

// dotted reports whether p ends in "." or "..": such a path names a
// directory by a name that cannot be removed or renamed (rmdir(".") is
// EINVAL), though cleaning it would name a real one.
func dotted(p string) bool {
	p = strings.TrimSuffix(p, "/")
	return p == "." || p == ".." || strings.HasSuffix(p, "/.") || strings.HasSuffix(p, "/..")
}

// Rmdir implements sys.FS.
func (v *vfsFS) Rmdir(p string) experimentalsys.Errno {
	if dotted(p) {
		return experimentalsys.EINVAL
	}
	wp, _ := v.abs(p)
	_, errno := v.call("rmdir", map[string]any{"path": wp})
	return errno
}

// Unlink implements sys.FS. An open file keeps its content after it is
// unlinked: see detach.
func (v *vfsFS) Unlink(p string) experimentalsys.Errno {
	if dotted(p) {
		return experimentalsys.EISDIR
	}
	wp, slash := v.abs(p)
	if slash {
		st, errno := v.stat("stat", wp)
		if errno != 0 {
			return errno
		}
		if st.Mode.IsDir() {
			return experimentalsys.EISDIR
		}
		return experimentalsys.ENOTDIR
	}
	if len(v.files) > 0 {
		if st, errno := v.stat("lstat", wp); errno == 0 && !st.Mode.IsDir() {
			v.detachName(st, wp)
		}
	}
	_, errno := v.call("unlink", map[string]any{"path": wp})
	return errno
}

// Symlink implements sys.FS. An absolute target is a guest path: it is
// stored as the workspace path it names, so the tools and other runs follow
// the link to the same file.
func (v *vfsFS) Symlink(target, link string) experimentalsys.Errno {
	wp, slash := v.abs(link)
	if slash {
		return v.newNameSlash(wp)
	}
	if strings.HasPrefix(target, "/") {
		target = workspacePath(*v.st.opts, target)
	}
	_, errno := v.call("symlink", map[string]any{"target": target, "path": wp})
	return errno
}

// Readlink implements sys.FS; absolute targets come back as guest paths.
func (v *vfsFS) Readlink(p string) (string, experimentalsys.Errno) {
	wp, _ := v.abs(p)
	res, errno := v.call("readlink", map[string]any{"path": wp})
	if errno != 0 {
		return "", errno
	}
	t, _ := res.(string)
	if strings.HasPrefix(t, "/") {
		t = guestPath(*v.st.opts, t)
	}
	v.st.lastLink = []byte(t)
	return t, 0
}

// Link implements sys.FS: a hard link through the link op. A final
// symlink at oldPath is linked itself, as Linux's link(2) does.
func (v *vfsFS) Link(oldPath, newPath string) experimentalsys.Errno {
	wo, oslash := v.abs(oldPath)
	wn, nslash := v.abs(newPath)
	if oslash {
		st, errno := v.stat("stat", wo)
		switch {
		case errno != 0:
			return errno
		case st.Mode.IsDir():
			return experimentalsys.EPERM
		default:
			return experimentalsys.ENOTDIR
		}
	}
	if nslash {
		return v.newNameSlash(wn)
	}
	_, errno := v.call("link", map[string]any{"existingPath": wo, "newPath": wn})
	return errno
}

// newNameSlash is the error of making a symlink or a hard link at a name
// written with a trailing slash, which only a directory can have: EEXIST
// when the name exists (whatever it is), ENOENT when it does not (Linux's
// symlink(2) and link(2)).
func (v *vfsFS) newNameSlash(wp string) experimentalsys.Errno {
	if _, errno := v.stat("lstat", wp); errno == 0 {
		return experimentalsys.EEXIST
	}
	return experimentalsys.ENOENT
}

// Utimens implements sys.FS.
func (v *vfsFS) Utimens(p string, atim, mtim int64) experimentalsys.Errno {
	wp, _ := v.abs(p)
	return v.utimens(wp, atim, mtim)
}

func (v *vfsFS) utimens(wp string, atim, mtim int64) experimentalsys.Errno {
	return v.utimensAt(wp, atim, mtim, true)
}

// utimensAt sets the times of wp, or of a final symlink itself when follow
// is not set.
func (v *vfsFS) utimensAt(wp string, atim, mtim int64, follow bool) experimentalsys.Errno {
	op, statOp := "utimes", "stat"
	if !follow {
		op, statOp = "lutimes", "lstat"
	}
	if atim == experimentalsys.UTIME_OMIT || mtim == experimentalsys.UTIME_OMIT {
		st, errno := v.stat(statOp, wp)
		if errno != 0 {
			return errno
		}
		if atim == experimentalsys.UTIME_OMIT {
			atim = st.Atim
		}
		if mtim == experimentalsys.UTIME_OMIT {
			mtim = st.Mtim
		}
	}
	_, errno := v.call(op, map[string]any{"path": wp, "atimeMs": float64(atim) / 1e6, "mtimeMs": float64(mtim) / 1e6,
		"atimeNs": strconv.FormatInt(atim, 10), "mtimeNs": strconv.FormatInt(mtim, 10)})
	return errno
}

// linkTimes is what OpenFile returns while path_filestat_set_times works
// without following symlinks: wazero opens the path to set the times of
// what it opened, and this sets those of the path itself.
type linkTimes struct {
	experimentalsys.UnimplementedFile
	fs *vfsFS
	wp string
}

// Utimens implements sys.File.
func (l *linkTimes) Utimens(atim, mtim int64) experimentalsys.Errno {
	return l.fs.utimensAt(l.wp, atim, mtim, false)
}

// Close implements sys.File.
func (l *linkTimes) Close() experimentalsys.Errno { return 0 }

// detach gives every open file on the node ino its own copy of the
// content, before the node goes away (unlink, or replaced by a rename).
// When the node keeps other names (st.Nlink > 1, hard links) only the name
// wp goes: the open files that reach the node by another name keep doing
// so, and those opened by the name wp are detached, as there is no handle
// to the node that does not go through a name.
func (v *vfsFS) detachName(st sys.Stat_t, wp string) {
	if st.Nlink > 1 {
		v.detach(st.Ino, wp)
	} else {
		v.detach(st.Ino, "")
	}
}

// detach detaches the open files on the node ino (only those opened by the
// name only, when it is not "").
func (v *vfsFS) detach(ino uint64, only string) {
	var data []byte
	loaded := false
	for f := range v.files {
		if f.ino != ino || f.detached || (only != "" && f.path != only) {
			continue
		}
		if !loaded {
			data, loaded = v.readAll(f.path), true
		}
		f.detached = true
		if data == nil {
			f.stale = true
			continue
		}
		f.mem = append([]byte(nil), data...)
	}
}

// readAll reads a whole file for detach, within the run's memory limit;
// nil when it cannot.
func (v *vfsFS) readAll(wp string) []byte {
	max := v.st.req.Limits.MaxMemoryBytes
	out := []byte{}
	for {
		res, errno := v.call("pread", map[string]any{"path": wp, "offset": float64(len(out)), "length": float64(1 << 20)})
		if errno != 0 {
			return nil
		}
		b, _ := res.([]byte)
		out = append(out, b...)
		if int64(len(out)) > max {
			return nil
		}
		if len(b) == 0 {
			return out
		}
	}
}

// closeAll forgets every open file when the run ends.
func (v *vfsFS) closeAll() {
	clear(v.files)
	clear(v.dirs)
}
