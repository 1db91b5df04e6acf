package js_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/nookdev/nook/runtime"
	"github.com/nookdev/nook/vfs"
)

func TestZlib(t *testing.T) {
	e := newEnv(t)
	r := e.ok(spec{src: `
import zlib from "node:zlib";
import { promisify } from "node:util";
import { pipeline } from "node:stream/promises";
import { Readable, Writable } from "node:stream";
const text = "hello hello hello hello";
const gz = zlib.gzipSync(text);
const back = zlib.gunzipSync(gz).toString();
const inflated = (await promisify(zlib.inflate)(zlib.deflateSync(text, { level: 9 }))).toString();
const raw = zlib.inflateRawSync(zlib.deflateRawSync(Buffer.from(text))).toString();
const auto = zlib.unzipSync(gz).toString();
let bad;
try { zlib.gunzipSync(Buffer.from("not gzip")) } catch (e) { bad = [e.code, e.errno, e.message] }
let tooBig;
try { zlib.gunzipSync(gz, { maxOutputLength: 5 }) } catch (e) { tooBig = [e.code, e.name] }
const parts = [];
await pipeline(Readable.from([Buffer.from("ab"), Buffer.from("cd")]), zlib.createGzip(), zlib.createGunzip(),
  new Writable({ write(c, _, cb) { parts.push(String(c)); cb() } }));
export default () => [gz[0], gz[1], back, inflated, raw, auto, bad, tooBig, parts.join(""), zlib.crc32("hello"), zlib.constants.Z_BEST_COMPRESSION];`})
	want := `[31,139,"hello hello hello hello","hello hello hello hello","hello hello hello hello","hello hello hello hello",` +
		`["Z_DATA_ERROR",-3,"incorrect header check"],["ERR_BUFFER_TOO_LARGE","RangeError"],"abcd",907060870,9]`
	if r.value() != want {
		t.Errorf("value =\n%s\nwant\n%s", r.value(), want)
	}
}

// TestZlibBomb: a small gzip file that inflates past MaxAllocBytes stops
// the run with a LimitError naming it, without the memory.
func TestZlibBomb(t *testing.T) {
	e := newEnv(t)
	var buf bytes.Buffer
	w := gzip.NewWriter(&buf)
	w.Write(make([]byte, 80<<20))
	w.Close()
	if err := e.ws.FS().WriteFile(context.Background(), "/workspace/bomb.gz", buf.Bytes(), &vfs.WriteOptions{MkdirAll: true}); err != nil {
		t.Fatal(err)
	}
	r := e.run(spec{src: `
import fs from "node:fs";
import zlib from "node:zlib";
try { zlib.gunzipSync(fs.readFileSync("bomb.gz")) } catch (e) { console.log("caught", e.message) }
console.log("not reached");`})
	le, ok := errors.AsType[*runtime.LimitError](r.exit.Err)
	if !ok || le.Limit != "MaxAllocBytes" || strings.Contains(r.stdout, "not reached") {
		t.Fatalf("exit %+v stdout %q stderr %q", r.exit, r.stdout, r.stderr)
	}
}

func TestReadline(t *testing.T) {
	e := newEnv(t)
	e.write("/workspace/lines.txt", "one\r\ntwo\nthree")
	r := e.ok(spec{stdin: "a\nb\n", src: `
import readline from "node:readline";
import * as rlp from "node:readline/promises";
import fs from "node:fs";
const got = [];
for await (const line of readline.createInterface({ input: fs.createReadStream("lines.txt"), crlfDelay: Infinity })) got.push(line);
const ev = [];
const rl = readline.createInterface({ input: process.stdin });
await new Promise((res) => { rl.on("line", (l) => ev.push(l)); rl.on("close", res); });
const q = rlp.createInterface({ input: fs.createReadStream("lines.txt"), output: process.stdout });
const answer = await q.question("name? ");
q.close();
export default () => [got, ev, answer];`})
	if want := `[["one","two","three"],["a","b"],"one"]`; r.value() != want {
		t.Errorf("value = %s, want %s", r.value(), want)
	}
	if r.stdout != "name? " {
		t.Errorf("stdout %q", r.stdout)
	}
}

func TestModuleAndStubs(t *testing.T) {
	e := newEnv(t)
	r := e.ok(spec{src: `
import { createRequire, isBuiltin, builtinModules } from "node:module";
import { isMainThread } from "node:worker_threads";
const require2 = createRequire(import.meta.url);
export default () => [typeof require2("node:path").join, isBuiltin("fs"), isBuiltin("nope"), builtinModules.includes("zlib"),
  isMainThread];`})
	if want := `["function",true,false,true,true]`; r.value() != want {
		t.Errorf("value = %s, want %s", r.value(), want)
	}
}

func TestNodeTestRunner(t *testing.T) {
	e := newEnv(t)
	r := e.run(spec{src: `
import { test, describe, it, mock, beforeEach } from "node:test";
import assert from "node:assert";
let n = 0;
describe("suite", () => {
  beforeEach(() => { n++ });
  it("adds", () => assert.strictEqual(1 + 1, 2));
  it("fails", () => assert.strictEqual(n, 99));
});
test("mocks", async (t) => {
  const f = mock.fn((x) => x * 2);
  f(2); f(3);
  assert.deepStrictEqual(f.mock.calls.map((c) => c.result), [4, 6]);
  await t.test("sub", () => {});
});
test.skip("skipped", () => { throw new Error("no") });`})
	want := "    ok 1 - adds\n    not ok 2 - fails\n"
	if !strings.HasPrefix(r.stdout, want) || !strings.Contains(r.stdout, "ok 3 - suite") && !strings.Contains(r.stdout, "suite") ||
		!strings.Contains(r.stdout, "    ok 4 - sub\nok 5 - mocks\nok 6 - skipped # SKIP\n# tests 6\n") || r.exit.Code != 1 {
		t.Errorf("code %d stdout:\n%s\nstderr:\n%s", r.exit.Code, r.stdout, r.stderr)
	}
}
