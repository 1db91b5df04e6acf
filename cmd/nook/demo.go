package main

import (
	"embed"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path"
	"strings"
	"time"

	"github.com/nookdev/nook/vfs"
)

// sample is the tree "nook demo" imports: a toy project to search.
//
//go:embed demo
var sample embed.FS

var cmdDemo = &command{
	name: "demo", group: "Workspace", synopsis: "[--dir PATH]",
	summary: "import a sample project and search it (start here)",
	help: `Shows nook at work with no setup and no server: opens the workspace (by
default .nook/workspace.db, created on first use, reused afterwards), copies a
small embedded sample project into PATH (default /workspace/demo, where
sandboxed code sees it), adds a symlink, then runs ls, find, grep, a
JavaScript module that counts the words of every file, and changes on it,
and prints each command with its output.
Running it again overwrites the sample files in place. The output is text
even with --json.`,
	run: runDemo,
}

func runDemo(a *app, fl *flag.FlagSet, args []string) error {
	dir := fl.String("dir", "/workspace/demo", "workspace directory `PATH` to import the sample into")
	if err := a.parse(fl, args, 0, 0); err != nil {
		return err
	}
	a.json = false
	state := "reused"
	if _, err := os.Stat(a.dbPath); errors.Is(err, fs.ErrNotExist) {
		state = "created"
	}
	f, err := a.workspace()
	if err != nil {
		return err
	}
	root, err := vfs.Clean(wsPath(*dir))
	if err != nil {
		return err
	}
	rev0, err := f.Rev(a.ctx)
	if err != nil {
		return err
	}
	a.printf("nook demo: workspace %s (%s, revision %d)\n", a.ws.Path(), state, rev0)

	// Import the embedded sample, as "nook import" does with a host tree.
	a.printf("\n$ nook import <embedded sample> %s\n", root)
	start := time.Now()
	var st transferStats
	err = fs.WalkDir(sample, "demo", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		target := path.Join(root, strings.TrimPrefix(p, "demo"))
		if d.IsDir() {
			if p != "demo" {
				st.Dirs++
			}
			return f.MkdirAll(a.ctx, target, 0)
		}
		data, err := sample.ReadFile(p)
		if err != nil {
			return err
		}
		if err := f.WriteFile(a.ctx, target, data, &vfs.WriteOptions{MkdirAll: true}); err != nil {
			return err
		}
		st.Files++
		st.Bytes += int64(len(data))
		return nil
	})
	if err != nil {
		return err
	}
	st.Seconds = time.Since(start).Seconds()
	a.printf("%s\n", st.summary("imported"))

	link := path.Join(root, "TODO")
	if _, err := f.Lstat(a.ctx, link); isNotExist(err) {
		if err := a.demoStep("ln", "-s", "notes/todo.md", link); err != nil {
			return err
		}
	}
	steps := [][]string{
		{"ls", "-l", root},
		{"cat", link},
		{"find", "--path", root, "**/*.js"},
		{"grep", "-i", "todo", root},
		{"grep", "-c", "--include", "*.{js,py}", "retr", root},
	}
	if cwd, ok := a.codeDir(root); ok {
		steps = append(steps, []string{"exec", "--cwd", cwd, "-e", wordCount})
	}
	steps = append(steps, []string{"changes", "--since", fmt.Sprint(rev0)})
	for _, s := range steps {
		if err := a.demoStep(s...); err != nil {
			return err
		}
	}
	nook := "go run ./cmd/nook"
	if a.dbPath != defaultDB {
		nook += " --db " + a.dbPath
	}
	a.printf(`
Everything above is stored in %[1]s. Try:
  %[4]s ls -l %[2]s
  %[4]s grep -C 1 -E 'retr(y|ies)' %[2]s
  echo hello | %[4]s put -p %[2]s/new/hello.txt
  %[4]s changes --since %[3]d
  %[4]s exec -e 'export default () => 6 * 7'
  %[4]s runs ls
  %[4]s tool edit '{"path":"%[2]s/notes/todo.md","edits":[{"oldText":"- [ ] move prices","newText":"- [x] move prices"}]}'
  %[4]s mcp          # the same tools for an MCP client, on stdin/stdout
  %[4]s help
`, a.ws.Path(), root, rev0, nook)
	return nil
}

// wordCount is the module the demo runs: it counts the words of every
// file under its working directory and returns a summary.
const wordCount = `import { readdir, readFile, lstat } from "node:fs/promises";

export default async () => {
  const words = {};
  for (const name of (await readdir(".", { recursive: true })).sort()) {
    if (!(await lstat(name)).isFile()) continue;
    words[name] = (await readFile(name, "utf8")).split(/\s+/).filter(Boolean).length;
  }
  const total = Object.values(words).reduce((a, b) => a + b, 0);
  console.log("counted the words of", Object.keys(words).length, "files");
  return { total, words };
};`

// codeDir returns dir relative to the default backend's root, when code
// can reach it.
func (a *app) codeDir(dir string) (string, bool) {
	bs := a.ws.Runtime().Backends()
	if len(bs) == 0 {
		return "", false
	}
	root := bs[0].Root
	if root == "" {
		root = "/workspace"
	}
	switch {
	case dir == root:
		return ".", true
	case root == "/":
		return strings.TrimPrefix(dir, "/"), true
	case strings.HasPrefix(dir, root+"/"):
		return strings.TrimPrefix(dir, root+"/"), true
	}
	return "", false
}

// demoStep prints a command line and runs it on the open workspace.
func (a *app) demoStep(args ...string) error {
	quoted := make([]string, len(args))
	for i, s := range args {
		quoted[i] = s
		if strings.Contains(s, "\n") {
			quoted[i] = "'\n" + s + "\n'"
		} else if strings.ContainsAny(s, "*?{}[] ") {
			quoted[i] = "'" + s + "'"
		}
	}
	a.printf("\n$ nook %s\n", strings.Join(quoted, " "))
	c := lookup(args[0])
	prev := a.cmd
	a.cmd = c
	defer func() { a.cmd = prev }()
	return c.run(a, a.flagSet(c), args[1:])
}
