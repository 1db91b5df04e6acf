package runtime

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"github.com/nookdev/nook/runtime/host"
	"path"
	"strings"
	"sync/atomic"
	"time"

	"github.com/nookdev/nook/vfs"
)

// A run starts a nested run with a KindExec call: node:child_process
// runs a command line on the shell, the shell's node runs a program on the
// JavaScript backend. The nested run is a run of its own (its id is the
// parent's followed by ".x" and the call's number), journaled like any
// other, with the parent's limits, host modules, outbound policy and
// interrupt policy, at most the parent's access and within its root. The
// call waits for its end and returns both output streams.
//
// Exactly once: the call's number is stable across attempts (a backend
// numbers its calls; an unnumbered call is journaled as begun before the
// nested run starts, so a replay matches it to the same number), so the
// nested run's id is too. A replay that finds the call finished takes its
// recorded result; one that finds the call begun attaches to the nested
// run of that id, which is finished, running, or resumed from its own
// journal, and takes its outcome.

// DefaultMaxBuffer is how much of each output stream of a nested run its
// caller gets when it does not say (Node's maxBuffer default).
const DefaultMaxBuffer = 1 << 20

// nesting is the place of a nested run: the run that started it and what
// it inherits from it.
type nesting struct {
	parent   string
	depth    int    // 1 for a run started by a top-level run
	root     string // the parent's root: the nested run reaches no further
	readOnly bool   // the parent could not change files: neither can it
	entry    string // the workspace file the source was read from, if any
	tree     string // the parent's Request.Tree (not stored: a budget lives in one process)
}

// confine narrows a backend's reach to the parent's.
func (n *nesting) confine(info *BackendInfo) {
	if n == nil {
		return
	}
	if info.Root == "" {
		info.Root = "/workspace"
	}
	if n.root != "" && !host.Within(info.Root, n.root) {
		info.Root = n.root
	}
	if n.readOnly {
		info.Access = ReadOnly
	}
}

func (n *nesting) level() int {
	if n == nil {
		return 0
	}
	return n.depth
}

// treeKeys numbers the trees of runs of this process.
var treeKeys atomic.Uint64

// treeOf is the Request.Tree of run id: its parent's, or a new key for a
// top run. A nested run resumed without its parent's key (its parent is
// not running here) takes the key of its parent if that runs in r.
func (r *Runtime) treeOf(n *nesting, id string) string {
	if n != nil && n.tree != "" {
		return n.tree
	}
	if n != nil && n.parent != "" {
		r.mu.Lock()
		p := r.runs[n.parent]
		r.mu.Unlock()
		if p != nil && p.tree != "" {
			return p.tree
		}
	}
	return fmt.Sprintf("%d:%s", treeKeys.Add(1), id)
}

func (n *nesting) entryPath() string {
	if n == nil {
		return ""
	}
	return n.entry
}

// store records the nesting in a run's stored request, so that a resumed
// attempt is confined the same way.
func (n *nesting) store(q *request) {
	if n == nil {
		return
	}
	q.Parent, q.Depth, q.Root, q.ReadOnly, q.Entry = n.parent, n.depth, n.root, n.readOnly, n.entry
}

// nesting returns the nesting a stored request records (nil for a run
// that is not nested).
func (q *request) nesting() *nesting {
	if q.Depth == 0 && q.Root == "" && !q.ReadOnly {
		return nil
	}
	return &nesting{parent: q.Parent, depth: q.Depth, root: q.Root, readOnly: q.ReadOnly, entry: q.Entry}
}

// prepareError is a program that did not prepare (a syntax error): for a
// nested run that is the program's failure, not the call's.
type prepareError struct{ err error }

func (e *prepareError) Error() string { return e.err.Error() }
func (e *prepareError) Unwrap() error { return e.err }

// spawnArgs are the arguments of a KindExec call.
type spawnArgs struct {
	source, file string
	hasSource    bool
	args         []string
	env          map[string]string
	cwd          string
	stdin        []byte
	timeout      time.Duration
	maxBuffer    int64
}

func einval(format string, a ...any) *CallError {
	return &CallError{Code: "EINVAL", Message: "exec: " + fmt.Sprintf(format, a...)}
}

