package git

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/nookdev/nook/runtime"
)

// Output is the result of a git command line: what git would print and
// its exit status.
type Output struct {
	Stdout   string `json:"stdout"`
	Stderr   string `json:"stderr"`
	ExitCode int    `json:"exitCode"`
	// Touched lists the workspace paths the command changed in the
	// worktree, with what each was before.
	Touched []Touched `json:"touched,omitempty"`
	// Exec, when set, asks the caller to run a command and call again:
	// only a call that passed exec: true gets one (git bisect run, from
	// the shell). See [ExecRequest].
	Exec *ExecRequest `json:"exec,omitempty"`
}

// ExecRequest is a command git needs run before it can go on (git bisect
// run's test at one step). The caller runs Command with sh -c in Dir, then
// calls run again with the same args, dir and exec: true, and resume:
// {state: State, exitCode: the command's exit status}. Until then the
// command has not ended: Stdout and Stderr are what it printed so far.
type ExecRequest struct {
	Command string `json:"command"`
	Dir     string `json:"dir"`
	State   string `json:"state"`
}

// Run runs a git command line (args without "git", e.g. ["log",
// "--oneline"]) in the directory cwd (absolute, under the root; "" for the
// root) and returns its text output. It is what "nook git" runs.
func (g *Git) Run(ctx context.Context, args []string, cwd string) *Output {
	a := []any{}
	for _, s := range args {
		a = append(a, s)
	}
	res, err := g.Call(ctx, nil, "run", map[string]any{"args": a, "dir": cwd})
	if err != nil {
		return &Output{Stderr: "fatal: " + err.Error() + "\n", ExitCode: 128}
	}
	m, _ := res.(map[string]any)
	out := &Output{}
	out.Stdout, _ = m["stdout"].(string)
	out.Stderr, _ = m["stderr"].(string)
	if n, ok := m["exitCode"].(float64); ok {
		out.ExitCode = int(n)
	}
	return out
}

// Usage lists the command lines run understands. Options are parsed as
// git parses them (bundled short options, --opt=value, -n5, "--" before
// paths, pathspec globs) and output is git's.
const Usage = `usage: git [-C <path>] [-c <name>=<value>] <command> [<args>]

nook's git (go-git storage, nook's own porcelain) serves:

  init [-q] [-b <branch>] [<dir>]
  status [-s] [-b] [--porcelain[=v1|v2]] [-u<mode>] [--] [<pathspec>...]
  add [-A | -u] [-n] [-v] [-f] [--] <pathspec>...
  rm [--cached] [-r] [-f] [-q] [-n] <pathspec>...
  mv [-f] [-n] [-v] <source>... <destination>
  restore [--staged] [--worktree] [--source=<rev>] [--ours | --theirs] <pathspec>...
  commit [-a] [-m <msg>]... [-F <file>] [--amend] [--allow-empty] [--no-edit] [-q] [--author=<a>] [--date=<d>] [<pathspec>...]
  reset [--soft | --mixed | --hard] [<commit>] | [<tree-ish>] [--] <pathspec>...
  log [-n <n> | -<n>] [--oneline] [--format=<fmt>] [--stat] [--name-only] [--name-status] [-p] [--graph]
      [--all] [--author=<re>] [--grep=<re>] [--reverse] [--first-parent] [<rev> | <a>..<b>] [--] [<path>...]
  show [--stat] [--name-only] [--format=<fmt>] [<rev> | <rev>:<path>]
  diff [--cached] [--stat] [--shortstat] [--numstat] [--name-only] [--name-status] [-U<n>] [<rev> [<rev>] | <a>..<b>] [--] [<path>...]
  branch [-a] [-v] [-d | -D] [-m | -M] [-f] [--show-current] [--merged] [--contains <rev>] [<name> [<start>]]
  checkout [-b | -B <new>] [<branch> | <commit> | -] | [<rev>] [--ours | --theirs] -- <path>...
  switch [-c | -C <new>] [--detach] [<branch> | -]
  tag [-a] [-m <msg>] [-d] [-l] [-n] [-f] [<name> [<rev>]]
  merge [--no-ff | --ff-only] [-m <msg>] [--no-commit] <branch> | --abort | --continue
  rebase [--onto <newbase>] <upstream> | --continue | --skip | --abort
  cherry-pick [-x] [-n] <commit> | --continue | --abort
  revert [-n] <commit> | --continue | --abort
  stash [push [-m <msg>] | save | list | show [-p] | pop | apply | drop | clear] [stash@{<n>}]
  bisect start [<bad> [<good>...]] | bad | good | skip [<rev>...] | next | log | visualize | reset [<commit>]
  bisect run <cmd>...   (in nook's shell: the command runs at each step)
  grep [-n] [-i] [-l] [-L] [-c] [-w] [-v] [-E | -F] [-e <pattern>]... [<rev>] [--] [<path>...]
  blame [-L <from>,<to>] [-s] [-e] [<rev>] [--] <file>
  rev-parse [--short[=<n>]] [--abbrev-ref] [--verify] [--show-toplevel] [--show-prefix] <rev>...
  ls-files [-s] [-m] [-d] [-o] [-u] [--exclude-standard] [<path>...]
  show-ref [--heads] [--tags] [<pattern>...]
  describe [--tags] [--always] [--long] [--abbrev=<n>] [--dirty[=<mark>]] [--exact-match] [--match <pattern>] [<commit-ish>...]
  shortlog [-s] [-n] [-e] [-c] [--no-merges] [<revision-range>] [[--] <path>...]
  config [--local] <name> [<value>] | --list
  clean -n | -f [-d] [-x | -X] [<path>...]
  clone [-b <branch>] [--depth <n>] [--single-branch] [-n] [-o <name>] [-q] <url> [<dir>]
  fetch [-q] [--tags] [<remote>]
  pull [--rebase | --no-rebase | --ff-only] [--no-ff] [-q] [<remote> [<branch>]]
  push [-f] [-u] [-d] [-q] [<remote> [[+]<src>[:<dst>]...]]
  ls-remote [--heads] [--tags] [--refs] [-q] [--get-url] [--exit-code] [<remote> | <url> [<pattern>...]]
  remote [-v] | add <name> <url> | remove <name> | rename <old> <new> | get-url <name> | set-url <name> <url>

There is no editor and no terminal: a commit without -m uses the prepared
message (a merge's, a revert's) as an editor that saves it unchanged would,
and -p/-i (interactive) are refused.
`

