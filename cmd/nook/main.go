// Command nook is the command line of a nook workspace: one SQLite database
// file holding a virtual filesystem for AI agents.
//
// Usage:
//
//	nook [--db FILE] [--json] COMMAND [flags] [args]
//
// Flags may come before or after the arguments, the global ones too; "--"
// ends them.
//
// Run "nook help" for the list of commands and "nook help COMMAND" (or
// "nook COMMAND -h") for one command. "nook demo" imports a small sample tree
// into the default workspace and searches it.
//
// Exit status: 0 on success, 1 when an operation fails (the message names
// the POSIX code, e.g. "nook: no such path: /x (ENOENT)") or grep matches
// nothing, 2 on a usage error; "nook exec" and "nook runs tail" exit with
// the run's exit code.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"github.com/nookdev/nook/telemetry"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/nookdev/nook"
	"github.com/nookdev/nook/runtime"
	"github.com/nookdev/nook/vfs"
)

// defaultDB is the workspace used when neither --db nor $NOOK_DB is given.
const defaultDB = ".nook/workspace.db"

func main() {
	if code, ok := serveWorker(os.Args[1:]); ok {
		os.Exit(code)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// app is one invocation of the command line.
type app struct {
	ctx    context.Context
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
	dbPath string
	json   bool
	cmd    *command
	ws     *nook.Workspace // opened on first use

	// reads: this invocation only looks at the workspace (a read-only
	// tool, say), so it must exist already (see command.reads).
	reads bool

	// checkpointTool gives the tool set the checkpoint tool and undoable
	// calls (--checkpoint-tool of mcp, serve and tool).
	checkpointTool bool

	isolation string    // the tier of runs: "process" or "in-process"
	pool      *lazyPool // the process tier, once a workspace has used it

	// tel traces and counts the workspace's runs and tool calls ("nook
	// serve" sets it before opening the workspace); nil: nothing.
	tel *telemetry.Telemetry
}

// run executes one command line and returns the process exit status.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	a := &app{ctx: ctx, stdin: stdin, stdout: stdout, stderr: stderr}
	g := flag.NewFlagSet("nook", flag.ContinueOnError)
	g.SetOutput(io.Discard)
	def := os.Getenv("NOOK_DB")
	if def == "" {
		def = defaultDB
	}
	g.StringVar(&a.dbPath, "db", def, dbUsage)
	g.BoolVar(&a.json, "json", false, jsonUsage)
	g.StringVar(&a.isolation, "isolation", tierProcess, isolationUsage)
	if err := g.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			printMainUsage(stdout, g)
			return 0
		}
		fmt.Fprintf(stderr, "nook: %v\n", err)
		fmt.Fprintf(stderr, "usage: nook [--db FILE] [--json] COMMAND [flags] [args]\nRun 'nook help' for the list of commands.\n")
		return 2
	}
	if a.isolation != tierProcess && a.isolation != tierInProcess {
		fmt.Fprintf(stderr, "nook: --isolation %q: want %s or %s\n", a.isolation, tierProcess, tierInProcess)
		return 2
	}
	rest := g.Args()
	if len(rest) == 0 {
		printMainUsage(stderr, g)
		return 2
	}
	cmd := lookup(rest[0])
	if cmd == nil {
		fmt.Fprintf(stderr, "nook: unknown command %q\nRun 'nook help' for the list of commands.\n", rest[0])
		return 2
	}
	a.cmd = cmd
	var err error
	if cmd.name == "help" {
		err = cmdHelp(a, g, rest[1:])
	} else {
		fl := a.flagSet(cmd)
		err = cmd.run(a, fl, rest[1:])
	}
	if a.ws != nil {
		if cerr := a.ws.Close(); err == nil && cerr != nil {
			err = cerr
		}
	}
	if a.pool != nil {
		a.pool.close()
	}
	return a.report(err)
}

