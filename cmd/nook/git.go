package main

import (
	"flag"
	"io"
	"strings"

	"github.com/nookdev/nook/runtime"
	"github.com/nookdev/nook/tools/git"
)

var cmdGit = &command{
	name: "git", group: "Workspace",
	synopsis: "[-C DIR] [-c NAME=VALUE]... [--name NAME] [--email EMAIL] [--allow-network] [--allow-host HOST]... COMMAND [ARGS...]",
	summary:  "run git on the workspace's repositories (go-git, no host git)",
	help: `Runs a git command line on a repository in the workspace, with the same
implementation sandboxed code reaches as the ws:git module and the shell's git
command. Options parse and output prints as git's (checked against git in
conformance/git): status, add, rm, mv, restore, commit, reset, log, show, diff,
branch, checkout, switch, tag, merge, rebase, cherry-pick, revert, stash, grep,
blame, describe, shortlog, rev-parse, ls-files, ls-tree, cat-file, merge-base,
show-ref, config, clean, bisect, init, clone, fetch and push ("nook git help"
lists their options). git bisect run CMD... runs as one shell run of nook's,
which runs CMD at each step.
-C names the directory to work in (default /workspace; the repository is found
there or in a parent up to /workspace); git's own -C and -c name=value work
after "git" too. Commits are by --name and --email (default nook
<nook@localhost>) unless the repository's user.name/user.email say otherwise.
clone, fetch and push reach the network only with --allow-network, over
http(s), and only the --allow-host hosts when any are given. nook exits with git's exit status.`,
	run:     runGit,
	argsEnd: true, // git's own flags follow COMMAND
}

func runGit(a *app, fl *flag.FlagSet, args []string) error {
	dir := fl.String("C", "", "work in `DIR` (absolute, under /workspace, or relative to it)")
	name := fl.String("name", "", "author and committer `NAME`")
	email := fl.String("email", "", "author and committer `EMAIL`")
	network := fl.Bool("allow-network", false, "let clone, fetch and push reach http(s) remotes")
	var hosts, configs stringList
	fl.Var(&hosts, "allow-host", "with --allow-network, the only `HOST`s allowed (repeatable)")
	fl.Var(&configs, "c", "pass `NAME=VALUE` to git as its -c (repeatable), e.g. -c user.name=Ada")
	if err := a.parse(fl, args, 1, -1); err != nil {
		return err
	}
	f, err := a.workspace()
	if err != nil {
		return err
	}
	opts := git.Options{Identity: git.Identity{Name: *name, Email: *email}}
	if *name == "" || *email == "" {
		opts.Identity = git.DefaultGitIdentity
		if *name != "" {
			opts.Identity.Name = *name
		}
		if *email != "" {
			opts.Identity.Email = *email
		}
	}
	if *network {
		opts.AllowNetwork, opts.Outbound = true, &runtime.Outbound{AllowHosts: hosts}
	}
	var argv []string
	for _, c := range configs {
		argv = append(argv, "-c", c)
	}
	argv = append(argv, fl.Args()...)
	if git.IsBisectRun(fl.Args()) {
		return a.bisectRun(argv, *dir)
	}
	out := git.New(f, opts).Run(a.ctx, argv, *dir)
	if a.json {
		if err := a.writeJSON(out); err != nil {
			return err
		}
	} else {
		io.WriteString(a.stdout, out.Stdout)
		io.WriteString(a.stderr, out.Stderr)
	}
	if out.ExitCode != 0 {
		return &exitStatus{out.ExitCode}
	}
	return nil
}

// bisectRun serves "nook git bisect run CMD...": git runs CMD at every
// step, and nook runs commands in its shell, so the whole bisection is one
// shell run of "git bisect run CMD..." in the directory (a run of its own,
// journaled and listed by "nook runs", that ends with git's exit status).
func (a *app) bisectRun(argv []string, dir string) error {
	script := "git"
	if dir != "" {
		script += " -C " + shQuote(dir)
	}
	for _, w := range argv {
		script += " " + shQuote(w)
	}
	rt := a.ws.Runtime()
	h, err := rt.Exec(a.ctx, script+"\n", runtime.ExecOptions{Backend: "shell"})
	if err != nil {
		return err
	}
	if a.json {
		res, err := a.waitRun(rt, h)
		if err != nil {
			return err
		}
		out := &git.Output{Stdout: string(res.Stdout), Stderr: string(res.Stderr), ExitCode: res.ExitCode}
		if err := a.writeJSON(out); err != nil {
			return err
		}
		return exitFor(res.ExitCode)
	}
	exit, err := a.follow(rt, h, true, true)
	if err != nil {
		return err
	}
	return exitFor(exit.ExitCode)
}

// shQuote quotes s as one word for the shell.
func shQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
