package js_test

import (
	"strings"
	"testing"
)

// lines runs src, whose default export is a function returning a list of
// strings, and compares them with want, one per line.
func lines(t *testing.T, src string, want ...string) {
	t.Helper()
	e := newEnv(t)
	r := e.ok(spec{src: src})
	var got []string
	v := strings.TrimSuffix(strings.TrimPrefix(r.value(), `["`), `"]`)
	got = strings.Split(v, `","`)
	if len(got) != len(want) {
		t.Fatalf("got %d values, want %d:\n%s", len(got), len(want), r.value())
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("value %d =\n%s\nwant\n%s", i, got[i], want[i])
		}
	}
}

// TestNodeErrorMessages: the shared validators throw Node's errors, with
// Node's message format, code and name.
func TestNodeErrorMessages(t *testing.T) {
	lines(t, `
import path from "node:path";
import vm from "node:vm";
const show = (f) => { try { f(); return "no error" } catch (e) { return e.name + "|" + e.code + "|" + e.message + "|" + String(e) } };
export default () => [
  show(() => path.join(1)),
  show(() => path.basename("a", 7n)),
  show(() => path.format(null)),
  show(() => path.relative("a", {})),
  show(() => path.win32.dirname(() => 1)),
  show(() => path.resolve("a", Symbol("s"))),
  show(() => path.normalize("a".repeat(40) + "'")),
  show(() => vm.compileFunction("", "x")),
  show(() => new console.Console({ stdout: process.stdout, groupIndentation: 1001 })),
  show(() => new console.Console({ stdout: process.stdout, groupIndentation: 1.5 })),
  show(() => console.table([], false)),
  show(() => new Blob([], { endings: "crlf" })),
];`,
		`TypeError|ERR_INVALID_ARG_TYPE|The \"path\" argument must be of type string. Received type number (1)|TypeError [ERR_INVALID_ARG_TYPE]: The \"path\" argument must be of type string. Received type number (1)`,
		`TypeError|ERR_INVALID_ARG_TYPE|The \"suffix\" argument must be of type string. Received type bigint (7n)|TypeError [ERR_INVALID_ARG_TYPE]: The \"suffix\" argument must be of type string. Received type bigint (7n)`,
		`TypeError|ERR_INVALID_ARG_TYPE|The \"pathObject\" argument must be of type object. Received null|TypeError [ERR_INVALID_ARG_TYPE]: The \"pathObject\" argument must be of type object. Received null`,
		`TypeError|ERR_INVALID_ARG_TYPE|The \"to\" argument must be of type string. Received an instance of Object|TypeError [ERR_INVALID_ARG_TYPE]: The \"to\" argument must be of type string. Received an instance of Object`,
		`TypeError|ERR_INVALID_ARG_TYPE|The \"path\" argument must be of type string. Received function |TypeError [ERR_INVALID_ARG_TYPE]: The \"path\" argument must be of type string. Received function `,
		`TypeError|ERR_INVALID_ARG_TYPE|The \"paths[1]\" argument must be of type string. Received type symbol (Symbol(s))|TypeError [ERR_INVALID_ARG_TYPE]: The \"paths[1]\" argument must be of type string. Received type symbol (Symbol(s))`,
		`no error`,
		`TypeError|ERR_INVALID_ARG_TYPE|The \"params\" argument must be an instance of Array. Received type string ('x')|TypeError [ERR_INVALID_ARG_TYPE]: The \"params\" argument must be an instance of Array. Received type string ('x')`,
		`RangeError|ERR_OUT_OF_RANGE|The value of \"groupIndentation\" is out of range. It must be >= 0 && <= 1000. Received 1001|RangeError [ERR_OUT_OF_RANGE]: The value of \"groupIndentation\" is out of range. It must be >= 0 && <= 1000. Received 1001`,
		`RangeError|ERR_OUT_OF_RANGE|The value of \"groupIndentation\" is out of range. It must be an integer. Received 1.5|RangeError [ERR_OUT_OF_RANGE]: The value of \"groupIndentation\" is out of range. It must be an integer. Received 1.5`,
		`TypeError|ERR_INVALID_ARG_TYPE|The \"properties\" argument must be an instance of Array. Received type boolean (false)|TypeError [ERR_INVALID_ARG_TYPE]: The \"properties\" argument must be an instance of Array. Received type boolean (false)`,
		`TypeError|ERR_INVALID_ARG_VALUE|The property 'options.endings' is invalid. Received 'crlf'|TypeError [ERR_INVALID_ARG_VALUE]: The property 'options.endings' is invalid. Received 'crlf'`,
	)
}

