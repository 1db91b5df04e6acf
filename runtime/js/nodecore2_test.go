package js_test

import (
	"testing"

	"github.com/nookdev/nook/runtime"
)

// TestURLSearchParamsBrand: URLSearchParams' methods and its live
// iterator check this with Node's ERR_INVALID_THIS, the constructor
// rejects bad pairs with ERR_INVALID_TUPLE / ERR_ARG_NOT_ITERABLE, and
// names go through ToString (a Symbol throws).
func TestURLSearchParamsBrand(t *testing.T) {
	lines(t, `
const show = (f) => { try { return String(f()) } catch (e) { return e.name + "|" + e.code + "|" + e.message } };
const p = new URLSearchParams("a=1&b=2");
const it = p.keys();
export default () => [
  show(() => p.append.call(undefined)),
  show(() => p.append("a")),
  show(() => p.get()),
  show(() => it.next.call({})),
  show(() => { const v = p.values(); p.append("c", "3"); return [...v].join(","); }),
  show(() => Object.prototype.toString.call(it) + " " + Object.prototype.toString.call(p)),
  show(() => it[Symbol.iterator]() === it),
  show(() => new URLSearchParams([["a"]])),
  show(() => new URLSearchParams([null])),
  show(() => new URLSearchParams({ [Symbol.iterator]: 42 })),
  show(() => new URLSearchParams({ [Symbol("s")]: 1 })),
  show(() => p.set(Symbol(), "x")),
  show(() => p.forEach()),
  show(() => Object.keys(URLSearchParams.prototype).join(",")),
  show(() => URLSearchParams.prototype[Symbol.iterator].name + " " + Object.getOwnPropertyDescriptor(URLSearchParams.prototype, Symbol.iterator).enumerable),
];`,
		`TypeError|ERR_INVALID_THIS|Value of \"this\" must be of type URLSearchParams`,
		`TypeError|ERR_MISSING_ARGS|The \"name\" and \"value\" arguments must be specified`,
		`TypeError|ERR_MISSING_ARGS|The \"name\" argument must be specified`,
		`TypeError|ERR_INVALID_THIS|Value of \"this\" must be of type URLSearchParamsIterator`,
		`1,2,3`,
		`[object URLSearchParams Iterator] [object URLSearchParams]`,
		`true`,
		`TypeError|ERR_INVALID_TUPLE|Each query pair must be an iterable [name, value] tuple`,
		`TypeError|ERR_INVALID_TUPLE|Each query pair must be an iterable [name, value] tuple`,
		`TypeError|ERR_ARG_NOT_ITERABLE|Query pairs must be iterable`,
		`TypeError|undefined|Cannot convert a Symbol value to a string`,
		`TypeError|undefined|Cannot convert a Symbol value to a string`,
		`TypeError|ERR_INVALID_ARG_TYPE|The \"callback\" argument must be of type function. Received undefined`,
		`size,append,delete,get,getAll,has,set,sort,forEach,entries,keys,values,toString`,
		`entries false`,
	)
}

// TestObjectURLs: URL.createObjectURL registers a Blob that
// buffer.resolveObjectURL finds until revokeObjectURL; urlToHttpOptions
// and fileURLToPath follow Node.
func TestObjectURLs(t *testing.T) {
	lines(t, `
import { resolveObjectURL } from "node:buffer";
import url from "node:url";
const show = (f) => { try { return String(f()) } catch (e) { return e.name + "|" + e.code + "|" + e.message } };
const b = new Blob(["hello"]);
const id = URL.createObjectURL(b);
export default () => [
  show(() => /^blob:nodedata:[0-9a-f-]{36}$/.test(id)),
  show(() => resolveObjectURL(id) === b),
  show(() => { URL.revokeObjectURL(id); URL.revokeObjectURL(id); return resolveObjectURL(id); }),
  show(() => resolveObjectURL("blob:nodedata:1:wrong")),
  show(() => URL.createObjectURL("x")),
  show(() => { const o = url.urlToHttpOptions({ ...new URL("http://a:b@[::1]:21/p?q") }); return [o.port, o.path, o instanceof Object].join(","); }),
  show(() => JSON.stringify(url.urlToHttpOptions(new URL("http://a:b@[::1]:21/p?q")))),
  show(() => url.urlToHttpOptions("http://x")),
  show(() => { try { url.fileURLToPath("file:///a%2F/"); } catch (e) { return e.code + " " + e.message + " " + e.input.href; } }),
  show(() => url.parse([])),
];`,
		`true`,
		`true`,
		`undefined`,
		`undefined`,
		`TypeError|ERR_INVALID_ARG_TYPE|The \"obj\" argument must be an instance of Blob. Received type string ('x')`,
		`NaN,,false`,
		`{\"protocol\":\"http:\",\"hostname\":\"::1\",\"hash\":\"\",\"search\":\"?q\",\"pathname\":\"/p\",\"path\":\"/p?q\",\"href\":\"http://a:b@[::1]:21/p?q\",\"port\":21,\"auth\":\"a:b\"}`,
		`TypeError|ERR_INVALID_ARG_TYPE|The \"url\" argument must be of type object. Received type string ('http://x')`,
		`ERR_INVALID_FILE_URL_PATH File URL path must not include encoded / characters file:///a%2F/`,
		`TypeError|ERR_INVALID_ARG_TYPE|The \"url\" argument must be of type string. Received an instance of Array`,
	)
}

