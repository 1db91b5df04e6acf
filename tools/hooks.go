package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/nookdev/nook/runtime"
)

// Hook is middleware on a tool set's calls (Options.Hooks), the Go
// counterpart of Cloudflare Think's beforeToolCall: Before decides whether
// and how a call goes on; After sees, and may replace, what the caller
// gets. Hooks apply to every call of the set's tools, whichever way it
// comes: Set.Call and (*Tool).Call, MCP (tools/mcp, over stdio and HTTP),
// the OpenAI and Anthropic adapters, "nook tool", and code's calls through
// the ws:tools module, so neither a client nor code can get round a hook.
type Hook struct {
	// Before runs before the tool, in the order of Options.Hooks, and
	// returns a Verdict; the zero Verdict lets the call go on. The first
	// hook that blocks or substitutes a result ends the chain; an Input
	// replaces the input for the hooks after it and the tool; every
	// Approve is gathered. A call that waits for approval is evaluated
	// again when it resumes (in whatever process answers), so Before
	// should decide from the call alone, without side effects it cannot
	// repeat.
	Before func(ctx context.Context, c *Call) Verdict
	// After runs, in reverse order, on the result the caller is about to
	// get (the tool's, a substitute, a block or a refusal) and returns the
	// result to give instead, or nil to keep it: to observe, redact or
	// annotate. The returned Result replaces the whole result, its text
	// and its structured value alike: a redaction must change both (MCP
	// sends the structured value as structuredContent, ws:tools returns it
	// to code), which [Redact] does. A model's call that waited for
	// approval meets After twice: in the process that carries it out (on
	// the call run's result) and in the one whose caller gets the result,
	// which may be another process with other hooks (or the same one), so
	// a redaction holds whoever answers.
	After func(ctx context.Context, c *Call, r *Result) *Result
}

// Call is one tool call as hooks see it.
type Call struct {
	// Tool is the tool's name; Input its arguments as the model or the
	// code gave them (or as an earlier hook replaced them).
	Tool  string
	Input json.RawMessage
	// RunID and CallID identify the run and the host call that carry the
	// call: code's calls through ws:tools, and a model's call that waits
	// for approval (which runs as a call run, runtime.ExecCall). Both are
	// empty for a model's call that does not wait.
	RunID, CallID string

	set *Set // the set called, whose root and filesystem Resolve uses
}

// DryRun reports whether the call asks for a dry run (edit's and patch's
// dryRun: true), which changes nothing: the tool returns what it would do.
// It reads the input as it is now, so it agrees with what the tool will
// see after any hook that replaced the input.
func (c *Call) DryRun() bool {
	if c.Tool != "edit" && c.Tool != "patch" {
		return false
	}
	var in struct {
		DryRun bool `json:"dryRun"`
	}
	return json.Unmarshal(c.Input, &in) == nil && in.DryRun
}

// Verdict is what a Before hook decides about a call.
type Verdict struct {
	// Block refuses the call with this reason: the caller gets an error
	// result "<tool> was blocked: <reason>" and nothing changes.
	Block string
	// Result, when not nil, is returned instead of calling the tool.
	Result *Result
	// Input, when not nil, replaces the call's input (the tool validates
	// it as usual).
	Input json.RawMessage
	// Approve, when not empty, makes the call wait for a person's answer
	// before it runs, saying why. The wait is durable: see [Approval].
	Approve string
}

// Approval is the answer to a call that waits for approval, given with
// runtime.Runtime.Respond (or "nook approvals respond RUN CALL
// '{"approved":true}'"):
//
//	rt.Respond(ctx, p.RunID, p.CallID, tools.Approval{Approved: true})
//
// A call that waits is a host call of a run under the replay policy (a
// model's call runs as a call run of ws:tools/call, see runtime.ExecCall),
// so it is listed by runtime.Runtime.Pending with an [ApprovalRequest] as
// its payload, survives a restart of the process, and is carried out once
// answered, exactly once, by the process that answers. That process must
// register the set as ws:tools ([LateModule]) with the same hooks.
//
// Set.Call waits for the answer until its ctx ends; then it returns ctx's
// error and the call stays pending. With Options.DeferApprovals it returns
// at once instead, with a result telling the model the call is queued.
type Approval struct {
	Approved bool   `json:"approved"`
	Reason   string `json:"reason,omitempty"` // shown to the caller when refused
}

// ApprovalRequest is the payload of a pending approval
// (runtime.PendingCall.Payload).
type ApprovalRequest struct {
	Kind   string          `json:"kind"` // always "tool-approval"
	Tool   string          `json:"tool"`
	Input  json.RawMessage `json:"input"`
	Reason string          `json:"reason"`
}

// needsRunError: a model's call needs approval, so it must run as a call
// run (with the input the hooks left).
type needsRunError struct {
	input  json.RawMessage
	reason string
}

func (e *needsRunError) Error() string { return "the call needs approval: " + e.reason }

