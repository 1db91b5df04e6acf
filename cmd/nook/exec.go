package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"github.com/nookdev/nook/telemetry"
	"io"
	"io/fs"
	"os"
	"path"
	"strings"
	"time"

	"github.com/nookdev/nook"
	"github.com/nookdev/nook/runtime"
	"github.com/nookdev/nook/runtime/js"
	"github.com/nookdev/nook/runtime/shell"
	"github.com/nookdev/nook/runtime/wasm"
	"github.com/nookdev/nook/tools"
	"github.com/nookdev/nook/tools/git"
)

// The run commands: exec and runs (runs.go).

// backends are the execution backends of every workspace the command line
// opens; the first is the default.
//
// JavaScript comes first, so `nook exec FILE` runs a module by default (a
// FILE ending in .sh runs on the shell); the exec tool offers models the
// shell first (see toolOptions).
func backends() []runtime.Backend {
	return []runtime.Backend{js.New(js.Options{}), shell.New(shell.Options{}), wasm.New(wasm.Options{Mount: "/"})}
}

// toolOptions are the options of every tool set the command line serves.
func toolOptions(rt *runtime.Runtime, readOnly bool) tools.Options {
	return tools.Options{ReadOnly: readOnly, Runtime: rt, Exec: tools.ExecOptions{DefaultBackend: "shell"}}
}

// observed is o with tel, if not nil, as its observer.
func observed(o tools.Options, tel *telemetry.Telemetry) tools.Options {
	if tel != nil {
		o.Observer = tel
	}
	return o
}

// openWorkspace opens the workspace at path (in memory when path is
// empty) as every command of the command line does: with the backends,
// the journals of finished replay-policy runs kept until retention prunes
// them (so that "nook replay ID --verify" can check them), and the host
// modules ws:tools (the tool set, as "nook tool" serves it) and ws:git;
// iso, when not nil, runs its programs (the process tier); tel, when not
// nil, observes its runs and the tool calls of its code.
func openWorkspace(ctx context.Context, path string, iso runtime.Isolator, tel *telemetry.Telemetry) (*nook.Workspace, error) {
	toolsMod, bindTools := tools.LateModule(toolOptions(nil, false))
	gitMod, bindGit := git.LateModule(git.Options{})
	ro := runtime.Options{KeepJournal: true}
	if tel != nil {
		ro.Observer = tel
	}
	opts := []nook.Option{
		nook.WithRuntime(ro),
		nook.WithBackends(backends()...),
		nook.WithModules(map[string]runtime.Module{tools.ModuleName: toolsMod, git.ModuleName: gitMod}),
		nook.WithModuleDocs(map[string]runtime.ModuleDoc{tools.ModuleName: tools.LateModuleDoc(toolOptions(nil, false)), git.ModuleName: git.ModuleDoc()}),
	}
	if iso != nil {
		opts = append(opts, nook.WithIsolation(iso))
	}
	var ws *nook.Workspace
	var err error
	if path == "" {
		ws, err = nook.OpenMemory(ctx, opts...)
	} else {
		ws, err = nook.Open(ctx, path, opts...)
	}
	if err != nil {
		return nil, err
	}
	bindTools(tools.New(ws.FS(), observed(toolOptions(ws.Runtime(), false), tel)))
	bindGit(ws.FS())
	return ws, nil
}

var cmdExec = &command{
	name: "exec", group: "Runs",
	synopsis: "[--backend ID] [--input JSON] [--timeout D] [--cwd DIR] [--root DIR] [--id ID] [--env K=V]... [--stdin] [--on-interrupt fail|restart|replay] [--checkpoint] FILE|-e SOURCE [-- ARGS...]",
	summary:  "run code in the workspace's sandbox",
	help: `Runs the program in the host file FILE ("-" reads it from standard input;
"ws:PATH" reads the workspace file PATH, e.g. ws:/workspace/main.ts), or
the source given with -e, on a backend of the workspace's runtime (default:
JavaScript, or the shell for a FILE ending in .sh; "nook runs backends"
lists them). The program sees the workspace
files under its backend's root (e.g. /workspace); --cwd is relative to it.
A WebAssembly guest sees that root as its /; with --root DIR it sees the
directory DIR under the root as its / instead (and starts there).
Its stdout and stderr are copied to nook's as they are produced, and nook
exits with the run's exit code: 124 when it timed out, 130 when it was
cancelled. Ctrl-C kills the run and waits for its end.

With --input (a JSON value, callable backends only) the program's default
export is called with it, and the value it returns is printed after the
output. --env sets the run's whole environment (nothing is inherited from
nook's); --stdin passes nook's standard input to the run. With --json nothing
is streamed: the result is one JSON document {id, backend, status, exitCode,
stdout, stderr, value, stdoutPath, stderrPath, stdoutBytes, stderrBytes,
durationMs, error, changes} (changes: the workspace files the run created,
updated and deleted), and the exit status is still the run's.

Every run is recorded in the workspace: "nook runs ls" lists them, "nook runs
tail ID" re-attaches to one from another process.

--on-interrupt decides what happens when the process running the run dies
(a crash, a kill, a restart): fail (the default) fails the run; restart runs
it again from the beginning; replay runs it again against its journal (calls
it made are answered from the record, output is not printed twice) and goes
on live. "nook runs recover" resumes interrupted runs, as does any command
that re-attaches to one.`,
	run: runExec,
}

