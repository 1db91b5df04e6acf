package tools_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/nookdev/nook/tools"
	"github.com/nookdev/nook/vfs"
)

func Example() {
	ctx := context.Background()
	f, _ := vfs.Open(ctx, "", nil) // an in-memory workspace
	defer f.Close()
	set := tools.New(f, tools.Options{})

	call := func(name, args string) {
		res, err := set.Call(ctx, name, json.RawMessage(args))
		if err != nil {
			panic(err) // only when ctx ends
		}
		if res.IsError {
			fmt.Print("error: ")
		}
		fmt.Println(res.Content[0].Text)
	}
	call("write", `{"path":"/src/app.py","content":"print(\"hi\")\n"}`)
	call("edit", `{"path":"/src/app.py","edits":[{"oldText":"hi","newText":"hello"}]}`)
	call("grep", `{"query":"hello"}`)
	call("read", `{"path":"/src/ap.py"}`)
	// Output:
	// Created /src/app.py (12 bytes)
	// Edited /src/app.py: edit 1 at line 1 matched exactly.
	// --- a/src/app.py
	// +++ b/src/app.py
	// @@ -1 +1 @@
	// -print("hi")
	// +print("hello")
	//
	// /src/app.py:1:print("hello")
	//
	// error: File not found: /src/ap.py Did you mean: /src/app.py?
}
