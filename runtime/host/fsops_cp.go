package host

import (
	"context"
	"strings"

	"github.com/nookdev/nook/vfs"
)

// cpOptions are fs.cp's options.
type cpOptions struct {
	recursive, force, errorOnExist, dereference, preserveTimestamps bool
}

// cpArgs are the arguments of cp: Node's options, then the paths.
type cpArgs struct {
	Recursive          bool   `arg:"recursive,opt"`
	Force              bool   `arg:"force,opt" def:"true"`
	ErrorOnExist       bool   `arg:"errorOnExist,opt"`
	Dereference        bool   `arg:"dereference,opt"`
	PreserveTimestamps bool   `arg:"preserveTimestamps,opt"`
	From               string `arg:"from"`
	To                 string `arg:"to"`
}

// opCp copies a file, a symlink or (with recursive) a directory tree, with
// the behaviour and the ERR_FS_CP_* errors of Node's fs.cp. Symlinks are
// copied as links (their relative targets made absolute, as Node does)
// unless dereference is set; a copied link must still resolve inside Root.
// The copy is not atomic: on error, what was copied stays.
func (o *FSOps) opCp(ctx context.Context, a *cpArgs) (any, error) {
	opt := cpOptions{recursive: a.Recursive, force: a.Force, errorOnExist: a.ErrorOnExist,
		dereference: a.Dereference, preserveTimestamps: a.PreserveTimestamps}
	from, to := a.From, a.To
	realFrom, realTo, err := o.twoPaths(ctx, from, to, "cp", opt.dereference, false)
	if err != nil {
		return nil, err
	}
	if o.readOnly() {
		return nil, readOnlyErr("cp", from, to)
	}
	fi, err := o.statAs(ctx, realFrom, opt.dereference)
	if err != nil {
		return nil, o.vfsErr(err, "cp", from, to)
	}
	if realFrom == realTo {
		return nil, errorf("ERR_FS_CP_EINVAL", "cp", to, "Invalid src or dest: cp returned EINVAL (src and dest cannot be the same) %s", to)
	}
	if fi.Kind == vfs.TypeDir {
		if !opt.recursive {
			return nil, errorf("ERR_FS_EISDIR", "cp", from,
				"Recursive option is required to copy a directory: cp returned EISDIR (%s is a directory (not copied)) %s", from, from)
		}
		if within(realTo, realFrom) {
			return nil, errorf("ERR_FS_CP_EINVAL", "cp", to,
				"Invalid src or dest: cp returned EINVAL (cannot copy %s to a subdirectory of self %s) %s", from, to, to)
		}
	}
	return nil, o.cpNode(ctx, &opt, realFrom, realTo, fi, from, to)
}

// statAs describes real, following a final symlink when follow is set.
func (o *FSOps) statAs(ctx context.Context, real string, follow bool) (*vfs.FileInfo, error) {
	if follow {
		return o.FS.Stat(ctx, real)
	}
	return o.FS.Lstat(ctx, real)
}