// TestObjectURLLimit: registering more than MaxObjectURLs blob: URLs at
// once fails with an error naming the limit; revoking makes room.
func TestObjectURLLimit(t *testing.T) {
	if testing.Short() {
		t.Skip("registers 65536 object URLs")
	}
	lines(t, `
const b = new Blob([]);
const ids = [];
let err = "none";
try { for (let i = 0; i <= 65536; i++) ids.push(URL.createObjectURL(b)); } catch (e) { err = e.name + "|" + e.message; }
URL.revokeObjectURL(ids[0]);
export default () => [String(ids.length), err, String(URL.createObjectURL(b).startsWith("blob:nodedata:"))];`,
		`65536`,
		`RangeError|URL.createObjectURL: 65536 object URLs are registered, the limit MaxObjectURLs (65536)`,
		`true`,
	)
}

// TestStringDecoderNode: node:string_decoder holds incomplete characters
// across writes for utf8, utf16le, base64 and base64url, and end()
// flushes them as Node does.
func TestStringDecoderNode(t *testing.T) {
	lines(t, `
import { StringDecoder } from "node:string_decoder";
const show = (f) => { try { const v = f(); return typeof v === "string" ? v : JSON.stringify(v) } catch (e) { return e.name + "|" + e.code + "|" + e.message } };
const run = (enc, ...parts) => { const d = new StringDecoder(enc); return parts.map((p) => p === null ? d.end() : d.write(Buffer.from(p))).join("|"); };
export default () => [
  show(() => run("base64url", [0x61], null, [0x61, 0x61], [0x61], null)),
  show(() => run("base64", [0x61, 0x61], [0x61, 0x61], null)),
  show(() => run("utf8", [0xe2], [0x82], [0xac], [0xe2, 0x82], null, [0x61])),
  show(() => run("utf8", [0xe2], [0x61], [0xf0, 0x9f], [0x92, 0xa9], [0xed, 0xa0], null)),
  show(() => run("utf16le", [0x3d, 0xd8], [0x4d], [0xdc], [0x3d, 0xd8], null, [0x3d], null).split("").map((c) => c.charCodeAt(0).toString(16)).join(" ")),
  show(() => { const d = new StringDecoder("utf8"); d.write(Buffer.of(0xe2)); return [d.lastNeed, d.lastTotal, [...d.lastChar]]; }),
  show(() => new StringDecoder("nope")),
  show(() => new StringDecoder().write(1)),
  show(() => new StringDecoder("hex").write(new Uint16Array([0x0102]))),
];`,
		`|YQ||YWFh|`,
		`|YWFh|YQ==`,
		`||€||�|a`,
		`|�a||💩|��|`,
		`7c 7c d83d dc4d 7c 7c d83d 7c 7c`,
		`[2,3,[226,0,0,0]]`,
		`TypeError|ERR_UNKNOWN_ENCODING|Unknown encoding: nope`,
		`TypeError|ERR_INVALID_ARG_TYPE|The \"buf\" argument must be an instance of Buffer, TypedArray, or DataView. Received type number (1)`,
		`0201`,
	)
}