// before runs the Before hooks. It returns the input to call the tool
// with, or the result to return instead; needs is the reason approval is
// needed (all of them, joined).
func (s *Set) before(ctx context.Context, c *Call) (res *Result, needs string) {
	var reasons []string
	for _, h := range s.opts.Hooks {
		if h.Before == nil {
			continue
		}
		v := h.Before(ctx, c)
		switch {
		case v.Block != "":
			return Errorf("%s was blocked: %s", c.Tool, v.Block), ""
		case v.Result != nil:
			return v.Result, ""
		}
		if v.Input != nil {
			c.Input = v.Input
		}
		if v.Approve != "" {
			reasons = append(reasons, v.Approve)
		}
	}
	return nil, strings.Join(reasons, "; ")
}

// after runs the After hooks on r, last hook first.
func (s *Set) after(ctx context.Context, c *Call, r *Result) *Result {
	for i := len(s.opts.Hooks) - 1; i >= 0; i-- {
		if h := s.opts.Hooks[i]; h.After != nil {
			if x := h.After(ctx, c, r); x != nil {
				r = x
			}
		}
	}
	return r
}

// invoke calls tool t through the hooks. cc is the host call carrying the
// call (nil for a model's call): a call that needs approval waits on it,
// and without one invoke returns a *needsRunError. Other errors are the end of
// ctx or the run's wait (they must reach the runtime as they are).
//
// ask, when not empty, is a reason to wait for approval whatever the hooks
// decide: a model's call that a hook sent to a call run asks it there, so
// that the answer is heeded even by a process whose hooks differ.
func (s *Set) invoke(ctx context.Context, cc *runtime.CallContext, t *Tool, in json.RawMessage, ask string) (*Result, error) {
	c := s.newCall(cc, t, in)
	res, needs := s.before(ctx, c)
	if res == nil && ask != "" && !strings.Contains(needs, ask) {
		needs = strings.TrimPrefix(needs+"; "+ask, "; ")
	}
	if res == nil && needs != "" {
		if cc == nil {
			return nil, &needsRunError{c.Input, needs}
		}
		ans, err := cc.Interrupt(ApprovalRequest{Kind: "tool-approval", Tool: t.Name, Input: c.Input, Reason: needs})
		if err != nil {
			if strings.Contains(err.Error(), "interrupt policy is replay") {
				res = Errorf("%s: %s, and code can wait for approval only in a run under the replay policy (ExecOptions.OnInterrupt)", t.Name, needs)
			} else {
				return nil, err
			}
		} else if a := approvalOf(ans); !a.Approved {
			msg := fmt.Sprintf("%s was not approved", t.Name)
			if a.Reason != "" {
				msg += ": " + a.Reason
			}
			res = Errorf("%s", msg)
		}
	}
	if res == nil {
		if t.Name == "exec" && cc != nil {
			// A run started again is another run: a replay that finds
			// this call begun and not finished fails rather than start
			// it twice. (Marked here, after any wait, not around the
			// whole function: a call that waited must resume.)
			if _, err := runtime.UnsafeToRepeat(noop)(ctx, cc, nil); err != nil {
				return nil, err
			}
		}
		var err error
		if res, err = t.call(ctx, c.Input); err != nil {
			return nil, err
		}
	}
	return s.after(ctx, c, res), nil
}

// newCall is the Call hooks see for a call of t with input in, carried by
// cc (nil for a model's call).
func (s *Set) newCall(cc *runtime.CallContext, t *Tool, in json.RawMessage) *Call {
	c := &Call{Tool: t.Name, Input: in, set: s}
	if cc != nil {
		c.RunID, c.CallID = cc.RunID, cc.CallID
	}
	return c
}

func noop(context.Context, *runtime.CallContext, []any) (any, error) { return nil, nil }

// callModel serves a model's call of t: through the hooks, and as a call
// run when one asks for approval.
func (s *Set) callModel(ctx context.Context, t *Tool, in json.RawMessage) (*Result, error) {
	if len(s.opts.Hooks) == 0 {
		return t.call(ctx, in)
	}
	res, err := s.invoke(ctx, nil, t, in, "")
	var nr *needsRunError
	if errors.As(err, &nr) {
		// The call run ran the hooks of the process that carried it out
		// (perhaps "nook approvals respond", which has none); this
		// process's After hooks see what its caller gets.
		res, err = s.callAsRun(ctx, t.Name, nr.input, nr.reason)
		if err != nil {
			return nil, err
		}
		return s.after(ctx, s.newCall(nil, t, nr.input), res), nil
	}
	return res, err
}

// callFunc serves ws:tools/call({tool, input, approve?}): a call of any of
// the set's tools that returns its whole result (content, structured,
// isError) instead of throwing; approve asks for approval whatever the
// hooks say.
func (s *Set) callFunc(ctx context.Context, cc *runtime.CallContext, args []any) (any, error) {
	var a struct {
		Tool    string          `json:"tool"`
		Input   json.RawMessage `json:"input"`
		Approve string          `json:"approve"`
	}
	b, _ := json.Marshal(args)
	var list []json.RawMessage
	if json.Unmarshal(b, &list) != nil || len(list) != 1 || json.Unmarshal(list[0], &a) != nil || a.Tool == "" {
		return nil, &runtime.CallError{Code: ErrTool, Message: `call takes one object, e.g. call({ tool: "read", input: { path: "/workspace/a.txt" } })`}
	}
	t := s.tool(a.Tool)
	if t == nil {
		return nil, &runtime.CallError{Code: ErrTool, Message: "the tool set has no " + a.Tool + " tool; its tools are " + strings.Join(s.names(), ", ")}
	}
	res, err := s.callWithReceipt(ctx, cc, t, orEmpty(a.Input), a.Approve)
	if err != nil {
		return nil, err
	}
	return jsonValue(wireOf(res))
}

