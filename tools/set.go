package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/nookdev/nook/runtime"
	"github.com/nookdev/nook/vfs"
)

// Options configure a tool set. Zero values mean the defaults.
type Options struct {
	// ReadOnly leaves out every tool that changes the workspace: the set is
	// read, ls, find and grep. It leaves out exec too, since code can
	// change files.
	ReadOnly bool
	// Root is the directory relative paths are resolved against and the
	// default path of find and grep (default "/").
	Root string
	// Read, Write, Edit and List set per-tool caps.
	Read  ReadOptions
	Write WriteOptions
	Edit  EditOptions
	List  ListOptions
	// Locks is the lock table mutating tools share. Sets over the same
	// *vfs.FS share one by default; pass one explicitly to share it across
	// FS values that open the same workspace in one process.
	Locks *Locks
	// Runtime runs code for the exec tool, which the set has when Runtime
	// is not nil and has at least one backend. It must run over the same
	// workspace as the set's filesystem (nook.Workspace.Runtime).
	Runtime *runtime.Runtime
	// Exec configures the exec tool.
	Exec ExecOptions
	// Publisher, when not nil, gives the set the publish tool, which
	// shares a file through a time-limited link (not in a read-only set).
	Publisher Publisher
	// Publish configures the publish tool.
	Publish PublishOptions
	// Checkpoint gives the set the checkpoint tool (create, list, diff,
	// restore) when Enabled; off by default (not in a read-only set).
	Checkpoint CheckpointOptions
	// Hooks are middleware on every call of the set's tools (see Hook):
	// to validate, block, substitute results, require approval, observe
	// or redact.
	Hooks []Hook
	// DeferApprovals makes a model's call that a hook sends for approval
	// return at once, with a result saying it is queued (its structured
	// value {pending, runId, callId, reason}), instead of waiting for the
	// answer; the call is carried out when approved.
	DeferApprovals bool
	// Observer sees every call of the set's tools, a model's and code's
	// (ws:tools), for tracing and metrics (package telemetry); nil (the
	// default) sees nothing and costs nothing.
	Observer Observer
}

// ReadOptions cap the read tool.
type ReadOptions struct {
	MaxLines      int   // lines per call (default 2,000)
	MaxBytes      int   // bytes of text per call (default 50 KiB)
	MaxLineBytes  int   // a longer line is cut and marked (default 2,000)
	NoLineNumbers bool  // leave out the "N\t" prefix on each line
	MaxMediaBytes int64 // largest image or PDF returned as media (default 3.5 MiB)
	// MaxPaths is the most files one call may read with paths
	// (default 20); they share the call's MaxBytes and MaxMediaBytes.
	MaxPaths int
}

// WriteOptions cap the write tool.
type WriteOptions struct {
	MaxBytes int // largest content (default 2 MiB)
}

// EditOptions cap the edit and patch tools.
type EditOptions struct {
	MaxBytes int // largest file edited or updated by a patch (default 2 MiB)
	// MaxPatchFiles is the most file sections one patch may have
	// (default 1,000): a patch is one transaction, and a model that needs
	// more can send several.
	MaxPatchFiles int
	// MaxPatchBytes is the largest patch text (default 2 MiB, what one
	// write may carry).
	MaxPatchBytes int
}

// ListOptions cap ls, find and grep pages.
type ListOptions struct {
	DefaultLimit int // entries per page when the call names none (default 200)
	MaxLimit     int // largest page a call may ask for (default 1,000)
	// GrepTimeout bounds one grep call (default 10s): then it returns the
	// matches found so far, with a note saying so.
	GrepTimeout time.Duration
	// MaxDepth is the deepest tree ls lists with depth (default 10).
	MaxDepth int
	// MaxSortEntries is the most entries of one directory ls sorts by
	// size or mtime (default 10,000): such a sort reads the whole
	// directory, where a listing by name reads one page.
	MaxSortEntries int
}

// Defaults.
const (
	DefaultReadMaxLines       = 2000
	DefaultReadMaxBytes       = 50 << 10
	DefaultReadMaxLineBytes   = 2000
	DefaultReadMaxMediaBytes  = 3.5 * (1 << 20)
	DefaultReadMaxPaths       = 20
	DefaultWriteMaxBytes      = 2 << 20
	DefaultEditMaxBytes       = 2 << 20
	DefaultMaxPatchFiles      = 1000
	DefaultMaxPatchBytes      = 2 << 20
	DefaultListLimit          = 200
	DefaultListMaxLimit       = 1000
	DefaultGrepTimeout        = 10 * time.Second
	DefaultListMaxDepth       = 10
	DefaultListMaxSortEntries = 10000
)