// TestBufferNodeArgs: readIntBE and friends need an offset, write takes
// Node's argument forms with integer bounds, Buffer.from checks an
// ArrayBuffer's offset and length, a fake ArrayBuffer is rejected, and a
// NaN is written as the quiet NaN.
func TestBufferNodeArgs(t *testing.T) {
	lines(t, `
const show = (f) => { try { return String(f()) } catch (e) { return e.name + "|" + e.code + "|" + e.message } };
const b = Buffer.alloc(8);
function AB() {}
Object.setPrototypeOf(AB, ArrayBuffer);
Object.setPrototypeOf(AB.prototype, ArrayBuffer.prototype);
export default () => [
  show(() => b.readIntBE(undefined, 2)),
  show(() => b.writeUIntLE(1, undefined, 2)),
  show(() => Buffer.alloc(9).write("foo", 10)),
  show(() => Buffer.alloc(9).write("foo", 1.5)),
  show(() => Buffer.alloc(9).write("foo", 0, "7")),
  show(() => Buffer.alloc(4).write("abcdef", 1, 10)),
  show(() => { const x = Buffer.alloc(4); return x.write("abcdef", 1, 3) + x.toString("hex"); }),
  show(() => Buffer.alloc(4).write("6162", "hex")),
  show(() => Buffer.from(new ArrayBuffer(5), 6)),
  show(() => Buffer.from(new ArrayBuffer(5), 3, 6)),
  show(() => Buffer.from(new ArrayBuffer(5), NaN, -1).length),
  show(() => Buffer.from(new AB())),
  show(() => { b.writeDoubleBE(NaN, 0); return b.toString("hex"); }),
  show(() => { b.writeFloatLE(NaN, 0); return b.toString("hex", 0, 4); }),
];`,
		`TypeError|ERR_INVALID_ARG_TYPE|The \"offset\" argument must be of type number. Received undefined`,
		`TypeError|ERR_INVALID_ARG_TYPE|The \"offset\" argument must be of type number. Received undefined`,
		`RangeError|ERR_OUT_OF_RANGE|The value of \"offset\" is out of range. It must be >= 0 && <= 9. Received 10`,
		`RangeError|ERR_OUT_OF_RANGE|The value of \"offset\" is out of range. It must be an integer. Received 1.5`,
		`TypeError|ERR_UNKNOWN_ENCODING|Unknown encoding: 7`,
		`RangeError|ERR_OUT_OF_RANGE|The value of \"length\" is out of range. It must be >= 0 && <= 4. Received 10`,
		`300616263`,
		`2`,
		`RangeError|ERR_BUFFER_OUT_OF_BOUNDS|\"offset\" is outside of buffer bounds`,
		`RangeError|ERR_BUFFER_OUT_OF_BOUNDS|\"length\" is outside of buffer bounds`,
		`0`,
		`TypeError|ERR_INVALID_ARG_TYPE|The first argument must be of type string or an instance of Buffer, ArrayBuffer, or Array or an Array-like Object. Received an instance of AB`,
		`7ff8000000000000`,
		`0000c07f`,
	)
}

// TestReadlineNode: U+2028 and U+2029 end lines, an interface has one
// async iterator (a nested loop continues the outer one), an input error
// rejects it, and terminal interfaces over one stream share its decoder.
func TestReadlineNode(t *testing.T) {
	lines(t, `
import readline from "node:readline";
import { Readable, PassThrough } from "node:stream";
const got = [];
const rl = readline.createInterface({ input: Readable.from(["a\nb\u2028c\u2029d\r\ne"]) });
const outer = [];
for await (const l of rl) { outer.push(l); for await (const m of rl) outer.push("+" + m); }
const bad = new Readable({ read() { this.destroy(Object.assign(new Error("boom"), { code: "EBOOM" })); } });
let err = "none";
try { for await (const l of readline.createInterface({ input: bad })) got.push(l); } catch (e) { err = e.code + " " + e.message; }
const input = new PassThrough();
const lines2 = [];
const rl1 = readline.createInterface({ input, terminal: true });
rl1.on("line", (l) => { lines2.push(l); rl1.close(); });
input.write(Buffer.from([0x66, 0x0a, 0xe2]));
await new Promise((r) => setImmediate(r));
const rl2 = readline.createInterface({ input, terminal: true });
rl2.on("line", (l) => lines2.push(l));
input.write(Buffer.from([0x98, 0x83, 0x0a]));
await new Promise((r) => setImmediate(r));
export default () => [outer.join("|"), err, lines2.join("|")];`,
		`a|+b|+c|+d|+e`,
		`EBOOM boom`,
		`f|☃`,
	)
}

