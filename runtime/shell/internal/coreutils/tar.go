package coreutils

import (
	"archive/tar"
	"bufio"
	"compress/bzip2"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/nookdev/nook/runtime/shell/internal/hostfs"
)

func init() {
	register("tar", "tar {c|x|t}[zvf] [-f ARCHIVE] [-C DIR] [-z] [-v] [-O] [-k] [--strip-components=N] [--exclude=PATTERN] [FILE]...", tarCmd)
}

type tarOpts struct {
	mode     byte // 'c', 'x' or 't'
	file     string
	dir      string
	gzip     bool
	verbose  bool
	toStdout bool
	keepOld  bool
	strip    int
	excludes []string
	members  []string
	failed   bool
}

func tarCmd(e *Env, args []string) int {
	o := &tarOpts{file: "-"}
	a := args[1:]
	usage := func(msg string) int {
		e.Errf("%s", msg)
		fmt.Fprintf(e.Stderr, "Try '%s --help' for more information.\n", e.name)
		return 2
	}
	var pending []byte // bundled options waiting for their value
	setMode := func(m byte) bool {
		if o.mode != 0 && o.mode != m {
			return false
		}
		o.mode = m
		return true
	}
	letter := func(c byte) (ok bool, needsValue bool) {
		switch c {
		case 'c', 'x', 't':
			return setMode(c), false
		case 'z':
			o.gzip = true
		case 'v':
			o.verbose = true
		case 'O':
			o.toStdout = true
		case 'k':
			o.keepOld = true
		case 'p', 'm', 'o', 'h':
		case 'f', 'C':
			return true, true
		case 'j', 'J':
			return false, false
		default:
			return false, false
		}
		return true, false
	}
	setValue := func(c byte, v string) {
		switch c {
		case 'f':
			o.file = v
		case 'C':
			o.dir = v
		}
	}
	for i := 0; i < len(a); i++ {
		s := a[i]
		if len(pending) > 0 {
			setValue(pending[0], s)
			pending = pending[1:]
			continue
		}
		switch {
		case i == 0 && s != "" && s[0] != '-':
			// old style: "tar czf archive.tgz dir"
			for j := 0; j < len(s); j++ {
				ok, val := letter(s[j])
				if !ok {
					if s[j] == 'j' || s[j] == 'J' {
						return usage("bzip2 and xz compression are not supported; use -z (gzip)")
					}
					return usage(fmt.Sprintf("invalid option -- '%c'", s[j]))
				}
				if val {
					pending = append(pending, s[j])
				}
			}
		case s == "--":
			o.members = append(o.members, a[i+1:]...)
			i = len(a)
		case strings.HasPrefix(s, "--"):
			name, v, hasV := strings.Cut(s[2:], "=")
			needV := func() (string, bool) {
				if hasV {
					return v, true
				}
				if i+1 < len(a) {
					i++
					return a[i], true
				}
				return "", false
			}
			switch name {
			case "create":
				setMode('c')
			case "extract", "get":
				setMode('x')
			case "list":
				setMode('t')
			case "gzip", "gunzip", "ungzip":
				o.gzip = true
			case "verbose":
				o.verbose = true
			case "to-stdout":
				o.toStdout = true
			case "keep-old-files", "skip-old-files":
				o.keepOld = true
			case "file", "directory", "strip-components", "exclude":
				val, ok := needV()
				if !ok {
					return usage(fmt.Sprintf("option '--%s' requires an argument", name))
				}
				switch name {
				case "file":
					o.file = val
				case "directory":
					o.dir = val
				case "strip-components":
					n, err := strconv.Atoi(val)
					if err != nil || n < 0 {
						return usage(fmt.Sprintf("invalid number of components '%s'", val))
					}
					o.strip = n
				case "exclude":
					o.excludes = append(o.excludes, val)
				}
			case "auto-compress":
			case "no-same-owner", "no-same-permissions", "same-permissions", "preserve-permissions",
				"overwrite", "numeric-owner", "sort=name", "touch", "no-recursion":
			case "bzip2", "xz", "lzma", "zstd":
				return usage("bzip2, xz, lzma and zstd compression are not supported; use -z (gzip)")
			default:
				if strings.HasPrefix(name, "sort") || strings.HasPrefix(name, "owner") || strings.HasPrefix(name, "group") ||
					strings.HasPrefix(name, "mtime") || strings.HasPrefix(name, "format") || strings.HasPrefix(name, "mode") {
					continue
				}
				return usage(fmt.Sprintf("unrecognized option '%s'", s))
			}
		case len(s) > 1 && s[0] == '-':
			for j := 1; j < len(s); j++ {
				ok, val := letter(s[j])
				if !ok {
					if s[j] == 'j' || s[j] == 'J' {
						return usage("bzip2 and xz compression are not supported; use -z (gzip)")
					}
					return usage(fmt.Sprintf("invalid option -- '%c'", s[j]))
				}
				if val {
					if j+1 < len(s) {
						setValue(s[j], s[j+1:])
					} else if i+1 < len(a) {
						i++
						setValue(s[j], a[i])
					} else {
						return usage(fmt.Sprintf("option requires an argument -- '%c'", s[j]))
					}
					break
				}
			}
		default:
			o.members = append(o.members, s)
		}
	}
	if len(pending) > 0 {
		return usage(fmt.Sprintf("option requires an argument -- '%c'", pending[0]))
	}
	switch o.mode {
	case 'c':
		if len(o.members) == 0 {
			e.Errf("Cowardly refusing to create an empty archive")
			fmt.Fprintf(e.Stderr, "Try '%s --help' for more information.\n", e.name)
			return 2
		}
		return e.tarCreate(o)
	case 'x', 't':
		return e.tarRead(o)
	}
	return usage("You must specify one of the '-Acdtrux', '--delete' or '--test-label' options")
}

