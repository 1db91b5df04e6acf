package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"time"
	"unicode/utf8"

	"github.com/nookdev/nook/vfs"
)

// The file commands: put, cat, ls, stat, mkdir, rm, mv, ln.

var cmdPut = &command{
	name: "put", group: "Files", synopsis: "[-p] [--mode MODE] PATH",
	summary: "write standard input to a file",
	help: `Streams standard input into the workspace file PATH, replacing its
content (the file is created when missing). The write is atomic: readers see
the old or the new content, never a mix.`,
	run: runPut,
}

func runPut(a *app, fl *flag.FlagSet, args []string) error {
	parents := fl.Bool("p", false, "create missing parent directories")
	var mode modeFlag
	fl.Var(&mode, "mode", "permission bits `MODE` in octal (default 0644 for a new file, kept for an existing one)")
	f, err := a.parseOpen(fl, args, 1, 1)
	if err != nil {
		return err
	}
	p := wsPath(fl.Arg(0))
	n, err := f.WriteFrom(a.ctx, p, a.stdin, &vfs.WriteOptions{Mode: vfs.FromUnixMode(mode.v), MkdirAll: *parents})
	if err != nil {
		return err
	}
	return a.emit(map[string]any{"path": p, "bytes": n}, nil)
}

var cmdCat = &command{
	name: "cat", reads: true, group: "Files", synopsis: "PATH",
	summary: "write a file to standard output",
	help: `Streams the content of PATH to standard output. With --json the output is
{"path", "size", "content"} for UTF-8 text or {"path", "size",
"contentBase64"} otherwise.`,
	run: runCat,
}

func runCat(a *app, fl *flag.FlagSet, args []string) error {
	f, err := a.parseOpen(fl, args, 1, 1)
	if err != nil {
		return err
	}
	p := wsPath(fl.Arg(0))
	if a.json {
		data, err := f.ReadFile(a.ctx, p)
		if err != nil {
			return err
		}
		out := map[string]any{"path": p, "size": len(data)}
		if utf8.Valid(data) {
			out["content"] = string(data)
		} else {
			out["contentBase64"] = data // encoding/json writes []byte as base64
		}
		return a.writeJSON(out)
	}
	r, err := f.NewReader(a.ctx, p)
	if err != nil {
		return err
	}
	_, err = io.Copy(a.stdout, r)
	if cerr := r.Close(); err == nil {
		err = cerr
	}
	return err
}

var cmdLs = &command{
	name: "ls", reads: true, group: "Files", synopsis: "[-l] [PATH]",
	summary: "list a directory",
	help: `Lists the directory PATH (default /), sorted by name in byte order. A path
that is not a directory lists itself. With -l each line shows the mode, the
size, the modification time and the name (symlinks as "name -> target").`,
	run: runLs,
}

func runLs(a *app, fl *flag.FlagSet, args []string) error {
	long := fl.Bool("l", false, "long format: mode, size, modification time, name")
	f, err := a.parseOpen(fl, args, 0, 1)
	if err != nil {
		return err
	}
	p := "/"
	if fl.NArg() == 1 {
		p = wsPath(fl.Arg(0))
	}
	show := func(e vfs.Entry, name string) {
		name = shown(name)
		if !*long {
			a.printf("%s\n", name)
			return
		}
		if e.Kind == vfs.TypeSymlink {
			if t, err := f.Readlink(a.ctx, e.Path); err == nil {
				name += " -> " + shown(t)
			}
		}
		a.printf("%s %8d %s %s\n", modeString(e.Kind, vfs.UnixMode(e.Mode)), e.Size, e.Mtime.Format("2006-01-02 15:04"), name)
	}

	fi, err := f.Stat(a.ctx, p)
	if err != nil || !fi.IsDir() {
		// A file, or a symlink (possibly dangling): list the path itself.
		li, lerr := f.Lstat(a.ctx, p)
		if lerr != nil {
			if err != nil {
				return err
			}
			return lerr
		}
		e := entryOf(li)
		return a.emit(listJSON{Path: bytesText(p), Entries: []jsonEntry{jsonEntryOf(e)}}, func() error {
			show(e, fl.Arg(0))
			return nil
		})
	}
	out := listJSON{Path: bytesText(fi.Path), Entries: []jsonEntry{}}
	off := 0
	for {
		l, err := f.ReadDir(a.ctx, p, vfs.Page{Offset: off, Limit: f.Limits().MaxPage})
		if err != nil {
			return err
		}
		for _, e := range l.Entries {
			if a.json {
				out.Entries = append(out.Entries, jsonEntryOf(e))
			} else {
				show(e, e.Name)
			}
		}
		if l.NextOffset == 0 || len(l.Entries) == 0 {
			break
		}
		off = l.NextOffset
	}
	return a.emit(out, nil)
}