// usageError is a command line run does not understand (exit status 129,
// as git's).
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, a ...any) error { return &usageError{fmt.Sprintf(format, a...)} }

// run serves a command line: {args: [...], dir}.
func (c *call) run() (any, error) {
	argv, err := c.strs("args")
	if err != nil {
		return nil, err
	}
	dir, err := c.dir()
	if err != nil {
		return nil, err
	}
	return c.runCLI(argv, dir), nil
}

// legacy serves the commands that keep the option-object implementation
// (init, clone, fetch, push) from a command line.
func (c *call) legacy(cmd string, rest []string, dir string) *Output {
	name, opts, err := parseCommand(cmd, rest)
	if err != nil {
		var ue *usageError
		if errors.As(err, &ue) {
			return &Output{Stderr: "error: " + ue.msg + "\n", ExitCode: 129}
		}
		return &Output{Stderr: "fatal: " + err.Error() + "\n", ExitCode: 128}
	}
	opts["dir"] = dir
	fnOpts := map[string]any{}
	for k, v := range opts {
		if k != "short" && k != "oneline" && k != "quiet" {
			fnOpts[k] = v
		}
	}
	sub := &call{ctx: c.ctx, g: c.g, a: fnOpts, rc: c.rc}
	res, err := sub.dispatch(name)
	if err != nil {
		var ce *runtime.CallError
		msg := err.Error()
		if errors.As(err, &ce) {
			msg = ce.Message
		}
		return &Output{Stderr: "fatal: " + msg + "\n", ExitCode: 128}
	}
	if opts["quiet"] == true {
		return &Output{}
	}
	return &Output{Stdout: format(name, opts, res)}
}