// TestUtilInheritsAndVT: util.inherits defines a non-enumerable super_
// and links only the prototypes; stripVTControlCharacters removes OSC
// sequences ended by ST (0x9c); assert.rejects names the wrong return
// with Node's ERR_INVALID_RETURN_VALUE text.
func TestUtilInheritsAndVT(t *testing.T) {
	lines(t, `
import util from "node:util";
import assert from "node:assert";
function A() {}
A.stat = 1;
function B() {}
util.inherits(B, A);
let rej = "none";
try { await assert.rejects(() => undefined); } catch (e) { rej = e.code + "|" + e.message; }
let rej2 = "none";
try { await assert.rejects(() => new Map()); } catch (e) { rej2 = e.message; }
const show = (f) => { try { return String(f()) } catch (e) { return e.name + "|" + e.code + "|" + e.message } };
export default () => [
  JSON.stringify(Object.getOwnPropertyDescriptor(B, "super_").enumerable),
  String(B.stat) + " " + String(new B() instanceof A),
  show(() => util.inherits(B, null)),
  util.stripVTControlCharacters("\u001b]8;;mailto:x@y.z\u009cmail\u001b]8;;\u009c|\u001b[31mred\u001b[0m"),
  rej,
  rej2,
];`,
		`false`,
		`undefined true`,
		`TypeError|ERR_INVALID_ARG_TYPE|The \"superCtor\" argument must be of type function. Received null`,
		`mail|red`,
		`ERR_INVALID_RETURN_VALUE|Expected instance of Promise to be returned from the \"promiseFn\" function but got undefined.`,
		`Expected instance of Promise to be returned from the \"promiseFn\" function but got an instance of Map.`,
	)
}

// TestUtilFormatSpecifiers: %i keeps a negative zero, and %s stringifies
// an object with a callable toString of its own or from a user class
// but inspects one whose toString is not a function.
func TestUtilFormatSpecifiers(t *testing.T) {
	lines(t, `
import util from "node:util";
class Foo { toString() { return "Bar"; } }
export default () => [
  util.format("%i %i %i", -0.5, "-0.0", 1.5),
  util.format("%s", { toString: 5 }),
  util.format("%s", { toString() { return "Foo"; } }),
  util.format("%s", new Foo()),
  util.format("%s", { a: [1, 2, 3] }),
];`,
		`-0 -0 1`,
		`{ toString: 5 }`,
		`Foo`,
		`Bar`,
		`{ a: [Array] }`,
	)
}

// TestConsoleTableIteratorsAndStreamOptions: console.table lays out a Map's
// entries() as Key/Values and its values() as Values; a Console's
// inspectOptions may be a Map from stream to options.
func TestConsoleTableIteratorsAndStreamOptions(t *testing.T) {
	lines(t, `
import { Console } from "node:console";
import { PassThrough } from "node:stream";
const out = new PassThrough().setEncoding("utf8");
const err = new PassThrough().setEncoding("utf8");
const c = new Console({ stdout: out, stderr: err, inspectOptions: new Map([[out, { colors: true }], [err, { colors: false }]]) });
c.log("n", 42);
c.warn("n", 42);
const a = out.read(), b = err.read();
const t = new PassThrough().setEncoding("utf8");
const tc = new Console(t);
tc.table(new Map([[1, "x"]]).entries());
tc.table(new Map([[1, "x"]]).values());
export default () => [JSON.stringify(a), JSON.stringify(b), ...t.read().trimEnd().split("\n")];`,
		`\"n \\u001b[33m42\\u001b[39m\\n\"`,
		`\"n 42\\n\"`,
		`┌───────────────────┬─────┬────────┐`,
		`│ (iteration index) │ Key │ Values │`,
		`├───────────────────┼─────┼────────┤`,
		`│ 0                 │ 1   │ 'x'    │`,
		`└───────────────────┴─────┴────────┘`,
		`┌───────────────────┬────────┐`,
		`│ (iteration index) │ Values │`,
		`├───────────────────┼────────┤`,
		`│ 0                 │ 'x'    │`,
		`└───────────────────┴────────┘`,
	)
}

// TestStringDecoderMatchesToString: for random bytes in every encoding,
// the writes and end() of a StringDecoder give exactly
// Buffer.concat(chunks).toString(encoding), invalid UTF-8 included.
func TestStringDecoderMatchesToString(t *testing.T) {
	lines(t, `
import { StringDecoder } from "node:string_decoder";
let seed = 1;
const rand = (m) => { seed = (seed * 1103515245 + 12345) % 2147483648; return Math.floor(seed / 2147483648 * m); };
const encs = ["utf16le", "utf8", "ascii", "hex", "base64", "latin1", "base64url"];
let bad = "none";
for (let it = 0; it < 700 && bad === "none"; it++) {
  const enc = encs[it % encs.length];
  const sd = new StringDecoder(enc);
  const bufs = [], strs = [];
  const n = rand(10);
  for (let i = 0; i < n; i++) { const b = Buffer.alloc(rand(50)); for (let j = 0; j < b.length; j++) b[j] = rand(256); bufs.push(b); strs.push(sd.write(b)); }
  strs.push(sd.end());
  if (strs.join("") !== Buffer.concat(bufs).toString(enc)) bad = enc + " " + bufs.map((b) => b.toString("hex")).join(",");
}
export default () => [bad];`, "none")
}

