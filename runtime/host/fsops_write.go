package host

import (
	"context"
	"fmt"
	"io/fs"
	"math"
	"strings"
	"time"

	"github.com/nookdev/nook/vfs"
)

// The ops that change the workspace. Each checks Access first: under
// ReadOnly every one fails with EROFS before looking at the filesystem.

// writeFileArgs are the arguments of writeFile.
type writeFileArgs struct {
	Path string `arg:"path"`
	Data []byte `arg:"data"`
	Flag string `arg:"flag,opt" def:"w"`
	Mode int64  `arg:"mode,opt"`
}

func (o *FSOps) opWriteFile(ctx context.Context, a *writeFileArgs) (any, error) {
	p := a.Path
	data := a.Data
	flag := a.Flag
	mode := a.Mode
	perm := vfs.FromUnixMode(uint32(mode) & 0o7777 &^ umask)
	if max := o.lim().MaxCallBytes; int64(len(data)) > max {
		return nil, tooLargeErr("write", int64(len(data)), max, p)
	}
	if o.readOnly() {
		return nil, readOnlyErr("open", p, "")
	}
	switch flag {
	case "w":
		real, err := o.confine(ctx, "open", p, true)
		if err != nil {
			return nil, err
		}
		opts := &vfs.WriteOptions{}
		fi, err := o.FS.Lstat(ctx, real)
		switch {
		case err == nil && fi.Kind == vfs.TypeDir:
			return nil, fsErr("EISDIR", "open", p, "")
		case err != nil && vfs.Code(err) != vfs.ENOENT:
			return nil, o.vfsErr(err, "open", p, "")
		case err != nil:
			opts.Mode = perm // only a new file takes the mode
		}
		return nil, o.vfsErr(o.FS.WriteFile(ctx, real, data, opts), "open", p, "")
	case "wx", "ax":
		// An exclusive create fails on any existing name, a symlink
		// included, so the final component is not followed.
		real, err := o.confine(ctx, "open", p, false)
		if err != nil {
			return nil, err
		}
		return nil, o.vfsErr(o.FS.WriteFile(ctx, real, data, &vfs.WriteOptions{Mode: perm, Exclusive: true}), "open", p, "")
	case "a":
		real, err := o.confine(ctx, "open", p, true)
		if err != nil {
			return nil, err
		}
		_, err = o.appendTo(ctx, real, p, perm, data)
		return nil, err
	}
	return nil, argErr("writeFile", "flag", `as "w", "wx", "a" or "ax"`)
}

// appendTo appends data to the file real, creating it with perm when it
// does not exist, and returns its new size. The append is one transaction
// at the end of the file as it is then (vfs.FS.WriteAt with a negative
// offset), so concurrent appends, from this process or another, never
// overwrite each other.
func (o *FSOps) appendTo(ctx context.Context, real, p string, perm fs.FileMode, data []byte) (int64, error) {
	for range 2 {
		size, err := o.FS.WriteAt(ctx, real, data, -1)
		if vfs.Code(err) != vfs.ENOENT {
			return size, o.vfsErr(err, "open", p, "")
		}
		err = o.FS.WriteFile(ctx, real, data, &vfs.WriteOptions{Mode: perm, Exclusive: true})
		if vfs.Code(err) != vfs.EEXIST {
			return int64(len(data)), o.vfsErr(err, "open", p, "")
		}
		// Created meanwhile by someone else: append to it.
	}
	return 0, fsErr("EIO", "open", p, "")
}

// pwriteArgs are the arguments of pwrite.
type pwriteArgs struct {
	Path   string `arg:"path"`
	Data   []byte `arg:"data"`
	Offset int64  `arg:"offset,opt"`
	Append bool   `arg:"append,opt"`
}

