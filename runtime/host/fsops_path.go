package host

import (
	"context"
	"strings"

	"github.com/nookdev/nook/vfs"
)

// Confinement: the one function that turns a path sandboxed code gave into
// a workspace path, and refuses every path that would reach outside Root.
//
// A path is first cleaned lexically ("." and empty segments dropped, ".."
// popping one segment and stopping at "/", as path.resolve does in Node) and
// must then be Root or below it. The walk then expands symlinks component by
// component, as the kernel would, from Root down: every link's expansion (its
// target joined to the directory holding it, or to "/" for an absolute
// target, plus the rest of the path) must again lie under Root, so a link
// that points outside Root, or a chain of links that leaves Root at any hop,
// is refused with EACCES, even when a later hop would come back inside. Links
// whose expansions stay under Root work like on any filesystem. After
// vfs.MaxSymlinkHops expansions the walk fails with ELOOP.
//
// The result is the canonical path the operation then acts on, with every
// symlink expanded (the final component only when the operation follows it),
// so the vfs itself meets no symlink on the way.
//
// stat, lstat, pread, open and pwrite confine and act in one transaction
// (confineIn, confineBatch), so for them the check and the use see one state.
// For the other ops the check is not atomic with the operation that follows
// it: between the walk and the use, another actor (a concurrent run, a tool,
// another process sharing the workspace) could replace a directory on the
// checked path with a symlink pointing elsewhere, and the vfs would follow it.
// Sandboxed code cannot exploit this on its own to leave Root, since every
// link it can create is itself checked to resolve inside Root (see
// opSymlink) and links are created only through this package or by the
// embedder; the window only matters if something outside the sandbox plants
// a link that leaves Root.

// confine returns the workspace path that p reaches, following a final
// symlink when follow is set. syscall and p name the operation in errors.
func (o *FSOps) confine(ctx context.Context, syscall, p string, follow bool) (string, error) {
	clean, err := o.lexical(syscall, p)
	if err != nil {
		return "", err
	}
	return o.walk(ctx, syscall, p, clean, follow)
}

// lexical checks and cleans p without looking at the filesystem: it must be
// an absolute path without NUL bytes, and lie under Root once cleaned.
func (o *FSOps) lexical(syscall, p string) (string, error) {
	if p == "" || p[0] != '/' || strings.IndexByte(p, 0) >= 0 {
		return "", fsErr("EINVAL", syscall, p, "")
	}
	clean := cleanPath(p)
	if !within(clean, o.root()) {
		return "", fsErr("EACCES", syscall, p, "")
	}
	if len(clean) > vfs.MaxPathLength {
		return "", fsErr("ENAMETOOLONG", syscall, p, "")
	}
	return clean, nil
}

// walk expands the symlinks of clean (a lexically clean path under Root),
// refusing any expansion that leaves Root. The vfs does the walk in one read
// snapshot with one lookup per component (vfs.FS.ResolveBeneath).
func (o *FSOps) walk(ctx context.Context, syscall, p, clean string, follow bool) (string, error) {
	out, err := o.FS.ResolveBeneath(ctx, o.root(), clean, follow)
	if err != nil {
		return "", o.vfsErr(err, syscall, p, "")
	}
	return out, nil
}

// confineIn is confine in the snapshot of v, so that the operation that
// follows in v reads the same state the walk checked, and reuses its walk.
func (o *FSOps) confineIn(v *vfs.View, syscall, p string, follow bool) (string, error) {
	clean, err := o.lexical(syscall, p)
	if err != nil {
		return "", err
	}
	out, err := v.ResolveBeneath(o.root(), clean, follow)
	if err != nil {
		return "", o.vfsErr(err, syscall, p, "")
	}
	return out, nil
}

// inView runs fn in one read snapshot of the workspace: a path confined
// and then read there costs one transaction and one walk. fn's error is
// the op's; a failure of the snapshot itself is reported as syscall's.
func (o *FSOps) inView(ctx context.Context, syscall, p string, fn func(v *vfs.View) error) error {
	var opErr error
	err := o.FS.View(ctx, func(v *vfs.View) error {
		opErr = fn(v)
		return nil
	})
	if err != nil {
		return o.vfsErr(err, syscall, p, "")
	}
	return opErr
}

// confineBatch is confine in the transaction of b, which holds the write
// lock: the path cannot change between the walk and b's operations.
func (o *FSOps) confineBatch(b *vfs.Batch, syscall, p string, follow bool) (string, error) {
	clean, err := o.lexical(syscall, p)
	if err != nil {
		return "", err
	}
	out, err := b.ResolveBeneath(o.root(), clean, follow)
	if err != nil {
		return "", o.vfsErr(err, syscall, p, "")
	}
	return out, nil
}

// inBatch runs fn in one write transaction (a vfs Batch), which commits
// when fn returns nil and is undone when it fails; fn's error is the op's,
// a failure of the transaction itself is reported as syscall's.
func (o *FSOps) inBatch(ctx context.Context, syscall, p string, fn func(b *vfs.Batch) error) error {
	var opErr error
	err := o.FS.Batch(ctx, func(b *vfs.Batch) error {
		opErr = fn(b)
		return opErr
	})
	if opErr != nil {
		return opErr
	}
	return o.vfsErr(err, syscall, p, "")
}

// root returns Root, cleaned ("/workspace" when empty).
func (o *FSOps) root() string {
	if o.Root == "" {
		return "/workspace"
	}
	return cleanPath(o.Root)
}

// cleanPath cleans an absolute path lexically: empty and "." segments are
// dropped, ".." pops a segment and stops at "/", and there is no trailing
// slash except for "/" itself.
func cleanPath(p string) string {
	segs := make([]string, 0, strings.Count(p, "/"))
	for _, s := range strings.Split(p, "/") {
		switch s {
		case "", ".":
		case "..":
			if len(segs) > 0 {
				segs = segs[:len(segs)-1]
			}
		default:
			segs = append(segs, s)
		}
	}
	return "/" + strings.Join(segs, "/")
}

// Within reports whether the clean path p is dir or below it: how the
// sandbox confines a path to a backend's root (a nested run's root and its
// files to its parent's too).
func Within(p, dir string) bool { return within(p, dir) }

func within(p, dir string) bool {
	if dir == "/" {
		return true
	}
	return p == dir || (strings.HasPrefix(p, dir) && p[len(dir)] == '/')
}

// splitUnder returns the segments of p below dir (p within dir).
func splitUnder(p, dir string) []string {
	rest := strings.TrimPrefix(p, dir)
	rest = strings.TrimPrefix(rest, "/")
	if rest == "" {
		return nil
	}
	return strings.Split(rest, "/")
}

// joinPath appends segments to a clean directory path.
func joinPath(dir string, names ...string) string {
	for _, n := range names {
		if dir == "/" {
			dir = "/" + n
		} else {
			dir = dir + "/" + n
		}
	}
	return dir
}

// parentOf returns the directory part of a clean path.
func parentOf(p string) string {
	i := strings.LastIndexByte(p, '/')
	if i <= 0 {
		return "/"
	}
	return p[:i]
}
