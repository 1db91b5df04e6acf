package git

import "github.com/nookdev/nook/runtime"

// ModuleDoc describes the ws:git module for runtime.Options.ModuleDocs or
// nook.WithModuleDocs: each function's TypeScript signature and purpose.
func ModuleDoc() runtime.ModuleDoc {
	return runtime.ModuleDoc{
		Summary: "git over the workspace (go-git, no host binary): each function takes an options object; a failed command throws an Error with code ERR_GIT",
		Funcs:   describe,
		Types: `// Every function's options take dir: the directory the command runs in, as git -C DIR does (absolute, or relative to the module's root; default the root).
interface Commit { hash: string; tree: string; parents: string[]; author: Person; committer: Person; subject: string; message: string }
interface Person { name: string; email: string; date: string }
interface FileStatus { path: string; staging: string; worktree: string }
`,
	}
}

// describe documents the functions of the module, by name.
var describe = map[string]runtime.FuncDoc{
	"init":     fn("(opts?: { path?: string; branch?: string; dir?: string }): Promise<{ path: string; branch?: string; reinitialized: boolean }>", "create a repository (default: the module's root)"),
	"status":   fn("(opts?: { dir?: string }): Promise<{ branch: string; head: string; clean: boolean; files: FileStatus[] }>", "the branch, HEAD and each changed file's porcelain status"),
	"add":      fn("(opts: { paths?: string[]; all?: boolean; dir?: string }): Promise<{ branch: string; head: string; clean: boolean; files: FileStatus[] }>", "stage paths (\".\" for everything) or all changes; returns the status"),
	"rm":       fn("(opts: { paths: string[]; cached?: boolean; dir?: string }): Promise<{ removed: string[] }>", "remove paths from the index (and the worktree unless cached)"),
	"commit":   fn("(opts: { message: string; all?: boolean; allowEmpty?: boolean; author?: { name: string; email: string }; date?: string | number; dir?: string }): Promise<{ hash: string; tree: string; branch: string; parents: string[]; subject: string }>", "commit the index (all: stage tracked changes first)"),
	"log":      fn("(opts?: { rev?: string; max?: number; path?: string; dir?: string }): Promise<{ commits: Commit[] }>", "commits reachable from rev (default HEAD), newest first"),
	"diff":     fn("(opts?: { from?: string; to?: string; cached?: boolean; paths?: string[]; dir?: string }): Promise<{ diff: string; files: any[] }>", "a unified diff between revisions, the index and the worktree"),
	"show":     fn("(opts?: { rev?: string; dir?: string }): Promise<{ commit: Commit; diff: string; files: any[] }>", "a commit with its diff"),
	"branch":   fn("(opts?: { name?: string; from?: string; delete?: boolean; force?: boolean; dir?: string }): Promise<any>", "list branches, or create or delete one"),
	"checkout": fn("(opts: { ref?: string; create?: boolean; paths?: string[]; force?: boolean; dir?: string }): Promise<any>", "switch branches or restore paths"),
	"reset":    fn("(opts?: { rev?: string; mode?: \"soft\" | \"mixed\" | \"hard\"; hard?: boolean; dir?: string }): Promise<{ head: string; mode: string }>", "move HEAD (and the index, and with hard the worktree)"),
	"tag":      fn("(opts?: { name?: string; rev?: string; message?: string; delete?: boolean; tagger?: { name: string; email: string }; date?: string | number; dir?: string }): Promise<any>", "list tags, or create or delete one"),
	"clone":    fn("(opts: { url: string; branch?: string; depth?: number; into?: string; dir?: string }): Promise<{ path: string; branch: string; head: string }>", "clone a remote repository (only with the embedder's AllowNetwork and an outbound policy)"),
	"fetch":    fn("(opts?: { remote?: string; dir?: string }): Promise<{ remote: string; upToDate: boolean }>", "fetch from a remote (network: see clone)"),
	"push":     fn("(opts?: { remote?: string; refspecs?: string[]; force?: boolean; dir?: string }): Promise<{ remote: string; upToDate: boolean }>", "push to a remote (network: see clone)"),
	"run":      fn("(opts: { args: string[]; dir?: string; exec?: boolean; resume?: { state: string; exitCode: number } }): Promise<{ stdout: string; stderr: string; exitCode: number; exec?: { command: string; dir: string; state: string } }>", "run a git command line (e.g. {args: [\"log\", \"--oneline\"]}) and get its output, as the shell's git prints it; with exec, git bisect run returns the command to run at each step (run it with sh -c in dir, then call again with resume)"),
}

// fn is a function's doc: its signature and purpose.
func fn(signature, doc string) runtime.FuncDoc {
	return runtime.FuncDoc{Signature: signature, Doc: doc}
}