// TestPathWin32: path.win32 is Windows' semantics, not path.posix;
// node:path/win32 and node:path/posix are the same objects as
// path.win32 and path.posix.
func TestPathWin32(t *testing.T) {
	lines(t, `
import path from "node:path";
import win32 from "node:path/win32";
import posix from "node:path/posix";
const w = path.win32;
export default () => [
  String(win32 === w && posix === path.posix && path.posix === path && w.win32 === w && w.posix === path),
  w.normalize("C:\\temp\\\\foo\\bar\\..\\"),
  w.normalize("//server/share/dir/../../x"),
  w.normalize("test/../C:/Windows"),
  w.normalize("C:"),
  w.join("//server", "share"),
  w.join("\\\\\\a", "b"),
  w.resolve("c:/blah\\blah", "d:/games", "c:../a"),
  w.resolve("\\\\server\\share", "..", "x"),
  w.relative("C:\\orandea\\test\\aaa", "C:\\orandea\\impl\\bbb"),
  w.relative("C:\\a", "D:\\b"),
  w.dirname("C:\\a\\b\\"), w.dirname("\\\\srv\\sh"), w.basename("C:file.txt", ".txt"),
  w.extname("C:\\a.b\\c"), JSON.stringify(w.parse("C:\\p\\dir\\file.ext")),
  JSON.stringify(w.parse("\\\\server\\share\\f")),
  w.format({ root: "C:\\", name: "f", ext: "txt" }),
  String(w.isAbsolute("C:") ) + String(w.isAbsolute("C:/")) + String(w.isAbsolute("//x")),
  w.toNamespacedPath("C:/foo"), w.toNamespacedPath("//foo//bar"),
  w.sep + w.delimiter + path.sep + path.delimiter,
  String(w.matchesGlob("foo\\bar\\baz", "foo\\[bc-r]ar\\baz")) + String(path.matchesGlob("foo/bar/baz", "foo/**")) + String(path.matchesGlob("foo/bar", "*")),
];`,
		`true`,
		`C:\\temp\\foo\\`,
		`\\\\server\\share\\x`,
		`.\\C:\\Windows`,
		`C:.`,
		`\\\\server\\share\\`,
		`\\a\\b`,
		`c:\\blah\\a`,
		`\\\\server\\share\\x`,
		`..\\..\\impl\\bbb`,
		`D:\\b`,
		`C:\\a`, `\\\\srv\\sh`, `file`,
		``, `{\"root\":\"C:\\\\\",\"dir\":\"C:\\\\p\\\\dir\",\"base\":\"file.ext\",\"ext\":\".ext\",\"name\":\"file\"}`,
		`{\"root\":\"\\\\\\\\server\\\\share\\\\\",\"dir\":\"\\\\\\\\server\\\\share\\\\\",\"base\":\"f\",\"ext\":\"\",\"name\":\"f\"}`,
		`C:\\f.txt`,
		`falsetruetrue`,
		`\\\\?\\C:\\foo`, `\\\\?\\UNC\\foo\\bar\\`,
		`\\;/:`,
		`truetruefalse`,
	)
}