// report prints err (if any) and returns the exit status for it.
func (a *app) report(err error) int {
	if err == nil || errors.Is(err, errHelpShown) {
		return 0
	}
	var es *exitStatus
	if errors.As(err, &es) {
		// A run's exit code: the run printed its own output.
		return es.code
	}
	var ue *usageError
	if errors.As(err, &ue) {
		fmt.Fprintf(a.stderr, "nook: %s\n", ue.msg)
		if ue.cmd != nil {
			fmt.Fprintf(a.stderr, "usage: nook %s %s\nRun 'nook help %s' for details.\n", ue.cmd.name, ue.cmd.synopsis, ue.cmd.name)
		}
		return 2
	}
	if errors.Is(err, context.Canceled) {
		fmt.Fprintln(a.stderr, "nook: interrupted")
		return 130
	}
	if a.json {
		// Machine output: the error as one JSON document on stderr.
		doc := map[string]string{"error": err.Error()}
		var pe *vfs.PathError
		var re *runtime.Error
		if code := errorCode(err); code != "" {
			doc["code"] = code
		}
		if errors.As(err, &re) {
			doc["op"] = re.Op
			if re.ID != "" {
				doc["id"] = re.ID
			}
		} else if errors.As(err, &pe) {
			doc["op"], doc["path"] = pe.Op, pe.Path
		}
		b, _ := json.Marshal(doc)
		fmt.Fprintf(a.stderr, "%s\n", b)
		return 1
	}
	fmt.Fprintf(a.stderr, "nook: %s\n", errorText(err))
	return 1
}

// errorText renders an error as "<message> (<CODE>)" when it has a code (a
// vfs or runtime error, or a host error carrying an errno), and as its
// plain message otherwise.
func errorText(err error) string {
	if code := errorCode(err); code != "" {
		return fmt.Sprintf("%s (%s)", err.Error(), code)
	}
	return err.Error()
}

// errorCode is the POSIX code of err, or "" when it has none.
func errorCode(err error) string {
	var re *runtime.Error
	if errors.As(err, &re) {
		return string(re.Code)
	}
	var pe *vfs.PathError
	var en vfs.Errno
	if errors.As(err, &pe) || errors.As(err, &en) {
		return string(vfs.Code(err))
	}
	var se syscall.Errno
	if errors.As(err, &se) {
		return hostErrnoName(se)
	}
	return ""
}

// hostErrnoName is the name of a host errno ("ENOENT"), or "" for one
// that has none here.
func hostErrnoName(e syscall.Errno) string {
	switch e {
	case syscall.ENOENT:
		return "ENOENT"
	case syscall.EEXIST:
		return "EEXIST"
	case syscall.ENOTDIR:
		return "ENOTDIR"
	case syscall.EISDIR:
		return "EISDIR"
	case syscall.ENOTEMPTY:
		return "ENOTEMPTY"
	case syscall.EACCES:
		return "EACCES"
	case syscall.EPERM:
		return "EPERM"
	case syscall.EINVAL:
		return "EINVAL"
	case syscall.ELOOP:
		return "ELOOP"
	case syscall.ENAMETOOLONG:
		return "ENAMETOOLONG"
	case syscall.ENOSPC:
		return "ENOSPC"
	case syscall.EROFS:
		return "EROFS"
	case syscall.EIO:
		return "EIO"
	case syscall.EBUSY:
		return "EBUSY"
	case syscall.EADDRINUSE:
		return "EADDRINUSE"
	case syscall.EADDRNOTAVAIL:
		return "EADDRNOTAVAIL"
	case syscall.ECONNREFUSED:
		return "ECONNREFUSED"
	}
	return ""
}

// workspace opens the workspace on first use.
func (a *app) workspace() (*vfs.FS, error) {
	if a.ws == nil {
		if a.reads || a.cmd != nil && a.cmd.reads {
			if err := workspaceExists(a.dbPath); err != nil {
				return nil, err
			}
		}
		ws, err := openWorkspace(a.ctx, a.dbPath, a.isolator(), a.tel)
		if err != nil {
			return nil, err
		}
		a.ws = ws
	}
	return a.ws.FS(), nil
}

// workspaceExists fails, with ENOENT, when there is no workspace file
// at path: a command that only reads says so rather than create one.
func workspaceExists(path string) error {
	if path == "" {
		return nil // in memory
	}
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return &vfs.PathError{Op: "open", Path: path, Code: vfs.ENOENT,
			Text: "no such workspace"}
	}
	return nil
}

// wsPath turns a command-line path into a workspace path: a relative path is
// taken from the root. vfs canonicalises the result.
func wsPath(p string) string {
	if strings.HasPrefix(p, "/") {
		return p
	}
	return "/" + p
}

// emit writes v as one JSON document (in --json mode) or calls text.
func (a *app) emit(v any, text func() error) error {
	if a.json {
		return a.writeJSON(v)
	}
	if text == nil {
		return nil
	}
	return text()
}

func (a *app) writeJSON(v any) error {
	enc := json.NewEncoder(a.stdout)
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

func (a *app) printf(format string, args ...any) {
	fmt.Fprintf(a.stdout, format, args...)
}

// warnf prints a non-fatal message on stderr.
func (a *app) warnf(format string, args ...any) {
	fmt.Fprintf(a.stderr, "nook: "+format+"\n", args...)
}