// backendFor picks the backend of a program file by its extension when the
// runtime has one of that kind: .sh runs on "shell", .wasm on "wasm";
// anything else on the default backend ("").
func backendFor(rt *runtime.Runtime, name string) string {
	want := ""
	switch {
	case strings.HasSuffix(name, ".sh"), strings.HasSuffix(name, ".bash"):
		want = "shell"
	case strings.HasSuffix(name, ".wasm"):
		want = "wasm"
	}
	for _, in := range rt.Backends() {
		if want != "" && in.ID == want {
			return want
		}
	}
	return ""
}

// exitStatus ends nook with a given status and no message: the exit code
// of a run.
type exitStatus struct{ code int }

func (e *exitStatus) Error() string { return fmt.Sprintf("exit status %d", e.code) }

// runExitCode is the process exit status for a run's exit code.
func runExitCode(code int) int {
	if code < 0 || code > 255 {
		return 1
	}
	return code
}

func runExec(a *app, fl *flag.FlagSet, args []string) error {
	backend := fl.String("backend", "", "run on the backend `ID` (default: the first)")
	input := fl.String("input", "", "pass the JSON value `JSON` to the program (callable backends)")
	timeout := fl.Duration("timeout", 0, "stop the run after `D`, e.g. 30s (default: the backend's)")
	cwd := fl.String("cwd", "", "working directory `DIR`, relative to the backend's root")
	root := fl.String("root", "", "wasm: show the workspace directory `DIR` (relative to the backend's root) as the guest's /")
	id := fl.String("id", "", "name the run `ID` (default: a new ULID)")
	source := fl.String("e", "", "run `SOURCE` instead of a file")
	stdin := fl.Bool("stdin", false, "pass standard input to the run")
	onInterrupt := fl.String("on-interrupt", "", "what happens if the process dies mid-run: `fail`, restart or replay (default fail)")
	undoable := fl.Bool("checkpoint", false, `take checkpoints before and after the run, so that "nook undo ID" can revert it`)
	var env stringList
	fl.Var(&env, "env", "set the environment variable `K=V` (repeatable)")
	// Arguments after "--" are the program's.
	var progArgs []string
	for i, arg := range args {
		if arg == "--" {
			args, progArgs = args[:i], args[i+1:]
			break
		}
	}
	if err := a.parse(fl, args, 0, 1); err != nil {
		return err
	}
	eGiven := false
	fl.Visit(func(f *flag.Flag) { eGiven = eGiven || f.Name == "e" })
	switch {
	case eGiven && fl.NArg() == 1:
		return a.usagef("exec: give a FILE or -e SOURCE, not both")
	case !eGiven && fl.NArg() == 0:
		return a.usagef("exec: missing FILE (or -e SOURCE)")
	case *stdin && fl.Arg(0) == "-":
		return a.usagef("exec: --stdin cannot be used when the program is read from standard input")
	case *timeout < 0:
		return a.usagef("exec: --timeout must not be negative")
	}
	o := runtime.ExecOptions{Backend: *backend, Cwd: *cwd, ID: *id, Timeout: *timeout, Args: progArgs,
		OnInterrupt: runtime.Policy(*onInterrupt), Checkpoint: *undoable}
	if *input != "" {
		if !json.Valid([]byte(*input)) {
			return a.usagef("exec: --input is not valid JSON: %s", *input)
		}
		o.Input = json.RawMessage(*input)
	}
	for _, kv := range env {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return a.usagef("exec: --env %q: want NAME=VALUE", kv)
		}
		if o.Env == nil {
			o.Env = map[string]string{}
		}
		o.Env[k] = v
	}
	src := *source
	if !eGiven {
		var b []byte
		var err error
		if name := fl.Arg(0); name == "-" {
			b, err = io.ReadAll(io.LimitReader(a.stdin, runtime.DefaultMaxSourceBytes+1))
		} else if p, ok := strings.CutPrefix(name, "ws:"); ok {
			o.Entry = path.Clean(wsPath(p))
			b, err = a.readWorkspaceSource(o.Entry)
		} else {
			b, err = os.ReadFile(name)
			// A WebAssembly module may also be a workspace file: the
			// wasm backend reads a source that is a path itself.
			if errors.Is(err, fs.ErrNotExist) && *backend == "wasm" {
				b, err = []byte(name), nil
			}
		}
		if err != nil {
			return err
		}
		src = string(b)
	}
	if *stdin {
		b, err := io.ReadAll(io.LimitReader(a.stdin, runtime.DefaultMaxStdinBytes+1))
		if err != nil {
			return err
		}
		o.Stdin = b
	}
	if _, err := a.workspace(); err != nil {
		return err
	}
	rt := a.ws.Runtime()
	if o.Backend == "" && !eGiven {
		o.Backend = backendFor(rt, fl.Arg(0))
	}
	if *root != "" {
		if o.Backend != "wasm" {
			return a.usagef("exec: --root is for the wasm backend (--backend wasm)")
		}
		if o.Env == nil {
			o.Env = map[string]string{}
		}
		o.Env[wasm.RootEnv] = *root
	}
	h, err := rt.Exec(a.ctx, src, o)
	if err != nil {
		return err
	}
	if a.json {
		res, err := a.waitRun(rt, h)
		if err != nil {
			return err
		}
		if err := a.writeJSON(runResultJSON(res)); err != nil {
			return err
		}
		return exitFor(res.ExitCode)
	}
	exit, err := a.follow(rt, h, true, true)
	if err != nil {
		return err
	}
	if res, err := h.Result(a.ctx); err == nil && res.OutputError != "" {
		fmt.Fprintf(a.stderr, "nook: warning: %s\n", res.OutputError)
	}
	if len(exit.Value) > 0 {
		a.printf("%s\n", exit.Value)
	}
	return exitFor(exit.ExitCode)
}

