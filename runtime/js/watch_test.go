package js_test

import "testing"

func TestFSWatch(t *testing.T) {
	e := newEnv(t)
	e.write("/workspace/d/old.txt", "x")
	r := e.ok(spec{src: `
import fs from "node:fs";
const seen = [];
const w = fs.watch("d", (type, name) => seen.push(type + " " + name));
const rec = [];
const wr = fs.watch(".", { recursive: true, ignore: "*.log" }, (type, name) => rec.push(type + " " + name));
fs.writeFileSync("d/a.txt", "1");
fs.writeFileSync("d/skip.log", "1");
fs.appendFileSync("d/a.txt", "2");
fs.renameSync("d/old.txt", "d/new.txt");
fs.unlinkSync("d/a.txt");
await new Promise((res) => setTimeout(res, 50));
w.close(); wr.close();
let err;
try { fs.watch("nope") } catch (e) { err = [e.code, e.syscall, e.filename, e.message] }
const ac = new AbortController();
const it = fs.promises.watch("d", { signal: ac.signal });
setTimeout(() => fs.writeFileSync("d/p.txt", "p"), 5);
let first;
try { for await (const ev of it) { first = ev; ac.abort(); } } catch (e) { first.abort = e.name }
export default () => [seen, rec, err, first];`})
	want := `[["rename a.txt","change a.txt","rename skip.log","change skip.log","change a.txt","rename old.txt","rename new.txt","rename a.txt"],` +
		`["rename d/a.txt","change d/a.txt","change d/a.txt","rename d/old.txt","rename d/new.txt","rename d/a.txt"],` +
		`["ENOENT","watch","nope","ENOENT: no such file or directory, watch 'nope'"],{"eventType":"rename","filename":"p.txt","abort":"AbortError"}]`
	if r.value() != want {
		t.Errorf("value =\n%s\nwant\n%s", r.value(), want)
	}
}

func TestFSWatchFile(t *testing.T) {
	e := newEnv(t)
	e.write("/workspace/f.txt", "x")
	r := e.ok(spec{src: `
import fs from "node:fs";
const seen = [];
fs.watchFile("f.txt", { interval: 5 }, (cur, prev) => {
  seen.push([prev.size, cur.size]);
  if (cur.size === 0) fs.unwatchFile("f.txt");
});
setTimeout(() => fs.writeFileSync("f.txt", "xyz"), 20);
setTimeout(() => fs.unlinkSync("f.txt"), 60);
export default async () => { await new Promise((r) => setTimeout(r, 120)); return seen; };`})
	if want := `[[1,3],[3,0]]`; r.value() != want {
		t.Errorf("value = %s, want %s", r.value(), want)
	}
}
