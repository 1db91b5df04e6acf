package shell

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/nookdev/nook/internal/mvsh/interp"

	"github.com/nookdev/nook/runtime/host"
)

// gitModule is the host module that serves the shell's git command: when
// the embedder configures it (package tools/git), "git status", "git
// commit -m ..." and the rest are calls of its run function, journaled
// like every host call. Without it, git is not a command.
const gitModule = "ws:git"

// hasGit reports whether the run can use git.
func (p *runProgram) hasGit() bool { return slices.Contains(p.req.Modules[gitModule], "run") }

// gitCmd runs a git command line in dir through the ws:git module and
// prints what it returns. git bisect run is a loop of calls: the module
// asks for its command to be run (the result's exec), the shell runs it
// with sh -c and calls again with its exit status, until the bisection
// ends.
func (p *runProgram) gitCmd(ctx context.Context, hc interp.HandlerContext, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	argv := make([]any, 0, len(args)-1)
	for _, a := range args[1:] {
		argv = append(argv, a)
	}
	req := map[string]any{"args": argv, "dir": hc.Dir}
	if isBisectRun(args[1:]) {
		req["exec"] = true
	}
	for {
		m, code := p.gitCall(req, stdout, stderr)
		ex, _ := m["exec"].(map[string]any)
		if ex == nil {
			return code
		}
		command, _ := ex["command"].(string)
		state, _ := ex["state"].(string)
		sub := hc
		if d, _ := ex["dir"].(string); d != "" {
			sub.Dir = d
		}
		status := p.runSource(ctx, sub, "sh", command, nil, stdin, stdout, stderr)
		if p.ctx.Err() != nil {
			return status
		}
		req = map[string]any{"args": argv, "dir": hc.Dir, "exec": true,
			"resume": map[string]any{"state": state, "exitCode": status}}
	}
}

// isBisectRun reports whether a git command line (without "git") is git
// bisect run, after git's global options.
func isBisectRun(args []string) bool {
	for len(args) > 0 && strings.HasPrefix(args[0], "-") {
		if (args[0] == "-C" || args[0] == "-c") && len(args) > 1 {
			args = args[1:]
		}
		args = args[1:]
	}
	return len(args) > 1 && args[0] == "bisect" && args[1] == "run"
}

// gitCall makes one call of the module's run function, prints its output,
// records the files it touched, and returns its result and exit status.
func (p *runProgram) gitCall(req map[string]any, stdout, stderr io.Writer) (map[string]any, int) {
	res, err := p.host.Call(p.ctx, &host.Call{Kind: host.KindModule, Op: gitModule + "/run", Args: []any{req}})
	if err != nil {
		var le *host.LimitError
		if errors.As(err, &le) {
			p.cancel(err)
		}
		msg := err.Error()
		var ce *host.CallError
		if errors.As(err, &ce) {
			msg = ce.Message
		}
		fmt.Fprintf(stderr, "git: %s\n", msg)
		return nil, 128
	}
	m, _ := res.(map[string]any)
	// Files git changed in the worktree belong to the run's Changes report.
	if list, ok := m["touched"].([]any); ok {
		for _, t := range list {
			if e, ok := t.(map[string]any); ok {
				if path, ok := e["path"].(string); ok {
					was, _ := e["was"].(string)
					p.fs.Changes().Touched(path, was)
				}
			}
		}
	}
	if s, _ := m["stdout"].(string); s != "" {
		io.WriteString(stdout, s)
	}
	if s, _ := m["stderr"].(string); s != "" {
		io.WriteString(stderr, s)
	}
	code, _ := m["exitCode"].(float64)
	return m, int(code)
}