// TestDOMExceptionBlobCapture: DOMException (codes, cause, a bad this),
// atob's DOMException, structuredClone's DataCloneError, Blob and File,
// and Error.captureStackTrace.
func TestDOMExceptionBlobCapture(t *testing.T) {
	lines(t, `
import { Blob as BufferBlob } from "node:buffer";
const d = new DOMException("gone", { name: "AbortError", cause: 7 });
let bad; try { Object.getOwnPropertyDescriptor(DOMException.prototype, "name").get.call({}) } catch (e) { bad = e.code + " " + e.message }
let a; try { atob("a") } catch (e) { a = [e instanceof DOMException, e.name, e.code, e.message].join(" ") }
let c; try { structuredClone(() => 1) } catch (e) { c = [e instanceof DOMException, e.name, e.code].join(" ") }
const cl = structuredClone(new DOMException("m", "SyntaxError"));
const b = new Blob(["ab", new Uint8Array([99]), new Blob(["d"])], { type: "Text/Plain" });
const f = new File(["xyz"], "n.txt", { lastModified: 5 });
function Outer() { const o = {}; Error.captureStackTrace(o); return o; }
const o = Outer();
class MyErr { constructor() { this.name = "MyErr"; this.message = "hi"; Error.captureStackTrace(this, MyErr); } }
export default async () => [
  [d.name, d.message, d.code, d.cause, DOMException.ABORT_ERR, Object.prototype.toString.call(d), d instanceof Error].join(" "),
  bad, a, c,
  [cl instanceof DOMException, cl.name, cl.code, cl.message].join(" "),
  [b.size, b.type, await b.text(), await b.slice(1, -1).text(), BufferBlob === Blob, Object.prototype.toString.call(b)].join(" "),
  [f.name, f.size, f.lastModified, f instanceof Blob, await f.text()].join(" "),
  String(typeof o.stack === "string" && o.stack.startsWith("Error\n") && o.stack.includes("Outer")),
  String(new MyErr().stack.split("\n")[0]),
];`,
		`AbortError gone 20 7 20 [object DOMException] true`,
		`ERR_INVALID_THIS Value of \"this\" must be of type DOMException`,
		`true InvalidCharacterError 5 The string to be decoded is not correctly encoded.`,
		`true DataCloneError 25`,
		`true SyntaxError 12 m`,
		`4 text/plain abcd bc true [object Blob]`,
		`n.txt 3 5 true xyz`,
		`true`,
		`MyErr: hi`,
	)
}

// TestVMAndConsoleModule: node:vm evaluates in the program's realm with
// a context object's properties as globals; node:console is the global
// console, and its Console class writes to the streams it is given.
func TestVMAndConsoleModule(t *testing.T) {
	lines(t, `
import vm from "node:vm";
import nodeConsole from "node:console";
const ctx = vm.createContext({ x: 2 });
let syn; try { new vm.Script("(") } catch (e) { syn = e.name }
const out = [];
const c = new nodeConsole.Console({ write: (s) => out.push(s) });
c.log("a %d", 1); c.group("g"); c.warn("in"); c.groupEnd(); c.assert(false, "x %s", "y"); c.count(); c.count();
export default () => [
  String(vm.runInNewContext("x + y", { x: 1, y: 2 })),
  String(vm.runInContext("x * 10", ctx)) + String(vm.isContext(ctx)) + String(vm.isContext({})),
  String(vm.runInThisContext("typeof globalThis")),
  String(vm.compileFunction("return a + b", ["a", "b"])(2, 3)),
  syn,
  String(nodeConsole === console && typeof console.Console === "function"),
  JSON.stringify(out),
  console.log.name + " " + console.groupCollapsed.name,
];`,
		`3`,
		`20truefalse`,
		`object`,
		`5`,
		`SyntaxError`,
		`true`,
		`[\"a 1\\n\",\"g\\n\",\"  in\\n\",\"Assertion failed: x y\\n\",\"default: 1\\n\",\"default: 2\\n\"]`,
		`log group`,
	)
}

