package worker_test

import (
	"context"
	"fmt"

	"github.com/nookdev/nook"
	"github.com/nookdev/nook/runtime"
	"github.com/nookdev/nook/runtime/js"
	"github.com/nookdev/nook/runtime/worker"
)

// A program enables the process tier in two steps: it calls worker.Main
// first thing in main (this test binary does it in TestMain), and gives its
// workspaces a pool. Each run then executes in a sandboxed worker process.
func Example() {
	ctx := context.Background()
	// func main() { worker.Main(js.Builder); ... }
	pool, err := worker.New(worker.Options{})
	if err != nil {
		panic(err)
	}
	defer pool.Close()
	ws, err := nook.OpenMemory(ctx, nook.WithBackends(js.New(js.Options{})), nook.WithIsolation(pool))
	if err != nil {
		panic(err)
	}
	defer ws.Close()
	h, err := ws.Runtime().Exec(ctx, `export default (x) => x.n + 1`, runtime.ExecOptions{Input: map[string]int{"n": 41}})
	if err != nil {
		panic(err)
	}
	res, err := h.Result(ctx)
	if err != nil {
		panic(err)
	}
	fmt.Println(res.Status, string(res.Value))
	// Output: completed 42
}