func parseSpawn(m map[string]any) (*spawnArgs, error) {
	s := &spawnArgs{maxBuffer: DefaultMaxBuffer}
	str := func(k string) (string, bool, error) {
		v, ok := m[k]
		if !ok || v == nil {
			return "", false, nil
		}
		t, ok := v.(string)
		if !ok {
			return "", false, einval("%q must be a string", k)
		}
		return t, true, nil
	}
	var err error
	var hasFile bool
	if s.source, s.hasSource, err = str("source"); err != nil {
		return nil, err
	}
	if s.file, hasFile, err = str("file"); err != nil {
		return nil, err
	}
	if s.hasSource == hasFile {
		return nil, einval(`give exactly one of "source" and "file"`)
	}
	if hasFile && s.file == "" {
		return nil, einval(`"file" is empty`)
	}
	if s.cwd, _, err = str("cwd"); err != nil {
		return nil, err
	}
	if v, ok := m["args"]; ok && v != nil {
		list, ok := v.([]any)
		if !ok {
			return nil, einval(`"args" must be a list of strings`)
		}
		for _, a := range list {
			t, ok := a.(string)
			if !ok {
				return nil, einval(`"args" must be a list of strings`)
			}
			s.args = append(s.args, t)
		}
	}
	if v, ok := m["env"]; ok && v != nil {
		env, ok := v.(map[string]any)
		if !ok {
			return nil, einval(`"env" must be a map of strings`)
		}
		s.env = make(map[string]string, len(env))
		for k, val := range env {
			t, ok := val.(string)
			if !ok {
				return nil, einval("environment variable %q must be a string", k)
			}
			s.env[k] = t
		}
	}
	switch v := m["stdin"].(type) {
	case nil:
	case string:
		s.stdin = []byte(v)
	case []byte:
		s.stdin = v
	default:
		return nil, einval(`"stdin" must be a string or bytes`)
	}
	num := func(k string) (float64, error) {
		switch v := m[k].(type) {
		case nil:
			return 0, nil
		case float64:
			if v < 0 || v != v {
				return 0, einval("%q must be a number ≥ 0", k)
			}
			return v, nil
		}
		return 0, einval("%q must be a number", k)
	}
	ms, err := num("timeoutMs")
	if err != nil {
		return nil, err
	}
	s.timeout = time.Duration(ms * float64(time.Millisecond))
	mb, err := num("maxBuffer")
	if err != nil {
		return nil, err
	}
	if mb > 0 {
		s.maxBuffer = int64(mb)
	}
	return s, nil
}

// spawn serves call number seq of run x, a KindExec call: it starts the
// nested run (or finds the one an earlier attempt started) and returns its
// outcome.
func (x *run) spawn(ctx context.Context, seq int64, backend string, m map[string]any) (any, error) {
	r := x.rt
	a, err := parseSpawn(m)
	if err != nil {
		return nil, err
	}
	b, ok := r.backends[backend]
	if !ok {
		return nil, &CallError{Code: "ENOENT", Message: fmt.Sprintf(
			"exec: no backend %q is configured in this workspace (configured: %s)", backend, r.backendNames())}
	}
	depth := x.depth + 1
	if depth > x.limits.MaxExecDepth {
		return nil, &CallError{Code: "EAGAIN", Message: fmt.Sprintf(
			"exec: a run nested %d deep exceeds the limit MaxExecDepth (%d)", depth, x.limits.MaxExecDepth)}
	}
	id := fmt.Sprintf("%s.x%d", x.id, seq)
	if x.policy == PolicyRestart && x.attempt > 1 {
		// A restarted run starts from nothing: its nested runs too.
		id = fmt.Sprintf("%s.a%d.x%d", x.id, x.attempt, seq)
	}
	if len(id) > MaxIDBytes {
		return nil, &CallError{Code: "EAGAIN", Message: fmt.Sprintf(
			"exec: the nested run's id %s is longer than %d bytes (runs are nested too deeply)", id, MaxIDBytes)}
	}
	root := x.info.Root
	if root == "" {
		root = "/workspace"
	}
	nest := &nesting{parent: x.id, depth: depth, root: root, readOnly: x.info.Access == ReadOnly, tree: x.tree}
	cwd := a.cwd
	if cwd == "" {
		cwd = root
	}
	source := a.source
	if !a.hasSource {
		p := a.file
		if !strings.HasPrefix(p, "/") {
			p = path.Join(cwd, p)
		}
		src, cerr := r.spawnSource(ctx, b.Info(), root, p, a.file)
		if cerr != nil {
			return nil, cerr
		}
		source, nest.entry = src, path.Clean(p)
	}
	timeout := a.timeout
	if d, ok := x.ctx.Deadline(); ok {
		if left := time.Until(d); timeout <= 0 || left < timeout {
			timeout = max(left, time.Millisecond)
		}
	}
	o := ExecOptions{Backend: backend, ID: id, Env: a.env, Cwd: cwd, Args: a.args, Stdin: a.stdin,
		Timeout: timeout, Encoding: x.encoding, OnInterrupt: x.policy}
	if len(x.seed) > 0 {
		// A seeded run's nested runs draw seeded bytes too, each its own.
		sum := sha256.Sum256(append(append([]byte(nil), x.seed...), id...))
		o.Seed = sum[:]
	}
	var h *Handle
	if x.resumed != nil {
		// A later attempt: an earlier one may have started it.
		if _, err := r.store.Get(ctx, id); err == nil {
			h = &Handle{ID: id, Backend: backend, rt: r}
		}
	}
	if h == nil {
		h, err = r.exec(ctx, source, o, nest)
	}
	if err != nil {
		var re *Error
		var pe *prepareError
		switch {
		case errors.As(err, &pe):
			// The program did not compile: it fails as node and sh do.
			code := 1
			var ec interface{ ExitCode() int }
			if errors.As(pe.err, &ec) {
				code = ec.ExitCode() // the shell's syntax error: 2, as sh's
			}
			msg := pe.Error()
			return map[string]any{"code": float64(code), "status": string(StatusFailed), "stdout": []byte{},
				"stderr": []byte(msg + "\n"), "stdoutBytes": float64(0), "stderrBytes": float64(len(msg) + 1),
				"id": "", "error": msg}, nil
		case errors.As(err, &re) && (re.Code == vfs.EEXIST || re.Code == EBUSY && strings.Contains(re.Text, "already running")):
			// An earlier attempt started it: take its outcome.
			h = &Handle{ID: id, Backend: backend, rt: r}
		case errors.As(err, &re) && re.Code == EBUSY:
			return nil, &CallError{Code: "EAGAIN", Message: "exec: " + re.Text}
		case errors.As(err, &re):
			code := string(re.Code)
			if code == "" {
				code = "EIO"
			}
			return nil, &CallError{Code: code, Message: "exec: " + re.Text}
		default:
			return nil, &CallError{Code: "EIO", Message: "exec: " + err.Error()}
		}
	}
	res, err := h.Result(ctx)
	if err != nil && ctx.Err() != nil {
		// The parent stops (killed, timed out), or gave up on the call
		// (child.kill(), the shell's timeout): the nested run stops too.
		kctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
		defer cancel()
		r.KillExec(kctx, id)
		if x.ctx.Err() != nil {
			return nil, ctx.Err()
		}
		// The run goes on: the call's answer is how the nested run ended
		// (cancelled), which is also what a replay attaching to it finds.
		if res, err = h.Result(kctx); err != nil {
			return nil, ctx.Err()
		}
	}
	if err != nil {
		return nil, &CallError{Code: "EIO", Message: "exec: " + err.Error()}
	}
	keep := min(a.maxBuffer, x.limits.MaxOutputBytes)
	return map[string]any{
		"code":        float64(res.ExitCode),
		"status":      string(res.Status),
		"stdout":      r.streamPrefix(ctx, res.Stdout, res.StdoutPath, res.StdoutBytes, keep),
		"stderr":      r.streamPrefix(ctx, res.Stderr, res.StderrPath, res.StderrBytes, keep),
		"stdoutBytes": float64(res.StdoutBytes),
		"stderrBytes": float64(res.StderrBytes),
		"id":          id,
		"error":       res.Error,
	}, nil
}