// readWorkspaceSource reads a program from the workspace file p, up to one
// byte more than a source may have (the runtime refuses a longer one).
func (a *app) readWorkspaceSource(p string) ([]byte, error) {
	f, err := a.workspace()
	if err != nil {
		return nil, err
	}
	r, err := f.NewReader(a.ctx, p)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return io.ReadAll(io.LimitReader(r, runtime.DefaultMaxSourceBytes+1))
}

func exitFor(code int) error {
	if code == 0 {
		return nil
	}
	return &exitStatus{runExitCode(code)}
}

// stopWait bounds how long nook waits for a run it killed to end.
const stopWait = 10 * time.Second

// stopOnInterrupt returns the context to keep following a run with after
// ctx ended: it kills the run (when kill is set) and allows stopWait for its
// end.
func (a *app) stopOnInterrupt(rt *runtime.Runtime, id string) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(a.ctx), stopWait)
	if err := rt.KillExec(ctx, id); err != nil {
		a.warnf("cannot kill run %s: %v", id, err)
	}
	return ctx, cancel
}

// waitRun waits for a run's end; an interrupt kills it first.
func (a *app) waitRun(rt *runtime.Runtime, h *runtime.Handle) (*runtime.Result, error) {
	ctx := a.ctx
	if err := h.Wait(ctx); err != nil {
		if a.ctx.Err() == nil {
			return nil, err
		}
		var cancel context.CancelFunc
		ctx, cancel = a.stopOnInterrupt(rt, h.ID)
		defer cancel()
		if err := h.Wait(ctx); err != nil {
			return nil, err
		}
	}
	return h.Result(ctx)
}

