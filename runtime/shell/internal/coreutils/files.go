package coreutils

import (
	"bufio"
	"fmt"
	"io"
	"path"
	"strconv"
	"strings"
	"time"
)

func init() {
	register("cat", "cat [-AbeEnstTv] [FILE]...", cat)
	register("pwd", "pwd [-LP]", pwd)
	register("mkdir", "mkdir [-pv] DIRECTORY...", mkdir)
	register("rmdir", "rmdir [-p] DIRECTORY...", rmdir)
	register("rm", "rm [-rfdv] FILE...", rm)
	register("touch", "touch [-acm] [-d DATE | -t [[CC]YY]MMDDhhmm[.ss] | -r FILE] FILE...", touch)
	register("basename", "basename NAME [SUFFIX] | basename [-a] [-s SUFFIX] NAME...", basename)
	register("dirname", "dirname NAME...", dirname)
}

func cat(e *Env, args []string) int {
	o, files, ok := e.parse(&flagSpec{bools: "nbsEAuvTet", long: map[string]bool{"number": false, "number-nonblank": false, "squeeze-blank": false, "show-ends": false,
		"show-all": false, "show-tabs": false, "show-nonprinting": false},
		alias: map[string]string{"number": "n", "number-nonblank": "b", "squeeze-blank": "s", "show-ends": "E", "show-all": "A", "show-tabs": "T", "show-nonprinting": "v"}}, args)
	if !ok {
		return 1
	}
	if o.has("A") {
		o["v"], o["E"], o["T"] = []string{""}, []string{""}, []string{""}
	}
	if o.has("e") {
		o["v"], o["E"] = []string{""}, []string{""}
	}
	if o.has("t") {
		o["v"], o["T"] = []string{""}, []string{""}
	}
	plain := !o.has("n") && !o.has("b") && !o.has("s") && !o.has("E") && !o.has("T") && !o.has("v")
	if len(files) == 0 {
		files = []string{"-"}
	}
	status := 0
	line := 0
	lastBlank := false
	w := bufio.NewWriterSize(e.Stdout, 64<<10)
	defer w.Flush()
	for _, f := range files {
		r, err := e.Open(f)
		if err != nil {
			e.FileErr(f, err)
			status = 1
			continue
		}
		if plain {
			if _, err := io.Copy(w, r); err != nil {
				r.Close()
				if e.Ctx.Err() != nil {
					return 1
				}
				e.FileErr(f, err)
				status = 1
				continue
			}
			r.Close()
			continue
		}
		br := bufio.NewReader(r)
		for {
			s, err := br.ReadString('\n')
			if s == "" && err != nil {
				break
			}
			body := strings.TrimSuffix(s, "\n")
			blank := body == ""
			if o.has("s") && blank && lastBlank {
				continue
			}
			lastBlank = blank
			if o.has("b") {
				if !blank {
					line++
					fmt.Fprintf(w, "%6d\t", line)
				}
			} else if o.has("n") {
				line++
				fmt.Fprintf(w, "%6d\t", line)
			}
			if o.has("v") || o.has("T") {
				body = showNonprinting(body, o.has("v"), o.has("T"))
			}
			w.WriteString(body)
			if strings.HasSuffix(s, "\n") {
				if o.has("E") || o.has("A") {
					w.WriteString("$")
				}
				w.WriteString("\n")
			}
			if err != nil {
				break
			}
		}
		r.Close()
	}
	return status
}

// showNonprinting renders control characters as ^X and bytes past 127
// as M-X (cat -v), and tabs as ^I (cat -T).
func showNonprinting(s string, v, tabs bool) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\t':
			if tabs {
				b.WriteString("^I")
			} else {
				b.WriteByte(c)
			}
		case !v:
			b.WriteByte(c)
		default:
			b.WriteString(printByte(c))
		}
	}
	return b.String()
}

func pwd(e *Env, args []string) int {
	for _, a := range args[1:] {
		if a == "-P" {
			p, err := e.FS.Realpath(e.Ctx, e.Dir)
			if err != nil {
				e.FileErr(e.Dir, err)
				return 1
			}
			fmt.Fprintln(e.Stdout, p)
			return 0
		}
	}
	fmt.Fprintln(e.Stdout, e.Dir)
	return 0
}

