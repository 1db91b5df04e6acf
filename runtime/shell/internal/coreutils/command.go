// Package coreutils implements the shell's commands in Go over the run's
// host: every file access is a hostfs call, so it is confined to the
// workspace, journaled and replayable. Nothing here reaches the host's own
// filesystem, processes or network.
package coreutils

import (
	"context"
	"fmt"
	"io"
	"path"
	"sort"
	"strings"
	"time"

	"github.com/nookdev/nook/runtime/host"
	"github.com/nookdev/nook/runtime/shell/internal/hostfs"
)

// Env is what a command runs with.
type Env struct {
	Ctx     context.Context
	FS      *hostfs.FS
	Dir     string              // working directory (absolute)
	Getenv  func(string) string // the shell's variables
	Environ []string            // exported variables, "K=V"
	Stdin   io.Reader
	Stdout  io.Writer
	Stderr  io.Writer
	Now     func() time.Time
	Random  func([]byte)
	// Exec runs another command of the table (xargs, find -exec) with the
	// given standard streams and returns its exit status.
	Exec func(args []string, stdin io.Reader, stdout, stderr io.Writer) int
	// ExecContext is Exec under ctx (a child of Ctx): cancelling it stops
	// the command and everything it started (timeout).
	ExecContext func(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int
	// MaxBytes bounds what one command holds in memory at once (a file
	// read whole, a sort buffer).
	MaxBytes int64
	// Tick counts one loop iteration of a command's own language (awk)
	// against the run's MaxLoopIterations; an error stops the command.
	Tick func() error
	// Stop ends the whole run with err (a limit the command reached).
	Stop func(err error)
	// MaxDepth bounds nested function calls of a command's language.
	MaxDepth int
	// Limits are the run's limits (defaults applied): what a nested run
	// (node, wasm) or sqlite3 may read and keep.
	Limits host.Limits
	// ReadOnly reports that the workspace is read-only for this run.
	ReadOnly bool
	// VirtualTime reports that the run's waits are virtual
	// (runtime.Request.VirtualTime): sleep returns at once.
	VirtualTime bool

	name string
}

// Command runs with args (args[0] is its name) and returns its exit status.
type Command struct {
	Run  func(e *Env, args []string) int
	Help string // usage line(s) shown by --help
}

var table = map[string]*Command{}

func register(name, help string, run func(e *Env, args []string) int) {
	table[name] = &Command{Run: run, Help: help}
}

// Lookup returns the command called name.
func Lookup(name string) (*Command, bool) {
	c, ok := table[name]
	return c, ok
}

// Names returns the names of every command, sorted.
func Names() []string {
	out := make([]string, 0, len(table))
	for n := range table {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// Run runs the command args[0] with e; unknown commands fail with 127.
func Run(e *Env, args []string) int {
	c, ok := table[args[0]]
	if !ok {
		if hint, ok := missingHints[args[0]]; ok {
			fmt.Fprintf(e.Stderr, "%s: command not found: %s\n", args[0], hint)
			return 127
		}
		fmt.Fprintf(e.Stderr, "%s: command not found\n", args[0])
		return 127
	}
	if len(args) == 2 && args[1] == "--help" {
		fmt.Fprintf(e.Stdout, "Usage: %s\n", c.Help)
		return 0
	}
	e2 := *e
	e2.name = args[0]
	return e2.run(c, args)
}

// run runs c with its standard streams guarded: the first failed write
// ends it (see guard.go), and what it left in a buffered file is flushed
// before it returns, a failure being its own.
func (e *Env) run(c *Command, args []string) (status int) {
	under := e.Stdout
	own := e.guardStreams()
	defer func() {
		if v := recover(); v != nil {
			ws, ok := v.(writeStop)
			if !ok {
				if _, named := v.(*Panic); !named {
					v = &Panic{Command: e.name, Value: v}
				}
				panic(v)
			}
			// Also a stream shared with the command that started this
			// one (xargs, find -exec): that one sees the status, as it
			// would see its child die of SIGPIPE.
			status = e.writeFailed(ws)
		}
	}()
	status = c.Run(e, args)
	if own != nil {
		if f, ok := under.(flusher); ok {
			if err := f.Flush(); err != nil {
				return e.writeFailed(writeStop{own, err})
			}
		}
	}
	return status
}

type environKey struct{}

// WithEnviron returns ctx carrying vars ("K=V") as the whole environment
// of the command started under it (env VAR=x CMD, env -i CMD); nil vars
// clears an override (a new interpreter has its own variables).
func WithEnviron(ctx context.Context, vars []string) context.Context {
	if vars == nil {
		return context.WithValue(ctx, environKey{}, (*[]string)(nil))
	}
	return context.WithValue(ctx, environKey{}, &vars)
}

// EnvironFrom returns the environment WithEnviron set, if any.
func EnvironFrom(ctx context.Context) ([]string, bool) {
	v, _ := ctx.Value(environKey{}).(*[]string)
	if v == nil {
		return nil, false
	}
	return *v, true
}

// missingHints say what to use instead of the programs models reach for
// that the sandbox does not have (they stay "not found" for command -v).
var missingHints = func() map[string]string {
	py := "there is no Python in this sandbox; write the program in JavaScript or TypeScript and run it with node " +
		"(node x.js, node -e CODE, tsx x.ts: the js backend, with node:fs over the same files), " +
		"or compile it to WebAssembly (WASI) and run it with wasm x.wasm"
	js := "there is no npm registry in this sandbox, so packages cannot be installed; node, tsx and npx tsx run " +
		"JavaScript and TypeScript on the js backend, whose built-in modules are node:fs, node:path and the rest of its description"
	m := map[string]string{}
	for _, n := range []string{"python", "python3", "pip", "pip3", "pipx", "uv", "poetry"} {
		m[n] = py
	}
	for _, n := range []string{"npm", "yarn", "pnpm", "deno", "bun", "tsc"} {
		m[n] = js
	}
	for _, n := range []string{"apt", "apt-get", "brew", "yum", "dnf", "apk", "sudo", "su"} {
		m[n] = "packages cannot be installed in this sandbox and there is one user; the built-in commands are listed by the backend's description"
	}
	for _, n := range []string{"ssh", "scp", "rsync", "nc", "telnet", "ftp"} {
		m[n] = "the sandbox reaches the network only through curl or wget, under the workspace's outbound policy"
	}
	for _, n := range []string{"gcc", "cc", "clang", "make", "go", "cargo", "rustc", "java", "javac"} {
		m[n] = "there are no compilers in this sandbox; build elsewhere and run WebAssembly (WASI) modules with the wasm backend"
	}
	return m
}()

// Abs resolves p against the working directory.
func (e *Env) Abs(p string) string {
	if p == "" {
		return e.Dir
	}
	if !strings.HasPrefix(p, "/") {
		p = e.Dir + "/" + p
	}
	return path.Clean(p)
}

// Errf prints "name: message" on stderr.
func (e *Env) Errf(format string, args ...any) {
	fmt.Fprintf(e.Stderr, "%s: %s\n", e.name, fmt.Sprintf(format, args...))
}

// FileErr prints a GNU-style error about a file: "cat: x: No such file or
// directory".
func (e *Env) FileErr(p string, err error) {
	e.Errf("%s: %s", p, hostfs.Text(err))
}

// Open opens p for reading; "-" is standard input.
func (e *Env) Open(p string) (io.ReadCloser, error) {
	if p == "-" {
		return io.NopCloser(e.Stdin), nil
	}
	if r := e.device(p); r != nil {
		return io.NopCloser(r), nil
	}
	return e.FS.Open(e.Ctx, e.Abs(p))
}

// device is the reader of /dev/null, /dev/zero, /dev/urandom or
// /dev/stdin; nil for any other path.
func (e *Env) device(p string) io.Reader {
	switch p {
	case "/dev/null":
		return strings.NewReader("")
	case "/dev/zero":
		return zeros{}
	case "/dev/urandom", "/dev/random":
		return randomReader{e.Random}
	case "/dev/stdin", "/dev/fd/0":
		if e.Stdin == nil {
			return strings.NewReader("")
		}
		return e.Stdin
	}
	return nil
}

type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

type randomReader struct{ random func([]byte) }

func (r randomReader) Read(p []byte) (int, error) {
	if len(p) > 64<<10 {
		p = p[:64<<10]
	}
	r.random(p)
	return len(p), nil
}

// ReadAll reads p whole; "-" is standard input.
func (e *Env) ReadAll(p string) ([]byte, error) {
	if p == "-" {
		return e.readStdin()
	}
	if r := e.device(p); r != nil {
		return e.readBounded(r, p)
	}
	return e.FS.ReadAll(e.Ctx, e.Abs(p))
}

func (e *Env) readStdin() ([]byte, error) {
	if e.Stdin == nil {
		return nil, nil
	}
	return e.readBounded(e.Stdin, "standard input")
}

// readBounded reads r to its end, at most MaxAllocBytes.
func (e *Env) readBounded(r io.Reader, what string) ([]byte, error) {
	lim := e.MaxBytes
	if lim <= 0 {
		lim = 64 << 20
	}
	b, err := io.ReadAll(io.LimitReader(r, lim+1))
	if int64(len(b)) > lim {
		return nil, fmt.Errorf("%s is larger than the limit MaxAllocBytes (%d)", what, lim)
	}
	return b, err
}

// Inputs reads each operand (or stdin when there is none) whole, calling
// fn for each; errors are reported GNU-style and make the status 1.
func (e *Env) Inputs(files []string, fn func(name string, data []byte)) int {
	if len(files) == 0 {
		files = []string{"-"}
	}
	status := 0
	for _, f := range files {
		if err := e.Ctx.Err(); err != nil {
			return 1
		}
		b, err := e.ReadAll(f)
		if err != nil {
			e.FileErr(f, err)
			status = 1
			continue
		}
		fn(f, b)
	}
	return status
}

// splitLines splits data into lines without their newlines; a final line
// without a newline is kept.
func splitLines(data []byte) []string {
	if len(data) == 0 {
		return nil
	}
	s := string(data)
	s = strings.TrimSuffix(s, "\n")
	return strings.Split(s, "\n")
}

// Register adds a command to the table (for the shell's tests: a command
// with a bug of its own, such as a panic, proves the shell's guards).
func Register(name, help string, run func(e *Env, args []string) int) { register(name, help, run) }
