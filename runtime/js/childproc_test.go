package js_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nookdev/nook/runtime"
)

// execHost is a live host whose KindExec calls a fake answers: the
// child_process shim's side of the contract, tested without a runtime.
type execHost struct {
	runtime.Host
	mu     sync.Mutex
	calls  []map[string]any // the Args of each exec call, with "op"
	answer func(ctx context.Context, op string, a map[string]any) (any, error)
}

func (h *execHost) Call(ctx context.Context, c *runtime.Call) (any, error) {
	if c.Kind != runtime.KindExec {
		return h.Host.Call(ctx, c)
	}
	a, _ := c.Args.(map[string]any)
	rec := map[string]any{"op": c.Op}
	for k, v := range a {
		rec[k] = v
	}
	h.mu.Lock()
	h.calls = append(h.calls, rec)
	h.mu.Unlock()
	return h.answer(ctx, c.Op, a)
}

// exited is a KindExec result.
func exited(code int, stdout, stderr string) map[string]any {
	status := "completed"
	if code != 0 {
		status = "failed"
	}
	return map[string]any{"code": float64(code), "status": status, "stdout": []byte(stdout), "stderr": []byte(stderr),
		"stdoutBytes": float64(len(stdout)), "stderrBytes": float64(len(stderr)), "id": "t1.x1"}
}

// fakeShell answers a few command lines the way the shell backend does.
func fakeShell(ctx context.Context, op string, a map[string]any) (any, error) {
	src, _ := a["source"].(string)
	stdin := ""
	switch s := a["stdin"].(type) {
	case []byte:
		stdin = string(s)
	case string:
		stdin = s
	}
	if op == "js" {
		if f, ok := a["file"].(string); ok && f == "missing.js" {
			return nil, &runtime.CallError{Code: "ENOENT", Message: "ENOENT: no such file or directory, open '/workspace/missing.js'"}
		}
		return exited(0, fmt.Sprintf("js source=%q file=%v args=%v stdin=%q\n", src, a["file"], a["args"], stdin), ""), nil
	}
	switch {
	case src == "echo hi" || src == "echo 'hi'":
		return exited(0, "hi\n", ""), nil
	case src == "echo out; echo err >&2; exit 3":
		return exited(3, "out\n", "err\n"), nil
	case src == "cat":
		return exited(0, stdin, ""), nil
	case src == "grep x":
		var b strings.Builder
		for _, l := range strings.SplitAfter(stdin, "\n") {
			if strings.Contains(l, "x") {
				b.WriteString(l)
			}
		}
		if b.Len() == 0 {
			return exited(1, "", ""), nil
		}
		return exited(0, b.String(), ""), nil
	case src == "pwd":
		return exited(0, a["cwd"].(string)+"\n", ""), nil
	case src == "env":
		env := a["env"].(map[string]any)
		return exited(0, fmt.Sprintf("A=%v\n", env["A"]), ""), nil
	case src == "yes":
		r := exited(0, strings.Repeat("y\n", 50), "")
		r["stdoutBytes"] = float64(1 << 20)
		return r, nil
	case src == "sleep 5":
		ms, _ := a["timeoutMs"].(float64)
		var timeout <-chan time.Time
		if ms > 0 {
			timeout = time.After(time.Duration(ms) * time.Millisecond)
		}
		select {
		case <-ctx.Done():
			return map[string]any{"code": float64(130), "status": "cancelled", "stdout": []byte{}, "stderr": []byte{},
				"stdoutBytes": float64(0), "stderrBytes": float64(0), "error": "cancelled"}, nil
		case <-timeout:
			return map[string]any{"code": float64(124), "status": "timed_out", "stdout": []byte{}, "stderr": []byte{},
				"stdoutBytes": float64(0), "stderrBytes": float64(0), "error": "timed out"}, nil
		case <-time.After(5 * time.Second):
			return exited(0, "", ""), nil
		}
	case strings.HasPrefix(src, "nosuch"):
		return exited(127, "", "nosuch: command not found\n"), nil
	}
	return exited(2, "", "fake shell: "+src+": unknown\n"), nil
}