// TestZlibBufferValidation: zlib's options and Buffer's concat, copy and
// INSPECT_MAX_BYTES throw Node's errors.
func TestZlibBufferValidation(t *testing.T) {
	lines(t, `
import zlib from "node:zlib";
import buffer from "node:buffer";
const show = (f) => { try { f(); return "no error" } catch (e) { return e.code + "|" + e.message } };
const g = zlib.createGzip({ level: NaN });
export default () => [
  show(() => zlib.createGzip({ chunkSize: "test" })),
  show(() => zlib.createGzip({ chunkSize: 0 })),
  show(() => zlib.createGzip({ windowBits: 0 })),
  show(() => zlib.createInflate({ windowBits: 0 })),
  show(() => zlib.deflateSync("x", { level: 10 })),
  show(() => zlib.deflateSync(1)),
  show(() => zlib.crc32("x", "y")),
  String(g._level),
  show(() => Buffer.concat([Buffer.from("a")], 3.5)),
  show(() => Buffer.alloc(5).copy(Buffer.alloc(5), -1)),
  show(() => Buffer.alloc(5).copy("x")),
  String(Buffer.from("abc").copy(new Uint16Array(1))),
  show(() => { buffer.INSPECT_MAX_BYTES = -1 }),
];`,
		`ERR_INVALID_ARG_TYPE|The \"options.chunkSize\" property must be of type number. Received type string ('test')`,
		`ERR_OUT_OF_RANGE|The value of \"options.chunkSize\" is out of range. It must be >= 64. Received 0`,
		`ERR_OUT_OF_RANGE|The value of \"options.windowBits\" is out of range. It must be >= 9 and <= 15. Received 0`,
		`no error`,
		`ERR_OUT_OF_RANGE|The value of \"options.level\" is out of range. It must be >= -1 and <= 9. Received 10`,
		`ERR_INVALID_ARG_TYPE|The \"buffer\" argument must be of type string or an instance of Buffer, TypedArray, DataView, or ArrayBuffer. Received type number (1)`,
		`ERR_INVALID_ARG_TYPE|The \"value\" argument must be of type number. Received type string ('y')`,
		`-1`,
		`ERR_OUT_OF_RANGE|The value of \"length\" is out of range. It must be an integer. Received 3.5`,
		`ERR_OUT_OF_RANGE|The value of \"targetStart\" is out of range. It must be >= 0. Received -1`,
		`ERR_INVALID_ARG_TYPE|The \"target\" argument must be an instance of Buffer or Uint8Array. Received type string ('x')`,
		`2`,
		`ERR_OUT_OF_RANGE|The value of \"INSPECT_MAX_BYTES\" is out of range. It must be >= 0. Received -1`,
	)
}

// TestMoreValidators: process.emitWarning, util.deprecate,
// crypto.randomUUID, setMaxListeners, the timers/promises scheduler,
// process.env with a symbol and os.EOL throw as Node's do.
func TestMoreValidators(t *testing.T) {
	lines(t, `
import util from "node:util";
import crypto from "node:crypto";
import os from "node:os";
import { EventEmitter } from "node:events";
import { scheduler } from "node:timers/promises";
const show = (f) => { try { f(); return "no error" } catch (e) { return e.name + "|" + e.code + "|" + e.message } };
export default () => [
  show(() => process.emitWarning(1)),
  show(() => process.emitWarning("w", "T", 5)),
  show(() => util.deprecate(() => {}, "m", 7)),
  show(() => crypto.randomUUID({ disableEntropyCache: "" })),
  show(() => new EventEmitter().setMaxListeners("x")),
  show(() => new EventEmitter().setMaxListeners(-1)),
  show(() => EventEmitter.setMaxListeners(1, "nope")),
  show(() => new scheduler.constructor()),
  show(() => { process.env[Symbol("s")] = 1 }),
  show(() => { os.EOL = "x" }).split("|")[0],
  show(() => process.cpuUsage(1)),
  show(() => process.cpuUsage({ user: -1, system: 0 })),
];`,
		`TypeError|ERR_INVALID_ARG_TYPE|The \"warning\" argument must be of type string or an instance of Error. Received type number (1)`,
		`TypeError|ERR_INVALID_ARG_TYPE|The \"code\" argument must be of type string. Received type number (5)`,
		`TypeError|ERR_INVALID_ARG_TYPE|The \"code\" argument must be of type string. Received type number (7)`,
		`TypeError|ERR_INVALID_ARG_TYPE|The \"options.disableEntropyCache\" property must be of type boolean. Received type string ('')`,
		`TypeError|ERR_INVALID_ARG_TYPE|The \"setMaxListeners\" argument must be of type number. Received type string ('x')`,
		`RangeError|ERR_OUT_OF_RANGE|The value of \"setMaxListeners\" is out of range. It must be >= 0. Received -1`,
		`TypeError|ERR_INVALID_ARG_TYPE|The \"eventTargets\" argument must be an instance of EventEmitter or EventTarget. Received type string ('nope')`,
		`TypeError|ERR_ILLEGAL_CONSTRUCTOR|Illegal constructor`,
		`TypeError|undefined|Cannot convert a Symbol value to a string`,
		`TypeError`,
		`TypeError|ERR_INVALID_ARG_TYPE|The \"prevValue\" argument must be of type object. Received type number (1)`,
		`RangeError|ERR_INVALID_ARG_VALUE|The property 'prevValue.user' is invalid. Received -1`,
	)
}

