package js_test

import (
	"context"
	"testing"
	"time"

	"github.com/nookdev/nook"
	"github.com/nookdev/nook/runtime"
	"github.com/nookdev/nook/runtime/js"
	"github.com/nookdev/nook/runtime/shell"
	"github.com/nookdev/nook/vfs"
)

// shellWS is a workspace whose runtime has the JavaScript backend (the
// default) and the shell backend, as child_process needs.
func shellWS(t testing.TB, opts ...nook.Option) *nook.Workspace {
	t.Helper()
	ctx := context.Background()
	opts = append([]nook.Option{nook.WithBackends(js.New(js.Options{}), shell.New(shell.Options{}))}, opts...)
	ws, err := nook.OpenMemory(ctx, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	if err := ws.FS().MkdirAll(ctx, "/workspace", 0); err != nil {
		t.Fatal(err)
	}
	return ws
}

func runWS(t testing.TB, ws *nook.Workspace, src string, o runtime.ExecOptions) *runtime.Result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	h, err := ws.Runtime().Exec(ctx, src, o)
	if err != nil {
		t.Fatal(err)
	}
	res, err := h.Result(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// e2e runs src on the JavaScript backend of a workspace with a shell and
// returns its value, failing unless it completes.
func e2e(t *testing.T, ws *nook.Workspace, src string) string {
	t.Helper()
	res := runWS(t, ws, src, runtime.ExecOptions{Env: map[string]string{"PATH": "/usr/bin:/bin", "GREETING": "hello"}})
	if res.Status != runtime.StatusCompleted {
		t.Fatalf("status %s (%s)\nstdout:\n%s\nstderr:\n%s", res.Status, res.Error, res.Stdout, res.Stderr)
	}
	return string(res.Value)
}

func TestChildProcessShellE2E(t *testing.T) {
	ws := shellWS(t)
	v := e2e(t, ws, `
import { execSync, spawnSync, execFileSync } from "node:child_process";
import fs from "node:fs";
const hi = execSync("echo hi").toString();
let three;
try { execSync("echo oops >&2; exit 3", { stdio: "pipe" }) } catch (e) { three = [e.message, e.status, e.signal, String(e.stderr)] }
fs.mkdirSync("d");
fs.writeFileSync("d/b.txt", "");
fs.writeFileSync("d/a.txt", "");
const ls = spawnSync("ls", { cwd: "d", encoding: "utf8" });
const env = execSync("echo $GREETING $ONLY", { env: { ...process.env, ONLY: "mine" }, encoding: "utf8" });
const grep = execFileSync("grep", ["-c", "x"], { input: "x\ny\nxx\n", encoding: "utf8" });
const missing = execSync("nosuchcommand; echo $?", { stdio: "pipe", encoding: "utf8" });
let enoent;
try { execFileSync("nosuchcommand", ["a b"]) } catch (e) { enoent = [e.message, e.code, e.path, e.spawnargs] }
export default () => [hi, three, ls.status, ls.stdout, env, grep, missing, enoent];`)
	want := `["hi\n",["Command failed: echo oops >&2; exit 3\noops\n",3,null,"oops\n"],0,"a.txt\nb.txt\n","hello mine\n","2\n","127\n",` +
		`["spawnSync nosuchcommand ENOENT","ENOENT","nosuchcommand",["a b"]]]`
	if v != want {
		t.Errorf("value = %s\nwant    %s", v, want)
	}
}

func TestChildProcessAsyncE2E(t *testing.T) {
	ws := shellWS(t)
	v := e2e(t, ws, `
import { exec, execFile, spawn } from "node:child_process";
import { promisify } from "node:util";
const { stdout, stderr } = await promisify(exec)("printf 'a\\nb\\n' | sort -r; echo warn >&2");
const ef = await promisify(execFile)("wc", ["-l"], { }).catch((e) => e.message);
const g = spawn("grep", ["x"]);
let got = "";
g.stdout.on("data", (d) => { got += d });
g.stdin.write("ax\nb\n");
g.stdin.end("cx\n");
const closed = await new Promise((res) => g.on("close", (code, sig) => res([code, sig])));
const n = spawn("sh", ["-c", "exit 7"]);
const seven = await new Promise((res) => n.on("exit", (code) => res(code)));
const tmo = await new Promise((res) => exec("sleep 5", { timeout: 50 }, (e) => res([e.killed, e.signal, e.code])));
const k = spawn("sleep", ["5"]);
setTimeout(() => k.kill(), 50);
const killed = await new Promise((res) => k.on("close", (code, sig) => res([code, sig, k.killed])));
export default () => [stdout, stderr, ef, got, closed, seven, tmo, killed];`)
	want := `["b\na\n","warn\n",{"stdout":"0\n","stderr":""},"ax\ncx\n",[0,null],7,[true,"SIGTERM",null],[null,"SIGTERM",true]]`
	if v != want {
		t.Errorf("value = %s\nwant    %s", v, want)
	}
}

func TestChildProcessLimitsE2E(t *testing.T) {
	ws := shellWS(t)
	v := e2e(t, ws, `
import { execSync, spawnSync } from "node:child_process";
let big, slow;
try { execSync("seq 1 100000", { maxBuffer: 100 }) } catch (e) { big = [e.message, e.code, e.status, e.signal, e.stdout.length] }
try { execSync("sleep 5", { timeout: 50 }) } catch (e) { slow = [e.message, e.code, e.status, e.signal] }
export default () => [big, slow];`)
	want := `[["spawnSync /bin/sh ENOBUFS","ENOBUFS",null,"SIGTERM",100],["spawnSync /bin/sh ETIMEDOUT","ETIMEDOUT",null,"SIGTERM"]]`
	if v != want {
		t.Errorf("value = %s\nwant    %s", v, want)
	}
}

// A nested node program runs on the JavaScript backend as node would run
// it: its entry is the file (relative imports from its directory,
// process.argv[1], import.meta, __filename, require.main).
func TestChildProcessNodeEntryE2E(t *testing.T) {
	ws := shellWS(t)
	ctx := context.Background()
	w := func(p, s string) {
		if err := ws.FS().WriteFile(ctx, p, []byte(s), &vfs.WriteOptions{MkdirAll: true}); err != nil {
			t.Fatal(err)
		}
	}
	w("/workspace/sub/lib.mjs", `export const who = "lib";`)
	w("/workspace/sub/x.mjs", `import { who } from "./lib.mjs";
console.log(who, process.argv.slice(1).join(" "), import.meta.filename, import.meta.dirname, process.cwd());`)
	w("/workspace/sub/c.js", `console.log(require.main === module, __filename, __dirname, require("./lib.cjs"));`)
	w("/workspace/sub/lib.cjs", `module.exports = require.main === module ? "main" : "not main";`)
	v := e2e(t, ws, `
import { execFileSync, spawnSync } from "node:child_process";
const a = execFileSync("node", ["sub/x.mjs", "one", "two"], { encoding: "utf8" });
const b = execFileSync(process.execPath, ["c.js"], { cwd: "sub", encoding: "utf8" });
const c = execFileSync("node", ["-e", "console.log(process.argv.length, 6 * 7)"], { encoding: "utf8" });
const d = spawnSync("node", ["-e", "syntax error here"], { encoding: "utf8" });
const e = spawnSync("node", ["nope.js"], { encoding: "utf8" });
export default () => [a, b, c, d.status, e.status, e.stderr.includes("Cannot find module '/workspace/nope.js'")];`)
	want := `["lib /workspace/sub/x.mjs one two /workspace/sub/x.mjs /workspace/sub /workspace\n","true /workspace/sub/c.js /workspace/sub not main\n","2 42\n",1,1,true]`
	if v != want {
		t.Errorf("value = %s\nwant    %s", v, want)
	}
}

// A nested run is a run of its own in the journal: PARENT.xN.
func TestChildProcessNestedRunRecorded(t *testing.T) {
	ws := shellWS(t)
	res := runWS(t, ws, `import { execSync } from "node:child_process"; execSync("echo nested");`, runtime.ExecOptions{ID: "p"})
	if res.Status != runtime.StatusCompleted {
		t.Fatalf("%s %s", res.Status, res.Stderr)
	}
	h, err := ws.Runtime().GetExec(context.Background(), "p.x1", runtime.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	r, err := h.Result(context.Background())
	if err != nil || r.Backend != "shell" || string(r.Stdout) != "nested\n" {
		t.Errorf("nested run: %v %+v", err, r)
	}
}

// Without a shell backend a command cannot start: Node's spawn error
// with the runtime's reason.
func TestChildProcessNoShell(t *testing.T) {
	ctx := context.Background()
	ws, err := nook.OpenMemory(ctx, nook.WithBackends(js.New(js.Options{})))
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	ws.FS().MkdirAll(ctx, "/workspace", 0)
	res := runWS(t, ws, `import { execSync } from "node:child_process";
try { execSync("ls") } catch (e) { console.log(e.code, e.syscall, e.message) }`, runtime.ExecOptions{})
	if got := string(res.Stdout); got != "ENOENT spawnSync /bin/sh spawnSync /bin/sh ENOENT: exec: no backend \"shell\" is configured in this workspace (configured: \"js\")\n" {
		t.Errorf("stdout %q", got)
	}
}

// A program that starts itself forever stops at MaxExecDepth: the
// deepest call fails with EAGAIN naming the limit, and every level above
// reports its child's failure.
func TestChildProcessDepthLimitE2E(t *testing.T) {
	ws := shellWS(t)
	ctx := context.Background()
	if err := ws.FS().WriteFile(ctx, "/workspace/r.js", []byte(`const { execFileSync } = require("node:child_process");
const d = Number(process.argv[2] || 0);
try { execFileSync("node", ["r.js", String(d + 1)], { stdio: "inherit" }) }
catch (e) { console.log(d, e.code || "status " + e.status, e.code ? e.message : ""); process.exitCode = 1 }`), nil); err != nil {
		t.Fatal(err)
	}
	res := runWS(t, ws, `import "./r.js";`, runtime.ExecOptions{})
	want := "8 EAGAIN spawnSync node EAGAIN: exec: a run nested 9 deep exceeds the limit MaxExecDepth (8)\n" +
		"7 status 1 \n6 status 1 \n5 status 1 \n4 status 1 \n3 status 1 \n2 status 1 \n1 status 1 \n0 status 1 \n"
	if got := string(res.Stdout); got != want || res.ExitCode != 1 {
		t.Errorf("code %d stdout:\n%s\nwant:\n%s\nstderr:\n%s", res.ExitCode, got, want, res.Stderr)
	}
}

// stdio "inherit" writes the child's output to the parent's streams, in
// order with the parent's own.
func TestChildProcessInheritE2E(t *testing.T) {
	ws := shellWS(t)
	res := runWS(t, ws, `import { execSync, spawn, spawnSync } from "node:child_process";
console.log("before");
const r = execSync("echo child; echo oops >&2", { stdio: "inherit" });
console.log("returned", r);
spawnSync("echo", ["sync"], { stdio: ["pipe", "inherit", "pipe"] });
const c = spawn("echo", ["async"], { stdio: "inherit" });
c.on("close", (code) => console.log("closed", code, c.stdout));`, runtime.ExecOptions{})
	if got, want := string(res.Stdout), "before\nchild\nreturned null\nsync\nasync\nclosed 0 null\n"; got != want {
		t.Errorf("stdout %q, want %q", got, want)
	}
	if got := string(res.Stderr); got != "oops\n" {
		t.Errorf("stderr %q", got)
	}
}

// Many children at once run a few at a time (the others wait their turn)
// instead of failing on the runtime's concurrency limits.
func TestChildProcessManyAtOnceE2E(t *testing.T) {
	ws := shellWS(t)
	v := e2e(t, ws, `import { spawn, exec } from "node:child_process";
let ok = 0;
const all = [];
for (let i = 0; i < 100; i++) {
  all.push(new Promise((r) => spawn("echo", [String(i)]).on("close", (code) => { if (code === 0) ok++; r(); })));
  all.push(new Promise((r) => exec("exit 1", (e) => { if (e.code === 1) ok++; r(); })));
}
const k = spawn("sleep", ["5"]);
setTimeout(() => k.kill(), 0); // while it waits its turn
all.push(new Promise((r) => k.on("close", (code, sig) => { if (sig === "SIGTERM") ok++; r(); })));
await Promise.all(all);
export default () => ok;`)
	if v != "201" {
		t.Errorf("value = %s", v)
	}
}

// options.signal kills the child when it aborts, with Node's AbortError.
func TestChildProcessAbortSignalE2E(t *testing.T) {
	ws := shellWS(t)
	v := e2e(t, ws, `import { spawn, exec } from "node:child_process";
const ac = new AbortController();
const c = spawn("sleep", ["5"], { signal: ac.signal });
const got = [];
c.on("error", (e) => got.push([e.name, e.code, e.message]));
setTimeout(() => ac.abort(), 30);
await new Promise((r) => c.on("close", (code, sig) => { got.push([code, sig]); r(); }));
const pre = AbortSignal.abort();
const e = await new Promise((r) => exec("echo never", { signal: pre }, (err, so) => r([err.name, so])));
export default () => [got, e];`)
	if want := `[[["AbortError","ABORT_ERR","The operation was aborted"],[null,"SIGTERM"]],["AbortError",""]]`; v != want {
		t.Errorf("value = %s\nwant    %s", v, want)
	}
}

// A fork bomb (each program starts 8 copies of itself at once) is bounded:
// nesting stops at MaxExecDepth, running runs at the runtime's
// MaxConcurrent (the excess children fail to spawn with EAGAIN), and the
// whole tree at the top run's timeout. Afterwards nothing runs. (EIO:
// with more than MaxRetained runs finished, retention may prune a nested
// run before the parent waiting for it read its outcome.)
func TestChildProcessForkBombE2E(t *testing.T) {
	ws := shellWS(t)
	ctx := context.Background()
	if err := ws.FS().WriteFile(ctx, "/workspace/bomb.js", []byte(`const { spawn } = require("node:child_process");
for (let i = 0; i < 8; i++) spawn("node", ["bomb.js"]).on("error", (e) => { if (e.code !== "EAGAIN" && e.code !== "EIO") console.log(e.message) });`), nil); err != nil {
		t.Fatal(err)
	}
	res := runWS(t, ws, `import "./bomb.js";`, runtime.ExecOptions{ID: "bomb", Timeout: 3 * time.Second})
	if res.Status != runtime.StatusCompleted && res.Status != runtime.StatusTimedOut || len(res.Stdout) != 0 {
		t.Errorf("status %s code %d\nstdout:\n%s\nstderr:\n%.500s", res.Status, res.ExitCode, res.Stdout, res.Stderr)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		runs, err := ws.Runtime().Runs(ctx, 1000)
		if err != nil {
			t.Fatal(err)
		}
		running := 0
		for _, r := range runs {
			if r.Status == runtime.StatusRunning {
				running++
			}
		}
		if running == 0 {
			t.Logf("%d runs recorded, top run %s", len(runs), res.Status)
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d runs still running after the top run ended", running)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// A command line that does not parse exits 2, as sh's syntax error does.
func TestChildProcessSyntaxErrorE2E(t *testing.T) {
	ws := shellWS(t)
	got := e2e(t, ws, `import { execSync } from "node:child_process";
let status;
try { execSync("if then", { stdio: "pipe" }) } catch (e) { status = [e.status, String(e.stderr).startsWith("shell syntax error: ")] }
export default () => status;`)
	if got != "[2,true]" {
		t.Errorf("value %s, want [2,true]", got)
	}
}
