package coreutils

import (
	"fmt"
	"strings"
)

func init() {
	register("cp", "cp [-rRafnpv] SOURCE... DEST", cp)
	register("mv", "mv [-fnv] SOURCE... DEST", mv)
	register("ln", "ln [-sfnv] TARGET LINK_NAME | ln [-sfnv] TARGET... DIRECTORY", ln)
}

// destFor returns where src goes: into dest when dest is a directory.
func (e *Env) destFor(src, dest string, many bool) (string, bool) {
	ad := e.Abs(dest)
	if fi, err := e.FS.Stat(e.Ctx, ad); err == nil && fi.IsDir() {
		return ad + "/" + baseOf(src), true
	}
	if many || strings.HasSuffix(dest, "/") {
		return "", false
	}
	return ad, true
}

func cp(e *Env, args []string) int {
	o, ops, ok := e.parse(&flagSpec{bools: "rRafnpvuTdL", long: map[string]bool{"recursive": false, "archive": false, "force": false,
		"no-clobber": false, "preserve": false, "verbose": false},
		alias: map[string]string{"recursive": "r", "archive": "a", "force": "f", "no-clobber": "n", "verbose": "v"}}, args)
	if !ok {
		return 1
	}
	rec := o.has("r") || o.has("R") || o.has("a")
	if len(ops) < 2 {
		e.Errf("missing destination file operand after '%s'", strings.Join(ops, " "))
		return 1
	}
	dest := ops[len(ops)-1]
	srcs := ops[:len(ops)-1]
	status := 0
	for _, s := range srcs {
		as := e.Abs(s)
		fi, err := e.FS.Stat(e.Ctx, as)
		if err != nil {
			e.Errf("cannot stat '%s': %s", s, textOf(err))
			status = 1
			continue
		}
		to, ok := e.destFor(s, dest, len(srcs) > 1)
		if !ok {
			e.Errf("target '%s' is not a directory", dest)
			return 1
		}
		if fi.IsDir() {
			if !rec {
				e.Errf("-r not specified; omitting directory '%s'", s)
				status = 1
				continue
			}
			if to == as || strings.HasPrefix(to, as+"/") {
				e.Errf("cannot copy a directory, '%s', into itself, '%s'", s, dest)
				status = 1
				continue
			}
			if err := e.copyTree(as, to); err != nil {
				e.Errf("cannot copy '%s': %s", s, textOf(err))
				status = 1
				continue
			}
		} else {
			if o.has("n") {
				if _, err := e.FS.Lstat(e.Ctx, to); err == nil {
					continue
				}
			}
			if to == as {
				e.Errf("'%s' and '%s' are the same file", s, dest)
				status = 1
				continue
			}
			if tfi, err := e.FS.Stat(e.Ctx, to); err == nil && tfi.IsDir() {
				e.Errf("cannot overwrite directory '%s' with non-directory", to)
				status = 1
				continue
			}
			if err := e.FS.CopyFile(e.Ctx, as, to); err != nil {
				e.Errf("cannot create regular file '%s': %s", dest, textOf(err))
				status = 1
				continue
			}
		}
		if o.has("v") {
			fmt.Fprintf(e.Stdout, "'%s' -> '%s'\n", s, e.rel(to, dest))
		}
	}
	return status
}

func (e *Env) rel(abs, as string) string {
	if strings.HasPrefix(as, "/") {
		return abs
	}
	if r := strings.TrimPrefix(abs, e.Dir+"/"); r != abs {
		return r
	}
	return abs
}

// copyTree copies the directory from to to (created, or merged into when
// it exists), file by file, so the change report names every file.
func (e *Env) copyTree(from, to string) error {
	if fi, err := e.FS.Stat(e.Ctx, to); err != nil {
		if err := e.FS.Mkdir(e.Ctx, to, false); err != nil {
			return err
		}
	} else if !fi.IsDir() {
		return fmt.Errorf("cannot overwrite non-directory '%s' with directory", to)
	}
	entries, err := e.FS.ReadDirRecursive(e.Ctx, from)
	if err != nil {
		return err
	}
	for _, en := range entries {
		if err := e.Ctx.Err(); err != nil {
			return err
		}
		src, dst := from+"/"+en.Name, to+"/"+en.Name
		switch en.Kind {
		case "dir":
			if _, err := e.FS.Stat(e.Ctx, dst); err != nil {
				if err := e.FS.Mkdir(e.Ctx, dst, false); err != nil {
					return err
				}
			}
		case "symlink":
			t, err := e.FS.Readlink(e.Ctx, src)
			if err != nil {
				return err
			}
			e.FS.Remove(e.Ctx, dst, false, true)
			if err := e.FS.Symlink(e.Ctx, t, dst); err != nil {
				return err
			}
		default:
			if err := e.FS.CopyFile(e.Ctx, src, dst); err != nil {
				return err
			}
		}
	}
	return nil
}

