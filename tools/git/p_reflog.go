package git

import (
	"strconv"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
)

const reflogUsage = "usage: git reflog [show] [<log-options>] [<ref>]\n"

// cmdReflog is git reflog [show]: the entries of HEAD's reflog (or a
// branch's), newest first, as "<hash> <ref>@{<n>}: <message>".
func cmdReflog(x *cli, args []string) int {
	if len(args) > 0 && args[0] == "show" {
		args = args[1:]
	} else if len(args) > 0 && (args[0] == "expire" || args[0] == "delete" || args[0] == "exists") {
		return x.notSupported("reflog", args[0])
	}
	f, err := parseOpts(args, []opt{{short: 'n', long: "max-count", arg: argRequired}}, reflogUsage, false, "max-count")
	if err != nil {
		return x.fail(err)
	}
	ref, file := "HEAD", ".git/logs/HEAD"
	if len(f.pos) > 0 {
		ref = f.pos[0]
		switch {
		case ref == "HEAD":
		case x.exists("refs/heads/" + ref):
			file = ".git/logs/refs/heads/" + ref
		case strings.HasPrefix(ref, "refs/") && x.exists(ref):
			file = ".git/logs/" + ref
		default:
			return x.fatal("ambiguous argument '%s': unknown revision or path not in the working tree.\nUse '--' to separate paths from revisions, like this:\n'git <command> [<revision>...] -- [<file>...]'", ref)
		}
	}
	max := -1
	if f.has("max-count") {
		if max, err = strconv.Atoi(f.str("max-count")); err != nil {
			return x.fatal("'%s': not an integer", f.str("max-count"))
		}
	}
	data, _ := x.r.wt.readRaw(file)
	lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	n := 0
	for i := len(lines) - 1; i >= 0 && (max < 0 || n < max); i-- {
		head, msg, ok := strings.Cut(lines[i], "\t")
		fields := strings.Fields(head)
		if !ok || len(fields) < 2 {
			continue
		}
		x.printf("%s %s@{%d}: %s\n", shortHash(plumbing.NewHash(fields[1])), ref, n, msg)
		n++
	}
	return 0
}

// exists reports whether the reference name is set.
func (x *cli) exists(name string) bool {
	_, err := x.r.Storer.Reference(plumbing.ReferenceName(name))
	return err == nil
}
