package runtime

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/oklog/ulid/v2"

	"github.com/nookdev/nook/journal"
	"github.com/nookdev/nook/vfs"
)

// ExecOptions are the options of one run.
type ExecOptions struct {
	// Backend selects the backend by ID (default: the first).
	Backend string
	// ID names the run (default: a new ULID). A caller-chosen id lets a
	// retry find the run it started; it may hold letters, digits and
	// ".", "_", "-", ":" (at most MaxIDBytes bytes), and cannot be reused
	// until the run is disposed of or pruned.
	ID string
	// Input is passed to a callable backend's program (a JavaScript
	// module's default export). It must be JSON-compatible: a
	// json.RawMessage is used as it is, anything else is marshalled.
	Input any
	// Env is the run's whole environment; nothing is inherited.
	Env map[string]string
	// Cwd is the working directory, absolute or relative to the backend's
	// root (default: the root). It must exist under the root.
	Cwd string
	// Args are extra program arguments.
	Args []string
	// Entry, when the source was read from a workspace file, is that
	// file's path: a backend names its entry after it (JavaScript resolves
	// relative imports from its directory; see Request.Entry).
	Entry string
	// Stdin is the run's standard input.
	Stdin []byte
	// Timeout bounds the run (default: the backend's DefaultTimeout); it
	// is clamped to the backend's MaxTimeout.
	Timeout time.Duration
	// Encoding "utf8" (the default) cuts output events only at UTF-8
	// character boundaries; "binary" passes bytes through as written.
	Encoding string
	// OnInterrupt is what happens if an interruption (a crash, a restart)
	// stops the run before it finishes (default: the backend's policy in
	// Options.OnInterrupt, else PolicyFail).
	OnInterrupt Policy
	// Seed makes the run's randomness ChaCha8 keyed by it (32 bytes), for
	// every attempt, whatever the policy, so that a recorded run can be run
	// again drawing the same random bytes (conformance scenarios do). A
	// replay-policy run without one gets a fresh seed; others draw from
	// the system.
	Seed []byte
	// Timers are the first timer firings of a replay-policy run, as a run
	// recorded them (Runtime.TimerFirings): the run fires them as a replay
	// of that run would, each once the program has received as many call
	// completions as then, without waiting, and no other timer before
	// them; a program that cannot reach a firing fails with a
	// *DivergenceError. Conformance scenarios exported from a run pass
	// its firings, so that a timer racing a call takes the recorded path.
	// Other policies ignore them.
	Timers []TimerFiring
	// Checkpoint brackets the run with checkpoints of the workspace
	// (BeforeCheckpoint and AfterCheckpoint of its id), so that Undo can
	// revert what it changed. Nested runs are part of their parent's.
	Checkpoint bool
}

// request is what is stored of a run's request.
type request struct {
	Source   string            `json:"source,omitempty"`
	Binary   []byte            `json:"binary,omitempty"` // a source that is not UTF-8 (a wasm module)
	Cwd      string            `json:"cwd"`
	Input    json.RawMessage   `json:"input,omitempty"`
	Env      map[string]string `json:"env,omitempty"`
	Args     []string          `json:"args,omitempty"`
	Stdin    []byte            `json:"stdin,omitempty"`
	Timeout  int64             `json:"timeoutMs"`
	Encoding string            `json:"encoding,omitempty"`
	Policy   Policy            `json:"onInterrupt,omitempty"`
	Seed     []byte            `json:"seed,omitempty"`
	Timers   []TimerFiring     `json:"timers,omitempty"`
	// A nested run's place (see spawn.go).
	Parent   string `json:"parent,omitempty"`
	Depth    int    `json:"depth,omitempty"`
	Root     string `json:"root,omitempty"`
	ReadOnly bool   `json:"readOnly,omitempty"`
	Entry    string `json:"entry,omitempty"`
}

func invalid(op, id, format string, args ...any) *Error {
	return &Error{Op: op, ID: id, Code: vfs.EINVAL, Text: fmt.Sprintf(format, args...)}
}

// Exec starts a run of source and returns its handle at once; the run goes
// on in the background until it ends, is killed, times out or the runtime
// closes. Bad options, and source the backend refuses (syntax errors,
// unknown imports, limits), fail here without creating a record.
func (r *Runtime) Exec(ctx context.Context, source string, o ExecOptions) (*Handle, error) {
	return r.exec(ctx, source, o, nil)
}