// follow copies a run's output events to stdout and stderr until its exit
// event, which it returns. With kill, an interrupt kills the run and the
// output goes on until its end; without, an interrupt stops following. When
// the run's output outgrew its record, the rest is copied from the files
// that hold it in full, once the run ended (whole: the handle started at
// the first event, so what was printed is known; otherwise the files are
// only named).
func (a *app) follow(rt *runtime.Runtime, h *runtime.Handle, kill, whole bool) (runtime.Event, error) {
	ctx := a.ctx
	var printed [3]int64
	var paths map[string]string
	var errTail []byte // the end of what was printed on stderr
	for {
		ev, err := h.Next(ctx)
		if errors.Is(err, io.EOF) {
			return runtime.Event{}, fmt.Errorf("run %s ended without an exit event", h.ID)
		}
		if err != nil {
			if !kill || a.ctx.Err() == nil || ctx != a.ctx {
				return runtime.Event{}, err
			}
			var cancel context.CancelFunc
			ctx, cancel = a.stopOnInterrupt(rt, h.ID)
			defer cancel()
			continue
		}
		switch ev.Kind {
		case runtime.EventStdout:
			a.stdout.Write(ev.Data)
			printed[runtime.Stdout] += int64(len(ev.Data))
		case runtime.EventStderr:
			a.stderr.Write(ev.Data)
			printed[runtime.Stderr] += int64(len(ev.Data))
			errTail = append(errTail, ev.Data...)
			errTail = errTail[max(0, len(errTail)-maxErrTail):]
		case runtime.EventTruncated:
			paths = ev.Paths
		case runtime.EventExit:
			if paths != nil {
				a.copyRest(ctx, paths, printed, whole)
			}
			a.reportRunError(ctx, h, ev, errTail)
			return ev, nil
		}
	}
}

// maxErrTail is how much of a run's stderr output follow keeps to tell
// whether the run's error was printed.
const maxErrTail = 4 << 10

// reportRunError prints, on stderr, the error a run failed with when its
// output did not carry it: a run stopped by a limit on its output (such as
// MaxOutputBytes) cannot print why, since its output is what was stopped.
func (a *app) reportRunError(ctx context.Context, h *runtime.Handle, ev runtime.Event, errTail []byte) {
	if ev.Status == runtime.StatusCompleted {
		return
	}
	res, err := h.Result(ctx)
	if err != nil || res.Error == "" || bytes.Contains(errTail, []byte(res.Error)) {
		return
	}
	a.warnf("%s", res.Error)
}

// copyRest prints what a run wrote past its stored output, from the files
// that hold each stream in full. Without known offsets it only names them.
func (a *app) copyRest(ctx context.Context, paths map[string]string, printed [3]int64, known bool) {
	for _, st := range []runtime.Stream{runtime.Stdout, runtime.Stderr} {
		p := paths[st.String()]
		if p == "" {
			continue
		}
		w := a.stdout
		if st == runtime.Stderr {
			w = a.stderr
		}
		if !known {
			a.warnf("the rest of the run's %s is in the workspace file %s", st, p)
			continue
		}
		r, err := a.ws.FS().NewReader(ctx, p)
		if err != nil {
			a.warnf("cannot read the run's full %s: %v", st, err)
			continue
		}
		if _, err := r.Seek(printed[st], io.SeekStart); err == nil {
			io.Copy(w, r)
		}
		r.Close()
	}
}

// runJSON is a run's result in --json output: the exec tool's fields, with
// whole output streams.
type runJSON struct {
	ID          string          `json:"id"`
	Backend     string          `json:"backend"`
	Status      runtime.Status  `json:"status"`
	ExitCode    int             `json:"exitCode"`
	Stdout      string          `json:"stdout"`
	Stderr      string          `json:"stderr"`
	Value       json.RawMessage `json:"value,omitempty"`
	Truncated   bool            `json:"truncated,omitempty"`
	StdoutPath  string          `json:"stdoutPath,omitempty"`
	StderrPath  string          `json:"stderrPath,omitempty"`
	StdoutBytes int64           `json:"stdoutBytes"`
	StderrBytes int64           `json:"stderrBytes"`
	Created     string          `json:"created"`
	DurationMs  int64           `json:"durationMs"`
	Error       string          `json:"error,omitempty"`
	OutputError string          `json:"outputError,omitempty"`
	// Changes lists the workspace files the run changed, when its
	// backend reports them.
	Changes *runtime.Changes `json:"changes,omitempty"`
}

func runResultJSON(r *runtime.Result) runJSON {
	return runJSON{ID: r.ID, Backend: r.Backend, Status: r.Status, ExitCode: r.ExitCode,
		Stdout: string(r.Stdout), Stderr: string(r.Stderr), Value: r.Value, Truncated: r.Truncated,
		StdoutPath: r.StdoutPath, StderrPath: r.StderrPath, StdoutBytes: r.StdoutBytes, StderrBytes: r.StderrBytes,
		Created: r.Created.Format(time.RFC3339Nano), DurationMs: r.Finished.Sub(r.Created).Milliseconds(), Error: r.Error,
		OutputError: r.OutputError, Changes: r.Changes}
}