// TestZlibWindowBitsAndCodes: { windowBits: 8 } is refused by gzip only,
// and zlib.codes cannot be replaced or changed.
func TestZlibWindowBitsAndCodes(t *testing.T) {
	lines(t, `
import zlib from "node:zlib";
const show = (f) => { try { return String(f()) } catch (e) { return e.name + "|" + e.code + "|" + e.message } };
export default () => [
  show(() => zlib.gzipSync(Buffer.alloc(0), { windowBits: 8 })),
  show(() => zlib.inflateRawSync(zlib.deflateRawSync(Buffer.from("hi"), { windowBits: 8 }), { windowBits: 8 })),
  show(() => { zlib.codes = {}; }),
  show(() => { zlib.codes.Z_OK = 1; }),
  show(() => zlib.codes.Z_OK + " " + zlib.codes["-5"] + " " + Object.isFrozen(zlib.codes)),
];`,
		`RangeError|ERR_OUT_OF_RANGE|The value of \"options.windowBits\" is out of range. It must be >= 9 and <= 15. Received 8`,
		`hi`,
		`TypeError|undefined|Cannot assign to read only property 'codes'`,
		`TypeError|undefined|Cannot assign to read only property 'Z_OK'`,
		`0 Z_BUF_ERROR true`,
	)
}

// TestBufferMaxima: buffer.kMaxLength and kStringMaxLength are Node 25's
// (2^53 - 1 bytes, 2^29 - 24 units); past them Node's errors are thrown
// before anything is allocated (a size past kMaxLength is ERR_OUT_OF_RANGE,
// a typed array past it V8's RangeError, a decoding past kStringMaxLength
// ERR_STRING_TOO_LONG, checked on the length before decoding: the fake
// buffer below holds no bytes). A fill that makes no bytes is
// ERR_INVALID_ARG_VALUE, and Buffer's methods work on a plain Uint8Array
// (subarray makes a Buffer of it; slice, its subarray, a Uint8Array).
func TestBufferMaxima(t *testing.T) {
	lines(t, `
import buffer from "node:buffer";
const show = (f) => { try { return String(f()) } catch (e) { return e.name + "|" + e.code + "|" + e.message } };
const fake = Object.defineProperty(Object.create(Buffer.prototype), "length", { value: 2 ** 29 });
export default () => [
  show(() => [buffer.kMaxLength, buffer.constants.MAX_LENGTH, buffer.kStringMaxLength, buffer.constants.MAX_STRING_LENGTH].join(" ")),
  show(() => Buffer(buffer.kMaxLength + 1)),
  show(() => Buffer.allocUnsafeSlow(-1)),
  show(() => new Uint8Array(buffer.kMaxLength + 1)),
  show(() => new Float64Array(2 ** 51)),
  show(() => fake.toString("latin1")),
  show(() => Buffer.prototype.toString.call(Object.defineProperty(Object.create(Buffer.prototype), "length", { value: 2 ** 28 }), "hex")),
  show(() => Buffer.alloc(4, "zz", "hex")),
  show(() => Buffer.alloc(4, "x", 20)),
  show(() => Buffer.alloc(4).fill(new Uint8Array(0))),
  show(() => Buffer.alloc(1).latin1Write("ww", 1, 1)),
  show(() => Buffer.from("abc").hexSlice(1, 5)),
  show(() => Buffer.from("abc").hexSlice(1)),
  show(() => { const u = Uint8Array.of(1, 2); return Buffer.prototype.swap16.call(u) === u && u.join(); }),
  show(() => Buffer.prototype.writeUint8 === Buffer.prototype.writeUInt8),
  show(() => Buffer.alloc(2).includes({})),
  show(() => { const s = Buffer.prototype.subarray.call(Uint8Array.of(1, 2, 3, 4), -3, -1); return Buffer.isBuffer(s) + " " + s.join(); }),
  show(() => { const u = Uint8Array.of(1, 2, 3); const s = Buffer.prototype.slice.call(u, 1); return Buffer.isBuffer(s) + " " + s.join(); }),
  show(() => Buffer.from("abc").subarray(2, 1).length + " " + Buffer.from("abc").subarray(1).toString()),
];`,
		`9007199254740991 9007199254740991 536870888 536870888`,
		`RangeError|ERR_OUT_OF_RANGE|The value of \"size\" is out of range. It must be >= 0 && <= 9007199254740991. Received 9_007_199_254_740_992`,
		`RangeError|ERR_OUT_OF_RANGE|The value of \"size\" is out of range. It must be >= 0 && <= 9007199254740991. Received -1`,
		`RangeError|undefined|Invalid typed array length: 9007199254740992`,
		`RangeError|undefined|Invalid typed array length: 2251799813685248`,
		`Error|ERR_STRING_TOO_LONG|Cannot create a string longer than 0x1fffffe8 characters`,
		`Error|ERR_STRING_TOO_LONG|Cannot create a string longer than 0x1fffffe8 characters`,
		`TypeError|ERR_INVALID_ARG_VALUE|The argument 'value' is invalid. Received 'zz'`,
		`TypeError|ERR_INVALID_ARG_TYPE|The \"encoding\" argument must be of type string. Received type number (20)`,
		`TypeError|ERR_INVALID_ARG_VALUE|The argument 'value' is invalid. Received Uint8Array(0) []`,
		`RangeError|ERR_BUFFER_OUT_OF_BOUNDS|\"length\" is outside of buffer bounds`,
		`RangeError|ERR_OUT_OF_RANGE|Index out of range`,
		`6263`,
		`2,1`,
		`true`,
		`TypeError|ERR_INVALID_ARG_TYPE|The \"value\" argument must be one of type number or string or an instance of Buffer or Uint8Array. Received an instance of Object`,
		`true 2,3`,
		`false 2,3`,
		`0 bc`,
	)
}

