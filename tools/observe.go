package tools

import "context"

// Observer sees the calls of a tool set's tools (Options.Observer), for
// tracing and metrics; package telemetry implements it with OpenTelemetry.
// It is called concurrently and must be safe for concurrent use.
type Observer interface {
	// ToolCall is called as a call starts; the call runs in the context
	// it returns, and done is called with what the caller gets: a
	// result (IsError for a tool failure), or the error that ended the
	// call (the end of ctx, a run's wait for approval). A call that
	// panicked is reported with the internal-error result its caller
	// gets. An Observer sees the tool's name and the call's ids, never
	// its input or result content (done's result must not be kept).
	ToolCall(ctx context.Context, c ToolCall) (cctx context.Context, done func(*Result, error))
}

// ToolCall describes a tool call to an Observer.
type ToolCall struct {
	// Tool is the tool's name.
	Tool string
	// CallID and RunID identify the host call and run of a call made by
	// code through ws:tools; both are empty for a model's call.
	CallID, RunID string
}