// runExec runs src with the fake shell behind KindExec.
func (e *env) runExec(s spec) (result, *execHost) {
	e.t.Helper()
	p := e.prepare(s)
	var mu sync.Mutex
	var out, errb bytes.Buffer
	live := runtime.NewHost(runtime.HostConfig{FS: e.ws.FS(), Root: "/workspace", RunID: "t1", Limits: s.limits,
		Output: func(stream runtime.Stream, b []byte) error {
			mu.Lock()
			defer mu.Unlock()
			if stream == runtime.Stderr {
				errb.Write(b)
			} else {
				out.Write(b)
			}
			return nil
		}})
	h := &execHost{Host: live, answer: fakeShell}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	ex := p.Run(ctx, h)
	mu.Lock()
	defer mu.Unlock()
	return result{exit: ex, stdout: out.String(), stderr: errb.String()}, h
}

func (e *env) execOK(src string) (string, *execHost) {
	e.t.Helper()
	r, h := e.runExec(spec{src: src, env: map[string]string{"A": "1", "PATH": "/usr/bin"}})
	if r.exit.Code != 0 || r.exit.Err != nil {
		e.t.Fatalf("run failed: code %d, err %v\nstderr:\n%s", r.exit.Code, r.exit.Err, r.stderr)
	}
	return r.value(), h
}