func mkdir(e *Env, args []string) int {
	o, dirs, ok := e.parse(&flagSpec{bools: "pv", vals: "m", long: map[string]bool{"parents": false, "verbose": false, "mode": true},
		alias: map[string]string{"parents": "p", "verbose": "v", "mode": "m"}}, args)
	if !ok {
		return 1
	}
	if len(dirs) == 0 {
		e.Errf("missing operand")
		return 1
	}
	status := 0
	for _, d := range dirs {
		ap := e.Abs(d)
		if o.has("p") {
			if fi, err := e.FS.Stat(e.Ctx, ap); err == nil {
				if !fi.IsDir() {
					e.Errf("cannot create directory '%s': File exists", d)
					status = 1
				}
				continue
			}
		}
		if err := e.FS.Mkdir(e.Ctx, ap, o.has("p")); err != nil {
			e.Errf("cannot create directory '%s': %s", d, textOf(err))
			status = 1
			continue
		}
		if o.has("v") {
			fmt.Fprintf(e.Stdout, "mkdir: created directory '%s'\n", d)
		}
	}
	return status
}

func rmdir(e *Env, args []string) int {
	o, dirs, ok := e.parse(&flagSpec{bools: "pv", long: map[string]bool{"parents": false, "ignore-fail-on-non-empty": false},
		alias: map[string]string{"parents": "p"}}, args)
	if !ok {
		return 1
	}
	if len(dirs) == 0 {
		e.Errf("missing operand")
		return 1
	}
	status := 0
	for _, d := range dirs {
		for cur := d; ; {
			if err := e.FS.Rmdir(e.Ctx, e.Abs(cur)); err != nil {
				if !(o.has("ignore-fail-on-non-empty") && codeOf(err) == "ENOTEMPTY") {
					e.Errf("failed to remove '%s': %s", cur, textOf(err))
					status = 1
				}
				break
			}
			if !o.has("p") {
				break
			}
			cur = path.Dir(cur)
			if cur == "." || cur == "/" {
				break
			}
		}
	}
	return status
}

func rm(e *Env, args []string) int {
	o, files, ok := e.parse(&flagSpec{bools: "rRfdvi", long: map[string]bool{"recursive": false, "force": false, "dir": false, "verbose": false},
		alias: map[string]string{"recursive": "r", "force": "f", "dir": "d", "verbose": "v"}}, args)
	if !ok {
		return 1
	}
	rec := o.has("r") || o.has("R")
	force := o.has("f")
	if len(files) == 0 {
		if force {
			return 0
		}
		e.Errf("missing operand")
		return 1
	}
	status := 0
	for _, f := range files {
		ap := e.Abs(f)
		if b := path.Base(f); b == "." || b == ".." {
			e.Errf("refusing to remove '.' or '..' directory: skipping '%s'", f)
			status = 1
			continue
		}
		fi, err := e.FS.Lstat(e.Ctx, ap)
		if err != nil {
			if force && codeOf(err) == "ENOENT" {
				continue
			}
			e.Errf("cannot remove '%s': %s", f, textOf(err))
			status = 1
			continue
		}
		if fi.IsDir() && !rec {
			if o.has("d") {
				if err := e.FS.Rmdir(e.Ctx, ap); err != nil {
					e.Errf("cannot remove '%s': %s", f, textOf(err))
					status = 1
				}
				continue
			}
			e.Errf("cannot remove '%s': Is a directory", f)
			status = 1
			continue
		}
		if err := e.FS.Remove(e.Ctx, ap, rec, false); err != nil {
			e.Errf("cannot remove '%s': %s", f, textOf(err))
			status = 1
			continue
		}
		if o.has("v") {
			if fi.IsDir() {
				fmt.Fprintf(e.Stdout, "removed directory '%s'\n", f)
			} else {
				fmt.Fprintf(e.Stdout, "removed '%s'\n", f)
			}
		}
	}
	return status
}