func (o *FSOps) opPwrite(ctx context.Context, a *pwriteArgs) (any, error) {
	p := a.Path
	data := a.Data
	off := a.Offset
	app := a.Append
	if off < 0 {
		return nil, fsErr("EINVAL", "write", "", "")
	}
	if max := o.lim().MaxCallBytes; int64(len(data)) > max {
		return nil, tooLargeErr("write", int64(len(data)), max, p)
	}
	if o.readOnly() {
		return nil, readOnlyErr("write", p, "")
	}
	if app {
		off = -1
	}
	// The walk that confines the path and the write, in one transaction.
	var size int64
	err := o.inBatch(ctx, "write", p, func(b *vfs.Batch) error {
		real, err := o.confineBatch(b, "write", p, true)
		if err != nil {
			return err
		}
		size, err = b.WriteAt(real, data, off)
		return o.vfsErr(err, "write", p, "")
	})
	if err != nil {
		return nil, err
	}
	return map[string]any{"bytesWritten": float64(len(data)), "size": float64(size)}, nil
}

// truncateArgs are the arguments of truncate.
type truncateArgs struct {
	Path   string `arg:"path"`
	Length int64  `arg:"length,opt"`
}

func (o *FSOps) opTruncate(ctx context.Context, a *truncateArgs) (any, error) {
	p := a.Path
	n := a.Length
	if n < 0 {
		return nil, fsErr("EINVAL", "ftruncate", "", "")
	}
	if o.readOnly() {
		return nil, readOnlyErr("open", p, "")
	}
	real, err := o.confine(ctx, "open", p, true)
	if err != nil {
		return nil, err
	}
	err = o.FS.Truncate(ctx, real, int64(n))
	switch vfs.Code(err) {
	case vfs.ENOENT, vfs.ENOTDIR, vfs.EISDIR, vfs.ELOOP:
		// Node's truncate opens the file first: that is what fails.
		return nil, o.vfsErr(err, "open", p, "")
	}
	return nil, o.vfsErr(err, "ftruncate", p, "")
}

// openArgs are the arguments of open.
type openArgs struct {
	Path  string `arg:"path"`
	Flags int64  `arg:"flags,opt" def:"0"` // oRDONLY
	Mode  int64  `arg:"mode,opt" def:"0o666"`
}

// opOpen does what open(2) does to the filesystem (create, truncate, the
// checks of the flags) and returns the stats of the file; the shim keeps the
// descriptor.
func (o *FSOps) opOpen(ctx context.Context, a *openArgs) (any, error) {
	p := a.Path
	flags := a.Flags
	mode := a.Mode
	acc := flags & 3
	if acc == 3 {
		return nil, fsErr("EINVAL", "open", p, "")
	}
	writable := acc == oWRONLY || acc == oRDWR
	creat, excl := flags&oCREAT != 0, flags&oEXCL != 0
	if (writable || creat || flags&oTRUNC != 0) && o.readOnly() {
		return nil, readOnlyErr("open", p, "")
	}
	follow := !(creat && excl)
	trunc := flags&oTRUNC != 0
	var fi *vfs.FileInfo
	if !writable && !creat && !trunc {
		// An open that changes nothing reads one snapshot.
		err := o.inView(ctx, "open", p, func(v *vfs.View) error {
			real, err := o.confineIn(v, "open", p, follow)
			if err != nil {
				return err
			}
			fi, err = v.Stat(real)
			return o.vfsErr(err, "open", p, "")
		})
		if err != nil {
			return nil, err
		}
		return statMap(fi), nil
	}
	// What open(2) does to the filesystem, without a handle: the shim
	// keeps the descriptor, and the journal needs plain calls. One
	// transaction, which holds the write lock from the walk that confines
	// the path to the stats returned.
	err := o.inBatch(ctx, "open", p, func(b *vfs.Batch) error {
		real, err := o.confineBatch(b, "open", p, follow)
		if err != nil {
			return err
		}
		fi, err = b.Stat(real)
		switch {
		case err == nil && creat && excl:
			return fsErr("EEXIST", "open", p, "")
		case err == nil && fi.IsDir() && (writable || trunc):
			return fsErr("EISDIR", "open", p, "")
		case err == nil && trunc && writable && fi.Size() > 0:
			if err := b.Truncate(real, 0); err != nil {
				return o.vfsErr(err, "open", p, "")
			}
		case err != nil && vfs.Code(err) == vfs.ENOENT && creat:
			err := b.WriteFile(real, nil, &vfs.WriteOptions{Mode: vfs.FromUnixMode(uint32(mode) & 0o7777 &^ umask), Exclusive: true})
			if err != nil && !(vfs.Code(err) == vfs.EEXIST && !excl) {
				return o.vfsErr(err, "open", p, "")
			}
		case err != nil:
			return o.vfsErr(err, "open", p, "")
		}
		fi, err = b.Stat(real)
		return o.vfsErr(err, "open", p, "")
	})
	if err != nil {
		return nil, err
	}
	return statMap(fi), nil
}

