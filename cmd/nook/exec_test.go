package main

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestExec(t *testing.T) {
	w := newWS(t)
	dir := t.TempDir()
	file := filepath.Join(dir, "hello.js")
	if err := os.WriteFile(file, []byte(`console.log("hi"); console.error("careful"); export {};`), 0o644); err != nil {
		t.Fatal(err)
	}
	r := w.run("exec", file)
	if r.code != 0 || r.stdout != "hi\n" || r.stderr != "careful\n" {
		t.Errorf("exec file: %+v", r)
	}
	// -e, a value, and the exit code of the run.
	equal(t, "value", w.ok("exec", "-e", "export default () => 42"), "42\n")
	r = w.run("exec", "-e", `console.log("bye"); process.exit(3)`)
	if r.code != 3 || r.stdout != "bye\n" {
		t.Errorf("process.exit(3): %+v", r)
	}
	// The source from standard input.
	equal(t, "stdin source", w.okIn([]byte(`console.log("from stdin"); export {}`), "exec", "-"), "from stdin\n")
	// --stdin passes standard input to the run; --env and --input reach it.
	equal(t, "env and input", w.ok("exec", "--env", "WHO=you", "--input", `{"n":2}`, "-e",
		`export default (x) => process.env.WHO + " " + x.n * 2`), "\"you 4\"\n")
	// A workspace file, with --cwd relative to the backend's root.
	w.put("/workspace/data/n.txt", "7")
	equal(t, "cwd", w.ok("exec", "--cwd", "data", "-e",
		`import { readFileSync } from "node:fs"; console.log(readFileSync("n.txt", "utf8"))`), "7\n")

	// --json: the result as one document; the exit status is still the run's.
	r = w.run("--json", "exec", "--id", "j1", "-e", `console.log("out"); export default () => ({ok: true})`)
	v := jsonDoc(t, "exec --json", r.stdout)
	if r.code != 0 || v["id"] != "j1" || v["backend"] != "js" || v["status"] != "completed" || v["exitCode"] != 0.0 ||
		v["stdout"] != "out\n" || v["stdoutBytes"] != 4.0 {
		t.Errorf("exec --json: %d %v", r.code, v)
	}
	if val, _ := v["value"].(map[string]any); val["ok"] != true {
		t.Errorf("exec --json value = %v", v["value"])
	}
	r = w.run("--json", "exec", "-e", `process.exit(5)`)
	if v := jsonDoc(t, "failed exec --json", r.stdout); r.code != 5 || v["status"] != "failed" {
		t.Errorf("failed exec --json: %d %v", r.code, v)
	}

	// A timeout exits 124.
	r = w.run("exec", "--timeout", "100ms", "-e", `await new Promise(r => setTimeout(r, 60000))`)
	if r.code != 124 || !strings.Contains(r.stderr, "Execution timed out after 100ms (limit Timeout).") {
		t.Errorf("timeout: %+v", r)
	}

	// Errors before the run: usage (2) and the backend's refusal (1).
	w.fail(2, "", "exec")
	w.fail(2, "", "exec", "-e", "1", file)
	w.fail(2, "", "exec", "--input", "{nope", "-e", "1")
	w.fail(2, "", "exec", "--env", "NOEQUALS", "-e", "1")
	r = w.run("exec", "-e", "syntax error here(")
	if r.code != 1 || !strings.HasPrefix(r.stderr, "nook: ") || !strings.HasSuffix(r.stderr, "(EINVAL)\n") {
		t.Errorf("syntax error: %+v", r)
	}
	w.fail(1, "nook: no backend with id \"py\"; configured backends: \"js\", \"shell\", \"wasm\" (EINVAL)\n", "exec", "--backend", "py", "-e", "1")
	r = w.run("--json", "exec", "--backend", "py", "-e", "1")
	if v := jsonDoc(t, "json error", r.stderr); r.code != 1 || v["code"] != "EINVAL" || v["op"] != "exec" {
		t.Errorf("exec --json error: %d %v", r.code, v)
	}
}