func mv(e *Env, args []string) int {
	o, ops, ok := e.parse(&flagSpec{bools: "fnviuT", long: map[string]bool{"force": false, "no-clobber": false, "verbose": false},
		alias: map[string]string{"force": "f", "no-clobber": "n", "verbose": "v"}}, args)
	if !ok {
		return 1
	}
	if len(ops) < 2 {
		e.Errf("missing destination file operand after '%s'", strings.Join(ops, " "))
		return 1
	}
	dest := ops[len(ops)-1]
	srcs := ops[:len(ops)-1]
	status := 0
	for _, s := range srcs {
		as := e.Abs(s)
		if _, err := e.FS.Lstat(e.Ctx, as); err != nil {
			e.Errf("cannot stat '%s': %s", s, textOf(err))
			status = 1
			continue
		}
		to, ok := e.destFor(s, dest, len(srcs) > 1)
		if !ok {
			e.Errf("target '%s' is not a directory", dest)
			return 1
		}
		if to == as {
			e.Errf("'%s' and '%s' are the same file", s, dest)
			status = 1
			continue
		}
		if strings.HasPrefix(to, as+"/") {
			e.Errf("cannot move '%s' to a subdirectory of itself, '%s'", s, e.rel(to, dest))
			status = 1
			continue
		}
		if o.has("n") {
			if _, err := e.FS.Lstat(e.Ctx, to); err == nil {
				continue
			}
		}
		if err := e.FS.Rename(e.Ctx, as, to); err != nil {
			e.Errf("cannot move '%s' to '%s': %s", s, e.rel(to, dest), textOf(err))
			status = 1
			continue
		}
		if o.has("v") {
			fmt.Fprintf(e.Stdout, "renamed '%s' -> '%s'\n", s, e.rel(to, dest))
		}
	}
	return status
}

func ln(e *Env, args []string) int {
	o, ops, ok := e.parse(&flagSpec{bools: "sfnvrT", long: map[string]bool{"symbolic": false, "force": false, "verbose": false},
		alias: map[string]string{"symbolic": "s", "force": "f", "verbose": "v"}}, args)
	if !ok {
		return 1
	}
	if len(ops) == 0 {
		e.Errf("missing file operand")
		return 1
	}
	if len(ops) == 1 {
		ops = append(ops, ".")
	}
	dest := ops[len(ops)-1]
	status := 0
	for _, t := range ops[:len(ops)-1] {
		to, ok := e.destFor(t, dest, len(ops) > 2)
		if o.has("n") && len(ops) == 2 {
			if fi, err := e.FS.Lstat(e.Ctx, e.Abs(dest)); err == nil && fi.Kind == "symlink" {
				to = e.Abs(dest)
			}
		}
		if !ok {
			e.Errf("target '%s' is not a directory", dest)
			return 1
		}
		if o.has("f") {
			e.FS.Remove(e.Ctx, to, false, true)
		}
		var err error
		if o.has("s") {
			err = e.FS.Symlink(e.Ctx, t, to)
		} else {
			// A hard link, as link(2): a final symlink is linked itself
			// (GNU ln's default, -P).
			if fi, serr := e.FS.Lstat(e.Ctx, e.Abs(t)); serr == nil && fi.Kind == "dir" {
				e.Errf("%s: hard link not allowed for directory", t)
				status = 1
				continue
			}
			err = e.FS.Link(e.Ctx, e.Abs(t), to)
		}
		if err != nil {
			kind := "symbolic link"
			if !o.has("s") {
				kind = "hard link"
			}
			e.Errf("failed to create %s '%s': %s", kind, e.rel(to, dest), textOf(err))
			status = 1
		}
	}
	return status
}