func (o *tarOpts) excluded(name string) bool {
	for _, p := range o.excludes {
		base := path.Base(strings.TrimSuffix(name, "/"))
		if ok, _ := path.Match(p, base); ok {
			return true
		}
		if ok, _ := path.Match(p, strings.TrimSuffix(name, "/")); ok {
			return true
		}
	}
	return false
}

// memberName makes an operand a member name: leading "/" and "../" are
// removed, as GNU tar does.
func (e *Env) memberName(p string, warned map[string]bool) string {
	n := p
	for {
		switch {
		case strings.HasPrefix(n, "/"):
			if !warned["/"] {
				e.Errf("Removing leading `/' from member names")
				warned["/"] = true
			}
			n = strings.TrimLeft(n, "/")
			continue
		case strings.HasPrefix(n, "../"):
			if !warned["../"] {
				e.Errf("Removing leading `../' from member names")
				warned["../"] = true
			}
			n = n[3:]
			continue
		}
		break
	}
	if len(n) > 1 {
		n = strings.TrimRight(n, "/")
	}
	return n
}

func (e *Env) tarCreate(o *tarOpts) int {
	var out io.Writer = e.Stdout
	var closer io.Closer
	archiveAbs := ""
	if o.file != "-" {
		archiveAbs = e.Abs(o.file)
		w, err := e.FS.Create(e.Ctx, archiveAbs, false, false)
		if err != nil {
			e.Errf("%s: Cannot open: %s", o.file, textOf(err))
			e.Errf("Error is not recoverable: exiting now")
			return 2
		}
		out, closer = w, w
	}
	verbose := e.Stdout
	if o.file == "-" {
		verbose = e.Stderr
	}
	var gz *gzip.Writer
	if o.gzip {
		gz = gzip.NewWriter(out)
		out = gz
	}
	tw := tar.NewWriter(out)
	base := e.Dir
	if o.dir != "" {
		base = e.Abs(o.dir)
	}
	warned := map[string]bool{}
	var add func(abs, name string) bool
	add = func(abs, name string) bool {
		if e.Ctx.Err() != nil {
			return false
		}
		if o.excluded(name) {
			return true
		}
		if abs == archiveAbs {
			e.Errf("%s: file is the archive; not dumped", name)
			return true
		}
		fi, err := e.FS.Lstat(e.Ctx, abs)
		if err != nil {
			e.Errf("%s: Cannot stat: %s", name, textOf(err))
			o.failed = true
			return true
		}
		h := &tar.Header{Name: name, Mode: int64(fi.FMode & 0o7777), ModTime: fi.ModTime().Truncate(time.Second),
			Uid: 1000, Gid: 1000, Uname: "nook", Gname: "nook", Format: tar.FormatGNU}
		switch fi.Kind {
		case "dir":
			h.Typeflag = tar.TypeDir
			if !strings.HasSuffix(h.Name, "/") {
				h.Name += "/"
			}
		case "symlink":
			h.Typeflag = tar.TypeSymlink
			h.Linkname, err = e.FS.Readlink(e.Ctx, abs)
			if err != nil {
				e.Errf("%s: Cannot readlink: %s", name, textOf(err))
				o.failed = true
				return true
			}
		default:
			h.Typeflag = tar.TypeReg
			h.Size = fi.Size()
		}
		if o.verbose {
			fmt.Fprintln(verbose, h.Name)
		}
		if err := tw.WriteHeader(h); err != nil {
			e.Errf("%s: %v", name, err)
			o.failed = true
			return false
		}
		switch fi.Kind {
		case "file":
			r, err := e.FS.Open(e.Ctx, abs)
			if err != nil {
				e.Errf("%s: Cannot open: %s", name, textOf(err))
				o.failed = true
				return false
			}
			n, err := io.Copy(tw, io.LimitReader(r, h.Size))
			if err != nil || n != h.Size {
				e.Errf("%s: File shrank or could not be read", name)
				o.failed = true
				return false
			}
		case "dir":
			entries, err := e.FS.ReadDir(e.Ctx, abs)
			if err != nil {
				e.Errf("%s: Cannot open: %s", name, textOf(err))
				o.failed = true
				return true
			}
			for _, en := range entries {
				child := strings.TrimSuffix(h.Name, "/") + "/" + en.Name
				if h.Name == "/" {
					child = en.Name
				}
				if !add(abs+"/"+en.Name, child) {
					return false
				}
			}
		}
		return true
	}
	ok := true
	for _, m := range o.members {
		if !add(path.Join(base, m), e.memberName(m, warned)) || e.Ctx.Err() != nil {
			ok = false
			break
		}
	}
	err := tw.Close()
	if gz != nil && err == nil {
		err = gz.Close()
	}
	if closer != nil {
		if cerr := closer.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		e.Errf("%s: Cannot write: %s", o.file, textOf(err))
		return 2
	}
	if o.failed || !ok {
		e.Errf("Exiting with failure status due to previous errors")
		return 2
	}
	return 0
}

