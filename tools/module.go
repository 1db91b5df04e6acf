package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"sync"

	"github.com/nookdev/nook/runtime"
	"github.com/nookdev/nook/vfs"
)

// ModuleName is the name sandboxed code imports the tools from.
const ModuleName = "ws:tools"

// ErrTool is the code of the exception a failed tool call raises in code
// (the exception's message is the tool's message).
const ErrTool = "ERR_TOOL"

// Module returns set's tools as a host module, to register as
// [ModuleName]: each tool is a function that takes the tool's JSON input
// and returns its structured result, so code can run
//
//	import { grep, edit } from "ws:tools";
//	const hits = await grep({ pattern: "TODO", path: "/workspace" });
//
// A failed call (a missing file, an edit that does not match, bad input)
// throws an Error whose message is the tool's message and whose code is
// [ErrTool]. A read-only set gives a read-only module: its functions are
// read, ls, find and grep only. ("delete" is a reserved word in
// JavaScript: code reaches it through the default export,
// tools.delete(...).)
//
// Calls go through the run's journal like every host call. Mutating tools
// are safe to repeat when a replay runs a call again whose result the
// crash kept out of the journal: the tool's change and a receipt of it
// commit in one transaction, and the repeated call returns the receipt
// (see RATIONALE.md). exec is marked [runtime.UnsafeToRepeat] once its run
// is about to start. The set's hooks (Options.Hooks) apply to every call,
// and call({tool, input}) returns a tool's whole result instead of throwing.
func Module(set *Set) runtime.Module {
	names := make([]string, 0, len(set.tools))
	for _, t := range set.tools {
		names = append(names, t.Name)
	}
	get := func(context.Context) (*Set, error) { return set, nil }
	return module(names, get)
}

