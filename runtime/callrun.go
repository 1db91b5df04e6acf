package runtime

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/nookdev/nook/vfs"
)

// CallBackend is the id of the runtime's built-in backend that runs one
// host-module call as a run of its own (Runtime.ExecCall). It is not in
// Backends, so models are not offered it.
const CallBackend = "nook.call"

// Defaults of a call run's time: only the time the function runs counts,
// not the time it waits for an answer.
const (
	DefaultCallTimeout = 30 * time.Minute
	MaxCallTimeout     = 24 * time.Hour
)

// ExecCall starts a run whose whole program is one call of the host-module
// function op ("ws:tools/call") with args, under the replay policy, and
// returns its handle at once. The function's CallContext can therefore
// wait for a person (CallContext.Interrupt) durably: the wait is listed by
// Pending, survives the end of this process, and Respond resumes it in the
// process that answers, which calls the function again with the same
// CallID (so that process must register the same module). The run's Value
// is the function's result; a failed call fails the run with its message.
// Options other than ID, Timeout and Env are ignored.
func (r *Runtime) ExecCall(ctx context.Context, op string, args []any, o ExecOptions) (*Handle, error) {
	name, fn, ok := strings.Cut(op, "/")
	if !ok || r.opts.Modules[name][fn] == nil {
		return nil, invalid("exec", o.ID, "no host-module function %q (want ws:<module>/<function> of a registered module)", op)
	}
	if args == nil {
		args = []any{}
	}
	in, err := json.Marshal(callInput{Op: op, Args: args})
	if err != nil {
		return nil, invalid("exec", o.ID, "the arguments must be JSON-compatible: %v", err)
	}
	return r.Exec(ctx, op, ExecOptions{ID: o.ID, Backend: CallBackend, Input: json.RawMessage(in),
		Timeout: o.Timeout, Env: o.Env, OnInterrupt: PolicyReplay})
}

// callInput is the input of a call run.
type callInput struct {
	Op   string `json:"op"`
	Args []any  `json:"args"`
}

// callBackend runs call runs.
type callBackend struct{}

func (callBackend) Info() BackendInfo {
	return BackendInfo{ID: CallBackend, Description: "one host-module call", Callable: true, Root: "/",
		Access: ReadOnly, DefaultTimeout: DefaultCallTimeout, MaxTimeout: MaxCallTimeout}
}

func (callBackend) Prepare(ctx context.Context, fsys *vfs.FS, req *Request) (Program, error) {
	var in callInput
	if err := json.Unmarshal(req.Input, &in); err != nil || in.Op == "" {
		return nil, errors.New("a call run's input must be {\"op\": \"ws:<module>/<function>\", \"args\": [...]}")
	}
	name, fn, _ := strings.Cut(in.Op, "/")
	found := false
	for _, f := range req.Modules[name] {
		found = found || f == fn
	}
	if !found {
		return nil, fmt.Errorf("no host-module function %q", in.Op)
	}
	return &callProgram{in: in}, nil
}

type callProgram struct{ in callInput }

func (p *callProgram) Run(ctx context.Context, host Host) Exit {
	res, err := host.Call(ctx, &Call{Kind: KindModule, Op: p.in.Op, Args: p.in.Args, Seq: 1})
	if err != nil {
		host.Write(Stderr, []byte(err.Error()+"\n"))
		return Exit{Code: 1, Err: err}
	}
	v, err := encodeValue(res)
	if err != nil {
		return Exit{Code: 1, Err: err}
	}
	return Exit{Value: v}
}

// addCallBackend registers the built-in call backend, unless a backend
// of the embedder has its id. New calls it after the embedder's backends.
func (r *Runtime) addCallBackend() {
	if _, taken := r.backends[CallBackend]; !taken {
		r.backends[CallBackend] = callBackend{}
	}
}
