package coreutils

import (
	"fmt"
	"strconv"
	"strings"
)

// Modes, owners and the identity of the sandbox: one user, "nook" (uid and
// gid 1000), who owns every file.

func init() {
	register("chmod", "chmod [-Rcfv] MODE[,MODE]... FILE...\n  or:  chmod [-Rcfv] --reference=RFILE FILE...\nMODE is octal (755) or symbolic ([ugoa]*[-+=][rwxXst]*|[ugo], e.g. u+x,go-w)", chmod)
	register("chown", "chown [-Rcfvh] OWNER[:[GROUP]] FILE...\nThe sandbox has one user (nook, uid 1000): ownership is accepted and unchanged.", chown)
	register("chgrp", "chgrp [-Rcfvh] GROUP FILE...\nThe sandbox has one group (nook, gid 1000): ownership is accepted and unchanged.", chown)
	register("id", "id [-u|-g|-G] [-n] [USER]", id)
	register("groups", "groups [USER]", groups)
	register("nproc", "nproc [--all] [--ignore=N]", nproc)
	register("tty", "tty [-s]", tty)
	register("install", "install [-Dcv] [-m MODE] [-d] SOURCE... DEST", install)
}

// modeChange is one clause of a symbolic mode ("u+x").
type modeChange struct {
	who  uint32 // bits the clause applies to (0: a, honouring the umask)
	op   byte
	perm uint32 // rwx bits in the "all" position, or special bits
	x    bool   // X: execute only for directories or already executable files
	copy byte   // 'u', 'g' or 'o': copy those bits
}

const umask = 0o022

// parseMode parses an octal or symbolic mode; it returns a function from
// the old mode (and whether the file is a directory) to the new one.
func parseMode(s string) (func(old uint32, dir bool) uint32, error) {
	if s == "" {
		return nil, fmt.Errorf("invalid mode: '%s'", s)
	}
	if s[0] >= '0' && s[0] <= '7' {
		n, err := strconv.ParseUint(s, 8, 32)
		if err != nil || n > 0o7777 {
			return nil, fmt.Errorf("invalid mode: '%s'", s)
		}
		return func(old uint32, dir bool) uint32 {
			m := uint32(n)
			if dir && len(s) < 5 {
				// GNU keeps a directory's setuid/setgid bits unless 5 digits say otherwise.
				m |= old & 0o6000
			}
			return m
		}, nil
	}
	var changes []modeChange
	for _, clause := range strings.Split(s, ",") {
		i := 0
		var who uint32
		for ; i < len(clause) && strings.IndexByte("ugoa", clause[i]) >= 0; i++ {
			switch clause[i] {
			case 'u':
				who |= 0o4700
			case 'g':
				who |= 0o2070
			case 'o':
				who |= 0o1007
			case 'a':
				who |= 0o7777
			}
		}
		if i == len(clause) {
			return nil, fmt.Errorf("invalid mode: '%s'", s)
		}
		for i < len(clause) {
			op := clause[i]
			if op != '+' && op != '-' && op != '=' {
				return nil, fmt.Errorf("invalid mode: '%s'", s)
			}
			i++
			c := modeChange{who: who, op: op}
			for ; i < len(clause) && strings.IndexByte("rwxXstugo", clause[i]) >= 0; i++ {
				switch ch := clause[i]; ch {
				case 'r':
					c.perm |= 0o444
				case 'w':
					c.perm |= 0o222
				case 'x':
					c.perm |= 0o111
				case 'X':
					c.x = true
				case 's':
					c.perm |= 0o6000
				case 't':
					c.perm |= 0o1000
				case 'u', 'g', 'o':
					c.copy = ch
				}
			}
			changes = append(changes, c)
		}
	}
	return func(old uint32, dir bool) uint32 {
		m := old
		for _, c := range changes {
			perm := c.perm
			if c.x && (dir || m&0o111 != 0) {
				perm |= 0o111
			}
			switch c.copy {
			case 'u':
				perm |= (m >> 6 & 7) * 0o111
			case 'g':
				perm |= (m >> 3 & 7) * 0o111
			case 'o':
				perm |= (m & 7) * 0o111
			}
			mask := c.who
			if mask == 0 {
				mask = 0o7777
				if c.op != '=' {
					perm &^= umask
				}
			}
			perm &= mask
			switch c.op {
			case '+':
				m |= perm
			case '-':
				m &^= perm
			case '=':
				clear := mask
				if dir {
					clear &^= 0o6000 // GNU keeps a directory's set-id bits
				}
				m = m&^clear | perm
			}
		}
		return m
	}, nil
}

