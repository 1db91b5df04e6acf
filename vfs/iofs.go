package vfs

import (
	"context"
	"io/fs"
	"path"
)

// IOFS is a read view of the filesystem through the io/fs interfaces, rooted
// at a directory. It implements fs.FS, fs.ReadDirFS, fs.ReadFileFS,
// fs.StatFS and fs.SubFS, and passes testing/fstest.TestFS. Its calls use
// context.Background; use the FS methods to pass a context.
type IOFS struct {
	f    *FS
	root string
}

// IOFS returns an io/fs view of the whole filesystem.
func (f *FS) IOFS() *IOFS { return &IOFS{f: f, root: "/"} }

// abs maps an io/fs name to a workspace path.
func (v *IOFS) abs(op, name string) (string, error) {
	if !fs.ValidPath(name) {
		return "", &fs.PathError{Op: op, Path: name, Err: fs.ErrInvalid}
	}
	if name == "." {
		return v.root, nil
	}
	return join(v.root, name), nil
}

// rename gives a FileInfo the io/fs name for name.
func rename(fi *FileInfo, name string) *FileInfo {
	fi.name = path.Base(name)
	return fi
}

// Open opens name; the result is a *File.
func (v *IOFS) Open(name string) (fs.File, error) {
	p, err := v.abs("open", name)
	if err != nil {
		return nil, err
	}
	h, err := v.f.Open(context.Background(), p)
	if err != nil {
		return nil, err
	}
	return &ioFile{File: h, name: name}, nil
}

// ioFile presents a File with io/fs names.
type ioFile struct {
	*File
	name string
}

func (h *ioFile) Stat() (fs.FileInfo, error) {
	fi, err := h.File.stat()
	if err != nil {
		return nil, err
	}
	return rename(fi, h.name), nil
}

// Stat describes name, following symlinks.
func (v *IOFS) Stat(name string) (fs.FileInfo, error) {
	p, err := v.abs("stat", name)
	if err != nil {
		return nil, err
	}
	fi, err := v.f.Stat(context.Background(), p)
	if err != nil {
		return nil, err
	}
	return rename(fi, name), nil
}

// ReadFile returns name's content.
func (v *IOFS) ReadFile(name string) ([]byte, error) {
	p, err := v.abs("readfile", name)
	if err != nil {
		return nil, err
	}
	return v.f.ReadFile(context.Background(), p)
}

// ReadDir lists name in order of names.
func (v *IOFS) ReadDir(name string) ([]fs.DirEntry, error) {
	p, err := v.abs("readdir", name)
	if err != nil {
		return nil, err
	}
	h, err := v.f.Open(context.Background(), p)
	if err != nil {
		return nil, err
	}
	defer h.Close()
	return h.ReadDir(-1)
}

// Sub returns the view rooted at dir.
func (v *IOFS) Sub(dir string) (fs.FS, error) {
	p, err := v.abs("sub", dir)
	if err != nil {
		return nil, err
	}
	fi, err := v.f.Stat(context.Background(), p)
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() {
		return nil, &fs.PathError{Op: "sub", Path: dir, Err: ENOTDIR}
	}
	return &IOFS{f: v.f, root: p}, nil
}