// tarReader opens the archive, detecting gzip and bzip2 compression.
func (e *Env) tarReader(o *tarOpts) (io.Reader, error) {
	var r io.Reader
	if o.file == "-" {
		r = e.Stdin
	} else {
		f, err := e.FS.Open(e.Ctx, e.Abs(o.file))
		if err != nil {
			return nil, err
		}
		r = f
	}
	br := bufio.NewReader(r)
	magic, _ := br.Peek(3)
	switch {
	case len(magic) >= 2 && magic[0] == 0x1f && magic[1] == 0x8b:
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, errors.New("This does not look like a tar archive")
		}
		return zr, nil
	case len(magic) == 3 && string(magic) == "BZh":
		return bzip2.NewReader(br), nil
	}
	return br, nil
}

func (o *tarOpts) selected(name string, found map[string]bool) bool {
	if len(o.members) == 0 {
		return true
	}
	n := strings.TrimSuffix(name, "/")
	for _, m := range o.members {
		mm := strings.TrimSuffix(m, "/")
		if n == mm || strings.HasPrefix(n, mm+"/") {
			found[m] = true
			return true
		}
	}
	return false
}

// safeMember cleans a member name for extraction; it refuses names that
// would leave the target directory.
func safeMember(name string) (string, string) {
	n := name
	if strings.HasPrefix(n, "/") {
		n = strings.TrimLeft(n, "/")
	}
	for _, part := range strings.Split(n, "/") {
		if part == ".." {
			return "", "Member name contains '..'"
		}
	}
	n = path.Clean(n)
	if n == "." || n == "" {
		return ".", ""
	}
	return n, ""
}