// mkdirArgs are the arguments of mkdir.
type mkdirArgs struct {
	Path      string `arg:"path"`
	Recursive bool   `arg:"recursive,opt"`
	Mode      int64  `arg:"mode,opt" def:"0o777"`
}

func (o *FSOps) opMkdir(ctx context.Context, a *mkdirArgs) (any, error) {
	p := a.Path
	recursive := a.Recursive
	mode := a.Mode
	perm := vfs.FromUnixMode(uint32(mode) & 0o7777 &^ umask)
	if !recursive {
		if o.readOnly() {
			return nil, readOnlyErr("mkdir", p, "")
		}
		real, err := o.confine(ctx, "mkdir", p, false)
		if err != nil {
			return nil, err
		}
		return nil, o.vfsErr(o.FS.Mkdir(ctx, real, perm), "mkdir", p, "")
	}
	clean, err := o.lexical("mkdir", p)
	if err != nil {
		return nil, err
	}
	// Find the first missing directory, which Node returns.
	root := o.root()
	prefix, first := root, ""
	segs := splitUnder(clean, root)
	for i := -1; i < len(segs); i++ {
		if i >= 0 {
			prefix = joinPath(prefix, segs[i])
		}
		real, err := o.walk(ctx, "mkdir", p, prefix, true)
		if err != nil {
			return nil, err
		}
		fi, err := o.FS.Stat(ctx, real)
		if vfs.Code(err) == vfs.ENOENT {
			first = prefix
			break
		}
		if err != nil {
			return nil, o.vfsErr(err, "mkdir", p, "")
		}
		if fi.Kind != vfs.TypeDir {
			if i == len(segs)-1 {
				return nil, fsErr("EEXIST", "mkdir", p, "")
			}
			return nil, fsErr("ENOTDIR", "mkdir", p, "")
		}
	}
	if first == "" {
		return nil, nil // it all exists: nothing to do, even when read-only
	}
	if o.readOnly() {
		return nil, readOnlyErr("mkdir", p, "")
	}
	real, err := o.walk(ctx, "mkdir", p, clean, true)
	if err != nil {
		return nil, err
	}
	if err := o.FS.MkdirAll(ctx, real, perm); err != nil {
		return nil, o.vfsErr(err, "mkdir", p, "")
	}
	return first, nil
}

// busy refuses to remove or rename Root itself, which would leave the code
// (and later runs) without a workspace.
func (o *FSOps) busy(real, syscall, p, dest string) error {
	if real == o.root() {
		return &CallError{Code: "EBUSY", Message: "EBUSY: resource busy or locked, " + syscall + " '" + p + "'" + arrow(dest),
			Syscall: syscall, Path: p, Dest: dest}
	}
	return nil
}

func arrow(dest string) string {
	if dest == "" {
		return ""
	}
	return " -> '" + dest + "'"
}

// rmArgs are the arguments of rm.
type rmArgs struct {
	Path      string `arg:"path"`
	Recursive bool   `arg:"recursive,opt"`
	Force     bool   `arg:"force,opt"`
}

