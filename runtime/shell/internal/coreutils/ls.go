package coreutils

import (
	"bufio"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/nookdev/nook/runtime/shell/internal/hostfs"
)

func init() {
	register("ls", "ls [-1aAlRrtShdFp] [FILE]...", ls)
}

type lsEntry struct {
	name string // as shown
	path string // absolute
	info *hostfs.Info
}

type lsOpts struct {
	o     opts
	w     *bufio.Writer
	e     *Env
	now   time.Time
	first bool
}

func ls(e *Env, args []string) int {
	o, files, ok := e.parse(&flagSpec{bools: "1aAlRrtShdFpCxmGgoniL", long: map[string]bool{"all": false, "almost-all": false, "recursive": false,
		"reverse": false, "human-readable": false, "directory": false, "classify": false, "color": true},
		alias: map[string]string{"all": "a", "almost-all": "A", "recursive": "R", "reverse": "r", "human-readable": "h", "directory": "d", "classify": "F"}}, args)
	if !ok {
		return 2
	}
	if o.has("g") || o.has("o") || o.has("n") {
		o["l"] = []string{""}
	}
	w := bufio.NewWriter(e.Stdout)
	defer w.Flush()
	lo := &lsOpts{o: o, w: w, e: e, now: e.Now(), first: true}
	if len(files) == 0 {
		files = []string{"."}
	}
	status := 0
	var plain []lsEntry
	var dirs []lsEntry
	for _, f := range files {
		ap := e.Abs(f)
		fi, err := e.FS.Stat(e.Ctx, ap)
		if err != nil {
			if fi2, err2 := e.FS.Lstat(e.Ctx, ap); err2 == nil {
				fi, err = fi2, nil
			}
		}
		if err != nil {
			e.Errf("cannot access '%s': %s", f, textOf(err))
			status = 2
			continue
		}
		if o.has("l") && !o.has("L") {
			if l, err := e.FS.Lstat(e.Ctx, ap); err == nil && l.Kind == "symlink" && strings.HasSuffix(f, "/") == false {
				fi = l
			}
		}
		ent := lsEntry{name: f, path: ap, info: fi}
		if fi.IsDir() && !o.has("d") {
			dirs = append(dirs, ent)
		} else {
			plain = append(plain, ent)
		}
	}
	lo.sort(plain)
	lo.sort(dirs)
	if len(plain) > 0 {
		lo.print(plain, false)
		lo.first = false
	}
	header := len(files) > 1 || o.has("R")
	for _, d := range dirs {
		if st := lo.dir(d, header); st != 0 {
			status = st
		}
	}
	return status
}

func (lo *lsOpts) sort(l []lsEntry) {
	o := lo.o
	sort.SliceStable(l, func(i, j int) bool {
		a, b := l[i], l[j]
		switch {
		case o.has("t"):
			if !a.info.ModTime().Equal(b.info.ModTime()) {
				return a.info.ModTime().After(b.info.ModTime())
			}
		case o.has("S"):
			if a.info.Size() != b.info.Size() {
				return a.info.Size() > b.info.Size()
			}
		}
		return a.name < b.name
	})
	if o.has("r") {
		for i, j := 0, len(l)-1; i < j; i, j = i+1, j-1 {
			l[i], l[j] = l[j], l[i]
		}
	}
}

func (lo *lsOpts) dir(d lsEntry, header bool) int {
	e, o := lo.e, lo.o
	entries, err := e.FS.ReadDir(e.Ctx, d.path)
	if err != nil {
		e.Errf("cannot open directory '%s': %s", d.name, textOf(err))
		return 2
	}
	if !lo.first {
		lo.w.WriteString("\n")
	}
	lo.first = false
	if header {
		fmt.Fprintf(lo.w, "%s:\n", d.name)
	}
	var list []lsEntry
	if o.has("a") {
		for _, n := range []string{".", ".."} {
			fi, err := e.FS.Stat(e.Ctx, d.path+"/"+n)
			if err != nil {
				fi = d.info
			}
			list = append(list, lsEntry{name: n, path: d.path + "/" + n, info: fi})
		}
	}
	needInfo := o.has("l") || o.has("t") || o.has("S") || o.has("F") || o.has("p") || o.has("R")
	for _, en := range entries {
		if strings.HasPrefix(en.Name, ".") && !o.has("a") && !o.has("A") {
			continue
		}
		p := strings.TrimSuffix(d.path, "/") + "/" + en.Name
		info := &hostfs.Info{FName: en.Name, Kind: en.Kind}
		if needInfo {
			if fi, err := e.FS.Lstat(e.Ctx, p); err == nil {
				info = fi
			}
		}
		list = append(list, lsEntry{name: en.Name, path: p, info: info})
	}
	lo.sort(list)
	lo.print(list, true)
	if o.has("R") {
		for _, en := range list {
			if en.info.Kind == "dir" && en.name != "." && en.name != ".." {
				sub := lsEntry{name: strings.TrimSuffix(d.name, "/") + "/" + en.name, path: en.path, info: en.info}
				lo.dir(sub, true)
			}
		}
	}
	return 0
}

