package coreutils

import (
	"fmt"
	"strconv"
	"strings"
)

// patch applies unified diffs (diff -u, git diff): hunks are matched at
// their line numbers or at the nearest offset where their context and
// removed lines match exactly (no fuzz). Files created from /dev/null and
// removed to /dev/null are handled; failed hunks go to FILE.rej.

func init() {
	register("patch", "patch [-p NUM] [-i PATCHFILE] [-R] [-N] [-s] [-E] [--dry-run] [-o OUTFILE] [--no-backup-if-mismatch] [FILE [PATCHFILE]]", patchCmd)
}

type hunk struct {
	oldStart, oldLen, newStart, newLen int
	lines                              []string // with their ' ', '-', '+' prefix
	noNLOld, noNLNew                   bool
}

type filePatch struct {
	oldName, newName string
	oldRaw, newRaw   string // the header lines after "--- " and "+++ "
	hunks            []*hunk
}

func parsePatch(text string) ([]*filePatch, error) {
	lines := strings.SplitAfter(text, "\n")
	var out []*filePatch
	var cur *filePatch
	for i := 0; i < len(lines); i++ {
		l := strings.TrimRight(lines[i], "\r\n")
		switch {
		case strings.HasPrefix(l, "--- ") && i+1 < len(lines) && strings.HasPrefix(lines[i+1], "+++ "):
			nl := strings.TrimRight(lines[i+1], "\r\n")[4:]
			cur = &filePatch{oldName: patchName(l[4:]), newName: patchName(nl), oldRaw: l[4:], newRaw: nl}
			out = append(out, cur)
			i++
		case strings.HasPrefix(l, "@@ ") && cur != nil:
			h, err := parseHunkHeader(l)
			if err != nil {
				return nil, err
			}
			oldN, newN := 0, 0
			for i+1 < len(lines) && (oldN < h.oldLen || newN < h.newLen || strings.HasPrefix(lines[i+1], "\\")) {
				i++
				b := strings.TrimRight(lines[i], "\n")
				b = strings.TrimSuffix(b, "\r")
				if b == "" {
					b = " " // an empty context line whose space was stripped
				}
				switch b[0] {
				case ' ':
					oldN++
					newN++
				case '-':
					oldN++
				case '+':
					newN++
				case '\\':
					if len(h.lines) > 0 {
						switch h.lines[len(h.lines)-1][0] {
						case '-':
							h.noNLOld = true
						case '+':
							h.noNLNew = true
						default:
							h.noNLOld, h.noNLNew = true, true
						}
					}
					continue
				default:
					return nil, fmt.Errorf("malformed patch at line %d: %s", i+1, b)
				}
				h.lines = append(h.lines, b)
			}
			cur.hunks = append(cur.hunks, h)
		}
	}
	return out, nil
}

// patchName is the file name of a ---/+++ line, without its timestamp.
func patchName(s string) string {
	if i := strings.IndexByte(s, '\t'); i >= 0 {
		s = s[:i]
	}
	s = strings.TrimSpace(s)
	if strings.HasPrefix(s, "\"") {
		if u, err := strconv.Unquote(s); err == nil {
			s = u
		}
	}
	return s
}

func parseHunkHeader(l string) (*hunk, error) {
	// @@ -a,b +c,d @@
	f := strings.Fields(l)
	if len(f) < 3 || !strings.HasPrefix(f[1], "-") || !strings.HasPrefix(f[2], "+") {
		return nil, fmt.Errorf("malformed hunk header: %s", l)
	}
	rng := func(s string) (int, int, error) {
		a, b, has := strings.Cut(s[1:], ",")
		start, err := strconv.Atoi(a)
		if err != nil {
			return 0, 0, err
		}
		n := 1
		if has {
			if n, err = strconv.Atoi(b); err != nil {
				return 0, 0, err
			}
		}
		return start, n, nil
	}
	h := &hunk{}
	var err1, err2 error
	h.oldStart, h.oldLen, err1 = rng(f[1])
	h.newStart, h.newLen, err2 = rng(f[2])
	if err1 != nil || err2 != nil {
		return nil, fmt.Errorf("malformed hunk header: %s", l)
	}
	return h, nil
}

