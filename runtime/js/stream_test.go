package js_test

import "testing"

func TestStreams(t *testing.T) {
	e := newEnv(t)
	e.write("/workspace/in.txt", "alpha\nbeta\ngamma\n")
	r := e.ok(spec{src: `
import fs from "node:fs";
import { Readable, Writable, Transform, PassThrough } from "node:stream";
import { pipeline } from "node:stream/promises";
import { StringDecoder } from "node:string_decoder";
const up = new Transform({ transform(c, enc, cb) { cb(null, String(c).toUpperCase()) } });
await pipeline(fs.createReadStream("in.txt", { highWaterMark: 4 }), up, fs.createWriteStream("out.txt"));
const objs = [];
await pipeline(Readable.from([{ a: 1 }, { a: 2 }]), new Writable({ objectMode: true, write(o, _, cb) { objs.push(o.a); cb() } }));
const chunks = [];
for await (const c of fs.createReadStream("in.txt", { start: 6, end: 9, encoding: "utf8" })) chunks.push(c);
const d = new StringDecoder("utf8");
const euro = d.write(Buffer.from([0xe2, 0x82])) + d.write(Buffer.from([0xac]));
const w = fs.WriteStream("direct.txt");
w.write("x");
await new Promise((res) => w.end("y", res));
export default () => [fs.readFileSync("out.txt", "utf8"), objs, chunks, euro, new PassThrough() instanceof Readable,
  fs.readFileSync("direct.txt", "utf8"), w.bytesWritten];`})
	if want := `["ALPHA\nBETA\nGAMMA\n",[1,2],["beta"],"€",true,"xy",2]`; r.value() != want {
		t.Errorf("value = %s, want %s", r.value(), want)
	}
}

func TestWriteStreamOpenOrder(t *testing.T) {
	e := newEnv(t)
	e.write("/workspace/keep", "")
	r := e.ok(spec{src: `
const fs = require("fs");
const w = fs.createWriteStream("x.txt");
w.on("open", () => { w.write("hello"); process.nextTick(() => { w.write("world"); w.end(); }); });
w.on("close", () => console.log(fs.readFileSync("x.txt", "utf8")));
`})
	if r.stdout != "helloworld\n" {
		t.Errorf("stdout %q", r.stdout)
	}
}
