package coreutils

import (
	"bufio"
	"fmt"
	"path"
	"sort"
	"strconv"
	"strings"
)

func init() {
	register("tree", "tree [-adfF] [-L LEVEL] [-I PATTERN] [-P PATTERN] [--dirsfirst] [--noreport] [DIRECTORY]...", tree)
}

func tree(e *Env, args []string) int {
	o, dirs, ok := e.parse(&flagSpec{bools: "adfFlsx", vals: "LIP", long: map[string]bool{"dirsfirst": false, "noreport": false,
		"prune": false, "filelimit": true, "charset": true}}, args)
	if !ok {
		return 1
	}
	level := -1
	if o.has("L") {
		n, err := strconv.Atoi(o.last("L", ""))
		if err != nil || n < 1 {
			fmt.Fprintln(e.Stderr, "tree: Invalid level, must be greater than 0.")
			return 1
		}
		level = n
	}
	match := func(pats []string, name string) bool {
		for _, p := range pats {
			for _, alt := range strings.Split(p, "|") {
				if ok, _ := path.Match(alt, name); ok {
					return true
				}
			}
		}
		return false
	}
	if len(dirs) == 0 {
		dirs = []string{"."}
	}
	utf8 := e.utf8Locale()
	w := bufio.NewWriter(e.Stdout)
	defer w.Flush()
	nd, nf := 0, 0
	status := 0
	var walk func(p, shown, prefix string, depth int)
	walk = func(p, shown, prefix string, depth int) {
		if e.Ctx.Err() != nil || level >= 0 && depth > level {
			return
		}
		entries, err := e.FS.ReadDir(e.Ctx, p)
		if err != nil {
			return
		}
		var keep []string
		kinds := map[string]string{}
		for _, en := range entries {
			if !o.has("a") && strings.HasPrefix(en.Name, ".") {
				continue
			}
			kind := en.Kind
			if kind == "symlink" {
				if fi, err := e.FS.Stat(e.Ctx, p+"/"+en.Name); err == nil && fi.Kind == "dir" {
					kind = "linkdir"
				}
			}
			isDir := kind == "dir"
			if o.has("d") && !isDir && kind != "linkdir" {
				continue
			}
			if match(o["I"], en.Name) {
				continue
			}
			if o.has("P") && !isDir && !match(o["P"], en.Name) {
				continue
			}
			keep = append(keep, en.Name)
			kinds[en.Name] = kind
		}
		if o.has("dirsfirst") {
			sort.SliceStable(keep, func(i, j int) bool { return kinds[keep[i]] == "dir" && kinds[keep[j]] != "dir" })
		}
		for i, name := range keep {
			last := i == len(keep)-1
			branch, next := "|-- ", "|   "
			if last {
				branch, next = "`-- ", "    "
			}
			if utf8 {
				branch, next = "├── ", "│   "
				if last {
					branch = "└── "
				}
			}
			full := p + "/" + name
			label := name
			if o.has("f") {
				label = strings.TrimSuffix(shown, "/") + "/" + name
			}
			kind := kinds[name]
			switch kind {
			case "symlink", "linkdir":
				t, _ := e.FS.Readlink(e.Ctx, full)
				if o.has("F") && kind == "linkdir" {
					t += "/"
				}
				label += " -> " + t
			case "dir":
				if o.has("F") {
					label += "/"
				}
			}
			w.WriteString(prefix + branch + label + "\n")
			if kind == "dir" {
				nd++
				walk(full, strings.TrimSuffix(shown, "/")+"/"+name, prefix+next, depth+1)
			} else if kind == "linkdir" {
				nd++
			} else {
				nf++
			}
		}
	}
	for _, d := range dirs {
		fi, err := e.FS.Stat(e.Ctx, e.Abs(d))
		if err != nil || fi.Kind != "dir" {
			w.WriteString(d + "  [error opening dir]\n")
			status = 2
			continue
		}
		label := d
		if o.has("F") && !strings.HasSuffix(d, "/") {
			label += "/"
		}
		w.WriteString(label + "\n")
		nd++
		walk(e.Abs(d), d, "", 1)
	}
	if !o.has("noreport") {
		if status != 0 && nd == 0 {
			fmt.Fprintf(w, "\n0 directories, 0 files\n")
		} else if o.has("d") {
			fmt.Fprintf(w, "\n%d director%s\n", nd, plural(nd, "y", "ies"))
		} else {
			fmt.Fprintf(w, "\n%d director%s, %d file%s\n", nd, plural(nd, "y", "ies"), nf, plural(nf, "", "s"))
		}
	}
	return status
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