func TestExecPlainScript(t *testing.T) {
	// A script without import or export is a module too, and has no value.
	w := newWS(t)
	equal(t, "plain script", w.ok("exec", "-e", `console.log("hi")`), "hi\n")
	equal(t, "require only", w.ok("exec", "-e", `const p = require("node:path"); console.log(p.join("a", "b"))`), "a/b\n")
	equal(t, "CommonJS export", w.ok("exec", "-e", `module.exports = () => 7`), "7\n")
}

func TestExecLongOutput(t *testing.T) {
	// More output than a run's record keeps (1 MiB): the rest comes from
	// the file that holds it all.
	w := newWS(t)
	out := w.ok("exec", "-e", `for (let i = 0; i < 200000; i++) console.log("line " + i); export {}`)
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != 200000 || lines[0] != "line 0" || lines[199999] != "line 199999" {
		t.Errorf("got %d lines, first %q, last %q", len(lines), lines[0], lines[len(lines)-1])
	}
}

func TestRuns(t *testing.T) {
	w := newWS(t)
	w.ok("exec", "--id", "first", "-e", `console.log("a"); console.error("b"); export default () => [1, 2]`)
	w.run("exec", "--id", "second", "-e", `process.exit(2)`)

	out := w.ok("runs", "ls")
	re := regexp.MustCompile(`(?m)^ID +BACKEND +STATUS +EXIT +CREATED +DURATION +OUTPUT\n` +
		`second +js +failed +2 +\d{4}-\d\d-\d\d \d\d:\d\d:\d\d +\S+ +0 B\n` +
		`first +js +completed +0 +\d{4}-\d\d-\d\d \d\d:\d\d:\d\d +\S+ +4 B\n$`)
	if !re.MatchString(out) {
		t.Errorf("runs ls:\n%s", out)
	}
	v := jsonDoc(t, "runs ls --json", w.ok("--json", "runs", "ls"))
	if runs, _ := v["runs"].([]any); len(runs) != 2 || runs[0].(map[string]any)["id"] != "second" ||
		runs[0].(map[string]any)["exitCode"] != 2.0 {
		t.Errorf("runs ls --json = %v", v)
	}

	out = w.ok("runs", "show", "first")
	for _, want := range []string{"id:       first\n", "status:   completed\nexit:     0\n", "value:    [1,2]\n",
		"--- stdout (2 B) ---\na\n--- stderr (2 B) ---\nb\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("runs show lacks %q:\n%s", want, out)
		}
	}
	v = jsonDoc(t, "runs show --json", w.ok("--json", "runs", "show", "first"))
	if v["stdout"] != "a\n" || v["stderr"] != "b\n" || v["status"] != "completed" {
		t.Errorf("runs show --json = %v", v)
	}

	// tail of a finished run prints its output and exits with its code.
	r := w.run("runs", "tail", "first")
	if r.code != 0 || r.stdout != "a\n[1,2]\n" || r.stderr != "b\n" {
		t.Errorf("runs tail first: %+v", r)
	}
	r = w.run("runs", "tail", "--from", "1", "first")
	if r.stdout != "[1,2]\n" || r.stderr != "b\n" {
		t.Errorf("runs tail --from 1: %+v", r)
	}
	if r := w.run("runs", "tail", "second"); r.code != 2 {
		t.Errorf("runs tail second: %+v", r)
	}
	out = w.ok("--json", "runs", "tail", "first")
	if !strings.HasPrefix(out, `{"seq":1,"kind":"stdout","data":"a\n"}`+"\n") ||
		!strings.HasSuffix(out, `"kind":"exit","status":"completed","exitCode":0,"value":[1,2]}`+"\n") {
		t.Errorf("runs tail --json:\n%s", out)
	}

	// dispose, then the run is gone.
	w.ok("runs", "dispose", "second")
	w.fail(1, "nook: no such run: second (ENOENT)\n", "runs", "show", "second")
	w.fail(1, "nook: no such run: second (ENOENT)\n", "runs", "dispose", "second")
	w.fail(1, "nook: no such run: nope (ENOENT)\n", "runs", "kill", "nope")
	w.fail(2, "", "runs")
	w.fail(2, "", "runs", "frob")
	w.fail(2, "", "runs", "show")

	if out := w.ok("runs", "backends"); !strings.HasPrefix(out, "js (callable, root /workspace, default): JavaScript") {
		t.Errorf("runs backends: %q", out)
	}
}

