package fleet

import (
	"context"
	"sync"

	"github.com/nookdev/nook"
	"github.com/nookdev/nook/tools"
)

// Front is a tool set that stands for workspace ws on any node: it lists
// the same tools as the owner's set (same template, same backends), and
// every call goes through Node.Call to the owner, wherever it is. Serve it
// over MCP (tools/mcp) to give clients one address per workspace on every
// node. Close releases the in-memory workspace that carries its schemas.
type Front struct {
	*tools.Set
	ws   *nook.Workspace
	once sync.Once
}

// Front returns the front tool set of workspace ws. The front's own
// workspace is an empty in-memory one, never called: a hook substitutes
// every call's result with the owner's.
func (n *Node) Front(ctx context.Context, ws string) (*Front, error) {
	if err := CheckName("workspace", ws); err != nil {
		return nil, err
	}
	mem, err := nook.OpenMemory(ctx, n.opts.Workspace...)
	if err != nil {
		return nil, err
	}
	topts := n.opts.Tools
	topts.Runtime = mem.Runtime()
	// The owner's set observes the call (tracing, metrics): counted here
	// too, a call routed to this node's own workspace would count twice.
	topts.Observer = nil
	topts.Hooks = []tools.Hook{{Before: func(ctx context.Context, c *tools.Call) tools.Verdict {
		res, err := n.Call(ctx, ws, c.Tool, c.Input)
		if err != nil {
			return tools.Verdict{Result: tools.Errorf("%s", err.Error())}
		}
		return tools.Verdict{Result: res}
	}}}
	return &Front{Set: tools.New(mem.FS(), topts), ws: mem}, nil
}

// Close closes the front's in-memory workspace.
func (f *Front) Close() error {
	var err error
	f.once.Do(func() { err = f.ws.Close() })
	return err
}