func (e *Env) tarRead(o *tarOpts) int {
	r, err := e.tarReader(o)
	if err != nil {
		if hostfs.Code(err) != "" {
			e.Errf("%s: Cannot open: %s", o.file, textOf(err))
		} else {
			e.Errf("%v", err)
		}
		e.Errf("Error is not recoverable: exiting now")
		return 2
	}
	dest := e.Dir
	if o.dir != "" {
		dest = e.Abs(o.dir)
		if fi, err := e.FS.Stat(e.Ctx, dest); err != nil || !fi.IsDir() {
			if err == nil {
				e.Errf("%s: Cannot open: Not a directory", o.dir)
			} else {
				e.Errf("%s: Cannot open: %s", o.dir, textOf(err))
			}
			e.Errf("Error is not recoverable: exiting now")
			return 2
		}
	}
	tr := tar.NewReader(r)
	found := map[string]bool{}
	warned := map[string]bool{}
	madeDirs := map[string]bool{}
	count := 0
	for {
		if e.Ctx.Err() != nil {
			return 2
		}
		h, err := tr.Next()
		if err == io.EOF {
			if count == 0 {
				// an empty or non-tar input
				break
			}
			break
		}
		if err != nil {
			e.Errf("This does not look like a tar archive")
			e.Errf("Exiting with failure status due to previous errors")
			return 2
		}
		count++
		if !o.selected(h.Name, found) || o.excluded(h.Name) {
			continue
		}
		if o.mode == 't' {
			if o.verbose {
				e.tarVerbose(h)
			} else {
				fmt.Fprintln(e.Stdout, h.Name)
			}
			continue
		}
		name := h.Name
		if strings.HasPrefix(name, "/") && !warned["/"] {
			e.Errf("Removing leading `/' from member names")
			warned["/"] = true
		}
		clean, why := safeMember(name)
		if why != "" {
			e.Errf("%s: %s", name, why)
			o.failed = true
			continue
		}
		if o.strip > 0 {
			parts := strings.Split(clean, "/")
			if len(parts) <= o.strip {
				continue
			}
			clean = strings.Join(parts[o.strip:], "/")
		}
		if o.verbose && !o.toStdout {
			fmt.Fprintln(e.Stdout, h.Name)
		}
		if o.toStdout {
			if h.Typeflag == tar.TypeReg || h.Typeflag == tar.TypeRegA {
				if _, err := io.Copy(e.Stdout, tr); err != nil {
					return 2
				}
			}
			continue
		}
		target := path.Join(dest, clean)
		e.tarExtract(o, h, tr, target, clean, dest, madeDirs)
	}
	status := 0
	for _, m := range o.members {
		if !found[m] {
			e.Errf("%s: Not found in archive", m)
			o.failed = true
		}
	}
	if o.failed {
		e.Errf("Exiting with failure status due to previous errors")
		status = 2
	}
	return status
}