// exec starts a run; nest, when not nil, makes it a nested run of a run
// (see spawn.go).
func (r *Runtime) exec(ctx context.Context, source string, o ExecOptions, nest *nesting) (*Handle, error) {
	const op = "exec"
	if len(r.infos) == 0 && o.Backend != CallBackend {
		return nil, invalid(op, o.ID, "the workspace has no execution backend configured")
	}
	var info BackendInfo
	if len(r.infos) > 0 {
		info = r.infos[0]
	}
	if o.Backend != "" {
		b, ok := r.backends[o.Backend]
		if !ok {
			return nil, invalid(op, o.ID, "no backend with id %q; configured backends: %s", o.Backend, r.backendNames())
		}
		info = b.Info()
	}
	backend := r.backends[info.ID]
	nest.confine(&info)
	if o.ID == "" {
		o.ID = ulid.Make().String()
	} else if err := checkID(o.ID); err != nil {
		return nil, invalid(op, o.ID, "%s", err)
	}
	lim := r.opts.Limits
	req := &Request{ID: o.ID, Source: source, Env: o.Env, Args: o.Args, Stdin: o.Stdin,
		Modules: r.moduleInfo(), Fetch: r.opts.Outbound != nil, Limits: lim, Entry: o.Entry, VirtualTime: r.opts.VirtualTime}
	if e := nest.entryPath(); e != "" {
		req.Entry = e
	}
	if o.Input != nil {
		if !info.Callable {
			return nil, invalid(op, o.ID, "backend %q is not callable; it does not accept structured input", info.ID)
		}
		in, err := marshalInput(o.Input)
		if err != nil {
			return nil, invalid(op, o.ID, "input must be a JSON-compatible value: %v", err)
		}
		if int64(len(in)) > lim.MaxInputBytes {
			return nil, limitErr(op, o.ID, &LimitError{Limit: "MaxInputBytes", Max: lim.MaxInputBytes,
				What: fmt.Sprintf("input of %d bytes", len(in))})
		}
		req.Input = in
	}
	if o.Entry != "" {
		if p, err := vfs.Clean(o.Entry); err != nil || p != o.Entry {
			return nil, invalid(op, o.ID, "entry %q must be an absolute, clean workspace path", o.Entry)
		}
	}
	maxSource := lim.MaxSourceBytes
	if info.MaxSourceBytes > 0 {
		maxSource = info.MaxSourceBytes
	}
	if int64(len(source)) > maxSource {
		return nil, limitErr(op, o.ID, &LimitError{Limit: "MaxSourceBytes", Max: maxSource,
			What: fmt.Sprintf("source of %d bytes", len(source))})
	}
	if int64(len(o.Stdin)) > lim.MaxStdinBytes {
		return nil, limitErr(op, o.ID, &LimitError{Limit: "MaxStdinBytes", Max: lim.MaxStdinBytes,
			What: fmt.Sprintf("stdin of %d bytes", len(o.Stdin))})
	}
	var envBytes int64
	for k, v := range o.Env {
		if k == "" || strings.ContainsAny(k, "=\x00") || strings.ContainsRune(v, 0) {
			return nil, invalid(op, o.ID, "environment variable %q: names must be non-empty without '=' or NUL, values without NUL", k)
		}
		envBytes += int64(len(k) + len(v))
	}
	if envBytes > lim.MaxEnvBytes {
		return nil, limitErr(op, o.ID, &LimitError{Limit: "MaxEnvBytes", Max: lim.MaxEnvBytes,
			What: fmt.Sprintf("environment of %d bytes", envBytes)})
	}
	switch o.Encoding {
	case "", "utf8", "utf-8":
		o.Encoding = "utf8"
	case "binary":
	default:
		return nil, invalid(op, o.ID, "encoding %q: use \"utf8\" or \"binary\"", o.Encoding)
	}
	policy, err := r.policyFor(info.ID, o.OnInterrupt)
	if err != nil {
		return nil, invalid(op, o.ID, "%s", err)
	}
	cwd, err := r.cwd(ctx, info, o.Cwd)
	if err != nil {
		return nil, &Error{Op: op, ID: o.ID, Code: vfs.Code(err), Text: err.Error(), Err: err}
	}
	req.Cwd = cwd
	timeout := o.Timeout
	if timeout <= 0 {
		timeout = info.DefaultTimeout
	}
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	if maxT := info.MaxTimeout; maxT > 0 && timeout > maxT {
		timeout = maxT
	}

	// Reserve the id in this process, then prepare, then record.
	x := &run{rt: r, id: o.ID, backend: info.ID, info: info, encoding: o.Encoding, limits: lim,
		notify: make(chan struct{}), tree: r.treeOf(nest, o.ID)}
	req.Tree = x.tree
	r.mu.Lock()
	switch {
	case r.closed:
		r.mu.Unlock()
		return nil, &Error{Op: op, ID: o.ID, Code: ECANCELED, Text: "the runtime is closed"}
	case r.runs[o.ID] != nil:
		r.mu.Unlock()
		return nil, &Error{Op: op, ID: o.ID, Code: EBUSY, Text: fmt.Sprintf("run %s is already running", o.ID)}
	case len(r.runs) >= r.opts.MaxConcurrent:
		r.mu.Unlock()
		return nil, &Error{Op: op, ID: o.ID, Code: EBUSY,
			Text: fmt.Sprintf("%d runs are already running (limit MaxConcurrent)", r.opts.MaxConcurrent)}
	}
	r.runs[o.ID] = x
	r.mu.Unlock()
	started := false
	defer func() {
		if !started {
			r.mu.Lock()
			delete(r.runs, o.ID)
			r.mu.Unlock()
		}
	}()

	prog, err := backend.Prepare(ctx, r.fs, req)
	if err != nil {
		var le *LimitError
		if errors.As(err, &le) {
			return nil, limitErr(op, o.ID, le)
		}
		if nest != nil {
			err = &prepareError{err}
		}
		return nil, &Error{Op: op, ID: o.ID, Code: vfs.EINVAL, Text: err.Error(), Err: err}
	}
	q := request{Cwd: cwd, Input: req.Input, Env: o.Env, Args: o.Args,
		Stdin: o.Stdin, Timeout: timeout.Milliseconds(), Encoding: o.Encoding, Policy: policy}
	q.setSource(source)
	nest.store(&q)
	q.Entry = req.Entry
	var snapshot []byte
	if len(o.Seed) > 0 {
		q.Seed = append([]byte(nil), o.Seed...)
	}
	if policy != PolicyReplay {
		// A replay-policy run journals its dictated timers instead.
		q.Timers = o.Timers
	}
	if policy == PolicyReplay {
		if q.Seed == nil {
			q.Seed = newSeed()
		}
		if s, ok := prog.(Snapshotter); ok {
			snapshot = s.Snapshot()
		}
	}
	if x.checkpoint = nest == nil && (o.Checkpoint || r.opts.CheckpointRuns); x.checkpoint {
		// Checkpoints left by a disposed run of the same id go first (a
		// run that exists makes Create fail below).
		if _, err := r.store.Get(ctx, o.ID); errors.Is(err, journal.ErrNotFound) {
			r.fs.DeleteCheckpoint(ctx, BeforeCheckpoint(o.ID))
			r.fs.DeleteCheckpoint(ctx, AfterCheckpoint(o.ID))
			if err := r.checkpoint(ctx, op, BeforeCheckpoint(o.ID)); err != nil {
				return nil, err
			}
		} else {
			x.checkpoint = false
		}
	}
	stored, _ := json.Marshal(q)
	now := r.opts.Now()
	rec := &journal.Run{ID: o.ID, Backend: info.ID, Request: stored, Owner: r.owner, Created: now,
		Policy: string(policy), Program: snapshot}
	if err := r.store.Create(ctx, rec); err != nil {
		if x.checkpoint {
			r.fs.DeleteCheckpoint(context.WithoutCancel(ctx), BeforeCheckpoint(o.ID))
		}
		if errors.Is(err, journal.ErrExists) {
			return nil, &Error{Op: op, ID: o.ID, Code: vfs.EEXIST,
				Text: fmt.Sprintf("run %s already exists (dispose of it before reusing its id)", o.ID), Err: err}
		}
		return nil, &Error{Op: op, ID: o.ID, Code: vfs.EIO, Text: "cannot record the run: " + err.Error(), Err: err}
	}
	x.created, x.policy, x.seed, x.timers = now, policy, q.Seed, q.Timers
	if policy == PolicyReplay && len(o.Timers) > 0 {
		// Journaled as this run's own, so that a resumed attempt replays
		// them too.
		ticks := make([]journal.Tick, len(o.Timers))
		vals := make([][]byte, len(o.Timers))
		for i, tf := range o.Timers {
			vals[i], _ = json.Marshal(tf)
			ticks[i] = journal.Tick{Stream: journal.TimerStream, N: int64(i), Value: vals[i]}
		}
		if err := r.appendEvents(ctx, o.ID, nil, journal.Progress{}, ticks); err != nil {
			return nil, &Error{Op: op, ID: o.ID, Code: vfs.EIO, Text: "cannot record the run's timers: " + err.Error(), Err: err}
		}
		x.replay = &journal.Recording{Ticks: map[int][][]byte{journal.TimerStream: vals}}
	}
	x.depth = nest.level()
	if !x.start(ctx, prog, req, timeout) {
		// Closed while preparing: the record stays running and the
		// next runtime reaps it as interrupted.
		return nil, &Error{Op: op, ID: o.ID, Code: ECANCELED, Text: "the runtime is closed"}
	}
	started = true
	select {
	case r.wake <- struct{}{}:
	default:
	}
	r.prune(ctx, false)
	return &Handle{ID: o.ID, Backend: info.ID, rt: r}, nil
}

