package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"syscall"
	"testing"
)

// Flags may come after the arguments, the global ones after the command,
// and "--" ends the flags.
func TestFlagsAnywhere(t *testing.T) {
	w := newWS(t)
	w.put("/tmpfile.txt", "x")
	equal(t, "rm PATH -f", w.ok("rm", "/tmpfile.txt", "-f"), "")
	if r := w.run("stat", "/tmpfile.txt"); r.code != 1 {
		t.Errorf("the file is still there: %+v", r)
	}
	if r := w.run("stat", "/-f"); r.code != 1 || !strings.Contains(r.stderr, "(ENOENT)") {
		t.Errorf("stat /-f: %+v", r)
	}
	w.ok("mkdir", "/a/b/c", "-p")
	equal(t, "ls after mkdir -p", w.ok("ls", "/a/b"), "c\n")
	equal(t, "ls PATH -l", strings.Fields(w.ok("ls", "/a", "-l"))[0], "drwxr-xr-x")

	// Global flags after the command.
	var doc map[string]any
	if err := json.Unmarshal([]byte(w.ok("exec", "-e", "console.log(1)", "--json")), &doc); err != nil || doc["stdout"] != "1\n" {
		t.Errorf("exec -e SRC --json: %v %v", doc, err)
	}
	equal(t, "mkdir --json after the args", w.ok("mkdir", "/d", "--json"), `{"created":["/d"]}`+"\n")
	other := filepath.Join(t.TempDir(), "other.db")
	cmd := exec.Command(nookBin, "put", "/o.txt", "--db", other)
	cmd.Env = append(os.Environ(), "NOOK_DB=")
	cmd.Stdin = strings.NewReader("other\n")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("put --db after the command: %v %s", err, out)
	}
	cmd = exec.Command(nookBin, "cat", "--db="+other, "/o.txt")
	cmd.Env = append(os.Environ(), "NOOK_DB=")
	if out, err := cmd.Output(); err != nil || string(out) != "other\n" {
		t.Errorf("cat --db=FILE PATH: %q %v", out, err)
	}

	// Global flags before a subcommand.
	if out := w.ok("runs", "--json", "ls"); !strings.HasPrefix(out, `{"runs":[`) {
		t.Errorf("runs --json ls: %q", out)
	}
	if out := w.ok("tools", "--json"); !strings.HasPrefix(out, `[{"name":"read"`) {
		t.Errorf("tools --json: %.40q", out)
	}
	equal(t, "approvals --db FILE ls", w.ok("approvals", "--db", w.db, "ls"), "no calls are waiting\n")

	// "--" ends the flags: "-f" is a path.
	w.put("/-f", "dash")
	equal(t, "cat -- -f", w.ok("cat", "--", "-f"), "dash")
	w.ok("rm", "--", "-f")
	if r := w.run("cat", "--", "/-f"); r.code != 1 {
		t.Errorf("/-f is still there: %+v", r)
	}
	// A flag's value is taken as it is, even when it looks like a flag.
	equal(t, "find --path VALUE", w.ok("find", "*", "--path", "/a"), "/a/b\n")

	// Usage errors still are.
	w.fail(2, "nook: rm: flag provided but not defined: -z\nusage: nook rm [-r] [-f] PATH...\nRun 'nook help rm' for details.\n", "rm", "/x", "-z")
	w.fail(2, "", "cat", "/a", "/b")
	r := w.run("help", "rm")
	if !strings.Contains(r.stdout, "Flags (anywhere on the line; -- ends them):\n  -f ") || strings.Contains(r.stdout, "--json") {
		t.Errorf("help rm:\n%s", r.stdout)
	}
}

