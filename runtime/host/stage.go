package host

import "context"

// A StageFunc times a stage of a run's work that is not a host call, for
// the runtime's observer (tracing): the process tier's wait for a worker
// and its round trip to it. It is called as the stage starts and returns
// the context the stage's work is done in (a host call made within it is
// the stage's child) and the function to call once, as it ends, with its
// error and what is known of it by then.
//
// The runtime puts the StageFunc in the context a Program's Run is given
// (WithStages), so a program wrapped by an Isolator reports its stages
// without knowing who observes them.
type StageFunc func(ctx context.Context, name string) (context.Context, func(err error, attrs ...StageAttr))

// A StageAttr is a named value of a stage: a worker's process id, whether
// it was started for the stage. Value is a string, an int, an int64 or a
// bool; it never holds a program's source, a call's arguments or output.
type StageAttr struct {
	Key   string
	Value any
}

type stagesKey struct{}

// WithStages returns ctx carrying f, which StartStage calls.
func WithStages(ctx context.Context, f StageFunc) context.Context {
	return context.WithValue(ctx, stagesKey{}, f)
}

// StartStage starts the stage name of the run whose context is ctx: it
// returns the stage's context and the function that ends it. Without a
// StageFunc in ctx (no observer), it returns ctx and a function that does
// nothing, at no cost beyond the context lookup.
func StartStage(ctx context.Context, name string) (context.Context, func(err error, attrs ...StageAttr)) {
	if f, ok := ctx.Value(stagesKey{}).(StageFunc); ok && f != nil {
		return f(ctx, name)
	}
	return ctx, endNothing
}

func endNothing(error, ...StageAttr) {}