// jsonValue is v after a JSON round trip.
func jsonValue(v any) (any, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var out any
	return out, json.Unmarshal(b, &out)
}

// approvalOf reads an answer: an Approval object, or a bare boolean.
func approvalOf(ans any) Approval {
	switch a := ans.(type) {
	case bool:
		return Approval{Approved: a}
	case map[string]any:
		ok, _ := a["approved"].(bool)
		reason, _ := a["reason"].(string)
		return Approval{Approved: ok, Reason: reason}
	}
	return Approval{}
}

// callAsRun carries out a model's call that needs approval as a call run
// of ws:tools/call, and waits for its result.
func (s *Set) callAsRun(ctx context.Context, name string, in json.RawMessage, needs string) (*Result, error) {
	rt := s.opts.Runtime
	if rt == nil || !slices.ContainsFunc(rt.Modules(), func(m runtime.ModuleInfo) bool {
		return m.Name == ModuleName && slices.ContainsFunc(m.Funcs, func(f runtime.FuncInfo) bool { return f.Name == "call" })
	}) {
		return Errorf("%s needs approval, and a tool set waits for approval through its runtime's ws:tools module: "+
			"give the set a Runtime and register the set as %s (tools.LateModule)", name, ModuleName), nil
	}
	var input any
	if err := json.Unmarshal(orEmpty(in), &input); err != nil {
		return Errorf("invalid arguments for %s: %v", name, err), nil
	}
	h, err := rt.ExecCall(ctx, ModuleName+"/call", []any{map[string]any{"tool": name, "input": input, "approve": needs}}, runtime.ExecOptions{})
	if err != nil {
		return Errorf("%s needs approval, and the call could not be queued: %v", name, err), nil
	}
	if s.opts.DeferApprovals && waitPending(ctx, rt, h) {
		return Text(fmt.Sprintf("%s is waiting for approval (%s): it will be carried out once a person approves it (run %s). Go on with other work; do not repeat the call.",
			name, needs, h.ID), map[string]any{"pending": true, "runId": h.ID, "callId": runtime.CallID(h.ID, 1), "reason": needs}), nil
	}
	res, err := h.Result(ctx)
	if err != nil {
		return nil, err
	}
	if res.Status != runtime.StatusCompleted {
		return Errorf("%s failed: %s", name, strings.TrimSpace(res.Error+" "+string(res.Stderr))), nil
	}
	var rj resultWire
	if err := json.Unmarshal(res.Value, &rj); err != nil {
		return Errorf("%s: unreadable result: %v", name, err), nil
	}
	return rj.result(), nil
}

// waitPending waits until the call run h waits for its answer (true) or
// has ended (false), so that a deferred call is listed by Pending when the
// model hears of it.
func waitPending(ctx context.Context, rt *runtime.Runtime, h *runtime.Handle) bool {
	for {
		ps, err := rt.Pending(ctx)
		if err != nil {
			return false
		}
		for _, p := range ps {
			if p.RunID == h.ID {
				return true
			}
		}
		wctx, cancel := context.WithTimeout(ctx, 10*time.Millisecond)
		err = h.Wait(wctx)
		cancel()
		if err == nil || ctx.Err() != nil {
			return false
		}
	}
}

func orEmpty(in json.RawMessage) json.RawMessage {
	if len(strings.TrimSpace(string(in))) == 0 {
		return json.RawMessage("{}")
	}
	return in
}

// resultWire is a Result as JSON: what ws:tools/call returns.
type resultWire struct {
	Content    []contentWire `json:"content"`
	Structured any           `json:"structured,omitempty"`
	IsError    bool          `json:"isError,omitempty"`
}

type contentWire struct {
	Type string `json:"type"`
	Text string `json:"text,omitempty"`
	MIME string `json:"mimeType,omitempty"`
	Data []byte `json:"data,omitempty"`
	URI  string `json:"uri,omitempty"`
	Name string `json:"name,omitempty"`
}

func wireOf(r *Result) resultWire {
	w := resultWire{Structured: r.Structured, IsError: r.IsError, Content: []contentWire{}}
	for _, c := range r.Content {
		w.Content = append(w.Content, contentWire{Type: string(c.Type), Text: c.Text, MIME: c.MIME, Data: c.Data, URI: c.URI, Name: c.Name})
	}
	return w
}

func (w resultWire) result() *Result {
	r := &Result{Structured: w.Structured, IsError: w.IsError}
	for _, c := range w.Content {
		r.Content = append(r.Content, Content{Type: ContentType(c.Type), Text: c.Text, MIME: c.MIME, Data: c.Data, URI: c.URI, Name: c.Name})
	}
	return r
}
