package coreutils

import (
	"fmt"
	"sort"
	"strings"
	"time"
)

func init() {
	register("readlink", "readlink [-fenm] FILE...", readlink)
	register("realpath", "realpath [-em] [--relative-to=DIR] FILE...", realpath)
	register("stat", "stat [-c FORMAT] [-L] FILE...", stat)
	register("du", "du [-shacb] [-d N] [FILE]...", du)
}

func readlink(e *Env, args []string) int {
	o, files, ok := e.parse(&flagSpec{bools: "femnqsvz", long: map[string]bool{"canonicalize": false}, alias: map[string]string{"canonicalize": "f"}}, args)
	if !ok {
		return 1
	}
	status := 0
	for _, f := range files {
		if o.has("f") || o.has("e") || o.has("m") {
			p, err := e.canonical(f, o.has("e"))
			if err != nil {
				status = 1
				continue
			}
			fmt.Fprintln(e.Stdout, p)
			continue
		}
		t, err := e.FS.Readlink(e.Ctx, e.Abs(f))
		if err != nil {
			status = 1
			continue
		}
		fmt.Fprint(e.Stdout, t)
		if !o.has("n") {
			fmt.Fprintln(e.Stdout)
		}
	}
	return status
}

// canonical resolves f; a missing last component is allowed unless
// existing is set.
func (e *Env) canonical(f string, existing bool) (string, error) {
	ap := e.Abs(f)
	p, err := e.FS.Realpath(e.Ctx, ap)
	if err == nil {
		return p, nil
	}
	if existing || codeOf(err) != "ENOENT" {
		return "", err
	}
	d, err := e.FS.Realpath(e.Ctx, dirOf(ap))
	if err != nil {
		return "", err
	}
	return strings.TrimSuffix(d, "/") + "/" + baseOf(ap), nil
}

func realpath(e *Env, args []string) int {
	o, files, ok := e.parse(&flagSpec{bools: "emsqLPz", long: map[string]bool{"relative-to": true, "canonicalize-existing": false, "canonicalize-missing": false},
		alias: map[string]string{"canonicalize-existing": "e", "canonicalize-missing": "m"}}, args)
	if !ok {
		return 1
	}
	if len(files) == 0 {
		e.Errf("missing operand")
		return 1
	}
	status := 0
	for _, f := range files {
		p, err := e.canonical(f, !o.has("m"))
		if o.has("s") {
			p, err = e.Abs(f), nil
		}
		if err != nil {
			e.FileErr(f, err)
			status = 1
			continue
		}
		if rel := o.last("relative-to", ""); rel != "" {
			base, _ := e.canonical(rel, false)
			p = relPath(base, p)
		}
		fmt.Fprintln(e.Stdout, p)
	}
	return status
}

func relPath(base, target string) string {
	bs := strings.Split(strings.Trim(base, "/"), "/")
	ts := strings.Split(strings.Trim(target, "/"), "/")
	if base == "/" {
		bs = nil
	}
	i := 0
	for i < len(bs) && i < len(ts) && bs[i] == ts[i] {
		i++
	}
	var parts []string
	for range bs[i:] {
		parts = append(parts, "..")
	}
	parts = append(parts, ts[i:]...)
	if len(parts) == 0 {
		return "."
	}
	return strings.Join(parts, "/")
}

