package shell

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/nookdev/nook/internal/mvsh/expand"
	"github.com/nookdev/nook/internal/mvsh/interp"
	"github.com/nookdev/nook/internal/mvsh/syntax"

	"github.com/nookdev/nook/internal/memwatch"
	rthost "github.com/nookdev/nook/runtime/host"
	"github.com/nookdev/nook/runtime/shell/internal/hostfs"
)

// program is a prepared script.
type program struct {
	b     *Backend
	req   *rthost.Request
	file  *syntax.File
	funcs map[string]bool
}

// runProgram is the state of one attempt of a run.
type runProgram struct {
	*program
	ctx       context.Context
	cancel    context.CancelCauseFunc
	host      rthost.Host
	fs        *hostfs.FS
	limits    rthost.Limits
	mem       *memwatch.Run // the run's registration with the memory watchdog
	ticks     atomic.Int64
	umask     atomic.Int32 // the umask builtin's mask (umask.go)
	rlimits   rlimits      // the ulimit builtin's table (ulimit.go)
	getoptsSt getoptsState // where getopts is in a cluster of flags (getopts.go)
	depth     int          // MaxFunctionDepth, clamped to MaxStackDepth
	procs     procs
	// depthFrames is the stack length (in frames) below which checkDepth
	// does not count calls.
	depthFrames atomic.Int64
}

// defaultPath is the PATH scripts see; it names no host directory the
// shell ever looks in (commands are built in).
const defaultPath = "/usr/local/bin:/usr/bin:/bin"

// hostWriter writes a standard stream through the host; when the host
// refuses (MaxOutputBytes), the run stops.
type hostWriter struct {
	p      *runProgram
	stream rthost.Stream
}

func (w hostWriter) Write(b []byte) (int, error) {
	if err := w.p.host.Write(w.stream, b); err != nil {
		w.p.cancel(err)
		return 0, err
	}
	return len(b), nil
}

// Run executes the script.
func (pr *program) Run(ctx context.Context, host rthost.Host) rthost.Exit {
	lim := pr.req.Limits.WithDefaults()
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	// The memory watchdog charges the run with the heap's growth while it
	// is not waiting for its host, and stops it past its tree's budget.
	mem := memwatch.Watch(memwatch.Options{Tree: pr.req.Tree, Limit: lim.MaxMemoryBytes,
		Stop: func(le *rthost.LimitError) { cancel(le) }})
	defer mem.Done()
	p := &runProgram{program: pr, ctx: ctx, cancel: cancel, limits: lim, mem: mem}
	host = stopHost{memwatch.Host(host, mem), p}
	p.host = host
	p.fs = hostfs.New(host, pr.b.opts.Root, lim.MaxAllocBytes)
	p.depth = min(pr.b.opts.MaxFunctionDepth, lim.MaxStackDepth)
	p.procs.pipes = map[*os.File]struct{}{}
	p.umask.Store(defaultUmask)
	p.depthFrames.Store(int64(p.depth * framesPerCall))

	cwd := pr.req.Cwd
	if cwd == "" {
		cwd = pr.b.opts.Root
	}
	r, err := p.newRunner(cwd, bytes.NewReader(pr.req.Stdin), hostWriter{p, rthost.Stdout}, hostWriter{p, rthost.Stderr},
		append([]string{"--"}, pr.req.Args...))
	if err != nil {
		return p.exit(1, err)
	}
	var seed [4]byte
	host.Random(seed[:])
	prelude := fmt.Sprintf("%s=1 %s=0 RANDOM=%d" /* one statement: internalCommand */, pidVar, ppidVar, uint32(seed[0])|uint32(seed[1])<<8|uint32(seed[2])<<16)
	pf, _ := syntax.NewParser().Parse(strings.NewReader(prelude), "")
	if err := r.Run(ctx, pf); err != nil {
		return p.exit(1, err)
	}
	err = p.runGuarded(ctx, r, pr.file)
	code := 0
	if err != nil {
		if st, ok := interp.IsExitStatus(err); ok {
			code = int(st)
		} else {
			code = 1
		}
	}
	if cause := context.Cause(ctx); cause != nil && ctx.Err() != nil {
		var le *rthost.LimitError
		if errors.As(cause, &le) {
			if le.Limit != "MaxOutputBytes" {
				host.Write(rthost.Stderr, []byte("shell: "+le.Error()+"\n"))
			}
			return p.exitWith(1, le)
		}
		var pe *PanicError
		if errors.As(cause, &pe) {
			host.Write(rthost.Stderr, []byte("shell: "+pe.Error()+"\n"))
			return p.exitWith(1, pe)
		}
		// cancelled or timed out: the runtime decides what it was.
		return rthost.Exit{Code: 1, Err: cause}
	}
	if err != nil {
		if _, ok := interp.IsExitStatus(err); !ok {
			host.Write(rthost.Stderr, []byte("shell: "+err.Error()+"\n"))
			return p.exitWith(code, err)
		}
	}
	return p.exitWith(code, nil)
}

func (p *runProgram) exit(code int, err error) rthost.Exit {
	return rthost.Exit{Code: code, Err: err}
}

// exitWith ends the run with the report of its changes. The report is
// made with a fresh context when the run's was cancelled by a limit, so it
// is still complete.
func (p *runProgram) exitWith(code int, err error) rthost.Exit {
	rep := p.fs.Changes().Report(context.WithoutCancel(p.ctx))
	return rthost.Exit{Code: code, Err: err, Changes: &rthost.Changes{Created: rep.Created,
		Updated: rep.Updated, Deleted: rep.Deleted, DirsCreated: rep.DirsCreated, DirsDeleted: rep.DirsDeleted}}
}

// dirOption sets the runner's directory without the host lookups of
// interp.Dir (filepath.Abs and os.Stat).
func dirOption(dir string) interp.RunnerOption {
	return func(r *interp.Runner) error {
		r.Dir = dir
		return nil
	}
}

// environ is exactly the request's environment, plus HOME, PWD, PATH and
// the identity variables when the request does not set them.
func (p *runProgram) environ(cwd string) expand.Environ {
	env := map[string]string{
		"HOME": p.b.opts.Root, "PATH": defaultPath, "SHELL": "/bin/bash", "USER": "nook", "LOGNAME": "nook",
		"UID": "1000", "EUID": "1000", "GID": "1000", "HOSTNAME": "nook", "TMPDIR": p.b.opts.Root + "/.tmp",
		"LANG": "C.UTF-8",
	}
	for k, v := range p.req.Env {
		env[k] = v
	}
	env["PWD"] = cwd
	keys := make([]string, 0, len(env))
	for k := range env {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	list := make([]string, 0, len(keys))
	for _, k := range keys {
		list = append(list, k+"="+env[k])
	}
	return expand.ListEnviron(list...)
}

// newRunner builds an interpreter whose every door is one of ours.
func (p *runProgram) newRunner(cwd string, stdin io.Reader, stdout, stderr io.Writer, params []string) (*interp.Runner, error) {
	return interp.New(append([]interp.RunnerOption{
		interp.Env(p.environ(cwd)),
		dirOption(cwd),
		interp.StdIO(stdin, stdout, stderr),
		interp.Params(params...),
	}, p.doors()...)...)
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
