// Package approvaltest holds the spellings of a protected path that once
// got round a path approval policy, shared by the tests of every entry
// into the tools (Set.Call, ws:tools from code, MCP): each must ask for
// approval, whichever way it is called.
package approvaltest

import (
	"context"
	"fmt"

	"github.com/nookdev/nook/vfs"
)

// Protected is the glob the cases run under (tools.ApprovalPolicy.Paths).
const Protected = "/workspace/secrets/**"

// Secret is the content of the protected file /workspace/secrets/key.
const Secret = "KEY=1\n"

// Case is one tool call and the reason the approval it asks for gives.
type Case struct {
	Name   string
	Tool   string
	Input  string // the tool's JSON input
	Reason string // the approval request's reason ("" for Allowed: none)
}

// Bypasses are calls that change the protected tree, each spelt another
// way: every one must wait for approval.
var Bypasses = []Case{
	{"dot segment", "write", `{"path":"/workspace/./secrets/key","content":"x"}`, "write of /workspace/secrets/key needs approval (it matches /workspace/secrets/**)"},
	{"double slash", "write", `{"path":"/workspace//secrets/key","content":"x"}`, "write of /workspace/secrets/key needs approval (it matches /workspace/secrets/**)"},
	{"dot-dot", "write", `{"path":"/workspace/x/../secrets/key","content":"x"}`, "write of /workspace/secrets/key needs approval (it matches /workspace/secrets/**)"},
	{"relative", "write", `{"path":"workspace/secrets/key","content":"x"}`, "write of /workspace/secrets/key needs approval (it matches /workspace/secrets/**)"},
	{"leading double slash", "write", `{"path":"//workspace/secrets/key","content":"x"}`, "write of /workspace/secrets/key needs approval (it matches /workspace/secrets/**)"},
	{"trailing slash dir", "write", `{"path":"/workspace/secrets/new/","content":"x"}`, "write of /workspace/secrets/new needs approval (it matches /workspace/secrets/**)"},
	{"through a symlink", "write", `{"path":"/workspace/s/key","content":"x"}`, "write of /workspace/secrets/key needs approval (it matches /workspace/secrets/**)"},
	{"symlink, new file", "write", `{"path":"/workspace/s/deep/new.txt","content":"x"}`, "write of /workspace/secrets/deep/new.txt needs approval (it matches /workspace/secrets/**)"},
	{"absolute symlink", "write", `{"path":"/workspace/abs/key","content":"x"}`, "write of /workspace/secrets/key needs approval (it matches /workspace/secrets/**)"},
	{"link to the file", "write", `{"path":"/workspace/keylink","content":"x"}`, "write of /workspace/secrets/key needs approval (it matches /workspace/secrets/**)"},
	{"edit, dot segment", "edit", `{"path":"/workspace/./secrets/key","edits":[{"oldText":"KEY=1","newText":"KEY=2"}]}`, "edit of /workspace/secrets/key needs approval (it matches /workspace/secrets/**)"},
	{"edit, symlink", "edit", `{"path":"/workspace/s/key","edits":[{"oldText":"KEY=1","newText":"KEY=2"}]}`, "edit of /workspace/secrets/key needs approval (it matches /workspace/secrets/**)"},
	{"delete through a symlink", "delete", `{"path":"/workspace/s/key"}`, "delete of /workspace/secrets/key needs approval (it matches /workspace/secrets/**)"},
	{"delete an ancestor", "delete", `{"path":"/workspace","recursive":true}`, "delete of /workspace needs approval (it contains paths matching /workspace/secrets/**)"},
	{"delete the root", "delete", `{"path":"/","recursive":true}`, "delete of / needs approval (it contains paths matching /workspace/secrets/**)"},
	{"move an ancestor away", "move", `{"from":"/workspace","to":"/elsewhere"}`, "move of /workspace needs approval (it contains paths matching /workspace/secrets/**)"},
	{"move the tree, spelt oddly", "move", `{"from":"/workspace/x/../secrets","to":"/workspace/public/s"}`, "move of /workspace/secrets needs approval (it matches /workspace/secrets/**)"},
	{"move onto a protected file", "move", `{"from":"/workspace/public/a.txt","to":"/workspace/./secrets/key"}`, "move of /workspace/secrets/key needs approval (it matches /workspace/secrets/**)"},
	{"move in through a symlink", "move", `{"from":"/workspace/public/a.txt","to":"/workspace/s/b.txt"}`, "move of /workspace/secrets/b.txt needs approval (it matches /workspace/secrets/**)"},
	{"move back over the tree", "move", `{"from":"/workspace/public","to":"/workspace/secrets"}`, "move of /workspace/secrets needs approval (it matches /workspace/secrets/**)"},
	{"patch update, dot-dot", "patch", `{"patch":"*** Begin Patch\n*** Update File: /workspace/x/../secrets/key\n@@\n-KEY=1\n+KEY=2\n*** End Patch"}`, "patch of /workspace/secrets/key needs approval (it matches /workspace/secrets/**)"},
	{"patch add, relative through a symlink", "patch", `{"patch":"*** Begin Patch\n*** Add File: s/new.txt\n+x\n*** End Patch","cwd":"/workspace"}`, "patch of /workspace/secrets/new.txt needs approval (it matches /workspace/secrets/**)"},
	{"patch move into the tree", "patch", `{"patch":"*** Begin Patch\n*** Update File: /workspace/public/a.txt\n*** Move to: /workspace//secrets/a.txt\n@@\n-a\n+b\n*** End Patch"}`, "patch of /workspace/secrets/a.txt needs approval (it matches /workspace/secrets/**)"},
}