func stat(e *Env, args []string) int {
	o, files, ok := e.parse(&flagSpec{bools: "Lt", vals: "c", long: map[string]bool{"format": true, "printf": true, "dereference": false},
		alias: map[string]string{"format": "c", "dereference": "L"}}, args)
	if !ok {
		return 1
	}
	if len(files) == 0 {
		e.Errf("missing operand")
		return 1
	}
	format := o.last("c", "")
	if o.has("printf") {
		format = unescape(o.last("printf", ""))
	}
	status := 0
	for _, f := range files {
		ap := e.Abs(f)
		fi, err := e.FS.Lstat(e.Ctx, ap)
		if err == nil && o.has("L") {
			fi, err = e.FS.Stat(e.Ctx, ap)
		}
		if err != nil {
			e.Errf("cannot stat '%s': %s", f, textOf(err))
			status = 1
			continue
		}
		kind := map[string]string{"file": "regular file", "dir": "directory", "symlink": "symbolic link"}[fi.Kind]
		if kind == "regular file" && fi.Size() == 0 {
			kind = "regular empty file"
		}
		if format == "" {
			name := f
			if fi.Kind == "symlink" {
				t, _ := e.FS.Readlink(e.Ctx, ap)
				name = fmt.Sprintf("%s -> %s", f, t)
			}
			mt := fi.ModTime().UTC().Format("2006-01-02 15:04:05.000000000 -0700")
			fmt.Fprintf(e.Stdout, "  File: %s\n  Size: %-10d\tBlocks: %-10d IO Block: 4096   %s\nDevice: 1\tInode: %d\tLinks: %d\nAccess: (%04o/%s)  Uid: ( 1000/    nook)   Gid: ( 1000/    nook)\nModify: %s\n",
				name, fi.Size(), diskKB(fi)*2, kind, fi.Ino, max(fi.Nlink, 1), fi.FMode&0o7777, modeString(fi), mt)
			continue
		}
		var b strings.Builder
		for i := 0; i < len(format); i++ {
			c := format[i]
			if c != '%' || i+1 >= len(format) {
				b.WriteByte(c)
				continue
			}
			i++
			switch format[i] {
			case 'n':
				b.WriteString(f)
			case 'N':
				fmt.Fprintf(&b, "'%s'", f)
			case 's':
				fmt.Fprint(&b, fi.Size())
			case 'F':
				b.WriteString(kind)
			case 'a':
				fmt.Fprintf(&b, "%o", fi.FMode&0o7777)
			case 'A':
				b.WriteString(modeString(fi))
			case 'Y':
				fmt.Fprint(&b, fi.ModTime().Unix())
			case 'y':
				b.WriteString(fi.ModTime().UTC().Format("2006-01-02 15:04:05.000000000 -0700"))
			case 'U', 'G':
				b.WriteString("nook")
			case 'u', 'g':
				b.WriteString("1000")
			case 'i':
				fmt.Fprint(&b, fi.Ino)
			case 'h':
				fmt.Fprint(&b, max(fi.Nlink, 1))
			case 'b':
				fmt.Fprint(&b, diskKB(fi)*2)
			case 'B':
				b.WriteString("512")
			case '%':
				b.WriteByte('%')
			default:
				b.WriteByte('?')
			}
		}
		if !o.has("printf") {
			b.WriteByte('\n')
		}
		fmt.Fprint(e.Stdout, b.String())
	}
	return status
}