// spawnSource reads the program file p (as the code named it: name) of a
// nested run, confined to the parent's root and bounded by the backend's
// source limit.
func (r *Runtime) spawnSource(ctx context.Context, info BackendInfo, root, p, name string) (string, *CallError) {
	fail := func(code, text string) *CallError {
		return &CallError{Code: code, Message: fmt.Sprintf("%s: %s, open '%s'", code, text, name),
			Syscall: "open", Path: name}
	}
	clean, err := vfs.Clean(p)
	if err != nil || !host.Within(clean, root) {
		return "", fail("EACCES", "permission denied (outside "+root+")")
	}
	fi, err := r.fs.Stat(ctx, clean)
	if err != nil {
		code := string(vfs.Code(err))
		if code == "ENOENT" {
			return "", fail(code, "no such file or directory")
		}
		return "", fail(code, err.Error())
	}
	if fi.IsDir() {
		return "", fail("EISDIR", "illegal operation on a directory")
	}
	limit := r.opts.Limits.MaxSourceBytes
	if info.MaxSourceBytes > 0 {
		limit = info.MaxSourceBytes
	}
	if fi.Size() > limit {
		return "", &CallError{Code: "E2BIG", Message: fmt.Sprintf(
			"exec: %s (%d bytes) exceeds the limit MaxSourceBytes (%d)", name, fi.Size(), limit)}
	}
	b, err := r.fs.ReadFile(ctx, clean)
	if err != nil {
		return "", fail(string(vfs.Code(err)), err.Error())
	}
	return string(b), nil
}

// streamPrefix returns the first max bytes of a nested run's stream: from
// its stored output, or from the file that holds all of it once it outgrew
// what is stored.
func (r *Runtime) streamPrefix(ctx context.Context, stored []byte, spill string, total, keep int64) []byte {
	want := min(total, keep)
	if int64(len(stored)) >= want || spill == "" {
		return stored[:min(int64(len(stored)), want)]
	}
	b, err := r.fs.ReadRange(ctx, spill, 0, want)
	if err != nil || int64(len(b)) < int64(len(stored)) {
		return stored
	}
	return b
}