func (o Options) withDefaults(f *vfs.FS) Options {
	if o.Root == "" {
		o.Root = "/"
	}
	def := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	def(&o.Read.MaxLines, DefaultReadMaxLines)
	def(&o.Read.MaxBytes, DefaultReadMaxBytes)
	def(&o.Read.MaxLineBytes, DefaultReadMaxLineBytes)
	def(&o.Read.MaxPaths, DefaultReadMaxPaths)
	if o.Read.MaxMediaBytes <= 0 {
		o.Read.MaxMediaBytes = DefaultReadMaxMediaBytes
	}
	def(&o.Write.MaxBytes, DefaultWriteMaxBytes)
	def(&o.Edit.MaxBytes, DefaultEditMaxBytes)
	def(&o.Edit.MaxPatchFiles, DefaultMaxPatchFiles)
	def(&o.Edit.MaxPatchBytes, DefaultMaxPatchBytes)
	def(&o.List.DefaultLimit, DefaultListLimit)
	def(&o.List.MaxLimit, DefaultListMaxLimit)
	def(&o.List.MaxDepth, DefaultListMaxDepth)
	def(&o.List.MaxSortEntries, DefaultListMaxSortEntries)
	if o.List.GrepTimeout <= 0 {
		o.List.GrepTimeout = DefaultGrepTimeout
	}
	def(&o.Exec.MaxOutputBytes, DefaultExecMaxOutputBytes)
	if o.Exec.MaxOutputBytes < 16 {
		o.Exec.MaxOutputBytes = 16
	}
	if o.Exec.ProgressInterval <= 0 {
		o.Exec.ProgressInterval = DefaultExecProgressInterval
	}
	if o.Exec.OutputDir == "" {
		o.Exec.OutputDir = runtime.DefaultOutputDir
		if o.Runtime != nil {
			o.Exec.OutputDir = o.Runtime.OutputDir()
		}
	}
	if o.Checkpoint.MaxList <= 0 {
		o.Checkpoint.MaxList = DefaultCheckpointMaxList
	}
	if o.Publish.DefaultExpiry <= 0 {
		o.Publish.DefaultExpiry = DefaultPublishExpiry
	}
	if o.Publish.MaxExpiry <= 0 {
		o.Publish.MaxExpiry = DefaultPublishMaxExpiry
	}
	o.Publish.DefaultExpiry = min(o.Publish.DefaultExpiry, o.Publish.MaxExpiry)
	if o.Locks == nil {
		o.Locks = locksFor(f)
	}
	return o
}

// Set is a workspace's tools.
type Set struct {
	fs    *vfs.FS
	opts  Options
	tools []*Tool
}

// builders make each tool; their order is the order Tools returns.
var builders = []struct {
	name     string
	mutating bool
	build    func(s *Set) *Tool
}{
	{"read", false, readTool},
	{"ls", false, lsTool},
	{"find", false, findTool},
	{"grep", false, grepTool},
	{"write", true, writeTool},
	{"edit", true, editTool},
	{"patch", true, patchTool},
	{"move", true, moveTool},
	{"delete", true, deleteTool},
	{"exec", true, execTool},
	{"publish", true, publishTool},
	{"checkpoint", true, checkpointTool},
}

// New returns the tool set over the workspace filesystem f.
func New(f *vfs.FS, opts Options) *Set {
	s := &Set{fs: f, opts: opts.withDefaults(f)}
	for _, b := range builders {
		if b.mutating && s.opts.ReadOnly {
			continue
		}
		t := b.build(s)
		if t == nil {
			continue
		}
		t.set, t.id = s, t.Name
		var sch struct{ Required []string }
		json.Unmarshal(t.InputSchema, &sch)
		t.required = sch.Required
		s.tools = append(s.tools, t)
	}
	return s
}

// Tools returns the set's tools in a stable order. Each is a copy: what a
// caller changes in one changes neither the set nor what its Call runs.
func (s *Set) Tools() []*Tool {
	out := make([]*Tool, len(s.tools))
	for i, t := range s.tools {
		c := *t
		out[i] = &c
	}
	return out
}

// Tool returns (a copy of) the named tool, or nil.
func (s *Set) Tool(name string) *Tool {
	if t := s.tool(name); t != nil {
		c := *t
		return &c
	}
	return nil
}

// tool returns the set's own named tool, or nil.
func (s *Set) tool(name string) *Tool {
	for _, t := range s.tools {
		if t.Name == name {
			return t
		}
	}
	return nil
}

// Call calls the named tool through the set's hooks (the one call path
// every entry takes); an unknown name is an error result listing the tools
// there are. A panic in a hook or a tool becomes an error result: the call
// fails closed.
func (s *Set) Call(ctx context.Context, name string, in json.RawMessage) (*Result, error) {
	if s.opts.Observer == nil {
		return s.call(ctx, name, in)
	}
	ctx, done := s.opts.Observer.ToolCall(ctx, ToolCall{Tool: name})
	res, err := s.call(ctx, name, in)
	done(res, err)
	return res, err
}

// call is Call without its observer.
func (s *Set) call(ctx context.Context, name string, in json.RawMessage) (res *Result, err error) {
	defer func() {
		if p := recover(); p != nil {
			res, err = Errorf("internal error in %s: %v", name, p), nil
		}
	}()
	t := s.tool(name)
	if t == nil {
		names := make([]string, len(s.tools))
		for i, t := range s.tools {
			names[i] = t.Name
		}
		return Errorf("unknown tool %q; the tools are %v", name, names), nil
	}
	return s.callModel(ctx, t, in)
}

// abs resolves a model-given path against the set's root; the workspace
// canonicalises it.
func (s *Set) abs(p string) string {
	if p == "" {
		return s.opts.Root
	}
	if p[0] == '/' {
		return p
	}
	if s.opts.Root == "/" {
		return "/" + p
	}
	return s.opts.Root + "/" + p
}

// page clamps a model's limit and offset.
func (s *Set) page(limit, offset *int) (vfs.Page, *Result) {
	p := vfs.Page{Limit: s.opts.List.DefaultLimit}
	if limit != nil {
		if *limit < 1 || *limit > s.opts.List.MaxLimit {
			return p, Errorf("limit must be between 1 and %d, got %d", s.opts.List.MaxLimit, *limit)
		}
		p.Limit = *limit
	}
	if offset != nil {
		if *offset < 0 {
			return p, Errorf("offset must not be negative, got %d", *offset)
		}
		p.Offset = *offset
	}
	return p, nil
}

// schema is a helper for the hand-written schemas: it checks once, at
// start-up, that a literal is valid JSON.
func schema(s string) json.RawMessage {
	if !json.Valid([]byte(s)) {
		panic(fmt.Sprintf("tools: invalid schema literal: %s", s))
	}
	return json.RawMessage(s)
}