// Exit statuses: grep without a match, a future revision, killing a
// finished run; host errors end with their code.
func TestExitStatuses(t *testing.T) {
	w := newWS(t)
	w.put("/x/a.txt", "hello\n")
	r := w.run("grep", "nosuchthing", "/x")
	if r.code != 1 || r.stdout != "" || r.stderr != "" {
		t.Errorf("grep without a match: %+v, want exit 1 and no output", r)
	}
	r = w.run("--json", "grep", "nosuchthing", "/x")
	if r.code != 1 || r.stdout != `{"query":"nosuchthing","path":"/x"}`+"\n" {
		t.Errorf("grep --json without a match: %+v", r)
	}
	equal(t, "grep with a match", w.ok("grep", "hello", "/x"), "/x/a.txt:1:hello\n")

	rev := strings.TrimPrefix(strings.Split(w.ok("usage"), "\n")[1], "revision: ")
	w.fail(1, fmt.Sprintf("nook: revision 9999 is in the future: the workspace is at revision %s (EINVAL)\n", rev), "changes", "--since", "9999")
	w.fail(1, fmt.Sprintf("nook: revision 9999 is in the future: the workspace is at revision %s (EINVAL)\n", rev), "changes", "--since", "9999", "--follow")
	w.ok("changes", "--since", rev)

	w.ok("exec", "--id", "done1", "-e", "1")
	w.fail(1, "nook: run done1 has already finished (completed, exit code 0) (EINVAL)\n", "runs", "kill", "done1")
	w.fail(1, "nook: no such run: nosuch (ENOENT)\n", "runs", "kill", "nosuch")

	w.fail(1, "nook: stat /nonexistent: no such file or directory (ENOENT)\n", "import", "/nonexistent", "/x")
	r = w.run("--json", "import", "/nonexistent", "/x")
	if r.code != 1 || !strings.Contains(r.stderr, `"code":"ENOENT"`) {
		t.Errorf("import --json of a missing host path: %+v", r)
	}
	w.fail(1, "nook: open /nonexistent/prog.js: no such file or directory (ENOENT)\n", "exec", "/nonexistent/prog.js")
}

// jsonKeys collects every object key of a JSON document.
func jsonKeys(v any, keys map[string]bool) {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			keys[k] = true
			jsonKeys(x, keys)
		}
	case []any:
		for _, x := range v {
			jsonKeys(x, keys)
		}
	}
}

// Every --json document has camelCase keys.
func TestJSONKeysAreCamelCase(t *testing.T) {
	w := newWS(t)
	w.put("/a.txt", "hello\n")
	w.okIn([]byte{0xff, 0xfe, 0}, "put", "/bin")
	w.ok("mv", "/a.txt", "/b.txt")
	w.ok("checkpoint", "k1")
	w.ok("exec", "--id", "r1", "--checkpoint", "--backend", "shell", "-e", "echo hi > c.txt")
	host := t.TempDir()
	os.WriteFile(filepath.Join(host, "h.txt"), []byte("h"), 0o644)
	keys := map[string]bool{}
	for _, args := range [][]string{
		{"usage"}, {"stat", "/b.txt"}, {"ls", "/"}, {"changes"}, {"cat", "/bin"}, {"cat", "/b.txt"},
		{"runs", "ls"}, {"runs", "show", "r1"}, {"runs", "backends"}, {"version"}, {"gc"},
		{"find", "*"}, {"grep", "hello"}, {"import", host, "/h"}, {"export", "/h", t.TempDir()},
		{"tools", "list"}, {"exec", "--backend", "shell", "-e", "echo hi > d.txt"},
		{"tool", "ls", `{"path":"/"}`},
		{"checkpoint", "k2"}, {"checkpoints"}, {"diff", "k1"}, {"undo", "r1"}, {"restore", "k1"},
	} {
		out := w.ok(append([]string{"--json"}, args...)...)
		var v any
		if err := json.Unmarshal([]byte(out), &v); err != nil {
			t.Errorf("nook --json %v: %v\n%s", args, err, out)
			continue
		}
		if args[0] == "tool" {
			v = v.(map[string]any)["content"] // structured output is the tool's own
		}
		jsonKeys(v, keys)
	}
	camel := regexp.MustCompile(`^[a-z][a-zA-Z0-9]*$`)
	var bad []string
	for k := range keys {
		if !camel.MatchString(k) {
			bad = append(bad, k)
		}
	}
	sort.Strings(bad)
	if len(bad) > 0 {
		t.Errorf("keys not in camelCase: %v", bad)
	}
	for _, k := range []string{"maxFileSize", "maxEntries", "bytes", "entries", "stored", "oldPath", "contentBase64", "changes"} {
		if !keys[k] {
			t.Errorf("no key %q in the documents", k)
		}
	}
}

// exec --json lists the files the run changed.
func TestExecJSONChanges(t *testing.T) {
	w := newWS(t)
	w.put("/workspace/old.txt", "x")
	var res struct {
		Changes map[string][]string `json:"changes"`
	}
	out := w.ok("exec", "--json", "--backend", "shell", "-e", "echo a > new.txt; rm old.txt")
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{"created": {"/workspace/new.txt"}, "updated": {}, "deleted": {"/workspace/old.txt"}, "dirsCreated": {}, "dirsDeleted": {}}
	if fmt.Sprint(res.Changes) != fmt.Sprint(want) {
		t.Errorf("exec --json changes = %v, want %v", res.Changes, want)
	}
}

