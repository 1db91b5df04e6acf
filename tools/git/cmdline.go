package git

import (
	"sort"
	"strings"
	"time"

	gogit "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/storage/filesystem"
)

// openStorage opens the repository of st and wt; a partial clone's
// objects come through a promisorStore, which fetches the blobs it lacks
// from the promisor remote.
func (c *call) openStorage(st *filesystem.Storage, wt *billyFS) (*gogit.Repository, error) {
	if ps := c.promisor(st, wt); ps != nil {
		return gogit.Open(ps, wt)
	}
	return gogit.Open(st, wt)
}

// promisor is the promisorStore over st when its config names a
// promisor remote with a URL (remote.<name>.promisor), else nil.
func (c *call) promisor(st *filesystem.Storage, wt *billyFS) *promisorStore {
	cfg, err := st.Config()
	if err != nil || !cfg.Raw.HasSection("remote") {
		return nil
	}
	for _, sub := range cfg.Raw.Section("remote").Subsections {
		if !strings.EqualFold(sub.Option("promisor"), "true") {
			continue
		}
		if rc, ok := cfg.Remotes[sub.Name]; ok && len(rc.URLs) > 0 {
			dot, _ := wt.Chroot(".git")
			return &promisorStore{Storage: st, dot: dot, url: rc.URLs[0], net: c.netContext, max: c.g.opts.MaxLazyFetches}
		}
	}
	return nil
}

// commands are the git commands run serves with git's own command line.
var commands = map[string]func(*cli, []string) int{
	"status": cmdStatus, "add": cmdAdd, "rm": cmdRm, "mv": cmdMv, "commit": cmdCommit, "reset": cmdReset,
	"restore": cmdRestore, "clean": cmdClean, "ls-files": cmdLsFiles, "config": cmdConfig, "diff": cmdDiff,
	"log": cmdLog, "show": cmdShow, "branch": cmdBranch, "checkout": cmdCheckout, "switch": cmdSwitch,
	"tag": cmdTag, "rev-parse": cmdRevParse, "merge": cmdMerge, "cherry-pick": cmdCherryPick, "revert": cmdRevert,
	"stash": cmdStash, "bisect": cmdBisect, "show-ref": cmdShowRef, "describe": cmdDescribe, "shortlog": cmdShortlog, "reflog": cmdReflog,
	"merge-base": cmdMergeBase, "cat-file": cmdCatFile, "ls-tree": cmdLsTree, "rebase": cmdRebase, "grep": cmdGrep, "blame": cmdBlame,
	"fetch": cmdFetch, "pull": cmdPull, "push": cmdPush, "remote": cmdRemote,
}

// outside are the commands that run without a repository.
var outside = map[string]func(*cli, []string) int{"clone": cmdClone, "ls-remote": cmdLsRemote}

// unsupported are git commands nook's git does not serve.
var unsupported = map[string]bool{
	"am": true, "apply": true, "archive": true, "bundle": true,
	"format-patch": true, "gc": true, "notes": true, "range-diff": true,
	"send-email": true, "sparse-checkout": true, "submodule": true, "worktree": true, "fsck": true,
	"hash-object": true, "read-tree": true, "rerere": true, "update-index": true, "update-ref": true,
	"write-tree": true, "commit-tree": true, "symbolic-ref": true, "for-each-ref": true, "mergetool": true,
	"difftool": true, "citool": true, "gui": true, "instaweb": true, "maintenance": true, "prune": true, "repack": true,
}

// unsupportedWhy says why, and what to do instead, for the unsupported
// commands agents reach for most.
var unsupportedWhy = map[string]string{
	"worktree": "a repository has the one worktree it lives in; to work on another branch, commit or " +
		"git stash your changes and git switch to it, or git clone the repository into another directory",
}

// runCLI serves a command line: global options (-C, -c), then the command.
func (c *call) runCLI(argv []string, dir string) *Output {
	x := &cli{c: c, config: map[string]string{}, touched: map[string]string{}}
	x.cwd = dir
	i := 0
	for ; i < len(argv); i++ {
		a := argv[i]
		switch {
		case a == "-C" && i+1 < len(argv):
			i++
			d := argv[i]
			if !strings.HasPrefix(d, "/") {
				d = x.cwd + "/" + d
			}
			x.cwd = d
		case a == "-c" && i+1 < len(argv):
			i++
			k, v, ok := strings.Cut(argv[i], "=")
			if !ok {
				v = "true"
			}
			x.config[strings.ToLower(k)] = v
		case a == "--no-pager" || a == "-P" || a == "--no-optional-locks" || a == "--literal-pathspecs":
		case strings.HasPrefix(a, "-") && a != "-h" && a != "--help" && a != "--version" && a != "-v":
			return &Output{Stderr: "unknown option: " + a + "\n" + globalUsage, ExitCode: 129}
		default:
			goto done
		}
	}
done:
	argv = argv[i:]
	return x.run(argv)
}

