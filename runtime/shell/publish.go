package shell

import (
	"errors"
	"fmt"
	"io"
	"path"
	"slices"
	"strconv"

	"github.com/nookdev/nook/runtime/host"
)

// toolsModule is the host module of the model-facing tools (package
// tools). When it offers publish (the embedder configured a Publisher),
// the shell has a publish command, as Computer's shell has "assets
// publish": "publish [--expires MS] FILE" prints the file's link.
const toolsModule = "ws:tools"

// hasPublish reports whether the run can publish files.
func (p *runProgram) hasPublish() bool {
	return slices.Contains(p.req.Modules[toolsModule], "publish")
}

const publishUsage = "usage: publish [--expires MS] FILE"

// publishCmd shares a file through ws:tools' publish and prints the link:
// exit 1 with the tool's message when it refuses, 2 for a bad command line.
func (p *runProgram) publishCmd(dir string, args []string, stdout, stderr io.Writer) int {
	in := map[string]any{}
	args = args[1:]
flags:
	for len(args) > 0 && len(args[0]) > 1 && args[0][0] == '-' {
		switch a := args[0]; a {
		case "--":
			args = args[1:]
			break flags
		case "--expires", "-e":
			if len(args) < 2 {
				fmt.Fprintf(stderr, "publish: %s needs a value in milliseconds\n%s\n", a, publishUsage)
				return 2
			}
			ms, err := strconv.ParseInt(args[1], 10, 64)
			if err != nil || ms < 1 {
				fmt.Fprintf(stderr, "publish: %s %q: not a positive number of milliseconds\n", a, args[1])
				return 2
			}
			in["expiresAfterMs"] = ms
			args = args[2:]
		case "-h", "--help":
			fmt.Fprintln(stdout, publishUsage)
			return 0
		default:
			fmt.Fprintf(stderr, "publish: unknown option %s\n%s\n", a, publishUsage)
			return 2
		}
	}
	if len(args) != 1 {
		fmt.Fprintf(stderr, "publish: one FILE, got %d\n%s\n", len(args), publishUsage)
		return 2
	}
	file := args[0]
	if !path.IsAbs(file) {
		file = path.Join(dir, file)
	}
	in["path"] = file
	res, err := p.host.Call(p.ctx, &host.Call{Kind: host.KindModule, Op: toolsModule + "/publish", Args: []any{in}})
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
		fmt.Fprintf(stderr, "publish: %s\n", msg)
		return 1
	}
	m, _ := res.(map[string]any)
	url, _ := m["url"].(string)
	fmt.Fprintln(stdout, url)
	return 0
}