// setSource stores the source as text, or as bytes when it is not UTF-8
// (JSON would mangle it).
func (q *request) setSource(s string) {
	if utf8.ValidString(s) {
		q.Source = s
	} else {
		q.Binary = []byte(s)
	}
}

// source is the stored source.
func (q *request) source() string {
	if q.Binary != nil {
		return string(q.Binary)
	}
	return q.Source
}

func limitErr(op, id string, le *LimitError) *Error {
	return &Error{Op: op, ID: id, Code: vfs.EINVAL, Text: le.Error(), Err: le}
}

// checkID validates a caller-chosen run id.
func checkID(id string) error {
	if len(id) > MaxIDBytes {
		return fmt.Errorf("run id of %d bytes exceeds %d bytes", len(id), MaxIDBytes)
	}
	if id[0] == '.' {
		return fmt.Errorf("run id %q must not start with '.'", id)
	}
	for _, c := range id {
		ok := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
			c == '.' || c == '_' || c == '-' || c == ':'
		if !ok {
			return fmt.Errorf("run id %q may hold only letters, digits, '.', '_', '-' and ':'", id)
		}
	}
	return nil
}

func marshalInput(v any) (json.RawMessage, error) {
	switch in := v.(type) {
	case json.RawMessage:
		if !json.Valid(in) {
			return nil, errors.New("not valid JSON")
		}
		return in, nil
	}
	return json.Marshal(v)
}

