package js_test

import (
	"testing"
)

func TestFileVars(t *testing.T) {
	e := newEnv(t)
	e.write("/workspace/lib/a.js", "'use strict';\nmodule.exports = { f: __filename, d: __dirname, line: new Error().stack.includes('a.js:3') };\n")
	e.write("/workspace/lib/own.mjs", "import { dirname } from 'node:path';\nconst __dirname = dirname('/x/y');\nexport const d = __dirname;\n")
	r := e.ok(spec{src: `
const a = require("./lib/a.js");
import { d } from "./lib/own.mjs";
export default () => [a.f, a.d, d, __filename, __dirname];`})
	want := `["/workspace/lib/a.js","/workspace/lib","/x","/workspace/main.ts","/workspace"]`
	if r.value() != want {
		t.Errorf("value = %s, want %s", r.value(), want)
	}
}

func TestProcessEvents(t *testing.T) {
	e := newEnv(t)
	r := e.ok(spec{src: `
let n = 0;
process.on("beforeExit", (code) => {
  console.log("beforeExit", code, n);
  if (n++ < 2) setTimeout(() => console.log("more work", n), 1);
});
process.on("exit", (code) => console.log("exit", code, process.exitCode));
process.nextTick(() => console.log("tick"));
Promise.resolve().then(() => console.log("micro"));
console.log("main");`})
	// As Node 20 prints it for an ES module: the main module's microtasks
	// run before its nextTick queue.
	want := "main\nmicro\ntick\nbeforeExit 0 0\nmore work 1\nbeforeExit 0 1\nmore work 2\nbeforeExit 0 2\nexit 0 undefined\n"
	if r.stdout != want {
		t.Errorf("stdout:\n%s\nwant:\n%s", r.stdout, want)
	}

	r = e.run(spec{src: `
process.on("exit", (code) => { console.log("exit", code); process.exitCode = 9; });
process.exit(4);`})
	if r.exit.Code != 9 || r.stdout != "exit 4\n" {
		t.Errorf("exit in a listener: code %d stdout %q stderr %q", r.exit.Code, r.stdout, r.stderr)
	}
}

func TestProcessUncaught(t *testing.T) {
	e := newEnv(t)
	r := e.ok(spec{src: `
import process from "node:process";
process.on("uncaughtException", (err, origin) => console.log("caught", err.message, origin));
process.on("unhandledRejection", (err) => console.log("rejected", err.message));
setTimeout(() => { throw new Error("boom") }, 1);
setTimeout(() => console.log("still running"), 5);
Promise.reject(new Error("nope"));`})
	want := "rejected nope\ncaught boom uncaughtException\nstill running\n"
	if r.stdout != want {
		t.Errorf("stdout:\n%s\nwant:\n%s", r.stdout, want)
	}

	// A listener that throws ends the run with its own error.
	r = e.run(spec{src: `
process.on("uncaughtException", () => { throw new Error("again") });
throw new Error("first");`})
	if r.exit.Code != 1 || r.stderr != "Uncaught Error: again\n    at main.ts:2:47\n" {
		t.Errorf("code %d stderr %q", r.exit.Code, r.stderr)
	}
}

func TestProcessWarning(t *testing.T) {
	e := newEnv(t)
	r := e.ok(spec{src: `
process.on("warning", (w) => console.log("listener", w.name, w.code, w.message));
process.emitWarning("careful", "DeprecationWarning", "DEP0001");
process.emitWarning("plain");`})
	if r.stdout != "listener DeprecationWarning DEP0001 careful\nlistener Warning undefined plain\n" {
		t.Errorf("stdout %q", r.stdout)
	}
	if r.stderr != "(node:1) [DEP0001] DeprecationWarning: careful\n(node:1) Warning: plain\n" {
		t.Errorf("stderr %q", r.stderr)
	}
}

func TestEventEmitterCall(t *testing.T) {
	e := newEnv(t)
	r := e.ok(spec{src: `
const EventEmitter = require("node:events");
const util = require("node:util");
function Old() { EventEmitter.call(this); }
util.inherits(Old, EventEmitter);
const o = new Old();
const seen = [];
o.once("x", (v) => seen.push("once " + v));
o.on("x", function (v) { seen.push("on " + v + " " + (this === o)); });
o.emit("x", 1); o.emit("x", 2);
let err;
try { o.emit("error", "plain") } catch (e) { err = e.message + " " + e.code }
export default () => [seen, o.listenerCount("x"), err];`})
	if want := `[["once 1","on 1 true","on 2 true"],1,"Unhandled error. ('plain') ERR_UNHANDLED_ERROR"]`; r.value() != want {
		t.Errorf("value = %s, want %s", r.value(), want)
	}
}

