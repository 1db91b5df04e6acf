package runtime_test

import (
	"context"
	"fmt"
	"log"
	"time"

	"github.com/nookdev/nook"
	"github.com/nookdev/nook/runtime"
	"github.com/nookdev/nook/runtime/js"
	"github.com/nookdev/nook/runtime/shell"
	"github.com/nookdev/nook/vfs"
)

// Run a JavaScript module that reads a workspace file and calls a host
// module, then a shell script over the same files.
func ExampleRuntime_Exec() {
	ctx := context.Background()
	ws, err := nook.OpenMemory(ctx,
		nook.WithBackends(js.New(js.Options{}), shell.New(shell.Options{})),
		nook.WithModules(map[string]runtime.Module{"ws:orders": {
			"lookup": func(ctx context.Context, c *runtime.CallContext, args []any) (any, error) {
				return map[string]any{"id": args[0], "status": "shipped"}, nil
			},
		}}))
	if err != nil {
		log.Fatal(err)
	}
	defer ws.Close()
	err = ws.FS().WriteFile(ctx, "/workspace/notes/todo.md", []byte("- ship it\n"), &vfs.WriteOptions{MkdirAll: true})
	if err != nil {
		log.Fatal(err)
	}

	h, err := ws.Runtime().Exec(ctx, `
import { readFile } from "node:fs/promises";
import { lookup } from "ws:orders";
export default async ({ path, order }) => {
  console.log("reading", path);
  return { chars: (await readFile(path, "utf8")).length, order: await lookup(order) };
};`, runtime.ExecOptions{Input: map[string]any{"path": "notes/todo.md", "order": "A1"}, Timeout: 10 * time.Second})
	if err != nil {
		log.Fatal(err)
	}
	res, err := h.Result(ctx)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Print(res.Status, " ", res.ExitCode, " ", string(res.Stdout))
	fmt.Println(string(res.Value))

	h, err = ws.Runtime().Exec(ctx, `wc -l < notes/todo.md; echo done > notes/done.txt`,
		runtime.ExecOptions{Backend: "shell"})
	if err != nil {
		log.Fatal(err)
	}
	res, err = h.Result(ctx)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Print(res.Status, " ", string(res.Stdout))
	fmt.Println(res.Changes.Created)
	// Output:
	// completed 0 reading notes/todo.md
	// {"chars":10,"order":{"id":"A1","status":"shipped"}}
	// completed 1
	// [/workspace/notes/done.txt]
}