func du(e *Env, args []string) int {
	o, files, ok := e.parse(&flagSpec{bools: "shacbkmxL", vals: "d", long: map[string]bool{"summarize": false, "human-readable": false, "all": false,
		"total": false, "max-depth": true, "apparent-size": false, "bytes": false},
		alias: map[string]string{"summarize": "s", "human-readable": "h", "all": "a", "total": "c", "max-depth": "d", "bytes": "b"}}, args)
	if !ok {
		return 1
	}
	if len(files) == 0 {
		files = []string{"."}
	}
	maxDepth := -1
	if o.has("d") {
		fmt.Sscan(o.last("d", ""), &maxDepth)
	}
	if o.has("s") {
		maxDepth = 0
	}
	bytesMode := o.has("b") || o.has("apparent-size")
	show := func(n int64, name string) {
		s := fmt.Sprint(n)
		switch {
		case o.has("h"):
			if bytesMode {
				s = humanSize(n)
			} else {
				s = humanSize(n * 1024)
			}
		case o.has("m"):
			s = fmt.Sprint((n + 1023) / 1024)
		}
		fmt.Fprintf(e.Stdout, "%s\t%s\n", s, name)
	}
	status := 0
	var total int64
	for _, f := range files {
		ap := e.Abs(f)
		fi, err := e.FS.Stat(e.Ctx, ap)
		if err != nil {
			e.Errf("cannot access '%s': %s", f, textOf(err))
			status = 1
			continue
		}
		size := func(fi interface{ Size() int64 }, kind string) int64 {
			if bytesMode {
				if kind == "dir" {
					return 4096
				}
				return fi.Size()
			}
			if kind == "dir" {
				return 4
			}
			if kind == "symlink" {
				return 0
			}
			return (fi.Size() + 4095) / 4096 * 4
		}
		if !fi.IsDir() {
			n := size(fi, fi.Kind)
			total += n
			show(n, f)
			continue
		}
		entries, err := e.FS.ReadDirRecursive(e.Ctx, ap)
		if err != nil {
			e.FileErr(f, err)
			status = 1
			continue
		}
		sums := map[string]int64{"": size(fi, "dir")}
		var dirs []string
		for _, en := range entries {
			var n int64
			if en.Kind == "dir" {
				n = size(fi, "dir")
				dirs = append(dirs, en.Name)
			} else {
				efi, err := e.FS.Lstat(e.Ctx, ap+"/"+en.Name)
				if err != nil {
					continue
				}
				n = size(efi, en.Kind)
			}
			for d := en.Name; ; {
				i := strings.LastIndex(d, "/")
				if en.Kind == "dir" && d == en.Name {
					sums[d] += n
				}
				if i < 0 {
					sums[""] += n
					break
				}
				d = d[:i]
				sums[d] += n
			}
		}
		sort.Slice(dirs, func(i, j int) bool { return dirs[i] > dirs[j] })
		base := strings.TrimSuffix(f, "/")
		for _, d := range dirs {
			if maxDepth >= 0 && strings.Count(d, "/")+1 > maxDepth {
				continue
			}
			show(sums[d], base+"/"+d)
		}
		total += sums[""]
		show(sums[""], f)
	}
	if o.has("c") {
		show(total, "total")
	}
	return status
}

// parseDate parses the date forms models pass to date -d and touch -d.
func parseDate(s string, now time.Time) (time.Time, bool) {
	s = strings.TrimSpace(s)
	if strings.HasPrefix(s, "@") {
		var n int64
		if _, err := fmt.Sscan(s[1:], &n); err == nil {
			return time.Unix(n, 0).UTC(), true
		}
	}
	switch s {
	case "now", "":
		return now, true
	case "today":
		return now, true
	case "yesterday":
		return now.AddDate(0, 0, -1), true
	case "tomorrow":
		return now.AddDate(0, 0, 1), true
	}
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02 15:04:05", "2006-01-02 15:04", "2006-01-02", "2006/01/02",
		time.RFC1123Z, time.RFC1123, time.UnixDate, "Jan 2 2006", "2 Jan 2006"} {
		if t, err := time.ParseInLocation(layout, s, time.UTC); err == nil {
			return t, true
		}
	}
	// "N units ago", "+N units", "N units"
	f := strings.Fields(s)
	if len(f) >= 2 {
		var n int
		if _, err := fmt.Sscan(strings.TrimPrefix(f[0], "+"), &n); err == nil {
			if len(f) == 3 && f[2] == "ago" {
				n = -n
			}
			u := strings.TrimSuffix(f[1], "s")
			switch u {
			case "second", "sec":
				return now.Add(time.Duration(n) * time.Second), true
			case "minute", "min":
				return now.Add(time.Duration(n) * time.Minute), true
			case "hour":
				return now.Add(time.Duration(n) * time.Hour), true
			case "day":
				return now.AddDate(0, 0, n), true
			case "week":
				return now.AddDate(0, 0, 7*n), true
			case "month":
				return now.AddDate(0, n, 0), true
			case "year":
				return now.AddDate(n, 0, 0), true
			}
		}
	}
	return time.Time{}, false
}