// cpNode copies the node realFrom (described by fi) to realTo; from and to
// are the same paths in the code's terms, for errors.
func (o *FSOps) cpNode(ctx context.Context, opt *cpOptions, realFrom, realTo string, fi *vfs.FileInfo, from, to string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	dfi, err := o.FS.Lstat(ctx, realTo)
	exists := err == nil
	if err != nil && vfs.Code(err) != vfs.ENOENT {
		return o.vfsErr(err, "cp", from, to)
	}
	if exists && dfi.Kind == vfs.TypeSymlink && fi.Kind == vfs.TypeDir {
		// A link to a directory at the destination is written through,
		// provided it stays inside Root.
		if realTo, err = o.confine(ctx, "cp", realTo, true); err != nil {
			return withDest(err, from, to)
		}
		if dfi, err = o.FS.Stat(ctx, realTo); err != nil {
			dfi, exists = nil, false
		}
	}
	switch fi.Kind {
	case vfs.TypeDir:
		if exists && dfi.Kind != vfs.TypeDir {
			return errorf("ERR_FS_CP_DIR_TO_NON_DIR", "cp", to,
				"Cannot overwrite non-directory with directory: cp returned EISDIR (cannot overwrite non-directory %s with directory %s) %s", to, from, to)
		}
		if !exists {
			if err := o.FS.Mkdir(ctx, realTo, fi.Perm); err != nil {
				return o.vfsErr(err, "cp", from, to)
			}
		}
		entries, err := o.list(ctx, realFrom, "cp", from, o.lim().MaxDirEntries)
		if err != nil {
			return err
		}
		for _, e := range entries {
			src := joinPath(realFrom, e.Name)
			cfi, err := o.statAs(ctx, src, opt.dereference)
			if err != nil {
				return o.vfsErr(err, "cp", from+"/"+e.Name, to+"/"+e.Name)
			}
			if opt.dereference && e.Kind == vfs.TypeSymlink {
				// Following a link must not lead outside Root.
				if _, err := o.confine(ctx, "cp", src, true); err != nil {
					return withDest(err, from+"/"+e.Name, to+"/"+e.Name)
				}
			}
			if err := o.cpNode(ctx, opt, src, joinPath(realTo, e.Name), cfi, from+"/"+e.Name, to+"/"+e.Name); err != nil {
				return err
			}
		}
	case vfs.TypeSymlink:
		target := fi.Target
		if !strings.HasPrefix(target, "/") {
			target = cleanPath(parentOf(realFrom) + "/" + target)
		}
		if exists {
			if dfi.Kind == vfs.TypeDir {
				return errorf("ERR_FS_CP_NON_DIR_TO_DIR", "cp", to,
					"Cannot overwrite directory with non-directory: cp returned EISDIR (cannot overwrite directory %s with non-directory %s) %s", to, from, to)
			}
			if skip, err := o.cpExisting(opt, to); skip || err != nil {
				return err
			}
		}
		if err := o.checkLinkTarget(ctx, "cp", realTo, target); err != nil {
			return withDest(err, from, to)
		}
		if exists {
			if err := o.FS.Remove(ctx, realTo, nil); err != nil {
				return o.vfsErr(err, "cp", from, to)
			}
		}
		if err := o.FS.Symlink(ctx, target, realTo); err != nil {
			return o.vfsErr(err, "cp", from, to)
		}
	default:
		if exists {
			if dfi.Kind == vfs.TypeDir {
				return errorf("ERR_FS_CP_NON_DIR_TO_DIR", "cp", to,
					"Cannot overwrite directory with non-directory: cp returned EISDIR (cannot overwrite directory %s with non-directory %s) %s", to, from, to)
			}
			if skip, err := o.cpExisting(opt, to); skip || err != nil {
				return err
			}
			if dfi.Kind == vfs.TypeSymlink {
				// Replace the link itself, as Node's cp unlinks first.
				if err := o.FS.Remove(ctx, realTo, nil); err != nil {
					return o.vfsErr(err, "cp", from, to)
				}
			}
		}
		if err := o.copyData(ctx, realFrom, realTo, fi, false, "cp", from, to); err != nil {
			return err
		}
	}
	if opt.preserveTimestamps && fi.Kind != vfs.TypeSymlink {
		if err := o.FS.Chtimes(ctx, realTo, fi.Atime, fi.Mtime); err != nil {
			return o.vfsErr(err, "cp", from, to)
		}
	}
	return nil
}

// cpExisting decides what happens to an existing destination file: it is
// overwritten with force, else skipped, or an error with errorOnExist.
func (o *FSOps) cpExisting(opt *cpOptions, to string) (skip bool, err error) {
	if opt.force {
		return false, nil
	}
	if opt.errorOnExist {
		return true, errorf("ERR_FS_CP_EEXIST", "cp", to, "Target already exists: cp returned EEXIST (%s already exists) %s", to, to)
	}
	return true, nil
}