// TestPathToFileURLNode: pathToFileURL is Node 25's: with { windows: true }
// a drive path, a local extended path and a UNC path (its server the
// URL's host), Node's errors for a UNC path without a share or a server,
// and every character a file URL's path does not keep percent-encoded. Its
// worst input, a path of every UTF-16 unit below U+8000 (288 KB encoded),
// and parsing that URL again take 2 s on a loaded machine (15 s allowed).
func TestPathToFileURLNode(t *testing.T) {
	lines(t, `
import url from "node:url";
const show = (f) => { try { return String(f()) } catch (e) { return e.name + "|" + e.code + "|" + e.message } };
const win = (p) => url.pathToFileURL(p, { windows: true }).href;
const all = "/" + Array.from({ length: 0x7fff }, (_, i) => String.fromCharCode(i)).join("");
export default () => [
  show(() => win("C:\\dir\\foo bar#?%")),
  show(() => win("C:\\dir\\")),
  show(() => win("\\\\?\\C:\\path\\file.txt")),
  show(() => win("\\\\nas\\My Docs\\File.doc")),
  show(() => win("\\\\?\\UNC\\server\\share\\f.txt")),
  show(() => win("\\\\host")),
  show(() => url.pathToFileURL("/foo\r\n\t<>\"#%{}|^[\\~]`+"`"+`?bar").href),
  show(() => url.pathToFileURL("/\ud800x\ud83d\ude80").href),
  show(() => url.pathToFileURL(42)),
  show(() => { const t0 = Date.now(); const h = url.pathToFileURL(all).href; new URL(h); return h.length + " " + (Date.now() - t0 < 15000); }),
];`,
		`file:///C:/dir/foo%20bar%23%3F%25`,
		`file:///C:/dir/`,
		`file:///C:/path/file.txt`,
		`file://nas/My%20Docs/File.doc`,
		`file://server/share/f.txt`,
		`TypeError|ERR_INVALID_ARG_VALUE|The argument 'path' Missing UNC resource path. Received '\\\\\\\\host'`,
		`file:///foo%0D%0A%09%3C%3E%22%23%25%7B%7D%7C%5E%5B%5C%7E%5D%60%3Fbar`,
		`file:///%EF%BF%BDx%F0%9F%9A%80`,
		`TypeError|ERR_INVALID_ARG_TYPE|The \"path\" argument must be of type string. Received type number (42)`,
		`288225 true`,
	)
}

// TestParseEnv: util.parseEnv reads .env text as Node does: comments,
// quotes (only "" expands \n), an unclosed quote, "export ", inline
// comments, a repeated key's last value, keys in byte order, an object
// with no prototype.
func TestParseEnv(t *testing.T) {
	lines(t, `
import util from "node:util";
const show = (f) => { try { return JSON.stringify(f()) } catch (e) { return e.name + "|" + e.code + "|" + e.message } };
export default () => [
  show(() => util.parseEnv("# c\nB=2 # note\r\nA = ' q ' \nexport  C=\"x\\ny\"\nD=\"open\nE=\nA=last\n  \n=v\n=\n")),
  show(() => Object.getPrototypeOf(util.parseEnv("A=1"))),
  show(() => Object.keys(util.parseEnv("b=1\na=2\n\u00e9=3\nB=4"))),
  show(() => util.parseEnv("M='a\nb'\nN=\x60c\x60d\nnoequals\nO=o")),
  show(() => util.parseEnv(null)),
];`,
		`{\"\":\"\",\"A\":\"last\",\"B\":\"2\",\"C\":\"x\\ny\",\"D\":\"\\\"open\",\"E\":\"\"}`,
		`null`,
		`[\"B\",\"a\",\"b\",\"é\"]`,
		`{\"M\":\"a\\nb\",\"N\":\"c\",\"O\":\"o\"}`,
		`TypeError|ERR_INVALID_ARG_TYPE|The \"content\" argument must be of type string. Received null`,
	)
}