func chmod(e *Env, args []string) int {
	// A mode like "-w" looks like an option: take it out first.
	var mode string
	rest := []string{args[0]}
	for _, a := range args[1:] {
		if mode == "" && len(a) > 1 && a[0] == '-' && strings.Trim(a[1:], "rwxXst") == "" && !strings.ContainsAny(a[1:], "cfvR") {
			mode = a
			continue
		}
		rest = append(rest, a)
	}
	o, ops, ok := e.parse(&flagSpec{bools: "Rcfv", long: map[string]bool{"recursive": false, "changes": false, "silent": false,
		"quiet": false, "verbose": false, "reference": true, "preserve-root": false, "no-preserve-root": false},
		alias: map[string]string{"recursive": "R", "changes": "c", "silent": "f", "quiet": "f", "verbose": "v"}}, rest)
	if !ok {
		return 1
	}
	var apply func(uint32, bool) uint32
	switch {
	case o.has("reference"):
		fi, err := e.FS.Stat(e.Ctx, e.Abs(o.last("reference", "")))
		if err != nil {
			e.Errf("failed to get attributes of '%s': %s", o.last("reference", ""), textOf(err))
			return 1
		}
		ref := fi.FMode & 0o7777
		apply = func(uint32, bool) uint32 { return ref }
	default:
		if mode == "" {
			if len(ops) == 0 {
				e.Errf("missing operand")
				return 1
			}
			mode, ops = ops[0], ops[1:]
		}
		var err error
		if apply, err = parseMode(mode); err != nil {
			e.Errf("%s", err)
			return 1
		}
	}
	if len(ops) == 0 {
		e.Errf("missing operand after '%s'", mode)
		return 1
	}
	status := 0
	var do func(p, shown string, top bool)
	do = func(p, shown string, top bool) {
		if e.Ctx.Err() != nil {
			status = 1
			return
		}
		fi, err := e.FS.Stat(e.Ctx, p)
		if err != nil {
			if top || codeOf(err) != "ENOENT" {
				if !o.has("f") {
					e.Errf("cannot access '%s': %s", shown, textOf(err))
				}
				status = 1
			}
			return
		}
		dir := fi.Kind == "dir"
		old := fi.FMode & 0o7777
		nm := apply(old, dir)
		if nm != old {
			if err := e.FS.Chmod(e.Ctx, p, nm); err != nil {
				if !o.has("f") {
					e.Errf("changing permissions of '%s': %s", shown, textOf(err))
				}
				status = 1
				return
			}
		}
		if o.has("v") || o.has("c") && nm != old {
			if nm != old {
				fmt.Fprintf(e.Stdout, "mode of '%s' changed from %04o (%s) to %04o (%s)\n", shown, old, permString(old, dir)[1:], nm, permString(nm, dir)[1:])
			} else {
				fmt.Fprintf(e.Stdout, "mode of '%s' retained as %04o (%s)\n", shown, old, permString(old, dir)[1:])
			}
		}
		if dir && o.has("R") {
			entries, err := e.FS.ReadDir(e.Ctx, p)
			if err != nil {
				e.Errf("cannot read directory '%s': %s", shown, textOf(err))
				status = 1
				return
			}
			for _, en := range entries {
				if en.Kind == "symlink" {
					continue // GNU chmod -R does not follow symlinks met in the walk
				}
				do(p+"/"+en.Name, strings.TrimSuffix(shown, "/")+"/"+en.Name, false)
			}
		}
	}
	for _, f := range ops {
		do(e.Abs(f), f, true)
	}
	return status
}