func TestBufferNodeAPI(t *testing.T) {
	e := newEnv(t)
	r := e.ok(spec{src: `
import { Buffer as B, constants } from "node:buffer";
const b = Buffer.from("héllo");
const n = Buffer.alloc(8);
n.writeInt32LE(-2, 0); n.writeUInt16BE(0xabcd, 4);
const u = Buffer.allocUnsafe(3).fill("ab");
let bad;
try { b.toString("nope") } catch (e) { bad = e.code + ": " + e.message }
export default () => [
  B === Buffer, Buffer.isBuffer(b), Buffer.isBuffer(new Uint8Array(1)), Buffer.byteLength("héllo"), b.length,
  Buffer.compare(Buffer.from("a"), Buffer.from("b")), Buffer(3).length, n.readInt32LE(0), n.readUInt16BE(4),
  u.toString(), b.toString("latin1").length, Buffer.from("hi", "utf16le").toString("hex"),
  Buffer.from([0xfb, 0xff]).toString("base64url"), Buffer.from("-_8", "base64url").toString("hex"),
  Buffer.from("aGk=", "base64").toString("ascii"), Buffer.from("6869", "hex").toString("binary"),
  Uint8Array.prototype.slice.call(b, 0, 2).length, b.subarray(1, 3) instanceof Buffer,
  Buffer.from([0xe2, 0x82, 0x41, 0x80]).toString(), require("node:util").inspect(Buffer.from("ab")),
  bad, Buffer.name, constants.MAX_LENGTH > 0, Buffer.isEncoding("UTF-8"), Buffer.isEncoding("nope"),
];`})
	want := `[true,true,false,6,6,-1,3,-2,43981,"aba",6,"68006900","-_8","fbff","hi","hi",2,true,"�A�","<Buffer 61 62>","ERR_UNKNOWN_ENCODING: Unknown encoding: nope","Buffer",true,true,false]`
	if r.value() != want {
		t.Errorf("value =\n%s\nwant\n%s", r.value(), want)
	}
}

func TestAssertNode(t *testing.T) {
	e := newEnv(t)
	r := e.ok(spec{src: `
import assert from "node:assert";
const out = [];
const catchIt = (f) => { try { f(); return "no error"; } catch (e) { return [e.name, e.code, e.message.split("\n")[0], e.operator]; } };
const boom = () => { const e = new TypeError("bad thing"); e.code = "ERR_X"; throw e; };
out.push(catchIt(() => assert.throws(boom, /TypeError: bad/)));
out.push(catchIt(() => assert.throws(boom, /nope/)));
out.push(catchIt(() => assert.throws(boom, { code: "ERR_Y" })));
out.push(catchIt(() => assert.throws(boom, { code: "ERR_X", message: /bad/ })));
out.push(catchIt(() => assert.throws(boom, RangeError)));
out.push(catchIt(() => assert.throws(() => {}, TypeError)));
out.push(catchIt(() => assert.ifError(new Error("oops"))));
out.push(catchIt(() => assert.throws("x")));
let rej;
await assert.rejects(Promise.reject(new Error("r")), { message: "r" });
try { await assert.rejects(async () => {}, Error) } catch (e) { rej = e.message }
export default () => [out, rej];`})
	want := `[["no error",` +
		`["AssertionError","ERR_ASSERTION","The input did not match the regular expression /nope/. Input:","throws"],` +
		`["AssertionError","ERR_ASSERTION","Expected values to be strictly deep-equal:","throws"],` +
		`"no error",` +
		`["AssertionError","ERR_ASSERTION","The error is expected to be an instance of \"RangeError\". Received \"TypeError\"","throws"],` +
		`["AssertionError","ERR_ASSERTION","Missing expected exception (TypeError).","throws"],` +
		`["AssertionError","ERR_ASSERTION","ifError got unwanted exception: oops","ifError"],` +
		`["TypeError","ERR_INVALID_ARG_TYPE","The \"fn\" argument must be of type function. Received type string ('x')",null]],` +
		`"Missing expected rejection (Error)."]`
	if r.value() != want {
		t.Errorf("value =\n%s\nwant\n%s", r.value(), want)
	}
}

func TestAwaitUsingFileHandle(t *testing.T) {
	e := newEnv(t)
	e.write("/workspace/a.txt", "abc")
	r := e.ok(spec{src: `
import { open } from "node:fs/promises";
let closed = false;
{
  await using fh = await open("a.txt");
  fh.on("close", () => { closed = true; });
  console.log((await fh.readFile("utf8")));
}
export default () => closed;`})
	if r.value() != "true" || r.stdout != "abc\n" {
		t.Errorf("value %s stdout %q stderr %q", r.value(), r.stdout, r.stderr)
	}
}