// TestOSPriority: the run's own priority is kept; other pids are not in
// the sandbox; arguments are checked as Node does.
func TestOSPriority(t *testing.T) {
	lines(t, `
import os from "node:os";
const show = (f) => { try { return String(f()) } catch (e) { return e.name + "|" + e.code + "|" + e.message } };
os.setPriority(5);
export default () => [
  show(() => os.getPriority()), show(() => os.getPriority(process.pid)),
  show(() => os.getPriority(-1)),
  show(() => os.setPriority(0, 20)),
  show(() => os.setPriority("x", 1)),
  show(() => os.getPriority(3.14)),
];`,
		`5`, `5`,
		`SystemError|ERR_SYSTEM_ERROR|A system error occurred: uv_os_getpriority returned ESRCH (no such process)`,
		`RangeError|ERR_OUT_OF_RANGE|The value of \"priority\" is out of range. It must be >= -20 && <= 19. Received 20`,
		`TypeError|ERR_INVALID_ARG_TYPE|The \"pid\" argument must be of type number. Received type string ('x')`,
		`RangeError|ERR_OUT_OF_RANGE|The value of \"pid\" is out of range. It must be an integer. Received 3.14`,
	)
}

// TestClearWrongKind: clearImmediate does not clear a Timeout, nor
// clearTimeout an Immediate, as in Node.
func TestClearWrongKind(t *testing.T) {
	lines(t, `
const log = [];
const t = setTimeout(() => log.push("timeout"), 1);
clearImmediate(t);
const i = setImmediate(() => log.push("immediate"));
clearTimeout(i);
const j = setImmediate(() => log.push("cleared"));
clearImmediate(j);
export default async () => { await new Promise((r) => setTimeout(r, 20)); return log; };`,
		`immediate`, `timeout`)
}

// TestLabelAndSignal: TextDecoder strips ASCII whitespace only from its
// label; addEventListener checks options.signal.
func TestLabelAndSignal(t *testing.T) {
	lines(t, `
const show = (f) => { try { f(); return "no error" } catch (e) { return e.name + "|" + e.code + "|" + e.message } };
export default () => [
  show(() => new TextDecoder("\u00a0utf-8")),
  show(() => new TextDecoder(" utf-8\n")),
  show(() => new EventTarget().addEventListener("x", () => {}, { signal: 1 })),
];`,
		"RangeError|ERR_ENCODING_NOT_SUPPORTED|The \\\"\u00a0utf-8\\\" encoding is not supported",
		`no error`,
		`TypeError|ERR_INVALID_ARG_TYPE|The \"options.signal\" property must be an instance of AbortSignal. Received type number (1)`,
	)
}

// TestCompareAndAny: Buffer#compare checks its offsets without coercion;
// AbortSignal.any checks its list.
func TestCompareAndAny(t *testing.T) {
	lines(t, `
const show = (f) => { try { return String(f()) } catch (e) { return e.code + "|" + e.message } };
const a = Buffer.from([1, 2, 3, 4]), b = Buffer.from([2, 3]);
export default () => [
  show(() => a.compare(b, 0, 2, 1, 3)),
  show(() => a.compare(b, 0xff)),
  show(() => a.compare(b, "0")),
  show(() => a.compare(b, 0, 3)),
  show(() => AbortSignal.any()),
  show(() => AbortSignal.any([AbortSignal.abort(), undefined])),
];`,
		`0`, `1`,
		`ERR_INVALID_ARG_TYPE|The \"targetStart\" argument must be of type number. Received type string ('0')`,
		`ERR_OUT_OF_RANGE|The value of \"targetEnd\" is out of range. It must be >= 0 && <= 2. Received 3`,
		`ERR_INVALID_ARG_TYPE|The \"signals\" argument must be an instance of Array. Received undefined`,
		`ERR_INVALID_ARG_TYPE|The \"signals[1]\" argument must be an instance of AbortSignal. Received undefined`,
	)
}