// permString renders permission bits as ls does, without the type letter.
func permString(m uint32, dir bool) string {
	b := []byte("rwxrwxrwx")
	for i := 0; i < 9; i++ {
		if m&(1<<(8-i)) == 0 {
			b[i] = '-'
		}
	}
	set := func(i int, bit uint32, on, off byte) {
		if m&bit != 0 {
			if b[i] == '-' {
				b[i] = off
			} else {
				b[i] = on
			}
		}
	}
	set(2, 0o4000, 's', 'S')
	set(5, 0o2000, 's', 'S')
	set(8, 0o1000, 't', 'T')
	t := "-"
	if dir {
		t = "d"
	}
	return t + string(b)
}

// chown and chgrp accept the one user and group (by name or id) and check
// that the files exist; nothing changes.
func chown(e *Env, args []string) int {
	o, ops, ok := e.parse(&flagSpec{bools: "RcfvhHLP", long: map[string]bool{"recursive": false, "changes": false, "silent": false,
		"quiet": false, "verbose": false, "reference": true, "no-dereference": false, "dereference": false, "from": true,
		"preserve-root": false, "no-preserve-root": false},
		alias: map[string]string{"recursive": "R", "changes": "c", "silent": "f", "quiet": "f", "verbose": "v", "no-dereference": "h"}}, args)
	if !ok {
		return 1
	}
	if !o.has("reference") {
		if len(ops) == 0 {
			e.Errf("missing operand")
			return 1
		}
		spec := ops[0]
		ops = ops[1:]
		user, group := spec, ""
		if e.name == "chgrp" {
			user, group = "", spec
		} else if u, g, ok := strings.Cut(spec, ":"); ok {
			user, group = u, g
		} else if u, g, ok := strings.Cut(spec, "."); ok {
			user, group = u, g
		}
		known := func(s string) bool { return s == "" || s == "nook" || s == "1000" || s == "root" || s == "0" }
		if !known(user) {
			e.Errf("invalid user: '%s'", spec)
			return 1
		}
		if !known(group) {
			e.Errf("invalid group: '%s'", spec)
			return 1
		}
	}
	if len(ops) == 0 {
		e.Errf("missing operand after '%s'", args[len(args)-1])
		return 1
	}
	status := 0
	for _, f := range ops {
		if _, err := e.FS.Lstat(e.Ctx, e.Abs(f)); err != nil {
			if !o.has("f") {
				e.Errf("cannot access '%s': %s", f, textOf(err))
			}
			status = 1
		} else if o.has("v") {
			fmt.Fprintf(e.Stdout, "ownership of '%s' retained as nook:nook\n", f)
		}
	}
	return status
}

func id(e *Env, args []string) int {
	o, ops, ok := e.parse(&flagSpec{bools: "ugGnrz", long: map[string]bool{"user": false, "group": false, "groups": false, "name": false, "real": false, "zero": false},
		alias: map[string]string{"user": "u", "group": "g", "groups": "G", "name": "n", "real": "r", "zero": "z"}}, args)
	if !ok {
		return 1
	}
	if len(ops) > 0 && ops[0] != "nook" && ops[0] != "1000" {
		e.Errf("'%s': no such user", ops[0])
		return 1
	}
	n := o.has("n")
	switch {
	case o.has("u"), o.has("g"), o.has("G"):
		if n {
			fmt.Fprintln(e.Stdout, "nook")
		} else {
			fmt.Fprintln(e.Stdout, "1000")
		}
	default:
		fmt.Fprintln(e.Stdout, "uid=1000(nook) gid=1000(nook) groups=1000(nook)")
	}
	return 0
}

func groups(e *Env, args []string) int {
	if len(args) > 1 {
		if args[1] != "nook" {
			e.Errf("'%s': no such user", args[1])
			return 1
		}
		fmt.Fprintln(e.Stdout, "nook : nook")
		return 0
	}
	fmt.Fprintln(e.Stdout, "nook")
	return 0
}

// nproc reports one processor: the sandbox runs a script's commands one
// at a time (pipeline stages interleave), so parallelism buys nothing.
func nproc(e *Env, args []string) int {
	o, _, ok := e.parse(&flagSpec{long: map[string]bool{"all": false, "ignore": true}}, args)
	if !ok {
		return 1
	}
	_ = o
	fmt.Fprintln(e.Stdout, "1")
	return 0
}

