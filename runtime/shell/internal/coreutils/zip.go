package coreutils

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"fmt"
	"io"
	"io/fs"
	"path"
	"regexp"
	"strings"
	"time"
)

// zip and unzip (archive/zip). Extraction refuses members whose name has a
// ".." component, strips a leading "/", and refuses symlinks that are
// absolute or resolve outside the extraction directory, as tar does; a
// member's decompressed size is bounded by MaxAllocBytes.

func init() {
	register("zip", "zip [-rqj0-9] [-x PATTERN]... [-d] ARCHIVE[.zip] [FILE]...", zipCmd)
	register("unzip", "unzip [-lqonpt] [-Z1] [-d DIR] ARCHIVE[.zip] [MEMBER]... [-x MEMBER...]", unzipCmd)
}

func zipCmd(e *Env, args []string) int {
	level := flate.DefaultCompression
	var rest []string
	for _, a := range args[1:] {
		if len(a) == 2 && a[0] == '-' && a[1] >= '0' && a[1] <= '9' {
			level = int(a[1] - '0')
			continue
		}
		rest = append(rest, a)
	}
	o, ops, ok := e.parse(&flagSpec{bools: "rqjdvmDy", vals: "x", long: map[string]bool{"recurse-paths": false, "quiet": false,
		"junk-paths": false, "delete": false, "exclude": true}, alias: map[string]string{"recurse-paths": "r", "quiet": "q", "junk-paths": "j",
		"delete": "d", "exclude": "x"}}, append([]string{args[0]}, rest...))
	if !ok {
		return 16
	}
	if len(ops) == 0 {
		e.Errf("nothing to do!")
		return 16
	}
	name := ops[0]
	if !strings.HasSuffix(name, ".zip") && !strings.Contains(path.Base(name), ".") {
		name += ".zip"
	}
	files := ops[1:]
	// Existing members are kept (and replaced by the files given).
	type member struct {
		hdr  zip.FileHeader
		data []byte
	}
	members := map[string]*member{}
	var order []string
	if data, err := e.FS.ReadAll(e.Ctx, e.Abs(name)); err == nil {
		zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			e.Errf("%s: not a zip archive", name)
			return 3
		}
		for _, f := range zr.File {
			b, err := readMember(e, f)
			if err != nil {
				e.Errf("%s: %v", f.Name, err)
				return 3
			}
			members[f.Name] = &member{hdr: f.FileHeader, data: b}
			order = append(order, f.Name)
		}
	}
	if o.has("d") {
		for _, pat := range files {
			for _, n := range order {
				if wildMatch(pat, n) && members[n] != nil {
					if !o.has("q") {
						fmt.Fprintf(e.Stdout, "deleting: %s\n", n)
					}
					delete(members, n)
				}
			}
		}
	} else {
		if len(files) == 0 {
			e.Errf("nothing to do! (%s)", name)
			return 12
		}
		excluded := func(n string) bool {
			for _, p := range o["x"] {
				if wildMatch(p, n) || wildMatch(p, n+"/") {
					return true
				}
			}
			return false
		}
		status := 0
		var add func(abs, n string, top bool)
		add = func(abs, n string, top bool) {
			if e.Ctx.Err() != nil || excluded(n) {
				return
			}
			fi, err := e.FS.Stat(e.Ctx, abs)
			if err != nil {
				if top {
					fmt.Fprintf(e.Stderr, "\tzip warning: name not matched: %s\n", n)
					status = 12
				}
				return
			}
			key := n
			if o.has("j") {
				key = path.Base(n)
			}
			if fi.Kind == "dir" {
				if !o.has("j") {
					key = strings.TrimSuffix(key, "/") + "/"
					if _, had := members[key]; !had {
						order = append(order, key)
					}
					h := zip.FileHeader{Name: key, Method: zip.Store, Modified: fi.ModTime().UTC()}
					h.SetMode(0o755 | 1<<31)
					members[key] = &member{hdr: h}
					if !o.has("q") {
						fmt.Fprintf(e.Stdout, "  adding: %s (stored 0%%)\n", key)
					}
				}
				if !o.has("r") {
					return
				}
				entries, err := e.FS.ReadDir(e.Ctx, abs)
				if err != nil {
					e.Errf("%s: %s", n, textOf(err))
					status = 18
					return
				}
				for _, en := range entries {
					add(abs+"/"+en.Name, strings.TrimSuffix(n, "/")+"/"+en.Name, false)
				}
				return
			}
			data, err := e.FS.ReadAll(e.Ctx, abs)
			if err != nil {
				e.Errf("%s: %s", n, textOf(err))
				status = 18
				return
			}
			key = strings.TrimPrefix(path.Clean(key), "/")
			h := zip.FileHeader{Name: key, Method: zip.Deflate, Modified: fi.ModTime().UTC()}
			h.SetMode(fi.Mode())
			if level == 0 {
				h.Method = zip.Store
			}
			if _, had := members[key]; !had {
				order = append(order, key)
			}
			members[key] = &member{hdr: h, data: data}
			if !o.has("q") {
				fmt.Fprintf(e.Stdout, "  adding: %s (%s)\n", key, ratio(data, level))
			}
		}
		for _, f := range files {
			add(e.Abs(f), strings.TrimPrefix(path.Clean(f), "./"), true)
		}
		if status != 0 && len(members) == 0 {
			e.Errf("nothing to do! (%s)", name)
			return status
		}
	}
	w, err := e.FS.Create(e.Ctx, e.Abs(name), false, false)
	if err != nil {
		e.Errf("could not create %s: %s", name, textOf(err))
		return 15
	}
	zw := zip.NewWriter(w)
	zw.RegisterCompressor(zip.Deflate, func(out io.Writer) (io.WriteCloser, error) { return flate.NewWriter(out, level) })
	for _, n := range order {
		m := members[n]
		if m == nil {
			continue
		}
		h := m.hdr
		fw, err := zw.CreateHeader(&h)
		if err == nil {
			_, err = fw.Write(m.data)
		}
		if err != nil {
			e.Errf("%s: %v", n, err)
			w.Close()
			return 15
		}
	}
	if err := zw.Close(); err != nil {
		e.Errf("%v", err)
		return 15
	}
	if err := w.Close(); err != nil {
		e.Errf("%s: %s", name, textOf(err))
		return 15
	}
	return 0
}