// TestStrictModules: ES modules and 'use strict' files are strict code
// (this is undefined in a plain call), sloppy CommonJS stays sloppy.
func TestStrictModules(t *testing.T) {
	e := newEnv(t)
	e.write("/workspace/a.js", "// c1\n\n'use strict';\nconst f = function () { return this === undefined };\nglobalThis.A = f();\nrequire('fs');\n")
	e.write("/workspace/b.mjs", "function f() { return this === undefined }\nexport const v = f();\n")
	r := e.ok(spec{src: `import "./a.js"; import { v } from "./b.mjs"; function g() { return this === undefined } export default () => [A, v, g()];`})
	if r.value() != "[true,true,true]" {
		t.Errorf("strict: %s", r.value())
	}
	e.write("/workspace/c.js", "x = 1; module.exports = function () { return this === undefined && x === 1 }")
	r = e.ok(spec{src: `const c = require("./c.js"); module.exports = c()`})
	if r.value() != "false" {
		t.Errorf("sloppy: %s", r.value())
	}
}

func TestFSCpFilter(t *testing.T) {
	e := newEnv(t)
	e.write("/workspace/src/a.txt", "a")
	e.write("/workspace/src/b.log", "b")
	e.write("/workspace/src/sub/c.txt", "c")
	r := e.ok(spec{src: `
import fs from "node:fs";
fs.cpSync("src", "dst", { recursive: true, filter: (s) => !s.endsWith(".log") });
await fs.promises.cp("src", "dst2", { recursive: true, filter: async (s) => !s.includes("sub") });
const errs = [];
for (const f of [() => fs.cpSync("src", "x", { filter: async () => true }), () => fs.cpSync("src", "y"),
  () => fs.cpSync("src", "src/sub/z", { recursive: true }), () => fs.cpSync("src/a.txt", "src/a.txt")]) {
  try { f() } catch (e) { errs.push(e.code) }
}
const list = (d) => fs.readdirSync(d, { recursive: true }).sort();
export default () => [list("dst"), list("dst2"), errs];`})
	want := `[["a.txt","sub","sub/c.txt"],["a.txt","b.log"],["ERR_INVALID_RETURN_VALUE","ERR_FS_EISDIR","ERR_FS_CP_EINVAL","ERR_FS_CP_EINVAL"]]`
	if r.value() != want {
		t.Errorf("value = %s, want %s", r.value(), want)
	}
}

func TestChdir(t *testing.T) {
	e := newEnv(t)
	e.write("/workspace/sub/a.txt", "in sub")
	r := e.ok(spec{src: `
import fs from "node:fs";
import path from "node:path";
process.chdir("sub");
let err;
try { process.chdir("nope") } catch (e) { err = [e.code, e.message] }
export default () => [process.cwd(), fs.readFileSync("a.txt", "utf8"), path.resolve("x"), err];`})
	want := `["/workspace/sub","in sub","/workspace/sub/x",["ENOENT","ENOENT: no such file or directory, chdir /workspace/sub -> 'nope'"]]`
	if r.value() != want {
		t.Errorf("value = %s, want %s", r.value(), want)
	}
}

func TestFSGlob(t *testing.T) {
	e := newEnv(t)
	for _, f := range []string{"a.js", "b.ts", "lib/c.js", "lib/deep/d.js", ".hidden/e.js", "lib/f.md"} {
		e.write("/workspace/"+f, "x")
	}
	r := e.ok(spec{src: `
import fs from "node:fs";
const all = [];
for await (const f of fs.promises.glob("**/*.js")) all.push(f);
const cb = await new Promise((res, rej) => fs.glob("lib/*.{js,md}", (err, m) => err ? rej(err) : res(m)));
export default () => [all.sort(), cb.sort(), fs.globSync("*.ts"), fs.globSync("lib/**", { exclude: ["**/*.md"] }).sort(),
  fs.globSync("**/*.js", { exclude: (p) => p.startsWith("lib") }).sort(), fs.globSync(["a.js", "nope.js"])];`})
	want := `[["a.js","lib/c.js","lib/deep/d.js"],["lib/c.js","lib/f.md"],["b.ts"],["lib","lib/c.js","lib/deep","lib/deep/d.js"],["a.js"],["a.js"]]`
	if r.value() != want {
		t.Errorf("value = %s, want %s", r.value(), want)
	}
}

// TestAssertOkFails: the entry here is no file of the workspace, so the
// message cannot quote the call and is Node's for source it cannot read
// (as under node -e); TestAssertCallSource covers files.
func TestAssertOkFails(t *testing.T) {
	e := newEnv(t)
	r := e.ok(spec{src: `
const assert = require("node:assert");
let m;
try { assert(false) } catch (e) { m = [e.name, e.message] }
module.exports = m;`})
	if want := `["AssertionError","false == true"]`; r.value() != want {
		t.Errorf("value = %s, want %s", r.value(), want)
	}
}
