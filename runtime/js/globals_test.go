package js_test

import (
	"encoding/binary"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/nookdev/nook/runtime"
)

func TestConsoleAndProcess(t *testing.T) {
	e := newEnv(t)
	r := e.run(spec{env: map[string]string{"TOKEN": "abc"}, args: []string{"--x"}, cwd: "/workspace/sub", src: `
console.log("out1");
console.error("err1");
process.stdout.write("out2\n");
console.warn("warn %s=%d", "n", 3);
console.log(process.env.TOKEN, process.env.HOME, process.argv, process.cwd(), process.platform);
console.log(new Map([["a", 1]]), new Set([1]), [1, [2, [3, [4]]]], new Error("e").message, null, undefined);
process.exitCode = 3;
`})
	if r.exit.Code != 3 {
		t.Errorf("code = %d (%v) %s", r.exit.Code, r.exit.Err, r.stderr)
	}
	want := "out1\nerr1\nout2\nwarn n=3\nabc undefined [ '/usr/local/bin/node', '/workspace/sub/main.ts', '--x' ] /workspace/sub linux\n" +
		"Map(1) { 'a' => 1 } Set(1) { 1 } [ 1, [ 2, [ 3, [Array] ] ] ] e null undefined\n"
	if r.all != want {
		t.Errorf("output:\n%s\nwant:\n%s", r.all, want)
	}
	if r.stderr != "err1\nwarn n=3\n" {
		t.Errorf("stderr = %q", r.stderr)
	}
}

func TestProcessExit(t *testing.T) {
	e := newEnv(t)
	r := e.run(spec{src: `
console.log("before");
try { process.exit(7) } finally { console.log("finally must not run") }
console.log("after");`})
	if r.exit.Code != 7 || r.stdout != "before\n" {
		t.Errorf("code %d stdout %q stderr %q", r.exit.Code, r.stdout, r.stderr)
	}
	r = e.run(spec{src: `export default async () => { await null; process.exit(0); }`})
	if r.exit.Code != 0 || r.exit.Err != nil {
		t.Errorf("exit(0): %+v", r.exit)
	}
}

func TestStdin(t *testing.T) {
	e := newEnv(t)
	r := e.ok(spec{stdin: "line1\nline2\n", src: `
let s = "";
for await (const chunk of process.stdin) s += chunk;
export default () => s.split("\n").filter(Boolean);`})
	if r.value() != `["line1","line2"]` {
		t.Errorf("value = %s", r.value())
	}
}

func TestTimersOrder(t *testing.T) {
	e := newEnv(t)
	r := e.ok(spec{src: `
const log = [];
setTimeout(() => log.push("t20"), 150); // well after the interval's third firing, even under -race and load
setTimeout(() => log.push("t0a"), 0);
setImmediate(() => log.push("imm"));
setTimeout(() => log.push("t0b"), 0);
const cancelled = setTimeout(() => log.push("never"), 1);
clearTimeout(cancelled);
let n = 0;
const iv = setInterval(() => { log.push("iv" + n); if (++n === 3) clearInterval(iv); }, 2);
queueMicrotask(() => log.push("micro"));
Promise.resolve().then(() => log.push("then"));
process.nextTick(() => log.push("tick"));
setTimeout(() => {}, 100000).unref();
export default async () => {
  await new Promise((r) => setTimeout(r, 200));
  return log;
};`})
	// Node 20 running this as an ES module: the main module's microtasks
	// before its ticks, an immediate before a 0 ms timeout (clamped to 1).
	if got := r.value(); got != `["micro","then","tick","imm","t0a","t0b","iv0","iv1","iv2","t20"]` {
		t.Errorf("order = %s", got)
	}
}

func TestDeterminism(t *testing.T) {
	e := newEnv(t)
	base := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	src := `
import { randomBytes, createHash } from "node:crypto";
export default () => ({
  now: Date.now(), iso: new Date().toISOString(),
  r: [Math.random(), Math.random()], uuid: crypto.randomUUID(),
  bytes: randomBytes(4).toString("hex"),
  perf: performance.now(),
  sha: createHash("sha256").update("abc").digest("hex"),
});`
	run := func(seed byte) string {
		var n uint64
		return e.ok(spec{src: src, now: func() time.Time { return base },
			random: func(p []byte) {
				for i := range p {
					n++
					var b [8]byte
					binary.LittleEndian.PutUint64(b[:], n*2654435761+uint64(seed))
					p[i] = b[0] ^ b[1]
				}
			}}).value()
	}
	a, b, c := run(1), run(1), run(2)
	if a != b {
		t.Errorf("same seed differs:\n%s\n%s", a, b)
	}
	if a == c {
		t.Errorf("different seeds agree: %s", a)
	}
	mustContain(t, "value", a, `"now":1740830400000`, `"iso":"2025-03-01T12:00:00.000Z"`, `"perf":0`,
		`"sha":"ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"`)
}

func TestUncaughtError(t *testing.T) {
	e := newEnv(t)
	e.write("/workspace/lib.ts", "export function boom(n: number): never {\n  throw new TypeError(`bad ${n}`);\n}\n")
	r := e.run(spec{src: `import { boom } from "./lib.ts";
export default function () {
  return boom(3);
}`})
	if r.exit.Code != 1 || r.exit.Err == nil {
		t.Fatalf("exit = %+v", r.exit)
	}
	want := "Uncaught TypeError: bad 3\n    at boom (lib.ts:2:9)\n    at main_default (main.ts:3:15)\n"
	if r.stderr != want {
		t.Errorf("stderr = %q, want %q", r.stderr, want)
	}
}

