// Package hostlink carries what the runtime's journaling host sets on the
// CallContext of a host-module call. The context is runtime/host's, and its
// hooks are unexported so that the function serving a call cannot set them;
// runtime/host fills these functions in when it is initialised, and only
// packages under runtime can import this one.
package hostlink

import "context"

var (
	// Hook sets the UnsafeToRepeat and Interrupt hooks of cc, a
	// *host.CallContext.
	Hook func(cc any, beginUnsafe func(ctx context.Context) error, interrupt func(payload any) (any, error))
	// Op returns the op of cc, a *host.CallContext: "ws:<module>/<func>".
	Op func(cc any) string
)