var cmdStat = &command{
	name: "stat", reads: true, group: "Files", synopsis: "[-L] PATH",
	summary: "show a node's metadata",
	help: `Shows the metadata of PATH: type, mode, size, inode, link count, times and
the revision of its last change. A symlink is described itself unless -L is
given.`,
	run: runStat,
}

func runStat(a *app, fl *flag.FlagSet, args []string) error {
	follow := fl.Bool("L", false, "follow a final symlink")
	f, err := a.parseOpen(fl, args, 1, 1)
	if err != nil {
		return err
	}
	p := wsPath(fl.Arg(0))
	var fi *vfs.FileInfo
	if *follow {
		fi, err = f.Stat(a.ctx, p)
	} else {
		fi, err = f.Lstat(a.ctx, p)
	}
	if err != nil {
		return err
	}
	j := jsonInfoOf(fi)
	return a.emit(j, func() error {
		a.printf("path:   %s\n", shown(string(j.Path)))
		a.printf("type:   %s\n", j.Type)
		a.printf("mode:   %s (%s)\n", j.Mode, modeString(fi.Kind, vfs.UnixMode(fi.Perm)))
		a.printf("size:   %d\n", j.Size)
		if fi.Kind == vfs.TypeSymlink {
			a.printf("target: %s\n", shown(fi.Target))
		}
		a.printf("inode:  %d\n", j.Inode)
		a.printf("links:  %d\n", j.Nlink)
		a.printf("mtime:  %s\n", j.Mtime)
		a.printf("ctime:  %s\n", j.Ctime)
		a.printf("atime:  %s\n", j.Atime)
		a.printf("rev:    %d\n", j.Rev)
		if fi.ReadOnly {
			a.printf("read-only mount\n")
		}
		return nil
	})
}

var cmdMkdir = &command{
	name: "mkdir", group: "Files", synopsis: "[-p] [--mode MODE] PATH...",
	summary: "create directories",
	run:     runMkdir,
}

func runMkdir(a *app, fl *flag.FlagSet, args []string) error {
	parents := fl.Bool("p", false, "create missing parents; an existing directory is not an error")
	var mode modeFlag
	fl.Var(&mode, "mode", "permission bits `MODE` in octal (default 0755)")
	f, err := a.parseOpen(fl, args, 1, -1)
	if err != nil {
		return err
	}
	var done []string
	for _, arg := range fl.Args() {
		p := wsPath(arg)
		if *parents {
			err = f.MkdirAll(a.ctx, p, vfs.FromUnixMode(mode.v))
		} else {
			err = f.Mkdir(a.ctx, p, vfs.FromUnixMode(mode.v))
		}
		if err != nil {
			return err
		}
		done = append(done, p)
	}
	return a.emit(map[string]any{"created": done}, nil)
}

var cmdRm = &command{
	name: "rm", group: "Files", synopsis: "[-r] [-f] PATH...",
	summary: "remove files, symlinks and directories",
	help: `Removes each PATH. A directory must be empty unless -r is given; a symlink
is removed, not its target. The root cannot be removed.`,
	run: runRm,
}

func runRm(a *app, fl *flag.FlagSet, args []string) error {
	recursive := fl.Bool("r", false, "remove directories and everything below them")
	force := fl.Bool("f", false, "ignore missing paths")
	f, err := a.parseOpen(fl, args, 1, -1)
	if err != nil {
		return err
	}
	var done []string
	for _, arg := range fl.Args() {
		p := wsPath(arg)
		if err := f.Remove(a.ctx, p, &vfs.RemoveOptions{Recursive: *recursive, Force: *force}); err != nil {
			return err
		}
		done = append(done, p)
	}
	return a.emit(map[string]any{"removed": done}, nil)
}

var cmdMv = &command{
	name: "mv", group: "Files", synopsis: "[-T] SRC DST",
	summary: "move or rename a file or directory",
	help: `Moves SRC to DST in one transaction. When DST is an existing directory, SRC
moves into it (DST/<name of SRC>), as mv(1) does; -T renames onto DST
itself, which then may be a file or an empty directory that gets replaced.`,
	run: runMv,
}

func runMv(a *app, fl *flag.FlagSet, args []string) error {
	noTarget := fl.Bool("T", false, "treat DST as the new name even when it is a directory")
	f, err := a.parseOpen(fl, args, 2, 2)
	if err != nil {
		return err
	}
	src, dst := wsPath(fl.Arg(0)), wsPath(fl.Arg(1))
	if !*noTarget {
		if fi, err := f.Stat(a.ctx, dst); err == nil && fi.IsDir() {
			if c, err := vfs.Clean(src); err == nil && c != "/" {
				if d, err := vfs.Clean(dst); err == nil && d != c {
					dst = joinPath(d, vfs.Base(c))
				}
			}
		}
	}
	if err := f.Rename(a.ctx, src, dst); err != nil {
		return err
	}
	return a.emit(map[string]any{"from": src, "to": dst}, nil)
}

