// nook: this file is not in upstream mvdan.cc/sh (see ../PATCHES.md, "file descriptors above 2").

package interp

import (
	"context"
	"fmt"
	"io"
	"maps"
	"os"
	"strconv"
	"strings"

	"github.com/nookdev/nook/internal/mvsh/syntax"
)

// firstNamedFD is the first descriptor `{var}>` allocates, as in bash.
const firstNamedFD = 10

// MaxFD is the highest file descriptor a script may name (bash allows up
// to the process's limit; the table here is a map, so this only bounds
// what a typo like `99999999>f` costs).
const MaxFD = 1023

// redirFD reports the descriptor a redirection names when it is above 2
// (a number, or {var}, which is assigned a free descriptor from 10 on
// unless the operator closes it); ok is false for 0, 1, 2 and no N.
func (r *Runner) redirFD(rd *syntax.Redirect) (fd int, ok bool, err error) {
	if rd.N == nil {
		return 0, false, nil
	}
	v := rd.N.Value
	if strings.HasPrefix(v, "{") && strings.HasSuffix(v, "}") {
		name := v[1 : len(v)-1]
		if (rd.Op == syntax.DplOut || rd.Op == syntax.DplIn) && r.literal(rd.Word) == "-" {
			n, err := strconv.Atoi(r.lookupVar(name).String())
			if err != nil {
				return 0, false, fmt.Errorf("%s: ambiguous redirect", v)
			}
			return n, true, nil
		}
		fd = firstNamedFD
		for r.fds[fd] != nil {
			fd++
		}
		r.setVarString(name, strconv.Itoa(fd))
		return fd, true, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 {
		return 0, false, fmt.Errorf("unsupported redirect fd: %v", v)
	}
	if n <= 2 {
		return 0, false, nil
	}
	if n > MaxFD {
		return 0, false, fmt.Errorf("%d: Bad file descriptor", n)
	}
	return n, true, nil
}

// fdValue is what descriptor n holds: stdin, stdout, stderr or a table entry.
func (r *Runner) fdValue(n int) any {
	switch n {
	case 0:
		if r.stdin == nil {
			return nil
		}
		return r.stdin
	case 1:
		return r.stdout
	case 2:
		return r.stderr
	}
	return r.fds[n]
}

// fdWriter is descriptor arg ("3") as a writer, for `>&3`.
func (r *Runner) fdWriter(arg string) (io.Writer, error) {
	n, err := strconv.Atoi(arg)
	if err != nil {
		return nil, fmt.Errorf("%s: ambiguous redirect", arg)
	}
	if w, ok := r.fdValue(n).(io.Writer); ok && w != nil {
		return w, nil
	}
	return nil, fmt.Errorf("%d: Bad file descriptor", n)
}

// fdReader is descriptor arg as the shell's stdin, for `<&3`.
func (r *Runner) fdReader(arg string) (stdinFile, error) {
	n, err := strconv.Atoi(arg)
	if err != nil {
		return nil, fmt.Errorf("%s: ambiguous redirect", arg)
	}
	switch v := r.fdValue(n).(type) {
	case stdinFile:
		return v, nil
	case io.Reader:
		sf, err := newStdinFile(v)
		if err != nil {
			return nil, err
		}
		r.fds[n] = sf // later reads continue where this one stopped
		return sf, nil
	}
	return nil, fmt.Errorf("%d: Bad file descriptor", n)
}

// redirHighFD performs a redirection of descriptor fd above 2.
func (r *Runner) redirHighFD(ctx context.Context, fd int, rd *syntax.Redirect) (io.Closer, error) {
	if r.fds == nil {
		r.fds = map[int]any{}
	}
	arg := r.literal(rd.Word)
	switch rd.Op {
	case syntax.DplOut, syntax.DplIn:
		if arg == "-" {
			r.closeFD(fd)
			return nil, nil
		}
		move := strings.HasSuffix(arg, "-")
		src := strings.TrimSuffix(arg, "-")
		n, err := strconv.Atoi(src)
		if err != nil {
			return nil, fmt.Errorf("%s: ambiguous redirect", arg)
		}
		v := r.fdValue(n)
		if v == nil {
			return nil, fmt.Errorf("%d: Bad file descriptor", n)
		}
		r.fds[fd] = v
		if move && n > 2 {
			delete(r.fds, n)
		}
		return nil, nil
	}
	var mode int
	switch rd.Op {
	case syntax.RdrIn:
		mode = os.O_RDONLY
	case syntax.RdrInOut:
		mode = os.O_RDWR | os.O_CREATE
	case syntax.AppOut:
		mode = os.O_WRONLY | os.O_CREATE | os.O_APPEND
	case syntax.RdrOut, syntax.ClbOut:
		mode = os.O_WRONLY | os.O_CREATE | os.O_TRUNC
		if rd.Op == syntax.RdrOut && r.opts[optNoClobber] {
			if fi, err := r.stat(ctx, arg); err == nil && fi.Mode().IsRegular() {
				return nil, fmt.Errorf("%s: cannot overwrite existing file", arg)
			}
		}
	default:
		return nil, fmt.Errorf("unhandled redirect op: %v", rd.Op)
	}
	f, err := r.open(ctx, arg, mode, 0o644, false)
	if err != nil {
		return nil, err
	}
	r.closeFD(fd)
	r.fds[fd] = f
	if r.fdOpened == nil {
		r.fdOpened = map[any]bool{}
	}
	r.fdOpened[f] = true
	return f, nil
}

// closeFD removes descriptor fd; a file a redirection opened is closed
// once no other descriptor holds it (so a buffered write reaches it).
func (r *Runner) closeFD(fd int) {
	v, ok := r.fds[fd]
	if !ok {
		return
	}
	delete(r.fds, fd)
	if !r.fdOpened[v] {
		return
	}
	for _, other := range r.fds {
		if other == v {
			return
		}
	}
	delete(r.fdOpened, v)
	if c, ok := v.(io.Closer); ok {
		c.Close()
	}
}

// closeFDs closes what the run's descriptors above 2 still hold open
// (`exec 3> f` without a later `exec 3>&-`), at the end of a run.
func (r *Runner) closeFDs() {
	for fd := range r.fds {
		r.closeFD(fd)
	}
}

// saveFDs returns the descriptor table to restore after a statement whose
// redirections may change it (nil when none names a descriptor above 2).
func (r *Runner) saveFDs(st *syntax.Stmt) (map[int]any, bool) {
	for _, rd := range st.Redirs {
		if rd.N != nil && rd.N.Value != "0" && rd.N.Value != "1" && rd.N.Value != "2" {
			return maps.Clone(r.fds), true
		}
	}
	return nil, false
}
