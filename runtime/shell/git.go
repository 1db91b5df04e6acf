package shell

import (
	"errors"
	"fmt"
	"io"
	"slices"

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
// prints what it returns.
func (p *runProgram) gitCmd(dir string, args []string, stdout, stderr io.Writer) int {
	argv := make([]any, 0, len(args)-1)
	for _, a := range args[1:] {
		argv = append(argv, a)
	}
	res, err := p.host.Call(p.ctx, &host.Call{Kind: host.KindModule, Op: gitModule + "/run",
		Args: []any{map[string]any{"args": argv, "dir": dir}}})
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
		return 128
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
	return int(code)
}