// TestLoadEnvFile: process.loadEnvFile reads ./.env or the named file
// into process.env without overriding what is set; a missing file is
// fs's ENOENT from open.
func TestLoadEnvFile(t *testing.T) {
	e := newFSEnv(t, runtime.ReadWrite)
	e.write("/workspace/.env", "NOOK_A=from file\nNOOK_B=b\n")
	e.write("/workspace/other.env", "NOOK_C='c c'\n")
	r := e.runFS(errOf+`
export default function () {
  process.env.NOOK_A = "set";
  process.loadEnvFile();
  process.loadEnvFile("other.env");
  return [process.env.NOOK_A, process.env.NOOK_B, process.env.NOOK_C, errOf(() => process.loadEnvFile("missing.env"))];
}`, runtime.ReadWrite)
	wantJSON(t, r, `["set","b","c c",["ENOENT","ENOENT: no such file or directory, open 'missing.env'","open","missing.env",null,-2]]`)
}

// TestAssertCallSource: a failing assert(value) or assert.ok(value)
// without a message quotes its call from the file, as Node does: the
// callee's member chain and the arguments up to the matching ')', on a
// line with other statements, strings, comments and non-ASCII names;
// with no file to read it is Node's "value == true".
func TestAssertCallSource(t *testing.T) {
	e := newFSEnv(t, runtime.ReadWrite)
	e.write("/workspace/a.js", `'use strict'; const ässört = require('assert'); ässört(true); ässört.ok(''); ässört(null);`)
	e.write("/workspace/b.js", `const assert = require('assert');
const msg = (f) => { try { f(); return 'no error'; } catch (e) { return e.message; } };
module.exports = [
  msg(() => assert(0)),
  msg(() => { assert.ok(null, undefined); }),
  msg(() => assert((() => { return 0 })())),
  msg(() => assert['ok'](/* ) */ '' && ")(")),
  msg(() => assert.strict.ok(0 === 1)),
  msg(() => assert(0, 'mine')),
  msg(() => assert()),
];`)
	r := e.runFS(`
const msg = (f) => { try { f(); return 'no error'; } catch (e) { return e.message; } };
export default function () {
  return [msg(() => require("./a.js")), ...require("./b.js"), msg(() => new Function("require", "require('assert')(false)")(require))];
}`, runtime.ReadWrite)
	const f = `The expression evaluated to a falsy value:\n\n  `
	wantJSON(t, r, `["`+f+`ässört.ok('')\n","`+f+`assert(0)\n","`+f+`assert.ok(null, undefined)\n",`+
		`"`+f+`assert((() => { return 0 })())\n","`+f+`assert['ok'](/* ) */ '' && \")(\")\n","`+f+`assert.strict.ok(0 === 1)\n",`+
		`"mine","No value argument passed to `+"`assert.ok()`"+`","false == true"]`)
}

// TestInspectPrototypeProperties: with showHidden, inspect shows a class
// instance's prototype getters, setters and values after its own
// properties (getters called on the instance with getters: true), as
// Node does; without it, only its own.
func TestInspectPrototypeProperties(t *testing.T) {
	lines(t, `
import util from "node:util";
class A { constructor() { this.a = 1 } get g() { return this.a } set s(v) {} }
A.prototype.v = 5;
class B extends A { get h() { return [1] } }
export default () => [
  util.inspect(new B(), { showHidden: true, getters: true }),
  util.inspect(new B(), { showHidden: true }),
  util.inspect(new B()),
];`,
		`B {\n  a: 1,\n  [h]: [Getter] [ 1, [length]: 1 ],\n  [g]: [Getter: 1],\n  [s]: [Setter],\n  v: 5\n}`,
		`B { a: 1, [h]: [Getter], [g]: [Getter], [s]: [Setter], v: 5 }`,
		`B { a: 1 }`,
	)
}