func (o *FSOps) opRm(ctx context.Context, a *rmArgs) (any, error) {
	p := a.Path
	recursive := a.Recursive
	force := a.Force
	if o.readOnly() {
		return nil, readOnlyErr("rm", p, "")
	}
	real, err := o.confine(ctx, "rm", p, false)
	if err != nil {
		if ce, ok := err.(*CallError); ok && force && ce.Code == "ENOTDIR" {
			return nil, nil
		}
		return nil, err
	}
	fi, err := o.FS.Lstat(ctx, real)
	if err != nil {
		if c := vfs.Code(err); force && (c == vfs.ENOENT || c == vfs.ENOTDIR) {
			return nil, nil
		}
		return nil, o.vfsErr(err, "rm", p, "")
	}
	if err := o.busy(real, "rm", p, ""); err != nil {
		return nil, err
	}
	if fi.Kind == vfs.TypeDir && !recursive {
		return nil, &CallError{Code: "ERR_FS_EISDIR",
			Message: "Path is a directory: rm returned EISDIR (is a directory) " + p, Syscall: "rm", Path: p}
	}
	return nil, o.vfsErr(o.FS.Remove(ctx, real, &vfs.RemoveOptions{Recursive: recursive, Force: force}), "rm", p, "")
}

// rmdirArgs are the arguments of rmdir.
type rmdirArgs struct {
	Path      string `arg:"path"`
	Recursive bool   `arg:"recursive,opt"`
}

func (o *FSOps) opRmdir(ctx context.Context, a *rmdirArgs) (any, error) {
	p := a.Path
	recursive := a.Recursive
	if o.readOnly() {
		return nil, readOnlyErr("rmdir", p, "")
	}
	real, err := o.confine(ctx, "rmdir", p, false)
	if err != nil {
		return nil, err
	}
	fi, err := o.FS.Lstat(ctx, real)
	if err != nil {
		return nil, o.vfsErr(err, "rmdir", p, "")
	}
	if fi.Kind != vfs.TypeDir {
		return nil, fsErr("ENOTDIR", "rmdir", p, "")
	}
	if err := o.busy(real, "rmdir", p, ""); err != nil {
		return nil, err
	}
	return nil, o.vfsErr(o.FS.Remove(ctx, real, &vfs.RemoveOptions{Recursive: recursive}), "rmdir", p, "")
}

func (o *FSOps) opUnlink(ctx context.Context, a *pathArgs) (any, error) {
	p := a.Path
	if o.readOnly() {
		return nil, readOnlyErr("unlink", p, "")
	}
	real, err := o.confine(ctx, "unlink", p, false)
	if err != nil {
		return nil, err
	}
	fi, err := o.FS.Lstat(ctx, real)
	if err != nil {
		return nil, o.vfsErr(err, "unlink", p, "")
	}
	if fi.Kind == vfs.TypeDir {
		return nil, fsErr("EISDIR", "unlink", p, "")
	}
	return nil, o.vfsErr(o.FS.Remove(ctx, real, nil), "unlink", p, "")
}

// twoPathArgs are the arguments of rename.
type twoPathArgs struct {
	From string `arg:"from"`
	To   string `arg:"to"`
}

// twoPaths confines the from and to arguments of a two-path op; errors
// name both paths.
func (o *FSOps) twoPaths(ctx context.Context, from, to, syscall string, followFrom, followTo bool) (realFrom, realTo string, err error) {
	if realFrom, err = o.confine(ctx, syscall, from, followFrom); err != nil {
		err = withDest(err, from, to)
		return
	}
	if realTo, err = o.confine(ctx, syscall, to, followTo); err != nil {
		err = withDest(err, from, to)
	}
	return
}

func (o *FSOps) opRename(ctx context.Context, a *twoPathArgs) (any, error) {
	from, to := a.From, a.To
	realFrom, realTo, err := o.twoPaths(ctx, from, to, "rename", false, false)
	if err != nil {
		return nil, err
	}
	if o.readOnly() {
		return nil, readOnlyErr("rename", from, to)
	}
	if err := o.busy(realFrom, "rename", from, to); err != nil {
		return nil, err
	}
	if err := o.busy(realTo, "rename", from, to); err != nil {
		return nil, err
	}
	return nil, o.vfsErr(o.FS.Rename(ctx, realFrom, realTo), "rename", from, to)
}