// Allowed are calls beside the protected tree: none asks for approval and
// each succeeds (run them after Bypasses, in order).
var Allowed = []Case{
	{"write beside", "write", `{"path":"/workspace/public/ok.txt","content":"x"}`, ""},
	{"name that starts the same", "write", `{"path":"/workspace/secrets2/ok.txt","content":"x"}`, ""},
	{"move beside", "move", `{"from":"/workspace/public/ok.txt","to":"/workspace/x/ok.txt"}`, ""},
	{"patch beside", "patch", `{"patch":"*** Begin Patch\n*** Add File: /workspace/public/p.txt\n+p\n*** End Patch"}`, ""},
	{"delete the link, not its target", "delete", `{"path":"/workspace/s"}`, ""},
}

// Setup writes the workspace the cases run on: the protected file, a
// public file, a directory x and links s -> secrets, abs -> /workspace/secrets
// and keylink -> secrets/key.
func Setup(ctx context.Context, f *vfs.FS) error {
	for p, data := range map[string]string{
		"/workspace/secrets/key":  Secret,
		"/workspace/public/a.txt": "a\n",
		"/workspace/x/.keep":      "",
	} {
		if err := f.WriteFile(ctx, p, []byte(data), &vfs.WriteOptions{MkdirAll: true}); err != nil {
			return err
		}
	}
	for name, target := range map[string]string{
		"/workspace/s":       "secrets",
		"/workspace/abs":     "/workspace/secrets",
		"/workspace/keylink": "secrets/key",
	} {
		if err := f.Symlink(ctx, target, name); err != nil {
			return err
		}
	}
	return nil
}

// Unchanged checks that the protected tree is as Setup left it.
func Unchanged(ctx context.Context, f *vfs.FS) error {
	b, err := f.ReadFile(ctx, "/workspace/secrets/key")
	if err != nil {
		return err
	}
	if string(b) != Secret {
		return fmt.Errorf("/workspace/secrets/key = %q, want %q", b, Secret)
	}
	l, err := f.ReadDir(ctx, "/workspace/secrets", vfs.Page{})
	if err != nil {
		return err
	}
	if len(l.Entries) != 1 || l.Entries[0].Name != "key" {
		return fmt.Errorf("/workspace/secrets holds %+v, want key only", l.Entries)
	}
	return nil
}