var cmdLn = &command{
	name: "ln", group: "Files", synopsis: "-s TARGET PATH",
	summary: "create a symbolic link",
	help: `Creates the symlink PATH pointing at TARGET. TARGET is stored as given: a
relative target is resolved from the directory holding the link, and it need
not exist. Hard links are not supported.`,
	run: runLn,
}

func runLn(a *app, fl *flag.FlagSet, args []string) error {
	sym := fl.Bool("s", false, "make a symbolic link (required)")
	if err := a.parse(fl, args, 2, 2); err != nil {
		return err
	}
	if !*sym {
		return a.usagef("ln: hard links are not supported; use ln -s")
	}
	f, err := a.workspace()
	if err != nil {
		return err
	}
	p := wsPath(fl.Arg(1))
	if err := f.Symlink(a.ctx, fl.Arg(0), p); err != nil {
		return err
	}
	return a.emit(map[string]any{"path": p, "target": fl.Arg(0)}, nil)
}

// Helpers shared by the commands.

// modeString renders a type and permission bits as ls(1) does: "drwxr-xr-x".
func modeString(k vfs.Type, perm uint32) string {
	b := []byte("----------")
	switch k {
	case vfs.TypeDir:
		b[0] = 'd'
	case vfs.TypeSymlink:
		b[0] = 'l'
	}
	const rwx = "rwxrwxrwx"
	for i := 0; i < 9; i++ {
		if perm&(1<<(8-i)) != 0 {
			b[i+1] = rwx[i]
		}
	}
	special := func(bit uint32, pos int, set, unset byte) {
		if perm&bit == 0 {
			return
		}
		if b[pos] == '-' {
			b[pos] = unset
		} else {
			b[pos] = set
		}
	}
	special(0o4000, 3, 's', 'S')
	special(0o2000, 6, 's', 'S')
	special(0o1000, 9, 't', 'T')
	return string(b)
}

func joinPath(dir, name string) string {
	if dir == "/" {
		return "/" + name
	}
	return dir + "/" + name
}

func entryOf(fi *vfs.FileInfo) vfs.Entry {
	return vfs.Entry{Path: fi.Path, Name: fi.Name(), Kind: fi.Kind, Mode: fi.Mode(), Size: fi.Bytes, Mtime: fi.Mtime, Inode: fi.Inode}
}

// JSON shapes.

type jsonEntry struct {
	Path  bytesText `json:"path"`
	Name  bytesText `json:"name"`
	Type  string    `json:"type"`
	Mode  string    `json:"mode"`
	Size  int64     `json:"size"`
	Mtime string    `json:"mtime"`
	Inode int64     `json:"inode"`
}

type listJSON struct {
	Path    bytesText   `json:"path"`
	Entries []jsonEntry `json:"entries"`
}

func jsonEntryOf(e vfs.Entry) jsonEntry {
	return jsonEntry{Path: bytesText(e.Path), Name: bytesText(e.Name), Type: e.Kind.String(), Mode: fmt.Sprintf("%04o", vfs.UnixMode(e.Mode)),
		Size: e.Size, Mtime: nanoTime(e.Mtime), Inode: e.Inode}
}

type jsonInfo struct {
	Path     bytesText `json:"path"`
	Type     string    `json:"type"`
	Mode     string    `json:"mode"`
	Size     int64     `json:"size"`
	Target   bytesText `json:"target,omitempty"`
	Inode    int64     `json:"inode"`
	Nlink    int64     `json:"nlink"`
	Mtime    string    `json:"mtime"`
	Ctime    string    `json:"ctime"`
	Atime    string    `json:"atime"`
	Rev      int64     `json:"rev"`
	ReadOnly bool      `json:"readOnly,omitempty"`
}

func jsonInfoOf(fi *vfs.FileInfo) jsonInfo {
	return jsonInfo{Path: bytesText(fi.Path), Type: fi.Kind.String(), Mode: fmt.Sprintf("%04o", vfs.UnixMode(fi.Perm)), Size: fi.Bytes,
		Target: bytesText(fi.Target), Inode: fi.Inode, Nlink: fi.Nlink, Mtime: nanoTime(fi.Mtime), Ctime: nanoTime(fi.Ctime),
		Atime: nanoTime(fi.Atime), Rev: fi.Rev, ReadOnly: fi.ReadOnly}
}

func nanoTime(t time.Time) string { return t.Format(time.RFC3339Nano) }

// isNotExist reports whether err means a missing path.
func isNotExist(err error) bool { return errors.Is(err, fs.ErrNotExist) }