func jsonOf(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func TestExecSyncFake(t *testing.T) {
	e := newEnv(t)
	v, h := e.execOK(`
import { execSync } from "node:child_process";
const out = execSync("echo hi");
let err;
try { execSync("echo out; echo err >&2; exit 3") } catch (e) {
  err = [e.message, e.status, e.signal, String(e.stdout), String(e.stderr), e.output.length, typeof e.pid];
}
export default () => [Buffer.isBuffer(out), String(out), execSync("echo hi", { encoding: "utf8" }), err];`)
	if want := `[true,"hi\n","hi\n",["Command failed: echo out; echo err >&2; exit 3\nerr\n",3,null,"out\n","err\n",3,"number"]]`; v != want {
		t.Errorf("value = %s\nwant    %s", v, want)
	}
	c := h.calls[0]
	if c["op"] != "shell" || c["source"] != "echo hi" || c["cwd"] != "/workspace" || c["maxBuffer"] != float64(1<<20) ||
		jsonOf(c["env"]) != `{"A":"1","PATH":"/usr/bin"}` {
		t.Errorf("call = %v", c)
	}
}

func TestExecSyncStderrInherited(t *testing.T) {
	e := newEnv(t)
	r, _ := e.runExec(spec{src: `
import { execSync } from "node:child_process";
try { execSync("echo out; echo err >&2; exit 3") } catch {}
try { execSync("echo out; echo err >&2; exit 3", { stdio: "pipe" }) } catch {}`})
	// Without a stdio option, Node writes the child's stderr to the
	// parent's stderr (and keeps it in the error).
	if r.stderr != "err\n" || r.stdout != "" {
		t.Errorf("stdout %q stderr %q", r.stdout, r.stderr)
	}
}

func TestSpawnSyncFake(t *testing.T) {
	e := newEnv(t)
	v, h := e.execOK(`
import { spawnSync, execFileSync } from "node:child_process";
const a = spawnSync("grep", ["x"], { input: "ax\nb\ncx\n", encoding: "utf8" });
const b = spawnSync("nosuch", ["it's"]);
const c = spawnSync("pwd", { cwd: "sub" });
let d;
try { execFileSync("nosuch") } catch (e) { d = [e.message, e.code, e.errno, e.syscall, e.path, e.spawnargs, e.status, e.pid, e.stdout] }
export default () => [a.status, a.signal, a.stdout, a.output, b.error.message, b.error.code, b.error.errno, b.error.syscall, b.error.spawnargs, b.pid, b.output,
  String(c.stdout), d];`)
	if want := `[0,null,"ax\ncx\n",[null,"ax\ncx\n",""],"spawnSync nosuch ENOENT","ENOENT",-2,"spawnSync nosuch",["it's"],0,null,"/workspace/sub\n",` +
		`["spawnSync nosuch ENOENT","ENOENT",-2,"spawnSync nosuch","nosuch",[],null,0,null]]`; v != want {
		t.Errorf("value = %s\nwant    %s", v, want)
	}
	if got := h.calls[1]["source"]; got != `nosuch 'it'\''s'` {
		t.Errorf("quoted command line = %q", got)
	}
	if got := string(h.calls[0]["stdin"].([]byte)); got != "ax\nb\ncx\n" {
		t.Errorf("stdin = %q", got)
	}
}

func TestExecAsyncFake(t *testing.T) {
	e := newEnv(t)
	v, _ := e.execOK(`
import { exec, execFile } from "node:child_process";
import { promisify } from "node:util";
const pexec = promisify(exec);
const r = await pexec("echo hi");
let rej;
try { await pexec("echo out; echo err >&2; exit 3") } catch (e) { rej = [e.message, e.code, e.killed, e.signal, e.cmd, e.stdout, e.stderr] }
const cb = await new Promise((res) => exec("echo out; echo err >&2; exit 3", (err, so, se) => res([err.code, so, se])));
const f = await new Promise((res) => execFile("nosuch", ["a"], (err, so, se) => res([err.message, err.code, err.errno, err.syscall, err.path, err.spawnargs, err.cmd, so, se])));
const big = await new Promise((res) => exec("yes", { maxBuffer: 10 }, (err, so) => res([err.name, err.message, err.code, err.cmd, so])));
export default () => [r, rej, cb, f, big];`)
	want := `[{"stdout":"hi\n","stderr":""},["Command failed: echo out; echo err >&2; exit 3\nerr\n",3,false,null,"echo out; echo err >&2; exit 3","out\n","err\n"],` +
		`[3,"out\n","err\n"],["spawn nosuch ENOENT","ENOENT",-2,"spawn nosuch","nosuch",["a"],"nosuch a","",""],` +
		`["RangeError","stdout maxBuffer length exceeded","ERR_CHILD_PROCESS_STDIO_MAXBUFFER","yes","y\ny\ny\ny\ny\n"]]`
	if v != want {
		t.Errorf("value = %s\nwant    %s", v, want)
	}
}

func TestSpawnFake(t *testing.T) {
	e := newEnv(t)
	v, h := e.execOK(`
import { spawn } from "node:child_process";
const ev = [];
const c = spawn("grep", ["x"]);
c.on("spawn", () => ev.push("spawn"));
c.stdout.setEncoding("utf8");
c.stdout.on("data", (d) => ev.push("data " + d));
c.on("exit", (code, sig) => ev.push("exit " + code + " " + sig));
c.stdin.write("ax\n");
c.stdin.end("b\nx\n");
const code = await new Promise((res) => c.on("close", (code, sig) => res([code, sig])));
const m = spawn("nosuch", ["x"]);
const merr = new Promise((res) => m.on("error", (e) => res([e.message, e.code, e.errno, e.syscall, e.path, e.spawnargs, m.pid])));
const mclose = new Promise((res) => m.on("close", (c, s) => res([c, s])));
const n = spawn("cat");  // nobody writes: starts with an empty stdin
const nout = await new Promise((res) => n.on("close", (c) => res(c)));
export default async () => [ev, code, c.exitCode, c.signalCode, typeof c.pid, await merr, await mclose, nout];`)
	want := `[["spawn","data ax\nx\n","exit 0 null"],[0,null],0,null,"number",["spawn nosuch ENOENT","ENOENT",-2,"spawn nosuch","nosuch",["x"],null],[-2,null],0]`
	if v != want {
		t.Errorf("value = %s\nwant    %s", v, want)
	}
	if got := string(h.calls[0]["stdin"].([]byte)); got != "ax\nb\nx\n" {
		t.Errorf("stdin = %q", got)
	}
}

func TestSpawnKillAndTimeoutFake(t *testing.T) {
	e := newEnv(t)
	v, _ := e.execOK(`
import { spawn, exec, execSync } from "node:child_process";
const c = spawn("sleep", ["5"]);
setTimeout(() => c.kill(), 20);
const k = await new Promise((res) => c.on("close", (code, sig) => res([code, sig, c.killed, c.exitCode, c.signalCode])));
const t = await new Promise((res) => exec("sleep 5", { timeout: 20 }, (e) => res([e.message, e.code, e.killed, e.signal])));
let s;
try { execSync("sleep 5", { timeout: 20 }) } catch (e) { s = [e.message, e.code, e.errno, e.syscall, e.path, e.spawnargs, e.status, e.signal, e.error === e] }
export default () => [k, t, s];`)
	want := `[[null,"SIGTERM",true,null,"SIGTERM"],["Command failed: sleep 5\n",null,true,"SIGTERM"],` +
		`["spawnSync /bin/sh ETIMEDOUT","ETIMEDOUT",-110,"spawnSync /bin/sh","/bin/sh",["-c","sleep 5"],null,"SIGTERM",true]]`
	if v != want {
		t.Errorf("value = %s\nwant    %s", v, want)
	}
}

func TestExecSyncMaxBufferFake(t *testing.T) {
	e := newEnv(t)
	v, _ := e.execOK(`
import { execSync } from "node:child_process";
let r;
try { execSync("yes", { maxBuffer: 10 }) } catch (e) { r = [e.message, e.code, e.errno, e.status, e.signal, String(e.stdout).length] }
export default () => r;`)
	if want := `["spawnSync /bin/sh ENOBUFS","ENOBUFS",-105,null,"SIGTERM",100]`; v != want {
		t.Errorf("value = %s\nwant    %s", v, want)
	}
}

func TestSpawnNodeFake(t *testing.T) {
	e := newEnv(t)
	v, h := e.execOK(`
import { spawnSync, execFileSync } from "node:child_process";
const a = execFileSync(process.execPath, ["-e", "console.log(1)", "x"], { encoding: "utf8" });
const b = execFileSync("node", ["--no-warnings", "sub/x.js", "y"], { encoding: "utf8" });
const c = spawnSync("node", ["missing.js"], { encoding: "utf8" });
const d = execFileSync("node", [], { input: "console.log(2)", encoding: "utf8" });
export default () => [a, b, c.status, c.stderr.split("\n").at(-2), d];`)
	want := `["js source=\"console.log(1)\" file=<nil> args=[x] stdin=\"\"\n","js source=\"\" file=sub/x.js args=[y] stdin=\"\"\n",1,` +
		`"Error: Cannot find module '/workspace/missing.js'","js source=\"console.log(2)\" file=<nil> args=[] stdin=\"\"\n"]`
	if v != want {
		t.Errorf("value = %s\nwant    %s", v, want)
	}
	if h.calls[0]["op"] != "js" {
		t.Errorf("op = %v", h.calls[0]["op"])
	}
}

func TestForkUnsupported(t *testing.T) {
	e := newEnv(t)
	v, _ := e.execOK(`
import { fork } from "node:child_process";
let r;
try { fork("./w.js") } catch (e) { r = [e.code, e.message] }
export default () => r;`)
	if !strings.HasPrefix(v, `["ERR_FEATURE_UNAVAILABLE_ON_PLATFORM","fork(\"./w.js\") is not supported in this sandbox`) {
		t.Errorf("value = %s", v)
	}
}

// A child whose stdin the spawning task did not touch starts with an
// empty stdin; writing to it afterwards fails EPIPE, saying why.
func TestSpawnLateStdinFake(t *testing.T) {
	e := newEnv(t)
	v, _ := e.execOK(`
import { spawn } from "node:child_process";
const c = spawn("cat");
await new Promise((r) => setTimeout(r, 10));
const err = await new Promise((r) => { c.stdin.on("error", r); c.stdin.write("late\n"); });
export default () => [err.code, err.message.slice(0, 60)];`)
	if want := `["EPIPE","write EPIPE: the child has already started, with the stdin i"]`; v != want {
		t.Errorf("value = %s", v)
	}
}