// parseCommand turns a git command line into a module function and its
// options.
func parseCommand(cmd string, args []string) (string, map[string]any, error) {
	o := map[string]any{}
	var pos, paths []string
	dashdash := false
	take := func(i *int, flag string) (string, error) {
		if *i+1 >= len(args) {
			return "", usagef("option '%s' requires a value", flag)
		}
		*i++
		return args[*i], nil
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if dashdash {
			paths = append(paths, a)
			continue
		}
		if a == "--" {
			dashdash = true
			continue
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			pos = append(pos, a)
			continue
		}
		key, val, hasVal := strings.Cut(a, "=")
		var err error
		switch cmd + " " + key {
		case "init -b", "init --initial-branch", "clone -b", "clone --branch":
			if !hasVal {
				val, err = take(&i, key)
			}
			o["branch"] = val
		case cmd + " -q", cmd + " --quiet":
			o["quiet"] = true
		case "status -s", "status --short", "status --porcelain":
			o["short"] = true
		case "add -A", "add --all":
			o["all"] = true
		case "rm --cached":
			o["cached"] = true
		case "rm -r", "rm -f":
		case "commit -m", "commit --message", "tag -m", "tag --message":
			if !hasVal {
				val, err = take(&i, key)
			}
			if m, ok := o["message"].(string); ok {
				val = m + "\n\n" + val
			}
			o["message"] = val
		case "commit -a", "commit --all":
			o["all"] = true
		case "commit --allow-empty":
			o["allowEmpty"] = true
		case "commit --author":
			if !hasVal {
				val, err = take(&i, key)
			}
			name, email, ok := strings.Cut(val, "<")
			if !ok || !strings.HasSuffix(email, ">") {
				return "", nil, usagef("--author must be \"Name <email>\"")
			}
			o["author"] = map[string]any{"name": strings.TrimSpace(name), "email": strings.TrimSuffix(email, ">")}
		case "commit --date", "tag --date":
			if !hasVal {
				val, err = take(&i, key)
			}
			o["date"] = val
		case "log --oneline":
			o["oneline"] = true
		case "log -n", "log --max-count":
			if !hasVal {
				val, err = take(&i, key)
			}
			n, perr := strconv.Atoi(val)
			if perr != nil {
				return "", nil, usagef("%s needs a number", key)
			}
			o["max"] = float64(n)
		case "diff --cached", "diff --staged":
			o["cached"] = true
		case "branch -d", "branch --delete":
			o["delete"] = true
		case "branch -D":
			o["delete"], o["force"] = true, true
		case "branch -f", "branch --force", "checkout -f", "checkout --force", "push -f", "push --force":
			o["force"] = true
		case "branch --list", "tag -l", "tag --list", "branch -a", "tag -a", "tag --annotate":
		case "checkout -b", "switch -c", "switch --create":
			o["create"] = true
		case "reset --hard":
			o["mode"] = "hard"
		case "reset --soft":
			o["mode"] = "soft"
		case "reset --mixed":
			o["mode"] = "mixed"
		case "tag -d", "tag --delete":
			o["delete"] = true
		case "rev-parse --short":
			o["short"] = true
		case "rev-parse --verify":
		case "clone --depth":
			if !hasVal {
				val, err = take(&i, key)
			}
			n, perr := strconv.Atoi(val)
			if perr != nil {
				return "", nil, usagef("--depth needs a number")
			}
			o["depth"] = float64(n)
		default:
			if cmd == "log" && len(a) > 1 && isDigitsOld(a[1:]) {
				n, _ := strconv.Atoi(a[1:])
				o["max"] = float64(n)
				continue
			}
			return "", nil, usagef("unknown option '%s' for git %s", a, cmd)
		}
		if err != nil {
			return "", nil, err
		}
	}
	need := func(min, max int) error {
		if len(pos) < min || len(pos) > max {
			return usagef("wrong number of arguments for git %s", cmd)
		}
		return nil
	}
	arg := func(i int) string {
		if i < len(pos) {
			return pos[i]
		}
		return ""
	}
	var err error
	name := cmd
	switch cmd {
	case "init":
		if err = need(0, 1); err == nil && arg(0) != "" {
			o["path"] = arg(0)
		}
	case "status", "fetch":
		err = need(0, 1)
		if cmd == "fetch" && arg(0) != "" {
			o["remote"] = arg(0)
		}
	case "add", "rm":
		o["paths"] = toAny(append(pos, paths...))
		if cmd == "add" && len(pos)+len(paths) == 0 && o["all"] == nil {
			err = usagef("nothing specified, nothing added")
		}
	case "commit":
		err = need(0, 0)
		if o["message"] == nil && err == nil {
			err = usagef("commit needs a message (-m)")
		}
	case "log":
		err = need(0, 1)
		if arg(0) != "" {
			o["rev"] = arg(0)
		}
		if len(paths) > 0 {
			o["path"] = paths[0]
		}
	case "diff":
		err = need(0, 2)
		if arg(0) != "" {
			o["from"] = arg(0)
		}
		if arg(1) != "" {
			o["to"] = arg(1)
		}
		if len(paths) > 0 {
			o["paths"] = toAny(paths)
		}
	case "show", "rev-parse":
		err = need(0, 1)
		if arg(0) != "" {
			o["rev"] = arg(0)
		}
		if cmd == "rev-parse" && arg(0) == "" {
			err = usagef("rev-parse needs a revision")
		}
	case "branch", "tag":
		err = need(0, 2)
		if arg(0) != "" {
			o["name"] = arg(0)
		}
		if arg(1) != "" {
			if cmd == "branch" {
				o["from"] = arg(1)
			} else {
				o["rev"] = arg(1)
			}
		}
	case "checkout", "switch":
		name = "checkout"
		if len(paths) > 0 {
			err = need(0, 1)
			o["paths"] = toAny(paths)
		} else {
			err = need(1, 2)
			if o["create"] != nil && arg(1) != "" {
				// checkout -b <new> <start>: not supported by go-git's
				// checkout in one step.
				err = usagef("checkout -b takes only the new branch's name; create it from a start point with git branch <name> <start>")
			}
		}
		if arg(0) != "" {
			o["ref"] = arg(0)
		}
	case "reset":
		err = need(0, 1)
		if arg(0) != "" {
			o["rev"] = arg(0)
		}
	case "clone":
		err = need(1, 2)
		o["url"] = arg(0)
		if arg(1) != "" {
			o["into"] = arg(1)
		}
	case "push":
		if arg(0) != "" {
			o["remote"] = arg(0)
		}
		if len(pos) > 1 {
			o["refspecs"] = toAny(pos[1:])
		}
	default:
		return "", nil, usagef("'%s' is not a git command nook knows", cmd)
	}
	if err != nil {
		return "", nil, err
	}
	// Options only the text form uses.
	return name, o, nil
}