const globalUsage = "usage: git [-v | --version] [-h | --help] [-C <path>] [-c <name>=<value>]\n" +
	"           [--exec-path[=<path>]] [--html-path] [--man-path] [--info-path]\n" +
	"           [-p | --paginate | -P | --no-pager] [--no-replace-objects] [--bare]\n" +
	"           [--git-dir=<path>] [--work-tree=<path>] [--namespace=<name>]\n" +
	"           [--super-prefix=<path>] [--config-env=<name>=<envvar>]\n" +
	"           <command> [<args>]\n"

func (x *cli) run(argv []string) *Output {
	if len(argv) == 0 || argv[0] == "help" || argv[0] == "--help" || argv[0] == "-h" {
		return &Output{Stdout: Usage}
	}
	if argv[0] == "--version" || argv[0] == "-v" || argv[0] == "version" {
		return &Output{Stdout: "git version 2.39.5 (nook)\n"}
	}
	name, args := argv[0], argv[1:]
	out := &Output{}
	// Commands that keep the older implementation.
	switch name {
	case "init":
		return x.c.legacy(name, args, x.cwd)
	}
	if fn, ok := outside[name]; ok {
		if fi, err := x.fs().Stat(x.ctx(), x.cwd); (err != nil || !fi.IsDir()) && x.cwd != x.c.g.opts.Root {
			return &Output{Stderr: "fatal: cannot change to '" + x.cwd + "': No such file or directory\n", ExitCode: 128}
		}
		code := fn(x, args)
		return &Output{Stdout: x.out.String(), Stderr: x.err.String(), ExitCode: code, Touched: x.touchedList()}
	}
	fn, ok := commands[name]
	if !ok {
		if unsupported[name] {
			out.Stderr = "fatal: 'git " + name + "' is not supported by nook's git (git help lists what is)\n"
			if why, ok := unsupportedWhy[name]; ok {
				out.Stderr = "fatal: 'git " + name + "' is not supported by nook's git: " + why + "\n"
			}
			out.ExitCode = 128
			return out
		}
		out.Stderr = "git: '" + name + "' is not a git command. See 'git --help'.\n"
		out.ExitCode = 1
		return out
	}
	if len(args) == 1 && (args[0] == "-h" || args[0] == "--help") {
		out.Stdout = "usage: git " + name + " [<options>]\n"
		out.ExitCode = 129
		return out
	}
	if fi, err := x.fs().Stat(x.ctx(), x.cwd); err != nil || !fi.IsDir() {
		out.Stderr = "fatal: cannot change to '" + x.cwd + "': No such file or directory\n"
		out.ExitCode = 128
		return out
	}
	if err := x.openRepo(); err != nil {
		code := x.fail(err)
		return &Output{Stderr: x.err.String(), ExitCode: code}
	}
	if x.c.rc != nil {
		// A mutating command of a run: fix its clock and HEAD before it
		// changes anything (see RATIONALE.md, repeating calls).
		var p pendingCommit
		if x.c.pending(&p) {
			x.clock = time.Unix(p.When, 0).In(time.FixedZone("", p.Zone))
			if p.Before != nil {
				if err := x.restoreSnapshot(p.Before); err != nil {
					return &Output{Stderr: "fatal: " + err.Error() + "\n", ExitCode: 128}
				}
			}
		} else {
			when := x.now()
			_, zone := when.Zone()
			_, head := x.head()
			p := pendingCommit{Parent: head.String(), When: when.Unix(), Zone: zone}
			if snapshotCommands[name] {
				p.Before = x.takeSnapshot()
			}
			if err := x.c.setPending(p); err != nil {
				return &Output{Stderr: "fatal: " + err.Error() + "\n", ExitCode: 128}
			}
		}
	}
	code := fn(x, args)
	if ps, ok := x.r.Storer.(*promisorStore); ok && ps.failed != nil && code == 0 {
		// A left-out object the command could not fetch (the limit, the
		// policy) fails it, as git dies then, even where the command
		// went on without the object.
		code = x.fail(ps.failed)
	}
	out.Stdout, out.Stderr, out.ExitCode = x.out.String(), x.err.String(), code
	out.Touched = x.touchedList()
	out.Exec = x.exec
	return out
}

// MaxTouched bounds the worktree paths one command reports as changed
// (Output.Touched): the result is a journaled call result, bounded by the
// runtime's MaxJournalEntryBytes. Past it the rest are left out of the
// shell run's Changes report (the change feed has them all).
const MaxTouched = 10000

func (x *cli) touchedList() []Touched {
	var out []Touched
	for p, k := range x.touched {
		out = append(out, Touched{Path: p, Was: k})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	if len(out) > MaxTouched {
		out = out[:MaxTouched]
	}
	return out
}

// Touched is a workspace path a command changed, with what it was before
// ("" absent, "file", "dir", "symlink"): what the shell adds to its
// run's Changes report.
type Touched struct {
	Path string `json:"path"`
	Was  string `json:"was"`
}
