package vfs

import (
	"context"
	"fmt"

	"github.com/nookdev/nook/internal/sqldb"
)

// Stat describes the node at name, following symlinks.
func (f *FS) Stat(ctx context.Context, name string) (*FileInfo, error) {
	return f.stat(ctx, "stat", name, true)
}

// Lstat describes the node at name; a final symlink is described itself.
func (f *FS) Lstat(ctx context.Context, name string) (*FileInfo, error) {
	return f.stat(ctx, "lstat", name, false)
}

func (f *FS) stat(ctx context.Context, op, name string, follow bool) (*FileInfo, error) {
	p, err := f.clean(op, name)
	if err != nil {
		return nil, err
	}
	var fi *FileInfo
	err = f.view(ctx, op, p, func(c *sqldb.Conn) error {
		res, err := f.resolve(c, p, follow)
		if err != nil {
			return resolveErr(op, p, err, "no such path")
		}
		if res.n == nil {
			return perr(op, p, ENOENT, "no such path")
		}
		fi = res.n.info(p)
		fi.ReadOnly = res.mnt != nil
		return nil
	})
	return fi, err
}

// Readlink returns the target stored in the symlink name.
func (f *FS) Readlink(ctx context.Context, name string) (string, error) {
	fi, err := f.stat(ctx, "readlink", name, false)
	if err != nil {
		return "", err
	}
	if fi.Kind != TypeSymlink {
		return "", perr("readlink", fi.Path, EINVAL, "not a symlink")
	}
	return fi.Target, nil
}

// ReadFile returns the whole content of the file name (following symlinks).
func (f *FS) ReadFile(ctx context.Context, name string) ([]byte, error) {
	return f.readRange(ctx, name, 0, -1)
}

// ReadRange returns up to n bytes of the file name starting at byte off. A
// window past the end of the file is empty, not an error.
func (f *FS) ReadRange(ctx context.Context, name string, off, n int64) ([]byte, error) {
	if off < 0 {
		return nil, perr("read", name, EINVAL, fmt.Sprintf("invalid read offset: %d", off))
	}
	if n < 0 {
		return nil, perr("read", name, EINVAL, fmt.Sprintf("invalid read length: %d", n))
	}
	return f.readRange(ctx, name, off, n)
}

// readRange reads [off, off+n) of a file; n < 0 reads to the end.
func (f *FS) readRange(ctx context.Context, name string, off, n int64) ([]byte, error) {
	const op = "read"
	p, err := f.clean(op, name)
	if err != nil {
		return nil, err
	}
	var out []byte
	err = f.view(ctx, op, p, func(c *sqldb.Conn) error {
		out, err = readRangeIn(f, c, p, off, n)
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// readRangeIn reads [off, off+n) of canonical path p in a transaction; n < 0
// reads to the end.
func readRangeIn(f *FS, c *sqldb.Conn, p string, off, n int64) ([]byte, error) {
	res, err := f.resolve(c, p, true)
	return readRangeRes(f, c, p, res, err, off, n)
}

// readRangeRes is readRangeIn once p is resolved (to res, or to err).
func readRangeRes(f *FS, c *sqldb.Conn, p string, res resolution, err error, off, n int64) ([]byte, error) {
	const op = "read"
	if err != nil {
		return nil, resolveErr(op, p, err, "no such file")
	}
	if res.n == nil {
		return nil, perr(op, p, ENOENT, "no such file")
	}
	if res.n.typ == TypeDir {
		return nil, perr(op, p, EISDIR, "path is a directory")
	}
	size := res.n.size
	if n < 0 || n > size-off {
		n = max(0, size-off)
	}
	if n > f.lim.MaxFileSize {
		return nil, f.tooBig(op, p)
	}
	out := make([]byte, n)
	if n == 0 {
		return out, nil
	}
	if res.mnt != nil {
		_, err := res.mnt.readAt(out, off)
		return out, err
	}
	got, err := readAt(c, p, res.n.inode, size, out, off)
	return out[:got], err
}