func stripPath(p string, n int) string {
	if n < 0 {
		return p[strings.LastIndex(p, "/")+1:]
	}
	for i := 0; i < n; i++ {
		j := strings.IndexByte(p, '/')
		if j < 0 {
			return p
		}
		p = p[j+1:]
	}
	return p
}

func patchCmd(e *Env, args []string) int {
	o, ops, ok := e.parse(&flagSpec{bools: "RNsEftlu", vals: "pioBdrF", long: map[string]bool{"strip": true, "input": true, "reverse": false,
		"forward": false, "silent": false, "quiet": false, "dry-run": false, "output": true, "remove-empty-files": false,
		"no-backup-if-mismatch": false, "backup": false, "force": false, "batch": false, "unified": false, "directory": true, "reject-file": true,
		"ignore-whitespace": false, "fuzz": true, "binary": false, "verbose": false},
		alias: map[string]string{"strip": "p", "input": "i", "reverse": "R", "forward": "N", "silent": "s", "quiet": "s",
			"output": "o", "remove-empty-files": "E", "force": "f", "batch": "t", "directory": "d", "reject-file": "r", "ignore-whitespace": "l", "fuzz": "F"}}, args)
	if !ok {
		return 2
	}
	strip := -1
	if v := o.last("p", ""); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			e.Errf("strip count %s is not a number", v)
			return 2
		}
		strip = n
	}
	in := o.last("i", "-")
	var target string
	if len(ops) > 0 {
		target = ops[0]
	}
	if len(ops) > 1 {
		in = ops[1]
	}
	text, err := e.ReadAll(in)
	if err != nil {
		e.Errf("can't open patch file %s : %s", in, textOf(err))
		return 2
	}
	files, err := parsePatch(string(text))
	if err != nil {
		e.Errf("%s", err)
		return 2
	}
	if len(files) == 0 {
		e.Errf("**** Only garbage was found in the patch input.")
		return 2
	}
	dry := o.has("dry-run")
	quiet := o.has("s")
	say := func(format string, a ...any) {
		if !quiet {
			fmt.Fprintf(e.Stdout, format, a...)
		}
	}
	dir := e.Dir
	if d := o.last("d", ""); d != "" {
		dir = e.Abs(d)
	}
	abs := func(p string) string {
		if strings.HasPrefix(p, "/") {
			return p
		}
		return dir + "/" + p
	}
	status := 0
	for _, fp := range files {
		if e.Ctx.Err() != nil {
			return 2
		}
		oldN, newN := fp.oldName, fp.newName
		reverse := o.has("R")
		if reverse {
			oldN, newN = newN, oldN
		}
		creating := oldN == "/dev/null"
		deleting := newN == "/dev/null"
		name := target
		if name == "" {
			cand := []string{}
			if !creating {
				cand = append(cand, stripPath(oldN, strip))
			}
			if !deleting {
				cand = append(cand, stripPath(newN, strip))
			}
			name = cand[0]
			for _, c := range cand {
				if _, err := e.FS.Stat(e.Ctx, abs(c)); err == nil {
					name = c
					break
				}
			}
			if creating {
				name = stripPath(newN, strip)
			}
		}
		var lines []string
		endNL := true
		data, err := e.FS.ReadAll(e.Ctx, abs(name))
		switch {
		case err == nil:
			s := string(data)
			endNL = s == "" || strings.HasSuffix(s, "\n")
			lines = splitLines(data)
		case creating || codeOf(err) == "ENOENT" && len(fp.hunks) > 0 && fp.hunks[0].oldLen == 0:
		default:
			e.Errf("can't find file to patch at input line 1")
			fmt.Fprintf(e.Stderr, "No file to patch.  Skipping patch.\n")
			status = 1
			continue
		}
		if dry {
			say("checking file %s\n", name)
		} else {
			say("patching file %s\n", name)
		}
		orig := data
		mismatch := false
		var rejects []*hunk
		ignored := false
		offset := 0
		failed := 0
		for hi, h := range fp.hunks {
			var from, to []string
			for _, l := range h.lines {
				a, b := l[0], l[1:]
				if reverse {
					switch a {
					case '-':
						a = '+'
					case '+':
						a = '-'
					}
				}
				if a != '+' {
					from = append(from, b)
				}
				if a != '-' {
					to = append(to, b)
				}
			}
			start := h.oldStart - 1
			if reverse {
				start = h.newStart - 1
			}
			if len(from) == 0 && start < 0 {
				start = 0
			} else if len(from) == 0 {
				start++
			}
			at := -1
			for d := 0; d <= len(lines); d++ {
				for _, cand := range []int{start + offset + d, start + offset - d} {
					if cand >= 0 && cand+len(from) <= len(lines) && equalLines(lines[cand:cand+len(from)], from) {
						at = cand
						break
					}
				}
				if at >= 0 {
					break
				}
			}
			if at < 0 {
				if o.has("N") && len(to) > 0 && containsAt(lines, to) {
					say("Reversed (or previously applied) patch detected!  Skipping patch.\n")
					ignored = true
					failed = len(fp.hunks)
					rejects = fp.hunks
					break
				}
				say("Hunk #%d FAILED at %d.\n", hi+1, start+1)
				failed++
				rejects = append(rejects, h)
				continue
			}
			if d := at - start; d != 0 {
				mismatch = true
				say("Hunk #%d succeeded at %d (offset %d line%s).\n", hi+1, at+1, d, plural(abs1(d), "", "s"))
			}
			offset = at - start + len(to) - len(from)
			nl := append([]string{}, lines[:at]...)
			nl = append(nl, to...)
			nl = append(nl, lines[at+len(from):]...)
			if at+len(from) >= len(lines) {
				noNL := h.noNLNew
				if reverse {
					noNL = h.noNLOld
				}
				endNL = !noNL
			}
			lines = nl
		}
		if failed > 0 {
			mismatch = true
			status = 1
			verb := "FAILED"
			if ignored {
				verb = "ignored"
			}
			say("%d out of %d hunk%s %s", failed, len(fp.hunks), plural(len(fp.hunks), "", "s"), verb)
			if !dry {
				rej := name + ".rej"
				if r := o.last("r", ""); r != "" {
					rej = r
				}
				say(" -- saving rejects to file %s\n", rej)
				var b strings.Builder
				stamp := func(raw string) string {
					if i := strings.IndexByte(raw, '\t'); i >= 0 {
						return raw[i:]
					}
					return ""
				}
				fmt.Fprintf(&b, "--- %s%s\n+++ %s%s\n", stripPath(fp.oldName, strip), stamp(fp.oldRaw), stripPath(fp.newName, strip), stamp(fp.newRaw))
				for _, h := range rejects {
					fmt.Fprintf(&b, "@@ -%d,%d +%d,%d @@\n", h.oldStart, h.oldLen, h.newStart, h.newLen)
					for _, l := range h.lines {
						b.WriteString(l + "\n")
					}
				}
				e.FS.WriteFile(e.Ctx, abs(rej), []byte(b.String()), "w")
			} else {
				say("\n")
			}
		}
		if dry {
			continue
		}
		if mismatch && !o.has("no-backup-if-mismatch") && orig != nil {
			// GNU keeps the original when a hunk needed an offset or failed.
			e.FS.WriteFile(e.Ctx, abs(name)+".orig", orig, "w")
		}
		out := strings.Join(lines, "\n")
		if len(lines) > 0 && endNL {
			out += "\n"
		}
		dest := name
		if od := o.last("o", ""); od != "" {
			dest = od
		}
		if dest == "-" {
			fmt.Fprint(e.Stdout, out)
			continue
		}
		if (deleting || o.has("E")) && out == "" && o.last("o", "") == "" {
			if err := e.FS.Remove(e.Ctx, abs(name), false, true); err != nil {
				e.Errf("can't remove %s: %s", name, textOf(err))
				status = 2
			}
			continue
		}
		if i := strings.LastIndexByte(dest, '/'); i > 0 {
			e.FS.Mkdir(e.Ctx, abs(dest[:i]), true)
		}
		if err := e.FS.WriteFile(e.Ctx, abs(dest), []byte(out), "w"); err != nil {
			e.Errf("can't create '%s': %s", dest, textOf(err))
			status = 2
		}
	}
	return status
}

func equalLines(a, b []string) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func containsAt(lines, seq []string) bool {
	for i := 0; i+len(seq) <= len(lines); i++ {
		if equalLines(lines[i:i+len(seq)], seq) {
			return true
		}
	}
	return false
}

func abs1(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
