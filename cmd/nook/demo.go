package main

import (
	"bufio"
	"embed"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
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
JavaScript module that counts the words of every file, a shell script over
the same live files, two of the tools a model calls, and a run that is
killed (SIGKILL) halfway and replayed from its journal by "nook runs
recover" (its output and its writes happen once), and prints each command
with its output.
Running it again writes only the sample files that changed. The output is
text even with --json.`,
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
	unchanged := 0
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
		if old, err := f.ReadFile(a.ctx, target); err == nil && string(old) == string(data) {
			unchanged++ // a rerun: already there
			return nil
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
	if st.Files == 0 {
		a.printf("the sample is already in place (%d files unchanged)\n", unchanged)
	} else {
		a.printf("%s\n", st.summary("imported"))
	}

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
	cwd, code := a.codeDir(root)
	if code {
		steps = append(steps, []string{"exec", "--cwd", cwd, "-e", wordCount},
			[]string{"exec", "--backend", "shell", "--cwd", cwd, "-e", shellScript})
	}
	steps = append(steps,
		[]string{"tool", "grep", fmt.Sprintf(`{"query":"retry","path":%q,"context":0}`, root)},
		[]string{"tool", "read", fmt.Sprintf(`{"path":%q,"limit":3}`, root+"/notes/todo.md")})
	for _, s := range steps {
		if err := a.demoStep(s...); err != nil {
			return err
		}
	}
	if code {
		if err := a.demoCrash(root, cwd, rev0); err != nil {
			return err
		}
	}
	if err := a.demoStep("changes", "--since", fmt.Sprint(rev0)); err != nil {
		return err
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

// shellScript is the shell run of the demo: bash over the same live
// files, with coreutils written in Go (nothing runs on the host), and node
// run by the shell on the JavaScript backend (a nested run).
const shellScript = `grep -rl TODO . | sort
wc -l $(find . -name '*.js' | sort) | tail -1
echo "$(ls src | wc -l) files in $(pwd)/src"
node -e 'console.log("node, run by the shell:", require("fs").readdirSync("src").join(" "))'`

// crashScript appends a step to a log and prints it, five times, pausing
// between steps: the demo kills the process running it after step 2.
const crashScript = `import fs from "node:fs/promises";
for (let i = 1; i <= 5; i++) {
  await fs.appendFile("crash.log", "step " + i + "\n");
  console.log("step " + i);
  await new Promise((r) => setTimeout(r, 250));
}`

// demoCrash starts a replay-policy run in a second nook process, kills
// that process with SIGKILL after the run printed "step 2", and resumes
// the run from its journal with "nook runs recover": the resumed run
// prints steps 3 to 5 only, and crash.log holds each step once.
func (a *app) demoCrash(root, cwd string, rev int64) error {
	id := fmt.Sprintf("demo-crash-%d", rev)
	if err := a.ws.FS().Remove(a.ctx, root+"/crash.log", &vfs.RemoveOptions{Force: true}); err != nil {
		return err
	}
	a.printf("\n$ nook exec --on-interrupt replay --id %s --cwd %s -e '<append \"step i\" to crash.log, five times>' &\n", id, cwd)
	self, err := os.Executable()
	if err != nil {
		return err
	}
	cmd := exec.CommandContext(a.ctx, self, "--db", a.dbPath, "exec", "--on-interrupt", "replay", "--id", id,
		"--cwd", cwd, "-e", crashScript)
	out, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	cmd.Stderr = a.stderr
	if err := cmd.Start(); err != nil {
		return err
	}
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		a.printf("%s\n", sc.Text())
		if sc.Text() == "step 2" {
			break
		}
	}
	cmd.Process.Kill()
	cmd.Wait()
	a.printf("(killed the process running %s with SIGKILL)\n", id)
	if err := a.demoStep("runs", "recover"); err != nil {
		return err
	}
	if err := a.demoStep("runs", "show", id); err != nil {
		return err
	}
	return a.demoStep("cat", root+"/crash.log")
}

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
