package runtime_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/nookdev/nook"
	"github.com/nookdev/nook/runtime"
)

// A call run is one host-module call under the replay policy; it needs no
// backend of the embedder and is not offered as one.
func TestExecCall(t *testing.T) {
	ctx := context.Background()
	add := func(ctx context.Context, c *runtime.CallContext, args []any) (any, error) {
		return map[string]any{"sum": args[0].(float64) + args[1].(float64), "call": c.CallID}, nil
	}
	ws, err := nook.Open(ctx, filepath.Join(t.TempDir(), "w.db"),
		nook.WithModules(map[string]runtime.Module{"ws:math": {"add": add}}))
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	rt := ws.Runtime()
	if len(rt.Backends()) != 0 {
		t.Errorf("Backends() = %+v", rt.Backends())
	}
	h, err := rt.ExecCall(ctx, "ws:math/add", []any{2, 3}, runtime.ExecOptions{ID: "c1"})
	if err != nil {
		t.Fatal(err)
	}
	res, err := h.Result(ctx)
	if err != nil || res.Status != runtime.StatusCompleted || string(res.Value) != `{"call":"c1/1","sum":5}` {
		t.Fatalf("%v %+v", err, res)
	}
	if res.Backend != runtime.CallBackend {
		t.Errorf("backend %q", res.Backend)
	}
	_, err = rt.ExecCall(ctx, "ws:math/mul", nil, runtime.ExecOptions{})
	if err == nil || err.Error() != `no host-module function "ws:math/mul" (want ws:<module>/<function> of a registered module)` {
		t.Errorf("unknown function: %v", err)
	}
	if _, err := rt.Exec(ctx, "1", runtime.ExecOptions{}); err == nil {
		t.Errorf("Exec without backends succeeded")
	}
}