func touch(e *Env, args []string) int {
	o, files, ok := e.parse(&flagSpec{bools: "cam", vals: "dtr", long: map[string]bool{"no-create": false, "date": true, "reference": true},
		alias: map[string]string{"no-create": "c", "date": "d", "reference": "r"}}, args)
	if !ok {
		return 1
	}
	if len(files) == 0 {
		e.Errf("missing file operand")
		return 1
	}
	status := 0
	now := e.Now()
	if o.has("r") {
		fi, err := e.FS.Stat(e.Ctx, e.Abs(o.last("r", "")))
		if err != nil {
			e.Errf("failed to get attributes of '%s': %s", o.last("r", ""), textOf(err))
			return 1
		}
		now = fi.ModTime()
	}
	if o.has("t") {
		t, ok := parseTouchStamp(o.last("t", ""), e.Now())
		if !ok {
			e.Errf("invalid date format '%s'", o.last("t", ""))
			return 1
		}
		now = t
	}
	if o.has("d") {
		if t, ok := parseDate(o.last("d", ""), e.Now()); ok {
			now = t
		} else {
			e.Errf("invalid date format '%s'", o.last("d", ""))
			return 1
		}
	}
	for _, f := range files {
		ap := e.Abs(f)
		if _, err := e.FS.Stat(e.Ctx, ap); err != nil {
			if codeOf(err) != "ENOENT" {
				e.Errf("cannot touch '%s': %s", f, textOf(err))
				status = 1
				continue
			}
			if o.has("c") {
				continue
			}
			if err := e.FS.WriteFile(e.Ctx, ap, nil, "a"); err != nil {
				e.Errf("cannot touch '%s': %s", f, textOf(err))
				status = 1
				continue
			}
		}
		if err := e.FS.Utimes(e.Ctx, ap, now); err != nil {
			e.Errf("setting times of '%s': %s", f, textOf(err))
			status = 1
		}
	}
	return status
}

// parseTouchStamp parses touch -t's [[CC]YY]MMDDhhmm[.ss] (UTC).
func parseTouchStamp(s string, now time.Time) (time.Time, bool) {
	sec := 0
	if i := strings.IndexByte(s, '.'); i >= 0 {
		v, err := strconv.Atoi(s[i+1:])
		if err != nil || len(s)-i-1 != 2 || v > 61 {
			return time.Time{}, false
		}
		sec, s = v, s[:i]
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return time.Time{}, false
		}
	}
	year := now.UTC().Year()
	switch len(s) {
	case 8:
	case 10:
		yy, _ := strconv.Atoi(s[:2])
		year = 1900 + yy
		if yy < 69 {
			year = 2000 + yy
		}
		s = s[2:]
	case 12:
		year, _ = strconv.Atoi(s[:4])
		s = s[4:]
	default:
		return time.Time{}, false
	}
	n := func(a, b int) int { v, _ := strconv.Atoi(s[a:b]); return v }
	mon, day, hh, mm := n(0, 2), n(2, 4), n(4, 6), n(6, 8)
	if mon < 1 || mon > 12 || day < 1 || day > 31 || hh > 23 || mm > 59 {
		return time.Time{}, false
	}
	t := time.Date(year, time.Month(mon), day, hh, mm, sec, 0, time.UTC)
	if t.Day() != day {
		return time.Time{}, false
	}
	return t, true
}

func basename(e *Env, args []string) int {
	o, names, ok := e.parse(&flagSpec{bools: "az", vals: "s", long: map[string]bool{"multiple": false, "suffix": true, "zero": false},
		alias: map[string]string{"multiple": "a", "suffix": "s", "zero": "z"}}, args)
	if !ok {
		return 1
	}
	if len(names) == 0 {
		e.Errf("missing operand")
		return 1
	}
	suffix := o.last("s", "")
	if !o.has("a") && !o.has("s") {
		if len(names) == 2 {
			suffix = names[1]
		} else if len(names) > 2 {
			e.Errf("extra operand '%s'", names[2])
			return 1
		}
		names = names[:1]
	}
	for _, n := range names {
		b := baseOf(n)
		if suffix != "" && b != suffix && strings.HasSuffix(b, suffix) {
			b = strings.TrimSuffix(b, suffix)
		}
		fmt.Fprintln(e.Stdout, b)
	}
	return 0
}

func baseOf(n string) string {
	t := strings.TrimRight(n, "/")
	if t == "" {
		if n == "" {
			return ""
		}
		return "/"
	}
	return t[strings.LastIndex(t, "/")+1:]
}

func dirname(e *Env, args []string) int {
	if len(args) < 2 {
		e.Errf("missing operand")
		return 1
	}
	for _, n := range args[1:] {
		fmt.Fprintln(e.Stdout, dirOf(n))
	}
	return 0
}

func dirOf(n string) string {
	t := strings.TrimRight(n, "/")
	if t == "" {
		if strings.HasPrefix(n, "/") {
			return "/"
		}
		return "."
	}
	i := strings.LastIndex(t, "/")
	if i < 0 {
		return "."
	}
	d := strings.TrimRight(t[:i], "/")
	if d == "" {
		return "/"
	}
	return d
}