func (lo *lsOpts) print(list []lsEntry, inDir bool) {
	o, w := lo.o, lo.w
	if o.has("l") {
		if inDir {
			var blocks int64
			for _, en := range list {
				blocks += diskKB(en.info)
			}
			fmt.Fprintf(w, "total %s\n", lo.size(blocks*1024, blocks))
		}
		sizeW := 1
		for _, en := range list {
			if n := len(lo.size(en.info.Size(), en.info.Size())); n > sizeW {
				sizeW = n
			}
		}
		for _, en := range list {
			fi := en.info
			nl := fi.Nlink
			if nl == 0 {
				nl = 1
			}
			owner := "nook nook "
			if o.has("g") || o.has("o") {
				owner = "nook "
			}
			fmt.Fprintf(w, "%s %d %s%*s %s %s", modeString(fi), nl, owner, sizeW, lo.size(fi.Size(), fi.Size()), lsTime(fi.ModTime(), lo.now), en.name)
			if fi.Kind == "symlink" {
				if t, err := lo.e.FS.Readlink(lo.e.Ctx, en.path); err == nil {
					fmt.Fprintf(w, " -> %s", t)
				}
			} else {
				w.WriteString(lo.suffix(fi))
			}
			w.WriteString("\n")
		}
		return
	}
	for _, en := range list {
		w.WriteString(en.name)
		w.WriteString(lo.suffix(en.info))
		w.WriteString("\n")
	}
}

func (lo *lsOpts) suffix(fi *hostfs.Info) string {
	switch {
	case lo.o.has("F") && fi.Kind == "symlink":
		return "@"
	case (lo.o.has("F") || lo.o.has("p")) && fi.Kind == "dir":
		return "/"
	case lo.o.has("F") && fi.FMode&0o111 != 0:
		return "*"
	}
	return ""
}

func (lo *lsOpts) size(n, raw int64) string {
	if lo.o.has("h") {
		return humanSize(n)
	}
	return fmt.Sprint(raw)
}

// diskKB approximates the 1 KiB blocks a file takes on disk (4 KiB
// allocation units), as ls -s and du count them.
func diskKB(fi *hostfs.Info) int64 {
	if fi.Kind == "dir" {
		return 4
	}
	if fi.Kind == "symlink" {
		return 0
	}
	return (fi.Size() + 4095) / 4096 * 4
}

// humanSize renders n like GNU's -h: 1 decimal below 10, powers of 1024.
func humanSize(n int64) string {
	if n < 1024 {
		return fmt.Sprint(n)
	}
	units := "KMGTPE"
	f := float64(n)
	i := -1
	for f >= 1024 && i < len(units)-1 {
		f /= 1024
		i++
	}
	if f < 10 {
		v := float64(int64(f*10+0.999999)) / 10
		if v >= 10 {
			return fmt.Sprintf("%.0f%c", v, units[i])
		}
		return fmt.Sprintf("%.1f%c", v, units[i])
	}
	return fmt.Sprintf("%.0f%c", float64(int64(f+0.999999)), units[i])
}

func modeString(fi *hostfs.Info) string {
	var b strings.Builder
	switch fi.Kind {
	case "dir":
		b.WriteByte('d')
	case "symlink":
		b.WriteByte('l')
	default:
		b.WriteByte('-')
	}
	const rwx = "rwxrwxrwx"
	m := fi.FMode
	if fi.Kind == "symlink" {
		m = 0o777
	}
	for i := 0; i < 9; i++ {
		if m&(1<<uint(8-i)) != 0 {
			b.WriteByte(rwx[i])
		} else {
			b.WriteByte('-')
		}
	}
	return b.String()
}

func lsTime(t, now time.Time) string {
	t = t.UTC()
	if now.Sub(t) > 182*24*time.Hour || t.After(now.Add(time.Hour)) {
		return t.Format("Jan _2  2006")
	}
	return t.Format("Jan _2 15:04")
}

var _ = io.EOF