func (e *Env) tarExtract(o *tarOpts, h *tar.Header, r io.Reader, target, name, dest string, madeDirs map[string]bool) {
	parent := path.Dir(target)
	if !madeDirs[parent] {
		if err := e.FS.Mkdir(e.Ctx, parent, true); err != nil && codeOf(err) != "EEXIST" {
			e.Errf("%s: Cannot mkdir: %s", name, textOf(err))
			o.failed = true
			return
		}
		madeDirs[parent] = true
	}
	exists := false
	if fi, err := e.FS.Lstat(e.Ctx, target); err == nil {
		exists = true
		if o.keepOld && fi.Kind != "dir" {
			e.Errf("%s: Cannot open: File exists", name)
			o.failed = true
			return
		}
		switch {
		case fi.Kind == "dir" && h.Typeflag != tar.TypeDir:
			if err := e.FS.Rmdir(e.Ctx, target); err != nil {
				e.Errf("%s: Cannot open: Is a directory", name)
				o.failed = true
				return
			}
		case fi.Kind != "dir" && (h.Typeflag == tar.TypeSymlink || fi.Kind == "symlink"):
			e.FS.Remove(e.Ctx, target, false, true)
		}
	}
	switch h.Typeflag {
	case tar.TypeDir:
		if err := e.FS.Mkdir(e.Ctx, target, true); err != nil && codeOf(err) != "EEXIST" {
			e.Errf("%s: Cannot mkdir: %s", name, textOf(err))
			o.failed = true
			return
		}
		madeDirs[target] = true
		if m := uint32(h.Mode) & 0o7777; m != 0o755 && m != 0 {
			e.FS.Chmod(e.Ctx, target, m)
		}
	case tar.TypeReg, tar.TypeRegA:
		w, err := e.FS.Create(e.Ctx, target, false, false)
		if err != nil {
			e.Errf("%s: Cannot open: %s", name, textOf(err))
			o.failed = true
			return
		}
		_, err = io.Copy(w, r)
		if cerr := w.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			e.Errf("%s: Cannot write: %s", name, textOf(err))
			o.failed = true
			return
		}
		if m := uint32(h.Mode) & 0o7777; m&0o111 != 0 || m != 0o644 && m != 0 {
			e.FS.Chmod(e.Ctx, target, m)
		}
		e.FS.Utimes(e.Ctx, target, h.ModTime)
	case tar.TypeSymlink:
		// a link must resolve inside the extraction directory
		t := h.Linkname
		resolved := path.Join(path.Dir(target), t)
		if strings.HasPrefix(t, "/") || resolved != dest && !strings.HasPrefix(resolved, dest+"/") {
			e.Errf("%s: Cannot create symlink to '%s': the link would leave the extraction directory", name, t)
			o.failed = true
			return
		}
		if err := e.FS.Symlink(e.Ctx, t, target); err != nil {
			e.Errf("%s: Cannot create symlink to '%s': %s", name, t, textOf(err))
			o.failed = true
		}
	case tar.TypeLink:
		src, why := safeMember(h.Linkname)
		if why != "" {
			e.Errf("%s: %s", h.Linkname, why)
			o.failed = true
			return
		}
		if o.strip > 0 {
			parts := strings.Split(src, "/")
			if len(parts) <= o.strip {
				return
			}
			src = strings.Join(parts[o.strip:], "/")
		}
		if exists {
			e.FS.Remove(e.Ctx, target, false, true)
		}
		if err := e.FS.CopyFile(e.Ctx, path.Join(dest, src), target); err != nil {
			e.Errf("%s: Cannot hard link to '%s': %s", name, h.Linkname, textOf(err))
			o.failed = true
		}
	default:
		e.Errf("%s: Unsupported member type (devices and FIFOs are not extracted)", name)
	}
}

// tarVerbose prints a listing line like GNU tar -tv.
func (e *Env) tarVerbose(h *tar.Header) {
	kind := byte('-')
	switch h.Typeflag {
	case tar.TypeDir:
		kind = 'd'
	case tar.TypeSymlink:
		kind = 'l'
	case tar.TypeLink:
		kind = 'h'
	}
	mode := []byte{kind}
	const rwx = "rwxrwxrwx"
	for i := 0; i < 9; i++ {
		if h.Mode&(1<<(8-i)) != 0 {
			mode = append(mode, rwx[i])
		} else {
			mode = append(mode, '-')
		}
	}
	owner := h.Uname
	if owner == "" {
		owner = strconv.Itoa(h.Uid)
	}
	group := h.Gname
	if group == "" {
		group = strconv.Itoa(h.Gid)
	}
	ug := owner + "/" + group
	size := strconv.FormatInt(h.Size, 10)
	pad := 19 - len(ug) - len(size)
	if pad < 1 {
		pad = 1
	}
	line := fmt.Sprintf("%s %s%s%s %s %s", mode, ug, strings.Repeat(" ", pad), size, h.ModTime.UTC().Format("2006-01-02 15:04"), h.Name)
	if h.Typeflag == tar.TypeSymlink {
		line += " -> " + h.Linkname
	} else if h.Typeflag == tar.TypeLink {
		line += " link to " + h.Linkname
	}
	fmt.Fprintln(e.Stdout, line)
}