func tty(e *Env, args []string) int {
	o, _, ok := e.parse(&flagSpec{bools: "s", long: map[string]bool{"silent": false, "quiet": false},
		alias: map[string]string{"silent": "s", "quiet": "s"}}, args)
	if !ok {
		return 2
	}
	if !o.has("s") {
		fmt.Fprintln(e.Stdout, "not a tty")
	}
	return 1
}

// install copies files (or makes directories with -d) and sets their mode
// (default 0755).
func install(e *Env, args []string) int {
	o, ops, ok := e.parse(&flagSpec{bools: "DdcvCpbs", vals: "mogt", long: map[string]bool{"directory": false, "mode": true,
		"owner": true, "group": true, "verbose": false, "target-directory": true, "compare": false, "preserve-timestamps": false, "strip": false},
		alias: map[string]string{"directory": "d", "mode": "m", "owner": "o", "group": "g", "verbose": "v", "target-directory": "t",
			"compare": "C", "preserve-timestamps": "p", "strip": "s"}}, args)
	if !ok {
		return 1
	}
	apply := func(uint32, bool) uint32 { return 0o755 }
	if o.has("m") {
		f, err := parseMode(o.last("m", ""))
		if err != nil {
			e.Errf("%s", err)
			return 1
		}
		apply = func(_ uint32, dir bool) uint32 { return f(0, dir) }
	}
	status := 0
	setMode := func(p, shown string, dir bool) {
		if err := e.FS.Chmod(e.Ctx, p, apply(0o755, dir)); err != nil {
			e.Errf("cannot change permissions of '%s': %s", shown, textOf(err))
			status = 1
		}
	}
	if o.has("d") {
		if len(ops) == 0 {
			e.Errf("missing file operand")
			return 1
		}
		for _, d := range ops {
			if err := e.FS.Mkdir(e.Ctx, e.Abs(d), true); err != nil {
				e.Errf("cannot create directory '%s': %s", d, textOf(err))
				status = 1
				continue
			}
			if o.has("v") {
				fmt.Fprintf(e.Stdout, "install: creating directory '%s'\n", d)
			}
			setMode(e.Abs(d), d, true)
		}
		return status
	}
	target := o.last("t", "")
	if target == "" {
		if len(ops) < 2 {
			if len(ops) == 0 {
				e.Errf("missing file operand")
			} else {
				e.Errf("missing destination file operand after '%s'", ops[0])
			}
			return 1
		}
		target, ops = ops[len(ops)-1], ops[:len(ops)-1]
	}
	tdir := false
	if fi, err := e.FS.Stat(e.Ctx, e.Abs(target)); err == nil && fi.Kind == "dir" {
		tdir = true
	} else if len(ops) > 1 || o.has("t") {
		if o.has("D") {
			if err := e.FS.Mkdir(e.Ctx, e.Abs(target), true); err != nil {
				e.Errf("cannot create directory '%s': %s", target, textOf(err))
				return 1
			}
			tdir = true
		} else {
			e.Errf("target '%s' is not a directory", target)
			return 1
		}
	}
	for _, src := range ops {
		dst := target
		if tdir {
			dst = strings.TrimSuffix(target, "/") + "/" + src[strings.LastIndex(src, "/")+1:]
		} else if o.has("D") {
			if i := strings.LastIndex(dst, "/"); i > 0 {
				if err := e.FS.Mkdir(e.Ctx, e.Abs(dst[:i]), true); err != nil {
					e.Errf("cannot create directory '%s': %s", dst[:i], textOf(err))
					status = 1
					continue
				}
			}
		}
		if fi, err := e.FS.Stat(e.Ctx, e.Abs(src)); err != nil {
			e.Errf("cannot stat '%s': %s", src, textOf(err))
			status = 1
			continue
		} else if fi.Kind == "dir" {
			e.Errf("omitting directory '%s'", src)
			status = 1
			continue
		}
		if err := e.FS.CopyFile(e.Ctx, e.Abs(src), e.Abs(dst)); err != nil {
			e.Errf("cannot create regular file '%s': %s", dst, textOf(err))
			status = 1
			continue
		}
		if o.has("v") {
			fmt.Fprintf(e.Stdout, "'%s' -> '%s'\n", src, dst)
		}
		setMode(e.Abs(dst), dst, false)
	}
	return status
}