// cwd resolves a run's working directory under the backend's root.
func (r *Runtime) cwd(ctx context.Context, info BackendInfo, dir string) (string, error) {
	root := info.Root
	if root == "" {
		root = "/workspace"
	}
	if dir == "" {
		dir = root
	} else if !strings.HasPrefix(dir, "/") {
		dir = root + "/" + dir
	}
	if !utf8.ValidString(dir) {
		return "", &vfs.PathError{Op: "exec", Path: dir, Code: vfs.EINVAL, Text: "cwd is not valid UTF-8"}
	}
	p, err := vfs.Clean(dir)
	if err != nil {
		return "", err
	}
	if p != root && !strings.HasPrefix(p, root+"/") && root != "/" {
		return "", &vfs.PathError{Op: "exec", Path: p, Code: EACCES,
			Text: fmt.Sprintf("cwd must be inside the backend's root %s", root)}
	}
	fi, err := r.fs.Stat(ctx, p)
	if err != nil {
		if vfs.Code(err) == vfs.ENOENT && p == root {
			// The root itself is created on first use.
			if err := r.fs.MkdirAll(ctx, root, 0o755); err != nil {
				return "", err
			}
			return p, nil
		}
		return "", err
	}
	if !fi.IsDir() {
		return "", &vfs.PathError{Op: "exec", Path: p, Code: vfs.ENOTDIR, Text: "cwd is not a directory"}
	}
	return p, nil
}