// copyFileArgs are the arguments of copyFile.
type copyFileArgs struct {
	Flags int64  `arg:"flags,opt"`
	From  string `arg:"from"`
	To    string `arg:"to"`
}

func (o *FSOps) opCopyFile(ctx context.Context, a *copyFileArgs) (any, error) {
	flags := a.Flags
	excl := flags&1 != 0
	from, to := a.From, a.To
	realFrom, realTo, err := o.twoPaths(ctx, from, to, "copyfile", true, !excl)
	if err != nil {
		return nil, err
	}
	if o.readOnly() {
		return nil, readOnlyErr("copyfile", from, to)
	}
	fi, err := o.FS.Stat(ctx, realFrom)
	if err != nil {
		return nil, o.vfsErr(err, "copyfile", from, to)
	}
	if fi.Kind == vfs.TypeDir {
		return nil, fsErr("EISDIR", "copyfile", from, to)
	}
	if dfi, err := o.FS.Lstat(ctx, realTo); err == nil {
		switch {
		case excl:
			return nil, fsErr("EEXIST", "copyfile", from, to)
		case dfi.Kind == vfs.TypeDir:
			return nil, fsErr("EISDIR", "copyfile", from, to)
		case realTo == realFrom:
			return nil, nil // copying a file onto itself changes nothing
		}
	}
	return nil, o.copyData(ctx, realFrom, realTo, fi, excl, "copyfile", from, to)
}

// copyData streams the content of the file realFrom (described by fi) to
// realTo, giving it fi's mode.
func (o *FSOps) copyData(ctx context.Context, realFrom, realTo string, fi *vfs.FileInfo, excl bool, syscall, from, to string) error {
	r, err := o.FS.NewReader(ctx, realFrom)
	if err != nil {
		return o.vfsErr(err, syscall, from, to)
	}
	defer r.Close()
	_, err = o.FS.WriteFrom(ctx, realTo, r, &vfs.WriteOptions{Mode: fi.Perm, Exclusive: excl})
	return o.vfsErr(err, syscall, from, to)
}

// symlinkArgs are the arguments of symlink.
type symlinkArgs struct {
	Target string `arg:"target"`
	Path   string `arg:"path"`
}

// opSymlink creates the link path holding target verbatim. The link must
// resolve inside Root (through any further links): creating a link that
// leads outside fails with EACCES, so sandboxed code can never plant an
// escape. As in Node, errors name the target first: "symlink 'target' ->
// 'path'".
func (o *FSOps) opSymlink(ctx context.Context, a *symlinkArgs) (any, error) {
	target := a.Target
	p := a.Path
	if o.readOnly() {
		return nil, readOnlyErr("symlink", target, p)
	}
	real, err := o.confine(ctx, "symlink", p, false)
	if err != nil {
		return nil, withDest(err, target, p)
	}
	if target == "" {
		return nil, fsErr("ENOENT", "symlink", target, p)
	}
	if strings.IndexByte(target, 0) >= 0 {
		return nil, fsErr("EINVAL", "symlink", target, p)
	}
	if err := o.checkLinkTarget(ctx, "symlink", real, target); err != nil {
		return nil, withDest(err, target, p)
	}
	return nil, o.vfsErr(o.FS.Symlink(ctx, target, real), "symlink", target, p)
}

// checkLinkTarget reports EACCES when a link at real holding target would
// resolve outside Root.
func (o *FSOps) checkLinkTarget(ctx context.Context, syscall, real, target string) error {
	base := parentOf(real)
	if strings.HasPrefix(target, "/") {
		base = "/"
	}
	expanded := cleanPath(base + "/" + target)
	if !within(expanded, o.root()) {
		return fsErr("EACCES", syscall, target, "")
	}
	if _, err := o.walk(ctx, syscall, target, expanded, true); err != nil {
		if ce, ok := err.(*CallError); ok && (ce.Code == "EACCES" || ce.Code == "ELOOP") {
			return err
		}
		// Any other trouble on the way (a file used as a directory) makes
		// a dangling link, which is allowed.
	}
	return nil
}