// ratio is zip's "(deflated N%)" or "(stored 0%)".
func ratio(data []byte, level int) string {
	if len(data) == 0 || level == 0 {
		return "stored 0%"
	}
	var b bytes.Buffer
	fw, _ := flate.NewWriter(&b, level)
	fw.Write(data)
	fw.Close()
	if b.Len() >= len(data) {
		return "stored 0%"
	}
	return fmt.Sprintf("deflated %d%%", 100-b.Len()*100/len(data))
}

// readMember decompresses one member, bounded by MaxAllocBytes.
func readMember(e *Env, f *zip.File) ([]byte, error) {
	r, err := f.Open()
	if err != nil {
		return nil, err
	}
	defer r.Close()
	max := e.MaxBytes
	b, err := io.ReadAll(io.LimitReader(r, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > max {
		return nil, fmt.Errorf("member is larger than the limit MaxAllocBytes (%d)", max)
	}
	return b, nil
}

func unzipCmd(e *Env, args []string) int {
	// -x starts the list of excluded members.
	var excl []string
	for i, a := range args {
		if a == "-x" && i > 0 {
			j := i + 1
			for j < len(args) && !strings.HasPrefix(args[j], "-") {
				j++
			}
			excl = args[i+1 : j]
			args = append(append([]string{}, args[:i]...), args[j:]...)
			break
		}
	}
	z1 := false
	var rest []string
	for _, a := range args {
		if a == "-Z1" {
			z1 = true
			continue
		}
		rest = append(rest, a)
	}
	o, ops, ok := e.parse(&flagSpec{bools: "lqonptvjc", vals: "d", long: map[string]bool{}}, rest)
	if !ok {
		return 10
	}
	if len(ops) == 0 {
		fmt.Fprintln(e.Stderr, "UnZip: usage: unzip [-lqonptj] [-d exdir] file[.zip] [list] [-x xlist]")
		return 10
	}
	name := ops[0]
	data, err := e.FS.ReadAll(e.Ctx, e.Abs(name))
	if err != nil && codeOf(err) == "ENOENT" && !strings.HasSuffix(name, ".zip") {
		name += ".zip"
		data, err = e.FS.ReadAll(e.Ctx, e.Abs(name))
	}
	if err != nil {
		fmt.Fprintf(e.Stderr, "unzip:  cannot find or open %s, %s.zip or %s.ZIP.\n", ops[0], ops[0], ops[0])
		return 9
	}
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		fmt.Fprintf(e.Stderr, "  End-of-central-directory signature not found.  Either this file is not\n  a zipfile, or it constitutes one disk of a multi-part archive.\nunzip:  cannot find zipfile directory in one of %s.\n", name)
		return 9
	}
	want := ops[1:]
	selected := func(n string) bool {
		for _, p := range excl {
			if wildMatch(p, n) {
				return false
			}
		}
		if len(want) == 0 {
			return true
		}
		for _, p := range want {
			if wildMatch(p, n) {
				return true
			}
		}
		return false
	}
	quiet := o.has("q")
	switch {
	case z1:
		for _, f := range zr.File {
			if selected(f.Name) {
				fmt.Fprintln(e.Stdout, f.Name)
			}
		}
		return 0
	case o.has("l"):
		fmt.Fprintf(e.Stdout, "Archive:  %s\n  Length      Date    Time    Name\n---------  ---------- -----   ----\n", name)
		var total uint64
		n := 0
		for _, f := range zr.File {
			if !selected(f.Name) {
				continue
			}
			fmt.Fprintf(e.Stdout, "%9d  %s   %s\n", f.UncompressedSize64, f.Modified.UTC().Format("2006-01-02 15:04"), f.Name)
			total += f.UncompressedSize64
			n++
		}
		fmt.Fprintf(e.Stdout, "---------                     -------\n%9d                     %d file%s\n", total, n, plural(n, "", "s"))
		return 0
	case o.has("t"):
		status := 0
		if !quiet {
			fmt.Fprintf(e.Stdout, "Archive:  %s\n", name)
		}
		for _, f := range zr.File {
			if _, err := readMember(e, f); err != nil {
				fmt.Fprintf(e.Stdout, "    testing: %-24s  bad (%v)\n", f.Name, err)
				status = 2
			} else if !quiet {
				fmt.Fprintf(e.Stdout, "    testing: %-24s  OK\n", f.Name)
			}
		}
		if status == 0 {
			fmt.Fprintf(e.Stdout, "No errors detected in compressed data of %s.\n", name)
		}
		return status
	}
	dest := e.Dir
	shownDir := ""
	if d := o.last("d", ""); d != "" {
		dest = e.Abs(d)
		shownDir = strings.TrimSuffix(d, "/") + "/"
		if err := e.FS.Mkdir(e.Ctx, dest, true); err != nil {
			e.Errf("cannot create extraction directory: %s", d)
			return 50
		}
	}
	if !quiet && !o.has("p") {
		fmt.Fprintf(e.Stdout, "Archive:  %s\n", name)
	}
	status := 0
	for _, f := range zr.File {
		if e.Ctx.Err() != nil {
			return 1
		}
		if !selected(f.Name) {
			continue
		}
		clean, why := safeMember(f.Name)
		if why != "" {
			fmt.Fprintf(e.Stderr, "warning:  skipped \"../\" path component(s) in %s: %s\n", f.Name, why)
			status = 1
			continue
		}
		if o.has("j") {
			if f.FileInfo().IsDir() {
				continue
			}
			clean = path.Base(clean)
		}
		if o.has("p") {
			if f.FileInfo().IsDir() {
				continue
			}
			b, err := readMember(e, f)
			if err != nil {
				e.Errf("%s: %v", f.Name, err)
				status = 2
				continue
			}
			e.Stdout.Write(b)
			continue
		}
		target := dest + "/" + clean
		shown := shownDir + clean
		mode := f.Mode()
		switch {
		case f.FileInfo().IsDir():
			if err := e.FS.Mkdir(e.Ctx, target, true); err != nil {
				e.Errf("%s: %s", shown, textOf(err))
				status = 1
				continue
			}
			if !quiet {
				fmt.Fprintf(e.Stdout, "   creating: %s/\n", strings.TrimSuffix(shown, "/"))
			}
			continue
		case mode&fs.ModeSymlink != 0:
			b, err := readMember(e, f)
			if err != nil {
				status = 2
				continue
			}
			link := string(b)
			if strings.HasPrefix(link, "/") || !insideDir(path.Dir(clean), link) {
				fmt.Fprintf(e.Stderr, "warning:  skipped symlink %s -> %s: it leaves the extraction directory\n", shown, link)
				status = 1
				continue
			}
			e.FS.Mkdir(e.Ctx, path.Dir(target), true)
			e.FS.Remove(e.Ctx, target, false, true)
			if err := e.FS.Symlink(e.Ctx, link, target); err != nil {
				e.Errf("%s: %s", shown, textOf(err))
				status = 1
				continue
			}
			if !quiet {
				fmt.Fprintf(e.Stdout, "    linking: %s -> %s\n", shown, link)
			}
			continue
		}
		if _, err := e.FS.Lstat(e.Ctx, target); err == nil && !o.has("o") {
			if !o.has("n") {
				fmt.Fprintf(e.Stderr, "unzip: %s exists; not replaced (use -o to overwrite, -n to skip quietly)\n", shown)
				status = 1
			}
			continue
		}
		b, err := readMember(e, f)
		if err != nil {
			e.Errf("%s: %v", shown, err)
			status = 2
			continue
		}
		if d := path.Dir(target); d != dest {
			e.FS.Mkdir(e.Ctx, d, true)
		}
		if err := e.FS.WriteFile(e.Ctx, target, b, "w"); err != nil {
			e.Errf("%s: %s", shown, textOf(err))
			status = 1
			continue
		}
		if perm := uint32(mode.Perm()); perm != 0 {
			e.FS.Chmod(e.Ctx, target, perm)
		}
		if !f.Modified.IsZero() {
			e.FS.Utimes(e.Ctx, target, f.Modified.Truncate(time.Second))
		}
		if !quiet {
			verb := " extracting"
			if f.Method == zip.Deflate {
				verb = "  inflating"
			}
			fmt.Fprintf(e.Stdout, "%s: %s\n", verb, shown)
		}
	}
	return status
}

// insideDir reports whether link, relative to dir (both relative to the
// extraction root), stays inside the root.
func insideDir(dir, link string) bool {
	p := path.Clean(path.Join(dir, link))
	return p != ".." && !strings.HasPrefix(p, "../")
}

// wildMatch is zip's and unzip's pattern match: "*" and "?" match any
// characters, "/" included.
func wildMatch(pat, name string) bool {
	var b strings.Builder
	b.WriteString("^")
	for i := 0; i < len(pat); i++ {
		switch c := pat[i]; c {
		case '*':
			b.WriteString(".*")
		case '?':
			b.WriteString(".")
		case '[':
			if j := strings.IndexByte(pat[i:], ']'); j > 0 {
				set := pat[i+1 : i+j]
				if strings.HasPrefix(set, "!") {
					set = "^" + set[1:]
				}
				b.WriteString("[" + set + "]")
				i += j
				continue
			}
			b.WriteString(regexp.QuoteMeta("["))
		default:
			b.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	b.WriteString("$")
	re, err := regexp.Compile(b.String())
	return err == nil && re.MatchString(name)
}