// TestAssertClass: new Assert({ strict, diff }) as Node has it: new is
// required, options are checked, strict instances alias equal to
// strictEqual, errors carry the instance's diff, and a destructured
// method has diff 'simple' (equal stays strict: a strict instance's own
// alias of strictEqual).
func TestAssertClass(t *testing.T) {
	lines(t, `
import assert, { Assert } from "node:assert";
const show = (f) => { try { return String(f()) } catch (e) { return e.name + "|" + e.code + "|" + e.message + (e.diff ? "|" + e.diff : "") } };
const full = new Assert({ diff: "full" });
const loose = new Assert({ strict: false });
const { equal, strictEqual } = full;
export default () => [
  show(() => Assert()),
  show(() => new Assert({ diff: "x" })),
  show(() => new Assert({ strict: 1 })),
  show(() => full.equal === full.strictEqual && loose.equal !== loose.strictEqual),
  show(() => full.equal(1, "1")),
  show(() => loose.equal(1, "1")),
  show(() => full.fail("boom")),
  show(() => equal(1, "1")),
  show(() => strictEqual(1, 2)),
  show(() => assert.strictEqual(1, 2)),
];`,
		`TypeError|ERR_CONSTRUCT_CALL_REQUIRED|Class constructor Assert cannot be invoked without 'new'`,
		`TypeError|ERR_INVALID_ARG_VALUE|The property 'options.diff' must be one of: 'simple', 'full'. Received 'x'`,
		`TypeError|ERR_INVALID_ARG_TYPE|The \"options.strict\" property must be of type boolean. Received type number (1)`,
		`true`,
		`AssertionError|ERR_ASSERTION|Expected values to be strictly equal:\n\n1 !== '1'\n|full`,
		`undefined`,
		`AssertionError|ERR_ASSERTION|boom|full`,
		`AssertionError|ERR_ASSERTION|Expected values to be strictly equal:\n\n1 !== '1'\n|simple`,
		`AssertionError|ERR_ASSERTION|Expected values to be strictly equal:\n\n1 !== 2\n|simple`,
		`AssertionError|ERR_ASSERTION|Expected values to be strictly equal:\n\n1 !== 2\n|simple`,
	)
}

// TestStreamArrayBufferViews: outside object mode, write, end and push
// take any TypedArray or DataView as a Buffer over its bytes (Node 25);
// object mode keeps the view; another value is Node's
// ERR_INVALID_ARG_TYPE naming TypedArray and DataView.
func TestStreamArrayBufferViews(t *testing.T) {
	lines(t, `
import { Writable, Readable } from "node:stream";
const src = Buffer.from("ABCD");
const got = [];
const w = new Writable({ write(c, enc, cb) { got.push(c.constructor.name + ":" + enc + ":" + c.toString()); cb(); } });
const finished = new Promise((res) => w.on("finish", res));
w.write(new Int8Array(src.buffer, src.byteOffset, 2));
w.write(new DataView(src.buffer, src.byteOffset + 2, 2));
w.end(new Uint16Array([0x4241]));
const ow = new Writable({ objectMode: true, write(c, enc, cb) { got.push("object:" + c.constructor.name); cb(); } });
ow.write(new Float32Array(1));
const r = new Readable({ read() {} });
r.push(new Int16Array([0x4443]));
let err;
try { new Writable({ write(c, e, cb) { cb(); } }).write({}); } catch (e) { err = e.code + "|" + e.message; }
export default async () => {
  await finished;
  return [...got, r.read().toString(), err];
};`,
		`Buffer:buffer:AB`,
		`Buffer:buffer:CD`,
		`Buffer:buffer:AB`,
		`object:Float32Array`,
		`CD`,
		`ERR_INVALID_ARG_TYPE|The \"chunk\" argument must be of type string or an instance of Buffer, TypedArray, or DataView. Received an instance of Object`,
	)
}

// TestDigestEncodings: digest() and an encoding Buffer does not know
// ('buffer' among them) give the Buffer, as Node does; a known one, in
// any case, the string.
func TestDigestEncodings(t *testing.T) {
	lines(t, `
import crypto from "node:crypto";
const h = (enc) => crypto.createHash("sha1").update("a").digest(enc);
const show = (v) => Buffer.isBuffer(v) ? "Buffer " + v.toString("hex") : v;
export default () => [show(h()), show(h("buffer")), show(h("xyz")), show(h("HEX")), show(crypto.createHmac("sha1", "k").update("a").digest("buffer"))];`,
		`Buffer 86f7e437faa5a7fce15d1ddcb9eaeaea377667b8`,
		`Buffer 86f7e437faa5a7fce15d1ddcb9eaeaea377667b8`,
		`Buffer 86f7e437faa5a7fce15d1ddcb9eaeaea377667b8`,
		`86f7e437faa5a7fce15d1ddcb9eaeaea377667b8`,
		`Buffer 40e7d441cadb17b07f050341aa23a6820ed81c8b`,
	)
}