// chmodArgs are the arguments of chmod.
type chmodArgs struct {
	Path string `arg:"path"`
	Mode int64  `arg:"mode"`
}

func (o *FSOps) opChmod(ctx context.Context, a *chmodArgs) (any, error) {
	p := a.Path
	mode := a.Mode
	if o.readOnly() {
		return nil, readOnlyErr("chmod", p, "")
	}
	real, err := o.confine(ctx, "chmod", p, true)
	if err != nil {
		return nil, err
	}
	return nil, o.vfsErr(o.FS.Chmod(ctx, real, vfs.FromUnixMode(uint32(mode)&0o7777)), "chmod", p, "")
}

// utimesArgs are the arguments of utimes.
type utimesArgs struct {
	Path  string   `arg:"path"`
	Atime fileTime `arg:"atime"`
	Mtime fileTime `arg:"mtime"`
}

func (o *FSOps) opUtimes(ctx context.Context, a *utimesArgs) (any, error) {
	return o.utimes(ctx, a, true)
}

// opLutimes is utimes on a final symlink itself.
func (o *FSOps) opLutimes(ctx context.Context, a *utimesArgs) (any, error) {
	return o.utimes(ctx, a, false)
}

func (o *FSOps) utimes(ctx context.Context, a *utimesArgs, follow bool) (any, error) {
	p := a.Path
	atime, mtime := time.Time(a.Atime), time.Time(a.Mtime)
	if o.readOnly() {
		return nil, readOnlyErr("utime", p, "")
	}
	real, err := o.confine(ctx, "utime", p, follow)
	if err != nil {
		return nil, err
	}
	if !follow {
		return nil, o.vfsErr(o.FS.Lchtimes(ctx, real, atime, mtime), "lutime", p, "")
	}
	return nil, o.vfsErr(o.FS.Chtimes(ctx, real, atime, mtime), "utime", p, "")
}

// msOrNsTime returns the time argument prefix+"Ns" (exact nanoseconds) when
// given, else prefix+"Ms" (float milliseconds, required).
func (a fsArgs) msOrNsTime(prefix string) (time.Time, error) {
	if t, ok, err := a.optNsTime(prefix + "Ns"); ok || err != nil {
		return t, err
	}
	ms, err := a.float(prefix + "Ms")
	if err != nil {
		return time.Time{}, err
	}
	return msTime(ms), nil
}

// msTime converts milliseconds since the epoch to a time.
func msTime(ms float64) time.Time {
	whole := math.Floor(ms)
	return time.UnixMilli(int64(whole)).Add(time.Duration(math.Round((ms - whole) * 1e6)))
}

// opMkdtemp creates the directory path, which must not exist, with mode
// 0700. The shim draws the random suffix (from the run's journaled
// randomness), so the op itself is deterministic.
func (o *FSOps) opMkdtemp(ctx context.Context, a *pathArgs) (any, error) {
	p := a.Path
	if o.readOnly() {
		return nil, readOnlyErr("mkdtemp", p, "")
	}
	real, err := o.confine(ctx, "mkdtemp", p, false)
	if err != nil {
		return nil, err
	}
	if err := o.FS.Mkdir(ctx, real, 0o700); err != nil {
		return nil, o.vfsErr(err, "mkdtemp", p, "")
	}
	return p, nil
}

// errorf builds a CallError with a code of Node's own (ERR_*), whose message
// does not follow the libuv form.
func errorf(code, syscall, path, format string, args ...any) error {
	return &CallError{Code: code, Message: fmt.Sprintf(format, args...), Syscall: syscall, Path: path}
}