// A run whose process was killed shows as interrupted, not running.
func TestInterruptedRun(t *testing.T) {
	w := newWS(t)
	cmd, out := w.startExec("--on-interrupt", "restart", "--id", "orph", "-e",
		`console.log("started"); await new Promise((r) => setTimeout(r, 60000));`)
	equal(t, "first line", readLine(t, out), "started\n")
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	ls := w.ok("runs", "ls")
	if !regexp.MustCompile(`(?m)^orph +js +interrupted +- `).MatchString(ls) ||
		!strings.HasSuffix(ls, "interrupted: its process is gone; nook runs recover resumes it\n") {
		t.Errorf("runs ls:\n%s", ls)
	}
	show := w.ok("runs", "show", "orph")
	if !strings.Contains(show, "\nstatus:   interrupted (its process is gone): nook runs recover resumes it\n") {
		t.Errorf("runs show:\n%s", show)
	}
	var doc struct {
		Runs []struct {
			ID          string `json:"id"`
			Status      string `json:"status"`
			Interrupted bool   `json:"interrupted"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(w.ok("--json", "runs", "ls")), &doc); err != nil || len(doc.Runs) != 1 ||
		doc.Runs[0].Status != "running" || !doc.Runs[0].Interrupted {
		t.Errorf("runs ls --json: %+v %v", doc, err)
	}
}

// nook exec runs a workspace file named ws:PATH.
func TestExecWorkspaceFile(t *testing.T) {
	w := newWS(t)
	w.put("/workspace/x.ts", "const n: number = 41;\nconsole.log(n + 1);\n")
	w.put("/workspace/s.sh", "echo from the shell\n")
	equal(t, "exec ws:/workspace/x.ts", w.ok("exec", "ws:/workspace/x.ts"), "42\n")
	equal(t, "exec ws:/workspace/s.sh", w.ok("exec", "ws:/workspace/s.sh"), "from the shell\n")
	w.fail(1, "nook: no such file: /workspace/nope.ts (ENOENT)\n", "exec", "ws:/workspace/nope.ts")
}

// A run stopped by its output limit says so on stderr.
func TestExecOutputLimitMessage(t *testing.T) {
	w := newWS(t)
	r := w.run("exec", "-e", `for(;;)console.log("x".repeat(1000))`)
	if r.code != 1 || !regexp.MustCompile(`^nook: output of \d+ bytes exceeds the limit MaxOutputBytes \(16777216\)\n$`).MatchString(r.stderr) {
		t.Errorf("exec over the output limit: exit %d, stderr %q", r.code, r.stderr)
	}
	// An error the program printed itself is not repeated.
	r = w.run("exec", "-e", `throw new Error("boom")`)
	if r.code != 1 || strings.Count(r.stderr, "boom") != 1 || strings.Contains(r.stderr, "nook:") {
		t.Errorf("exec that throws: exit %d, stderr %q", r.code, r.stderr)
	}
}

// Names with control characters are quoted in text output, raw in --json.
func TestControlCharacterNames(t *testing.T) {
	w := newWS(t)
	w.put("/d/a\nb", "needle\n")
	w.put("/d/\x1b[31mred", "needle\n")
	equal(t, "ls", w.ok("ls", "/d"), "\"\\x1b[31mred\"\n\"a\\nb\"\n")
	equal(t, "find", w.ok("find", "*", "--path", "/d"), "\"/d/\\x1b[31mred\"\n\"/d/a\\nb\"\n")
	equal(t, "grep", w.ok("grep", "needle", "/d"), "\"/d/\\x1b[31mred\":1:needle\n\"/d/a\\nb\":1:needle\n")
	equal(t, "grep -l", w.ok("grep", "-l", "needle", "/d"), "\"/d/\\x1b[31mred\"\n\"/d/a\\nb\"\n")
	var doc struct {
		Entries []struct{ Name string } `json:"entries"`
	}
	if err := json.Unmarshal([]byte(w.ok("--json", "ls", "/d")), &doc); err != nil || len(doc.Entries) != 2 || doc.Entries[1].Name != "a\nb" {
		t.Errorf("ls --json: %+v %v", doc, err)
	}
	if tool := w.ok("tool", "ls", `{"path":"/d"}`); !strings.Contains(tool, "\"a\\nb\"\t7\t") {
		t.Errorf("tool ls: %q", tool)
	}
}

// nook tools shows whole descriptions: exec's backends too.
func TestToolsListWhole(t *testing.T) {
	w := newWS(t)
	out := w.ok("tools")
	if !strings.Contains(out, "Backends:\n         - \"shell\": ") || !strings.Contains(out, "\n         Default backend: \"shell\".\n") {
		t.Errorf("nook tools:\n%s", out)
	}
}