func TestUnhandledRejection(t *testing.T) {
	e := newEnv(t)
	r := e.run(spec{src: `
Promise.reject(new Error("lost"));
export default async () => { await new Promise((r) => setTimeout(r, 5)); return 1; };`})
	if r.exit.Code != 1 || !strings.Contains(r.stderr, "Uncaught (in promise) Error: lost") {
		t.Errorf("exit %+v stderr %q", r.exit, r.stderr)
	}
	// A rejection handled later in the same task is fine.
	e.ok(spec{src: `const p = Promise.reject(new Error("x")); p.catch(() => {}); export default () => 1;`})
}

func TestNeverSettles(t *testing.T) {
	e := newEnv(t)
	start := time.Now()
	r := e.run(spec{src: `export default () => new Promise(() => {});`})
	if r.exit.Code != 1 || !strings.Contains(r.stderr, "waiting for a promise that can never settle") {
		t.Errorf("exit %+v stderr %q", r.exit, r.stderr)
	}
	if time.Since(start) > time.Second {
		t.Errorf("took %v", time.Since(start))
	}
}

func TestResultValues(t *testing.T) {
	e := newEnv(t)
	cases := []struct{ src, value, err string }{
		{`export default () => undefined`, "", ""},
		{`export default () => ({ d: new Date(0), u: undefined, n: null })`, `{"d":"1970-01-01T00:00:00.000Z","n":null}`, ""},
		{`export default () => ({ f() {} })`, "", "result.f is a function"},
		{`export default () => ({ m: new Map() })`, "", "result.m is a Map (convert it with Object.fromEntries(map))"},
		{`export default () => { const a = {}; a.self = a; return a }`, "", "cycle"},
		{`export default () => ({ x: [1n] })`, "", "result.x[0] is a BigInt"},
		{`class P {}; export default () => new P()`, "", "result is an instance of P"},
		{`export default () => NaN`, "", "only finite numbers"},
		{`export default () => "é\u0000"`, `"é\u0000"`, ""},
	}
	for _, c := range cases {
		r := e.run(spec{src: c.src})
		if c.err == "" {
			if r.exit.Code != 0 || r.value() != c.value {
				t.Errorf("%s: exit %+v value %s stderr %s", c.src, r.exit, r.value(), r.stderr)
			}
			continue
		}
		if r.exit.Code != 1 || r.exit.Err == nil || !strings.Contains(r.exit.Err.Error(), c.err) || !strings.Contains(r.stderr, c.err) {
			t.Errorf("%s: exit %+v stderr %q, want %q", c.src, r.exit, r.stderr, c.err)
		}
	}
	r := e.run(spec{src: `export default () => "x".repeat(2000)`, limits: runtime.Limits{MaxResultBytes: 1000}})
	var le *runtime.LimitError
	if !errors.As(r.exit.Err, &le) || le.Limit != "MaxResultBytes" {
		t.Errorf("big result: %+v", r.exit)
	}
}

func TestGlobals(t *testing.T) {
	e := newEnv(t)
	r := e.ok(spec{src: `
import path from "node:path";
import { EventEmitter } from "node:events";
import util from "node:util";
import assert from "node:assert";
import { setTimeout as sleep } from "node:timers/promises";
import os from "node:os";
import { Buffer } from "node:buffer";
export default async () => {
  const out = {};
  out.enc = Array.from(new TextEncoder().encode("hé"));
  out.dec = new TextDecoder().decode(new Uint8Array([104, 195, 169]));
  out.b64 = [btoa("hello"), atob("aGVsbG8=")];
  const u = new URL("https://a.example/p?q=1#h"); out.url = [u.hostname, u.searchParams.get("q")];
  const c = structuredClone({ d: new Date(5), m: new Map([[1, {x: 1}]]), a: [1, 2] });
  out.clone = [c.d.getTime(), c.m.get(1).x, c.a];
  out.group = Object.groupBy([1, 2, 3], (x) => (x % 2 ? "odd" : "even"));
  const { promise, resolve } = Promise.withResolvers(); resolve(9); out.wr = await promise;
  out.fa = await Array.fromAsync([Promise.resolve(1), 2]);
  out.path = [path.join("/a", "../b", "c.ts"), path.resolve("x"), path.extname("f.tar.gz"), path.relative("/a/b", "/a/c/d")];
  const em = new EventEmitter(); let got; em.on("x", (v) => (got = v)); em.emit("x", 4); out.em = got;
  out.fmt = util.format("%s:%d %j", "a", 2, { k: 1 });
  assert.deepStrictEqual({ a: [1] }, { a: [1] });
  await sleep(1);
  out.os = os.platform();
  out.buf = Buffer.from("hi").toString("base64") + Buffer.alloc(2).length;
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode("abc"));
  out.digest = Buffer.from(digest).toString("hex").slice(0, 8);
  out.uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(crypto.randomUUID());
  out.inst = [new Uint8Array(2) instanceof Uint8Array, new TextEncoder().encode("a") instanceof Uint8Array, Buffer.from("a") instanceof Uint8Array];
  async function* gen() { yield 1; yield 2; }
  const xs = []; for await (const x of gen()) xs.push(x); out.agen = xs;
  return out;
};`})
	want := `{"enc":[104,195,169],"dec":"hé","b64":["aGVsbG8=","hello"],"url":["a.example","1"],"clone":[5,1,[1,2]],` +
		`"group":{"odd":[1,3],"even":[2]},"wr":9,"fa":[1,2],"path":["/b/c.ts","/workspace/x",".gz","../c/d"],"em":4,` +
		`"fmt":"a:2 {\"k\":1}","os":"linux","buf":"aGk=2","digest":"ba7816bf","uuid":true,"inst":[true,true,true],"agen":[1,2]}`
	if got := r.value(); got != want {
		t.Errorf("value:\n%s\nwant:\n%s", got, want)
	}
}