// startExec starts "nook exec" in the background; it returns the command
// and its stdout, read line by line.
func (w *ws) startExec(args ...string) (*exec.Cmd, *bufio.Reader) {
	w.t.Helper()
	cmd := exec.Command(nookBin, append([]string{"--db", w.db, "exec"}, args...)...)
	cmd.Env = append(os.Environ(), "NOOK_DB=")
	var errb bytes.Buffer
	cmd.Stderr = &errb
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		w.t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		w.t.Fatal(err)
	}
	w.t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	return cmd, bufio.NewReader(stdout)
}

func readLine(t *testing.T, r *bufio.Reader) string {
	t.Helper()
	line, err := r.ReadString('\n')
	if err != nil {
		t.Fatalf("reading a line: %v (got %q)", err, line)
	}
	return line
}

func TestRunsTailFromAnotherProcess(t *testing.T) {
	w := newWS(t)
	cmd, out := w.startExec("--id", "bg", "-e",
		`console.log("one"); await new Promise(r => setTimeout(r, 700)); console.log("two"); process.exit(4)`)
	equal(t, "first line", readLine(t, out), "one\n")
	// The run is going: show says so, tail follows it to its end.
	if s := w.ok("runs", "show", "bg"); !strings.Contains(s, "status:   running for ") {
		t.Errorf("runs show of a running run:\n%s", s)
	}
	start := time.Now()
	r := w.run("runs", "tail", "bg")
	if r.code != 4 || r.stdout != "one\ntwo\n" {
		t.Errorf("runs tail: %+v", r)
	}
	if time.Since(start) < 200*time.Millisecond {
		t.Errorf("runs tail returned after %v: it did not follow the run", time.Since(start))
	}
	equal(t, "second line", readLine(t, out), "two\n")
	if err := cmd.Wait(); cmd.ProcessState.ExitCode() != 4 {
		t.Errorf("exec exit: %v", err)
	}
}

func TestRunsKillFromAnotherProcess(t *testing.T) {
	w := newWS(t)
	cmd, out := w.startExec("--id", "long", "-e", `console.log("up"); await new Promise(r => setTimeout(r, 60000))`)
	equal(t, "first line", readLine(t, out), "up\n")
	v := jsonDoc(t, "runs kill --json", w.ok("--json", "runs", "kill", "long"))
	if v["status"] != "cancelled" || v["exitCode"] != 130.0 {
		t.Errorf("runs kill --json = %v", v)
	}
	cmd.Wait()
	if c := cmd.ProcessState.ExitCode(); c != 130 {
		t.Errorf("killed exec exited %d, want 130", c)
	}
}

func TestExecInterrupt(t *testing.T) {
	w := newWS(t)
	cmd, out := w.startExec("--id", "sig", "-e", `console.log("up"); await new Promise(r => setTimeout(r, 60000))`)
	equal(t, "first line", readLine(t, out), "up\n")
	cmd.Process.Signal(syscall.SIGINT)
	cmd.Wait()
	if c := cmd.ProcessState.ExitCode(); c != 130 {
		t.Errorf("interrupted exec exited %d, want 130", c)
	}
	v := jsonDoc(t, "runs show --json", w.ok("--json", "runs", "show", "sig"))
	if v["status"] != "cancelled" || v["exitCode"] != 130.0 || v["stderr"] != "Execution cancelled.\n" {
		t.Errorf("run after Ctrl-C = %v", v)
	}
}
