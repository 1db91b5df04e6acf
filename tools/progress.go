package tools

import "context"

// Progress is a snapshot of a long tool call, for a client to show while it
// waits (MCP's notifications/progress).
type Progress struct {
	// Message says what the call is doing, e.g. "running: 3.0 KiB stdout,
	// 0 B stderr, last line: compiling".
	Message string
	// Current grows with every report of one call; Total is what Current
	// will reach at the end, or 0 when that is unknown.
	Current, Total float64
}

type progressKey struct{}

// WithProgress returns a context under which a tool call reports its
// progress to fn. Only long-running tools report (exec does, at most once
// per ExecOptions.ProgressInterval); the others ignore it. fn is called
// from a goroutine of the call, never concurrently with itself and never
// after Call has returned; it should not block for long.
func WithProgress(ctx context.Context, fn func(Progress)) context.Context {
	if fn == nil {
		return ctx
	}
	return context.WithValue(ctx, progressKey{}, fn)
}

// progressFunc returns the progress callback of ctx, or nil.
func progressFunc(ctx context.Context) func(Progress) {
	fn, _ := ctx.Value(progressKey{}).(func(Progress))
	return fn
}
