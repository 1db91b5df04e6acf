package vfs

import (
	"context"
	"errors"
	"hash/fnv"
	"io"
	"io/fs"
	"slices"
	"strings"
)

// mount is a read-only fs.FS shown at a directory of the workspace.
type mount struct {
	root string
	fsys fs.FS
}

// Mount shows fsys, read-only, at the directory root (created if missing).
// Mutations at, under or above root fail with EROFS, including those that
// reach it through a symlink. Mounts live in this FS value only: they are
// not stored in the database. For a host directory use os.DirFS, or better
// an *os.Root's FS, which cannot be escaped through symlinks on the host.
func (f *FS) Mount(ctx context.Context, root string, fsys fs.FS) error {
	const op = "mount"
	p, err := f.clean(op, root)
	if err != nil {
		return err
	}
	f.mountMu.Lock() // held throughout, so two Mounts cannot both pass the nesting check
	defer f.mountMu.Unlock()
	for _, m := range *f.mounts.Load() {
		if within(p, m.root) || within(m.root, p) {
			return perr(op, p, EINVAL, "mounts may not nest (existing mount at "+m.root+")")
		}
	}
	if p != "/" {
		if err := f.MkdirAll(ctx, p, 0); err != nil {
			return err
		}
		fi, err := f.Lstat(ctx, p)
		if err != nil {
			return err
		}
		if fi.Kind != TypeDir {
			return perr(op, p, ENOTDIR, "mount point is not a directory")
		}
	}
	next := append(slices.Clone(*f.mounts.Load()), &mount{root: p, fsys: fsys})
	slices.SortFunc(next, func(a, b *mount) int { return strings.Compare(a.root, b.root) })
	f.mounts.Store(&next)
	return nil
}

// mountAt returns the mount whose root is exactly p.
func mountAt(mounts []*mount, p string) *mount {
	for _, m := range mounts {
		if m.root == p {
			return m
		}
	}
	return nil
}

// checkWritable fails with EROFS when p is at or under a read-only mount's
// root: creating, writing or changing the node at p would change the mount.
func (f *FS) checkWritable(op, p string) error {
	for _, m := range *f.mounts.Load() {
		if within(p, m.root) {
			return perr(op, p, EROFS, "read-only mount at "+m.root+": cannot modify")
		}
	}
	return nil
}

// checkRemovable fails with EROFS when p is at, under or above a read-only
// mount's root: removing, replacing or moving p would take the mount along.
func (f *FS) checkRemovable(op, p string) error {
	for _, m := range *f.mounts.Load() {
		if within(p, m.root) || within(m.root, p) {
			return perr(op, p, EROFS, "read-only mount at "+m.root+": cannot modify")
		}
	}
	return nil
}

// mountRef is a path inside a mount.
type mountRef struct {
	m   *mount
	rel string // fs.FS path ("." for the root)
}

// resolve looks up segs below the mount's root.
func (m *mount) resolve(root string, segs []string) (resolution, error) {
	rel := strings.Join(segs, "/")
	if rel == "" {
		rel = "."
	}
	ref := &mountRef{m: m, rel: rel}
	p := root
	if rel != "." {
		p = join(root, rel)
	}
	_, name := split(p)
	res := resolution{path: p, name: name, mnt: ref}
	if !fs.ValidPath(rel) {
		return res, nil
	}
	fi, err := fs.Stat(m.fsys, rel)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return res, nil
		}
		return resolution{}, &PathError{Op: "stat", Path: p, Code: Code(err), Text: "mounted filesystem: " + err.Error(), Err: err}
	}
	res.n = mountNode(p, fi)
	return res, nil
}

// mountNode describes a mounted entry as a node. Its inode is derived from
// its path, so it is stable but never collides with stored inodes (< 2^62).
func mountNode(p string, fi fs.FileInfo) *node {
	h := fnv.New64a()
	h.Write([]byte(p))
	n := &node{inode: int64(h.Sum64()>>2) | 1<<62, mode: uint32(fi.Mode().Perm()), nlink: 1,
		mtime: fi.ModTime().UnixNano()}
	n.atime, n.ctime = n.mtime, n.mtime
	switch {
	case fi.IsDir():
		n.typ = TypeDir
	case fi.Mode()&fs.ModeSymlink != 0:
		n.typ = TypeSymlink
	default:
		n.typ = TypeFile
		n.size = fi.Size()
	}
	return n
}

// path is the workspace path of the mounted entry.
func (r *mountRef) path() string {
	if r.rel == "." {
		return r.m.root
	}
	return join(r.m.root, r.rel)
}

// readAt reads the mounted file at off into p.
func (r *mountRef) readAt(p []byte, off int64) (int, error) {
	fl, err := r.m.fsys.Open(r.rel)
	if err != nil {
		return 0, &PathError{Op: "read", Path: r.path(), Code: Code(err), Text: "mounted filesystem: " + err.Error(), Err: err}
	}
	defer fl.Close()
	var n int
	if ra, ok := fl.(io.ReaderAt); ok {
		n, err = ra.ReadAt(p, off)
	} else {
		if sk, ok := fl.(io.Seeker); ok {
			_, err = sk.Seek(off, io.SeekStart)
		} else {
			_, err = io.CopyN(io.Discard, fl, off)
		}
		if err == nil {
			n, err = io.ReadFull(fl, p)
		}
	}
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		err = nil
	}
	if err != nil {
		return n, &PathError{Op: "read", Path: r.path(), Code: EIO, Text: "mounted filesystem: " + err.Error(), Err: err}
	}
	return n, nil
}

// entries lists a mounted directory in byte order of names.
func (r *mountRef) entries(dirPath string) ([]Entry, error) {
	des, err := fs.ReadDir(r.m.fsys, r.rel)
	if err != nil {
		return nil, &PathError{Op: "readdir", Path: dirPath, Code: Code(err), Text: "mounted filesystem: " + err.Error(), Err: err}
	}
	out := make([]Entry, 0, len(des))
	for _, de := range des {
		fi, err := de.Info()
		if err != nil {
			continue // vanished meanwhile
		}
		p := join(dirPath, de.Name())
		n := mountNode(p, fi)
		out = append(out, Entry{Path: p, Name: de.Name(), Kind: n.typ, Mode: FromUnixMode(n.mode) | n.typ.mode(), Size: n.size, Mtime: nsTime(n.mtime), Inode: n.inode})
	}
	slices.SortFunc(out, func(a, b Entry) int { return strings.Compare(a.Name, b.Name) })
	return out, nil
}

// readDir fills out with one page of a mounted directory.
func (r *mountRef) readDir(op, dirPath string, limit, offset int, out *Listing) error {
	all, err := r.entries(dirPath)
	if err != nil {
		return err
	}
	if offset >= len(all) {
		return nil
	}
	end := min(len(all), offset+limit)
	out.Entries = all[offset:end]
	if end < len(all) {
		out.NextOffset = end
	}
	return nil
}