// LateModule returns a ws:tools module for a set that can only be made once
// the workspace the module is registered with is open (nook.Open takes its
// modules before it opens the workspace), and bind, which hands it the set:
//
//	mod, bind := tools.LateModule(opts)
//	ws, err := nook.Open(ctx, path, nook.WithModules(map[string]runtime.Module{tools.ModuleName: mod}))
//	opts.Runtime = ws.Runtime()
//	bind(tools.New(ws.FS(), opts))
//
// The module's functions are those of a set made with opts (with exec
// unless opts.ReadOnly); a call made before bind waits for it (a run
// resumed at open may call at once). A function the bound set does not
// have fails with a message naming the tools it has.
func LateModule(opts Options) (mod runtime.Module, bind func(*Set)) {
	var names []string
	for _, b := range builders {
		if b.mutating && opts.ReadOnly || b.name == "publish" && opts.Publisher == nil || b.name == "checkpoint" && !opts.Checkpoint.Enabled {
			continue
		}
		names = append(names, b.name)
	}
	var (
		once  sync.Once
		ready = make(chan struct{})
		set   *Set
	)
	bind = func(s *Set) {
		once.Do(func() {
			set = s
			close(ready)
		})
	}
	get := func(ctx context.Context) (*Set, error) {
		select {
		case <-ready:
			return set, nil
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	return module(names, get), bind
}

// module builds the functions named names over the set get returns.
func module(names []string, get func(context.Context) (*Set, error)) runtime.Module {
	m := make(runtime.Module, len(names))
	for _, name := range names {
		var f runtime.Func = func(ctx context.Context, cc *runtime.CallContext, args []any) (any, error) {
			s, err := get(ctx)
			if err != nil {
				return nil, err
			}
			return s.callFromCode(ctx, cc, name, args)
		}
		// exec is not safe to repeat (a run started again is another
		// run): invoke marks it so once it is about to start, after any
		// wait for approval.
		m[name] = f
	}
	m["call"] = func(ctx context.Context, cc *runtime.CallContext, args []any) (any, error) {
		s, err := get(ctx)
		if err != nil {
			return nil, err
		}
		return s.callFunc(ctx, cc, args)
	}
	return m
}

// callFromCode serves one ws:tools call.
func (s *Set) callFromCode(ctx context.Context, cc *runtime.CallContext, name string, args []any) (any, error) {
	t := s.tool(name)
	if t == nil {
		names := make([]string, len(s.tools))
		for i, t := range s.tools {
			names[i] = t.Name
		}
		return nil, &runtime.CallError{Code: ErrTool, Message: "the tool set has no " + name + " tool; its tools are " + strings.Join(names, ", ")}
	}
	var input any = map[string]any{}
	switch len(args) {
	case 0:
	case 1:
		if args[0] != nil {
			input = args[0]
		}
	default:
		return nil, &runtime.CallError{Code: ErrTool, Message: name + " takes one argument, the tool's input object; got " + itoa(len(args))}
	}
	if _, ok := input.(map[string]any); !ok {
		return nil, &runtime.CallError{Code: ErrTool, Message: name + " takes the tool's input as an object, e.g. " + name + "({ path: \"/workspace/a.txt\" })"}
	}
	in, err := json.Marshal(input)
	if err != nil {
		return nil, &runtime.CallError{Code: ErrTool, Message: "invalid input for " + name + ": " + err.Error()}
	}
	res, err := s.callWithReceipt(ctx, cc, t, in, "")
	if err != nil {
		return nil, err
	}
	if res.IsError {
		return nil, &runtime.CallError{Code: ErrTool, Message: resultText(res)}
	}
	v := res.Structured
	if v == nil {
		return map[string]any{"text": resultText(res)}, nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, &runtime.CallError{Code: ErrTool, Message: "the result of " + name + " is not JSON: " + err.Error()}
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		return nil, err
	}
	return out, nil
}

// callWithReceipt serves code's call of t with input in: a repeat of a
// mutating call that already happened (its receipt is there) returns the
// recorded result, through the After hooks as the first time, so a replay
// sees the redacted result the first execution gave; any other call goes
// through invoke.
func (s *Set) callWithReceipt(ctx context.Context, cc *runtime.CallContext, t *Tool, in json.RawMessage, approve string) (res *Result, err error) {
	if s.opts.Observer != nil && cc != nil {
		var done func(*Result, error)
		ctx, done = s.opts.Observer.ToolCall(ctx, ToolCall{Tool: t.Name, CallID: cc.CallID, RunID: cc.RunID})
		defer func() { done(res, err) }()
	}
	if rc := s.receiptIfMutating(cc, t, in); rc != nil {
		if v, ok := rc.find(ctx, s.fs); ok {
			return s.after(ctx, s.newCall(cc, t, in), JSON(v)), nil
		}
		ctx = context.WithValue(ctx, receiptKey{}, rc)
	}
	return s.invoke(ctx, cc, t, in, approve)
}

// receiptIfMutating is the receipt of call cc of a mutating tool t (nil
// for read-only tools, exec, and calls not made from code).
func (s *Set) receiptIfMutating(cc *runtime.CallContext, t *Tool, in json.RawMessage) *receipt {
	if t.Annotations.ReadOnly || cc == nil || t.Name == "exec" {
		return nil
	}
	return s.receiptFor(cc, t.Name, in)
}

// names lists the set's tools.
func (s *Set) names() []string {
	names := make([]string, len(s.tools))
	for i, t := range s.tools {
		names[i] = t.Name
	}
	return names
}

// resultText joins the text parts of a result.
func resultText(r *Result) string {
	var parts []string
	for _, c := range r.Content {
		if c.Type == TextContent {
			parts = append(parts, c.Text)
		}
	}
	return strings.Join(parts, "\n")
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// A receipt records that a mutating tool call made from code happened:
// the tool writes it in the transaction that makes its change, so a
// repeat of the call (a replay running a call again whose result was not
// journaled before a crash) finds it and returns the recorded result
// instead of changing the workspace a second time. Receipts live in the
// run's directory under the runtime's OutputDir
// (/.nook/runs/<run>/calls/<n>.json), which the runtime deletes with the
// run.
type receipt struct {
	path  string
	tool  string
	input json.RawMessage
}

type receiptKey struct{}

// receiptFile is the JSON of a receipt.
type receiptFile struct {
	Tool   string          `json:"tool"`
	Input  json.RawMessage `json:"input"`
	Result json.RawMessage `json:"result"`
}

// receiptFor returns the receipt of call cc of tool with input in.
func (s *Set) receiptFor(cc *runtime.CallContext, tool string, in json.RawMessage) *receipt {
	n := strings.TrimPrefix(cc.CallID, cc.RunID+"/")
	if cc.RunID == "" || n == cc.CallID || n == "" || strings.ContainsAny(n, "/.") {
		return nil
	}
	dir := s.opts.Exec.OutputDir
	if dir == "/" {
		dir = ""
	}
	return &receipt{path: dir + "/" + cc.RunID + "/calls/" + n + ".json", tool: tool, input: in}
}

// find returns the recorded result of an earlier execution of the call,
// if there was one with the same tool and input.
func (r *receipt) find(ctx context.Context, f *vfs.FS) (any, bool) {
	if r == nil {
		return nil, false
	}
	b, err := f.ReadFile(ctx, r.path)
	if err != nil {
		return nil, false
	}
	var rf receiptFile
	if json.Unmarshal(b, &rf) != nil || rf.Tool != r.tool || !bytes.Equal(rf.Input, r.input) {
		// Another program's call with the same number (a restarted
		// run took another path): not this call.
		return nil, false
	}
	var v any
	if json.Unmarshal(rf.Result, &v) != nil {
		return nil, false
	}
	return v, true
}

// stamp writes the receipt of the call ctx carries, if any, in b, with the
// tool's structured result out. Mutating tools call it in the transaction
// that makes their change.
func stamp(ctx context.Context, b *vfs.Batch, out any) error {
	r, _ := ctx.Value(receiptKey{}).(*receipt)
	if r == nil {
		return nil
	}
	res, err := json.Marshal(out)
	if err != nil {
		return err
	}
	data, err := json.Marshal(receiptFile{Tool: r.tool, Input: r.input, Result: res})
	if err != nil {
		return err
	}
	return b.WriteFile(r.path, data, &vfs.WriteOptions{MkdirAll: true})
}