func isDigitsOld(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return s != ""
}

func toAnyOld(s []string) []any {
	out := make([]any, len(s))
	for i, x := range s {
		out[i] = x
	}
	return out
}

func (c *call) revParse(o map[string]any) (any, error) {
	c2 := &call{ctx: c.ctx, g: c.g, a: o}
	r, err := c2.open()
	if err != nil {
		return &Output{Stderr: "fatal: " + err.Error() + "\n", ExitCode: 128}, nil
	}
	rev, _ := o["rev"].(string)
	h, err := c2.resolve(r, rev)
	if err != nil {
		return &Output{Stderr: "fatal: " + err.Error() + "\n", ExitCode: 128}, nil
	}
	s := h.String()
	if o["short"] == true {
		s = s[:7]
	}
	return &Output{Stdout: s + "\n"}, nil
}

// format renders a command's result as git prints it.
func format(name string, o map[string]any, res any) string {
	var b strings.Builder
	if o["quiet"] == true {
		return ""
	}
	switch v := res.(type) {
	case *statusOut:
		if name != "status" {
			break
		}
		if o["short"] == true {
			for _, f := range v.Files {
				fmt.Fprintf(&b, "%s%s %s\n", f.Staging, f.Worktree, f.Path)
			}
			break
		}
		if v.Branch != "" {
			fmt.Fprintf(&b, "On branch %s\n", v.Branch)
		} else {
			fmt.Fprintf(&b, "HEAD detached at %s\n", v.Head[:min(7, len(v.Head))])
		}
		if v.Head == "" {
			b.WriteString("\nNo commits yet\n")
		}
		section := func(title string, pick func(fileStatus) string) {
			var lines []string
			for _, f := range v.Files {
				if s := pick(f); s != "" {
					lines = append(lines, s)
				}
			}
			if len(lines) > 0 {
				fmt.Fprintf(&b, "\n%s:\n", title)
				for _, l := range lines {
					fmt.Fprintf(&b, "\t%s\n", l)
				}
			}
		}
		section("Changes to be committed", func(f fileStatus) string {
			if f.Staging == " " || f.Staging == "?" {
				return ""
			}
			return statusWord(f.Staging) + f.Path
		})
		section("Changes not staged for commit", func(f fileStatus) string {
			if f.Worktree == " " || f.Worktree == "?" {
				return ""
			}
			return statusWord(f.Worktree) + f.Path
		})
		section("Untracked files", func(f fileStatus) string {
			if f.Worktree != "?" {
				return ""
			}
			return f.Path
		})
		if v.Clean {
			b.WriteString("nothing to commit, working tree clean\n")
		}
	case *commitOut:
		branch := v.Branch
		if branch == "" {
			branch = "detached HEAD"
		}
		root := ""
		if len(v.Parents) == 0 {
			root = " (root-commit)"
		}
		fmt.Fprintf(&b, "[%s%s %s] %s\n", branch, root, v.Hash[:7], v.Subject)
	case *Output:
		return v.Stdout
	case map[string]any:
		switch name {
		case "init":
			if v["reinitialized"] == true {
				fmt.Fprintf(&b, "Reinitialized existing Git repository in %s/.git/\n", v["path"])
			} else {
				fmt.Fprintf(&b, "Initialized empty Git repository in %s/.git/\n", v["path"])
			}
		case "log":
			for i, ci := range v["commits"].([]commitInfo) {
				if o["oneline"] == true {
					fmt.Fprintf(&b, "%s %s\n", ci.Hash[:7], ci.Subject)
					continue
				}
				if i > 0 {
					b.WriteString("\n")
				}
				writeCommit(&b, ci)
			}
		case "diff":
			b.WriteString(v["diff"].(string))
		case "show":
			writeCommit(&b, v["commit"].(commitInfo))
			if d := v["diff"].(string); d != "" {
				b.WriteString("\n" + d)
			}
		case "branch":
			if list, ok := v["branches"].([]refInfo); ok {
				for _, r := range list {
					mark := "  "
					if r.Name == v["current"] {
						mark = "* "
					}
					fmt.Fprintf(&b, "%s%s\n", mark, r.Name)
				}
			} else if v["deleted"] != nil && v["hash"] != nil {
				fmt.Fprintf(&b, "Deleted branch %s (was %s).\n", v["deleted"], v["hash"].(string)[:7])
			}
		case "tag":
			if list, ok := v["tags"].([]refInfo); ok {
				for _, r := range list {
					fmt.Fprintf(&b, "%s\n", r.Name)
				}
			} else if v["deleted"] != nil && v["existed"] == true {
				fmt.Fprintf(&b, "Deleted tag '%s'\n", v["deleted"])
			}
		case "checkout":
			if v["restored"] != nil {
				break
			}
			if v["detached"] == true {
				fmt.Fprintf(&b, "HEAD is now at %s\n", v["head"].(string)[:7])
			} else {
				fmt.Fprintf(&b, "Switched to branch '%s'\n", v["branch"])
			}
		case "reset":
			if o["mode"] == "hard" {
				fmt.Fprintf(&b, "HEAD is now at %s\n", v["head"].(string)[:7])
			}
		case "clone":
			fmt.Fprintf(&b, "Cloned into '%s'\n", v["path"])
		case "rm":
			for _, p := range v["removed"].([]string) {
				fmt.Fprintf(&b, "rm '%s'\n", p)
			}
		}
	}
	return b.String()
}

func statusWord(code string) string {
	switch code {
	case "M":
		return "modified:   "
	case "A":
		return "new file:   "
	case "D":
		return "deleted:    "
	case "R":
		return "renamed:    "
	case "C":
		return "copied:     "
	case "U":
		return "unmerged:   "
	}
	return code + " "
}

func writeCommit(b *strings.Builder, ci commitInfo) {
	fmt.Fprintf(b, "commit %s\n", ci.Hash)
	if len(ci.Parents) > 1 {
		fmt.Fprintf(b, "Merge: %s %s\n", ci.Parents[0][:7], ci.Parents[1][:7])
	}
	fmt.Fprintf(b, "Author: %s <%s>\n", ci.Author.Name, ci.Author.Email)
	if t, err := time.Parse(time.RFC3339, ci.Author.Date); err == nil {
		fmt.Fprintf(b, "Date:   %s\n", t.Format("Mon Jan 2 15:04:05 2006 -0700"))
	}
	b.WriteString("\n")
	for _, l := range strings.Split(strings.TrimRight(ci.Message, "\n"), "\n") {
		if l == "" {
			b.WriteString("\n")
		} else {
			fmt.Fprintf(b, "    %s\n", l)
		}
	}
}
