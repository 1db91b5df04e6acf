package js_test

import (
	"bytes"
	"context"
	"encoding/json"
	"sync"
	"testing"
	"time"

	"github.com/nookdev/nook/runtime"
	"github.com/nookdev/nook/runtime/js"
)

// End-to-end tests of the node:fs shim (guest/js/node_fs.js) over the
// runtime's FSOps.

// fsEnv is a workspace with /workspace and a secret outside it, and a
// backend with the given access.
func newFSEnv(t *testing.T, access runtime.Access) *env {
	t.Helper()
	e := newEnv(t, js.Options{Access: access})
	e.write("/secret/key", "s3cret")
	if err := e.ws.FS().MkdirAll(context.Background(), "/workspace", 0); err != nil {
		t.Fatal(err)
	}
	return e
}

// runFS runs src with a live host whose filesystem has the given access and
// returns the run's result; the run must succeed.
func (e *env) runFS(src string, access runtime.Access) result {
	e.t.Helper()
	s := spec{src: src, stdin: "from stdin\n"}
	p := e.prepare(s)
	var mu sync.Mutex
	var out, errb bytes.Buffer
	host := runtime.NewHost(runtime.HostConfig{
		FS: e.ws.FS(), Root: "/workspace", Access: access, RunID: "t1",
		Now: func() time.Time { return time.Unix(1_700_000_000, 0) },
		Output: func(stream runtime.Stream, b []byte) error {
			mu.Lock()
			defer mu.Unlock()
			if stream == runtime.Stderr {
				errb.Write(b)
			} else {
				out.Write(b)
			}
			return nil
		},
	})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	ex := p.Run(ctx, host)
	mu.Lock()
	defer mu.Unlock()
	r := result{exit: ex, stdout: out.String(), stderr: errb.String()}
	if r.exit.Code != 0 || r.exit.Err != nil {
		e.t.Fatalf("run failed: code %d, err %v\nstderr:\n%s", r.exit.Code, r.exit.Err, r.stderr)
	}
	return r
}

// wantJSON compares a run's value with want, both as JSON.
func wantJSON(t *testing.T, r result, want string) {
	t.Helper()
	var got, exp any
	if err := json.Unmarshal(r.exit.Value, &got); err != nil {
		t.Fatalf("value %s: %v", r.exit.Value, err)
	}
	if err := json.Unmarshal([]byte(want), &exp); err != nil {
		t.Fatalf("want %s: %v", want, err)
	}
	g, _ := json.Marshal(got)
	w, _ := json.Marshal(exp)
	if string(g) == string(w) {
		return
	}
	gm, ok1 := got.(map[string]any)
	wm, ok2 := exp.(map[string]any)
	if !ok1 || !ok2 {
		t.Fatalf("value:\n%s\nwant:\n%s", g, w)
	}
	for k := range merge(gm, wm) {
		a, _ := json.Marshal(gm[k])
		b, _ := json.Marshal(wm[k])
		if string(a) != string(b) {
			t.Errorf("%s:\n got  %s\n want %s", k, a, b)
		}
	}
}

func merge(a, b map[string]any) map[string]bool {
	keys := map[string]bool{}
	for k := range a {
		keys[k] = true
	}
	for k := range b {
		keys[k] = true
	}
	return keys
}

func (e *env) read(p string) string {
	e.t.Helper()
	b, err := e.ws.FS().ReadFile(context.Background(), p)
	if err != nil {
		e.t.Fatal(err)
	}
	return string(b)
}

// errOf is a JS helper that runs f and returns its error's Node fields.
const errOf = `
const errOf = (f) => { try { f(); return "no error"; } catch (e) { return [e.code, e.message, e.syscall ?? null, e.path ?? null, e.dest ?? null, e.errno ?? null]; } };
const errOfP = (p) => p.then(() => "no error", (e) => [e.code, e.message, e.syscall ?? null, e.path ?? null, e.dest ?? null, e.errno ?? null]);
`

func TestFSPromisesAPI(t *testing.T) {
	e := newFSEnv(t, runtime.ReadWrite)
	e.write("/workspace/a.txt", "héllo")
	r := e.runFS(errOf+`
import fsp from "node:fs/promises";
import fs from "node:fs";
export default async function () {
  const out = {};
  out.same = fs.promises === fsp;
  const buf = await fsp.readFile("a.txt");
  out.buf = [buf instanceof Buffer, buf.length, Array.from(buf.subarray(0, 2))];
  out.utf8 = await fsp.readFile("a.txt", "utf8");
  out.utf8opt = await fsp.readFile("/workspace/a.txt", { encoding: "utf-8" });
  out.latin1 = (await fsp.readFile("a.txt", "latin1")).length;
  out.base64 = await fsp.readFile("a.txt", { encoding: "base64" });
  out.hex = await fsp.readFile("a.txt", "hex");
  await fsp.writeFile("w.txt", "text");
  await fsp.writeFile("b64.bin", "AAEC/w==", "base64");
  out.b64 = Array.from(await fsp.readFile("b64.bin"));
  await fsp.writeFile("u8.bin", new Uint8Array([1, 2, 3]));
  await fsp.writeFile("dv.bin", new DataView(new Uint8Array([9, 8, 7, 6]).buffer, 1, 2));
  out.dv = Array.from(await fsp.readFile("dv.bin"));
  await fsp.writeFile("latin.txt", "\u00e9", { encoding: "latin1" });
  out.latinBytes = Array.from(await fsp.readFile("latin.txt"));
  out.wx = await errOfP(fsp.writeFile("w.txt", "x", { flag: "wx" }));
  await fsp.appendFile("w.txt", "+more");
  await fsp.writeFile("w.txt", "!", { flag: "a" });
  out.appended = await fsp.readFile("w.txt", "utf8");
  await fsp.writeFile("mode.txt", "m", { mode: 0o600 });
  out.mode = ((await fsp.stat("mode.txt")).mode & 0o777).toString(8);

  out.mkdir = await fsp.mkdir("d/e/f", { recursive: true });
  out.mkdirAgain = await fsp.mkdir("d/e/f", { recursive: true }) ?? "undefined";
  out.mkdirPlain = await fsp.mkdir("plain") ?? "undefined";
  out.mkdirExists = await errOfP(fsp.mkdir("plain"));
  await fsp.writeFile("d/e/f/g.txt", "g");
  await fsp.symlink("a.txt", "link");
  out.readdir = await fsp.readdir(".");
  const dirents = await fsp.readdir(".", { withFileTypes: true });
  out.dirents = dirents.map((d) => [d.name, d.isFile(), d.isDirectory(), d.isSymbolicLink(), d.parentPath, d.path]);
  out.recursive = await fsp.readdir("d", { recursive: true });
  out.recursiveTypes = (await fsp.readdir("d", { recursive: true, withFileTypes: true })).map((d) => d.parentPath + "|" + d.name);

  const st = await fsp.stat("a.txt");
  out.stat = [st.isFile(), st.isDirectory(), st.isSymbolicLink(), st.isFIFO(), st.isSocket(), st.isBlockDevice(),
    st.isCharacterDevice(), st.size, st.mtime instanceof Date, st.mtime.getTime() === Math.trunc(st.mtimeMs), typeof st.ino, st.nlink, st.mode.toString(8)];
  out.lstat = (await fsp.lstat("link")).isSymbolicLink();
  out.statLink = (await fsp.stat("link")).isFile();
  out.dirStat = (await fsp.stat("d")).isDirectory();
  out.access = await fsp.access("a.txt") ?? "undefined";
  out.accessR = await fsp.access("a.txt", fs.constants.R_OK | fs.constants.W_OK) ?? "undefined";
  out.accessMissing = await errOfP(fsp.access("nope"));
  out.realpath = await fsp.realpath("link");
  out.readlink = await fsp.readlink("link");

  await fsp.rename("w.txt", "renamed.txt");
  out.renamed = await fsp.readFile("renamed.txt", "utf8");
  await fsp.copyFile("renamed.txt", "copy.txt");
  out.copyExcl = await errOfP(fsp.copyFile("renamed.txt", "copy.txt", fs.constants.COPYFILE_EXCL));
  await fsp.cp("d", "d2", { recursive: true });
  out.cp = await fsp.readFile("d2/e/f/g.txt", "utf8");
  await fsp.chmod("copy.txt", 0o640);
  await fsp.chmod("renamed.txt", "600");
  out.chmod = [((await fsp.stat("copy.txt")).mode & 0o777).toString(8), ((await fsp.stat("renamed.txt")).mode & 0o777).toString(8)];
  await fsp.utimes("copy.txt", 1000, new Date(2000000));
  const ut = await fsp.stat("copy.txt");
  out.utimes = [ut.atimeMs, ut.mtimeMs];
  await fsp.truncate("copy.txt", 3);
  out.truncate = await fsp.readFile("copy.txt", "utf8");
  await fsp.truncate("copy.txt");
  out.truncate0 = (await fsp.stat("copy.txt")).size;
  const tmp = await fsp.mkdtemp("tmp-");
  out.mkdtemp = [tmp.startsWith("tmp-"), tmp.length, (await fsp.stat(tmp)).isDirectory()];

  await fsp.unlink("copy.txt");
  out.unlinked = await errOfP(fsp.stat("copy.txt"));
  out.rmdirFull = await errOfP(fsp.rmdir("d"));
  out.rmDir = await errOfP(fsp.rm("d"));
  await fsp.rm("d", { recursive: true });
  await fsp.rm("nothing", { force: true });
  await fsp.rmdir("plain");
  out.after = (await fsp.readdir(".")).filter((n) => !n.startsWith("tmp-"));
  out.constants = [fsp.constants.O_CREAT, fsp.constants.COPYFILE_EXCL, fs.constants.S_IFMT];
  return out;
}`, runtime.ReadWrite)
	wantJSON(t, r, `{
 "same": true,
 "buf": [true, 6, [104, 195]],
 "utf8": "héllo", "utf8opt": "héllo", "latin1": 6, "base64": "aMOpbGxv", "hex": "68c3a96c6c6f",
 "b64": [0, 1, 2, 255], "dv": [8, 7], "latinBytes": [233],
 "wx": ["EEXIST", "EEXIST: file already exists, open 'w.txt'", "open", "w.txt", null, -17],
 "appended": "text+more!", "mode": "600",
 "mkdir": "/workspace/d", "mkdirAgain": "undefined", "mkdirPlain": "undefined",
 "mkdirExists": ["EEXIST", "EEXIST: file already exists, mkdir 'plain'", "mkdir", "plain", null, -17],
 "readdir": ["a.txt", "b64.bin", "d", "dv.bin", "latin.txt", "link", "mode.txt", "plain", "u8.bin", "w.txt"],
 "dirents": [
  ["a.txt", true, false, false, ".", "."], ["b64.bin", true, false, false, ".", "."], ["d", false, true, false, ".", "."],
  ["dv.bin", true, false, false, ".", "."], ["latin.txt", true, false, false, ".", "."], ["link", false, false, true, ".", "."],
  ["mode.txt", true, false, false, ".", "."], ["plain", false, true, false, ".", "."], ["u8.bin", true, false, false, ".", "."],
  ["w.txt", true, false, false, ".", "."]],
 "recursive": ["e", "e/f", "e/f/g.txt"],
 "recursiveTypes": ["d|e", "d/e|f", "d/e/f|g.txt"],
 "stat": [true, false, false, false, false, false, false, 6, true, true, "number", 1, "100644"],
 "lstat": true, "statLink": true, "dirStat": true,
 "access": "undefined", "accessR": "undefined",
 "accessMissing": ["ENOENT", "ENOENT: no such file or directory, access 'nope'", "access", "nope", null, -2],
 "realpath": "/workspace/a.txt", "readlink": "a.txt",
 "renamed": "text+more!",
 "copyExcl": ["EEXIST", "EEXIST: file already exists, copyfile 'renamed.txt' -> 'copy.txt'", "copyfile", "renamed.txt", "copy.txt", -17],
 "cp": "g", "chmod": ["640", "600"], "utimes": [1000000, 2000000],
 "truncate": "tex", "truncate0": 0, "mkdtemp": [true, 10, true],
 "unlinked": ["ENOENT", "ENOENT: no such file or directory, stat 'copy.txt'", "stat", "copy.txt", null, -2],
 "rmdirFull": ["ENOTEMPTY", "ENOTEMPTY: directory not empty, rmdir 'd'", "rmdir", "d", null, -39],
 "rmDir": ["ERR_FS_EISDIR", "Path is a directory: rm returned EISDIR (is a directory) d", "rm", "d", null, null],
 "after": ["a.txt", "b64.bin", "d2", "dv.bin", "latin.txt", "link", "mode.txt", "renamed.txt", "u8.bin"],
 "constants": [64, 1, 61440]
}`)
}

func TestFSSyncAPI(t *testing.T) {
	e := newFSEnv(t, runtime.ReadWrite)
	e.write("/workspace/a.txt", "hello")
	r := e.runFS(errOf+`
import * as fs from "node:fs";
export default function () {
  const out = {};
  out.read = fs.readFileSync("a.txt", "utf8");
  out.readBuf = fs.readFileSync("./a.txt").toString("hex");
  fs.writeFileSync("b.txt", "one");
  fs.appendFileSync("b.txt", "two");
  fs.appendFileSync("new.txt", Buffer.from("n"));
  out.b = fs.readFileSync("b.txt", { encoding: "utf8" }) + "|" + fs.readFileSync("new.txt", "utf8");
  out.exists = [fs.existsSync("a.txt"), fs.existsSync("nope"), fs.existsSync(42), fs.existsSync("")];
  out.statNoEntry = [fs.statSync("nope", { throwIfNoEntry: false }) ?? "undefined", fs.lstatSync("nope", { throwIfNoEntry: false }) ?? "undefined"];
  out.statThrows = errOf(() => fs.statSync("nope"));
  out.mkdir = fs.mkdirSync("x/y", { recursive: true });
  out.readdir = fs.readdirSync("x", { withFileTypes: true }).map((d) => d.name + ":" + d.isDirectory());
  fs.renameSync("b.txt", "x/b.txt");
  fs.copyFileSync("x/b.txt", "c.txt");
  fs.cpSync("x", "x2", { recursive: true });
  fs.symlinkSync("x/b.txt", "lnk");
  out.link = [fs.readlinkSync("lnk"), fs.realpathSync("lnk"), fs.realpathSync.native("lnk"), fs.lstatSync("lnk").isSymbolicLink()];
  fs.chmodSync("c.txt", 0o600);
  fs.utimesSync("c.txt", 1, 2);
  const st = fs.statSync("c.txt");
  out.stat = [(st.mode & 0o777).toString(8), st.atimeMs, st.mtimeMs, st.size];
  fs.truncateSync("c.txt", 2);
  out.trunc = fs.readFileSync("c.txt", "utf8");
  fs.accessSync("c.txt", fs.constants.W_OK);
  out.accessX = errOf(() => fs.accessSync("c.txt", fs.constants.X_OK));
  const tmp = fs.mkdtempSync("/workspace/t-");
  out.tmp = [tmp.slice(0, 13), tmp.length];
  fs.unlinkSync("c.txt");
  fs.rmSync("x2", { recursive: true, force: true });
  fs.rmdirSync(tmp);
  out.after = fs.readdirSync("/workspace");

  // File descriptors.
  const fd = fs.openSync("fd.txt", "w+");
  out.fd = fd;
  out.w1 = fs.writeSync(fd, "hello world");
  out.w2 = fs.writeSync(fd, Buffer.from("XY"), 0, 2, 0);
  const buf = Buffer.alloc(20);
  out.r1 = fs.readSync(fd, buf, 0, 5, 0);
  out.r1s = buf.toString("utf8", 0, 5);
  out.rEnd = fs.readSync(fd, buf, 0, 5, null);
  out.fstat = fs.fstatSync(fd).size;
  fs.ftruncateSync(fd, 4);
  fs.fsyncSync(fd);
  fs.fdatasyncSync(fd);
  out.afterTrunc = fs.readFileSync("fd.txt", "utf8");
  fs.closeSync(fd);
  out.ebadf = errOf(() => fs.readSync(fd, buf, 0, 1, 0));
  out.ebadfClose = errOf(() => fs.closeSync(fd));
  const rfd = fs.openSync("fd.txt", "r");
  const b2 = Buffer.alloc(2);
  out.seq = [fs.readSync(rfd, b2), b2.toString(), fs.readSync(rfd, b2), b2.toString(), fs.readSync(rfd, b2)];
  out.readOnlyWrite = errOf(() => fs.writeSync(rfd, "x"));
  out.readFd = fs.readFileSync(fs.openSync("a.txt", "r"), "utf8");
  fs.closeSync(rfd);
  const afd = fs.openSync("log.txt", "a");
  fs.writeSync(afd, "1\n");
  fs.writeSync(afd, "2\n", 0);
  fs.writeFileSync(afd, "3\n");
  fs.closeSync(afd);
  out.log = fs.readFileSync("log.txt", "utf8");
  out.rPlusMissing = errOf(() => fs.openSync("missing", "r+"));
  out.wxExisting = errOf(() => fs.openSync("log.txt", "wx"));
  out.dirWrite = errOf(() => fs.openSync(".", "w"));
  const dfd = fs.openSync(".", "r");
  out.dirRead = errOf(() => fs.readSync(dfd, buf, 0, 1, 0));
  fs.closeSync(dfd);
  out.numFlags = fs.readFileSync(fs.openSync("log.txt", fs.constants.O_RDONLY), "utf8").length;
  out.badFd = errOf(() => fs.readSync("3", buf));
  fs.writeSync(1, "to stdout\n");
  fs.writeSync(2, Buffer.from("to stderr\n"));
  out.stdin = fs.readFileSync(0, "utf8");
  out.writev = (() => { const f = fs.openSync("v.txt", "w"); const n = fs.writevSync(f, [Buffer.from("ab"), Buffer.from("cd")]); fs.closeSync(f); return [n, fs.readFileSync("v.txt", "utf8")]; })();
  let n = 0, emfile;
  try { for (;;) { fs.openSync("a.txt"); n++; } } catch (e) { emfile = [e.code, e.message, n]; }
  out.emfile = emfile;
  return out;
}`, runtime.ReadWrite)
	// existsSync(42) warns as Node 25 does (DEP0187), once.
	if r.stdout != "to stdout\n" || r.stderr != "to stderr\n(node:1) [DEP0187] DeprecationWarning: Passing invalid argument types to fs.existsSync is deprecated\n" {
		t.Errorf("stdout %q stderr %q", r.stdout, r.stderr)
	}
	wantJSON(t, r, `{
 "read": "hello", "readBuf": "68656c6c6f", "b": "onetwo|n",
 "exists": [true, false, false, false],
 "statNoEntry": ["undefined", "undefined"],
 "statThrows": ["ENOENT", "ENOENT: no such file or directory, stat 'nope'", "stat", "nope", null, -2],
 "mkdir": "/workspace/x", "readdir": ["y:true"],
 "link": ["x/b.txt", "/workspace/x/b.txt", "/workspace/x/b.txt", true],
 "stat": ["600", 1000, 2000, 6], "trunc": "on",
 "accessX": ["EACCES", "EACCES: permission denied, access 'c.txt'", "access", "c.txt", null, -13],
 "tmp": ["/workspace/t-", 19],
 "after": ["a.txt", "lnk", "new.txt", "x"],
 "fd": 3, "w1": 11, "w2": 2, "r1": 5, "r1s": "XYllo", "rEnd": 0, "fstat": 11, "afterTrunc": "XYll",
 "ebadf": ["EBADF", "EBADF: bad file descriptor, read", "read", null, null, -9],
 "ebadfClose": ["EBADF", "EBADF: bad file descriptor, close", "close", null, null, -9],
 "seq": [2, "XY", 2, "ll", 0],
 "readOnlyWrite": ["EBADF", "EBADF: bad file descriptor, write", "write", null, null, -9],
 "readFd": "hello",
 "log": "1\n2\n3\n",
 "rPlusMissing": ["ENOENT", "ENOENT: no such file or directory, open 'missing'", "open", "missing", null, -2],
 "wxExisting": ["EEXIST", "EEXIST: file already exists, open 'log.txt'", "open", "log.txt", null, -17],
 "dirWrite": ["EISDIR", "EISDIR: illegal operation on a directory, open '.'", "open", ".", null, -21],
 "dirRead": ["EISDIR", "EISDIR: illegal operation on a directory, read", "read", null, null, -21],
 "numFlags": 6,
 "emfile": ["EMFILE", "EMFILE: too many open files, open 'a.txt'", 1022],
 "badFd": ["ERR_INVALID_ARG_TYPE", "The \"fd\" argument must be of type number. Received type string ('3')", null, null, null, null],
 "stdin": "from stdin\n",
 "writev": [4, "abcd"]
}`)
}

func TestFSCallbackAPI(t *testing.T) {
	e := newFSEnv(t, runtime.ReadWrite)
	e.write("/workspace/a.txt", "hello")
	r := e.runFS(errOf+`
import fs from "node:fs";
const p = (f) => new Promise((resolve) => f((...args) => resolve(args)));
export default async function () {
  const out = {};
  const order = [];
  fs.readFile("a.txt", "utf8", (err, data) => order.push("cb:" + data));
  order.push("sync");
  await new Promise((r) => setTimeout(r, 0));
  out.order = order;
  out.readFile = await p((cb) => fs.readFile("a.txt", cb)).then(([err, d]) => [err, d.toString()]);
  out.missing = await p((cb) => fs.readFile("nope", cb)).then(([err]) => [err.code, err.path, err.syscall]);
  out.writeFile = await p((cb) => fs.writeFile("w.txt", "data", cb));
  out.appendFile = await p((cb) => fs.appendFile("w.txt", "+", "utf8", cb));
  out.content = fs.readFileSync("w.txt", "utf8");
  out.mkdir = await p((cb) => fs.mkdir("d/e", { recursive: true }, cb));
  out.readdir = await p((cb) => fs.readdir(".", cb));
  out.stat = await p((cb) => fs.stat("w.txt", cb)).then(([err, st]) => [err, st.size, st.isFile()]);
  out.lstat = await p((cb) => fs.lstat("d", cb)).then(([err, st]) => st.isDirectory());
  out.exists = [await p((cb) => fs.exists("w.txt", cb)), await p((cb) => fs.exists("nope", cb))];
  out.access = await p((cb) => fs.access("nope", fs.constants.F_OK, cb)).then(([err]) => err.code);
  out.rename = await p((cb) => fs.rename("w.txt", "d/w.txt", cb));
  out.copyFile = await p((cb) => fs.copyFile("d/w.txt", "c.txt", cb));
  out.cp = await p((cb) => fs.cp("d", "d2", { recursive: true }, cb));
  out.symlink = await p((cb) => fs.symlink("c.txt", "l", cb));
  out.readlink = await p((cb) => fs.readlink("l", cb));
  out.realpath = await p((cb) => fs.realpath("l", cb));
  out.chmod = await p((cb) => fs.chmod("c.txt", 0o644, cb));
  out.utimes = await p((cb) => fs.utimes("c.txt", 5, 6, cb));
  out.truncate = await p((cb) => fs.truncate("c.txt", 1, cb));
  out.mkdtemp = await p((cb) => fs.mkdtemp("tmp", cb)).then(([err, d]) => [err, d.length]);
  out.unlink = await p((cb) => fs.unlink("c.txt", cb));
  out.rm = await p((cb) => fs.rm("d2", { recursive: true }, cb));
  out.rmdir = await p((cb) => fs.rmdir("d/e", cb));
  const [, fd] = await p((cb) => fs.open("fd.txt", "w+", cb));
  out.write = await p((cb) => fs.write(fd, Buffer.from("abcdef"), 0, 6, null, cb)).then(([err, n, b]) => [err, n, b.length]);
  out.writeStr = await p((cb) => fs.write(fd, "gh", cb)).then(([err, n, s]) => [err, n, s]);
  const buf = Buffer.alloc(8);
  out.read = await p((cb) => fs.read(fd, buf, 0, 8, 0, cb)).then(([err, n, b]) => [err, n, b.toString()]);
  out.readOpts = await p((cb) => fs.read(fd, { buffer: Buffer.alloc(3), position: 2 }, cb)).then(([err, n, b]) => [n, b.toString()]);
  out.fstat = await p((cb) => fs.fstat(fd, cb)).then(([err, st]) => st.size);
  out.fsync = await p((cb) => fs.fsync(fd, cb));
  out.close = await p((cb) => fs.close(fd, cb));
  out.closeAgain = await p((cb) => fs.close(fd, cb)).then(([err]) => err.code);
  out.noCallback = errOf(() => fs.readFile("a.txt"));
  out.badPathThrows = errOf(() => fs.readFile({}, () => {}));
  return out;
}`, runtime.ReadWrite)
	wantJSON(t, r, `{
 "order": ["sync", "cb:hello"],
 "readFile": [null, "hello"],
 "missing": ["ENOENT", "nope", "open"],
 "writeFile": [null], "appendFile": [null], "content": "data+",
 "mkdir": [null, "/workspace/d"],
 "readdir": [null, ["a.txt", "d", "w.txt"]],
 "stat": [null, 5, true], "lstat": true,
 "exists": [[true], [false]],
 "access": "ENOENT",
 "rename": [null], "copyFile": [null], "cp": [null], "symlink": [null],
 "readlink": [null, "c.txt"], "realpath": [null, "/workspace/c.txt"],
 "chmod": [null], "utimes": [null], "truncate": [null],
 "mkdtemp": [null, 9],
 "unlink": [null], "rm": [null], "rmdir": [null],
 "write": [null, 6, 6], "writeStr": [null, 2, "gh"],
 "read": [null, 8, "abcdefgh"], "readOpts": [3, "cde"],
 "fstat": 8, "fsync": [null], "close": [null], "closeAgain": "EBADF",
 "noCallback": ["ERR_INVALID_ARG_TYPE", "The \"cb\" argument must be of type function. Received undefined", null, null, null, null],
 "badPathThrows": ["ERR_INVALID_ARG_TYPE", "The \"path\" argument must be of type string or an instance of Buffer or URL. Received an instance of Object", null, null, null, null]
}`)
}

func TestFSPathsAndErrors(t *testing.T) {
	e := newFSEnv(t, runtime.ReadWrite)
	e.write("/workspace/sub/a.txt", "A")
	r := e.runFS(errOf+`
import fs from "node:fs";
import fsp from "node:fs/promises";
export default async function () {
  const out = {};
  out.url = fs.readFileSync(new URL("file:///workspace/sub/a.txt"), "utf8");
  out.urlHttp = errOf(() => fs.readFileSync(new URL("http://x/y")));
  out.buffer = fs.readFileSync(Buffer.from("sub/a.txt"), "utf8");
  out.dotdot = fs.readFileSync("sub/../sub/./a.txt", "utf8");
  out.number = errOf(() => fs.statSync(5));
  out.undef = errOf(() => fs.readdirSync());
  out.nul = errOf(() => fs.statSync("a\u0000b"));
  out.empty = errOf(() => fs.statSync(""));
  out.badEncoding = errOf(() => fs.readFileSync("sub/a.txt", "klingon"));
  out.badFlag = errOf(() => fs.writeFileSync("x", "y", { flag: "q" }));
  out.badData = errOf(() => fs.writeFileSync("x", 42));
  out.promiseRejects = await errOfP(fsp.readFile(42n === 42n ? {} : ""));
  out.isDir = errOf(() => fs.readFileSync("sub"));
  out.notDir = errOf(() => fs.readdirSync("sub/a.txt"));
  out.rename = errOf(() => fs.renameSync("nope", "sub/b"));
  out.symlinkExists = errOf(() => { fs.symlinkSync("a.txt", "sub/l"); fs.symlinkSync("a.txt", "sub/l"); });
  out.errInstance = (() => { try { fs.statSync("nope"); } catch (e) { return [e instanceof Error, e.name, Object.keys(e).sort()]; } })();
  out.absolute = errOf(() => fs.statSync("/workspace/nope"));
  return out;
}`, runtime.ReadWrite)
	wantJSON(t, r, `{
 "url": "A",
 "urlHttp": ["ERR_INVALID_URL_SCHEME", "The URL must be of scheme file", null, null, null, null],
 "buffer": "A", "dotdot": "A",
 "number": ["ERR_INVALID_ARG_TYPE", "The \"path\" argument must be of type string or an instance of Buffer or URL. Received type number (5)", null, null, null, null],
 "undef": ["ERR_INVALID_ARG_TYPE", "The \"path\" argument must be of type string or an instance of Buffer or URL. Received undefined", null, null, null, null],
 "nul": ["ERR_INVALID_ARG_VALUE", "The argument 'path' must be a string, Uint8Array, or URL without null bytes. Received 'a\\x00b'", null, null, null, null],
 "empty": ["ENOENT", "ENOENT: no such file or directory, stat ''", "stat", "", null, -2],
 "badEncoding": ["ERR_INVALID_ARG_VALUE", "The argument 'encoding' is invalid encoding. Received 'klingon'", null, null, null, null],
 "badFlag": ["ERR_INVALID_ARG_VALUE", "The argument 'flags' is invalid. Received 'q'", null, null, null, null],
 "badData": ["ERR_INVALID_ARG_TYPE", "The \"data\" argument must be of type string or an instance of Buffer, TypedArray, or DataView. Received type number (42)", null, null, null, null],
 "promiseRejects": ["ERR_INVALID_ARG_TYPE", "The \"path\" argument must be of type string or an instance of Buffer or URL. Received an instance of Object", null, null, null, null],
 "isDir": ["EISDIR", "EISDIR: illegal operation on a directory, read", "read", null, null, -21],
 "notDir": ["ENOTDIR", "ENOTDIR: not a directory, scandir 'sub/a.txt'", "scandir", "sub/a.txt", null, -20],
 "rename": ["ENOENT", "ENOENT: no such file or directory, rename 'nope' -> 'sub/b'", "rename", "nope", "sub/b", -2],
 "symlinkExists": ["EEXIST", "EEXIST: file already exists, symlink 'a.txt' -> 'sub/l'", "symlink", "a.txt", "sub/l", -17],
 "errInstance": [true, "Error", ["code", "errno", "path", "syscall"]],
 "absolute": ["ENOENT", "ENOENT: no such file or directory, stat '/workspace/nope'", "stat", "/workspace/nope", null, -2]
}`)
}

func TestFSConfinementFromJS(t *testing.T) {
	e := newFSEnv(t, runtime.ReadWrite)
	e.write("/workspace/sub/in.txt", "in")
	ctx := context.Background()
	if err := e.ws.FS().Symlink(ctx, "/secret", "/workspace/out"); err != nil {
		t.Fatal(err)
	}
	if err := e.ws.FS().Symlink(ctx, "out/key", "/workspace/chain"); err != nil {
		t.Fatal(err)
	}
	r := e.runFS(errOf+`
import fs from "node:fs";
import fsp from "node:fs/promises";
export default async function () {
  const out = {};
  out.dotdot = errOf(() => fs.readFileSync("../../etc/passwd"));
  out.abs = errOf(() => fs.readFileSync("/etc/passwd"));
  out.secret = errOf(() => fs.readFileSync("../secret/key"));
  out.linkOut = errOf(() => fs.readFileSync("out/key"));
  out.chain = await errOfP(fsp.readFile("chain"));
  out.statOut = errOf(() => fs.statSync("out"));
  out.lstatOut = fs.lstatSync("out").isSymbolicLink();
  out.readlinkOut = fs.readlinkSync("out");
  out.writeOut = errOf(() => fs.writeFileSync("out/new", "x"));
  out.mkdirOut = errOf(() => fs.mkdirSync("out/d", { recursive: true }));
  out.symlinkOut = errOf(() => fs.symlinkSync("/secret/key", "mine"));
  out.symlinkUp = errOf(() => fs.symlinkSync("../../secret", "sub/up"));
  fs.symlinkSync("../secret", "sub/fine");
  out.fine = fs.readlinkSync("sub/fine");
  out.renameOut = errOf(() => fs.renameSync("sub/in.txt", "/secret/stolen"));
  out.copyIn = errOf(() => fs.copyFileSync("/secret/key", "stolen"));
  out.openOut = errOf(() => fs.openSync("out/key", "r"));
  out.existsOut = fs.existsSync("out/key");
  out.readdirRoot = errOf(() => fs.readdirSync("/"));
  out.inside = fs.readFileSync("./sub/../sub/in.txt", "utf8");
  fs.unlinkSync("out");
  out.gone = fs.existsSync("out");
  return out;
}`, runtime.ReadWrite)
	wantJSON(t, r, `{
 "dotdot": ["EACCES", "EACCES: permission denied, open '../../etc/passwd'", "open", "../../etc/passwd", null, -13],
 "abs": ["EACCES", "EACCES: permission denied, open '/etc/passwd'", "open", "/etc/passwd", null, -13],
 "secret": ["EACCES", "EACCES: permission denied, open '../secret/key'", "open", "../secret/key", null, -13],
 "linkOut": ["EACCES", "EACCES: permission denied, open 'out/key'", "open", "out/key", null, -13],
 "chain": ["EACCES", "EACCES: permission denied, open 'chain'", "open", "chain", null, -13],
 "statOut": ["EACCES", "EACCES: permission denied, stat 'out'", "stat", "out", null, -13],
 "lstatOut": true, "readlinkOut": "/secret",
 "writeOut": ["EACCES", "EACCES: permission denied, open 'out/new'", "open", "out/new", null, -13],
 "mkdirOut": ["EACCES", "EACCES: permission denied, mkdir 'out/d'", "mkdir", "out/d", null, -13],
 "symlinkOut": ["EACCES", "EACCES: permission denied, symlink '/secret/key' -> 'mine'", "symlink", "/secret/key", "mine", -13],
 "symlinkUp": ["EACCES", "EACCES: permission denied, symlink '../../secret' -> 'sub/up'", "symlink", "../../secret", "sub/up", -13],
 "fine": "../secret",
 "renameOut": ["EACCES", "EACCES: permission denied, rename 'sub/in.txt' -> '/secret/stolen'", "rename", "sub/in.txt", "/secret/stolen", -13],
 "copyIn": ["EACCES", "EACCES: permission denied, copyfile '/secret/key' -> 'stolen'", "copyfile", "/secret/key", "stolen", -13],
 "openOut": ["EACCES", "EACCES: permission denied, open 'out/key'", "open", "out/key", null, -13],
 "existsOut": false,
 "readdirRoot": ["EACCES", "EACCES: permission denied, scandir '/'", "scandir", "/", null, -13],
 "inside": "in", "gone": false
}`)
	if e.read("/secret/key") != "s3cret" {
		t.Fatal("secret changed")
	}
	if _, err := e.ws.FS().Lstat(ctx, "/secret/stolen"); err == nil {
		t.Fatal("rename reached outside")
	}
}

func TestFSReadOnlyFromJS(t *testing.T) {
	e := newFSEnv(t, runtime.ReadOnly)
	e.write("/workspace/a.txt", "A")
	r := e.runFS(errOf+`
import fs from "node:fs";
import fsp from "node:fs/promises";
export default async function () {
  const out = {};
  out.read = fs.readFileSync("a.txt", "utf8");
  out.write = errOf(() => fs.writeFileSync("a.txt", "x"));
  out.append = await errOfP(fsp.appendFile("a.txt", "x"));
  out.mkdir = errOf(() => fs.mkdirSync("d"));
  out.rm = errOf(() => fs.rmSync("a.txt"));
  out.rename = errOf(() => fs.renameSync("a.txt", "b.txt"));
  out.openW = errOf(() => fs.openSync("a.txt", "w"));
  out.accessW = errOf(() => fs.accessSync("a.txt", fs.constants.W_OK));
  const fd = fs.openSync("a.txt", "r");
  out.fdRead = fs.readFileSync(fd, "utf8");
  fs.closeSync(fd);
  return out;
}`, runtime.ReadOnly)
	wantJSON(t, r, `{
 "read": "A",
 "write": ["EROFS", "EROFS: read-only file system, open 'a.txt'", "open", "a.txt", null, -30],
 "append": ["EROFS", "EROFS: read-only file system, open 'a.txt'", "open", "a.txt", null, -30],
 "mkdir": ["EROFS", "EROFS: read-only file system, mkdir 'd'", "mkdir", "d", null, -30],
 "rm": ["EROFS", "EROFS: read-only file system, rm 'a.txt'", "rm", "a.txt", null, -30],
 "rename": ["EROFS", "EROFS: read-only file system, rename 'a.txt' -> 'b.txt'", "rename", "a.txt", "b.txt", -30],
 "openW": ["EROFS", "EROFS: read-only file system, open 'a.txt'", "open", "a.txt", null, -30],
 "accessW": ["EROFS", "EROFS: read-only file system, access 'a.txt'", "access", "a.txt", null, -30],
 "fdRead": "A"
}`)
	if e.read("/workspace/a.txt") != "A" {
		t.Fatal("read-only file changed")
	}
}

func TestFSFileHandleDirStreams(t *testing.T) {
	e := newFSEnv(t, runtime.ReadWrite)
	for _, n := range []string{"c", "a", "b", "e", "d"} {
		e.write("/workspace/dir/"+n, n)
	}
	r := e.runFS(errOf+`
import fs from "node:fs";
import fsp from "node:fs/promises";
export default async function () {
  const out = {};
  const fh = await fsp.open("h.txt", "w+");
  out.fd = typeof fh.fd;
  out.write = (await fh.write("hello ")).bytesWritten;
  out.write2 = (await fh.write(Buffer.from("world"))).bytesWritten;
  await fh.appendFile("!");
  const rr = await fh.read(Buffer.alloc(5), 0, 5, 0);
  out.read = [rr.bytesRead, rr.buffer.toString()];
  out.readDefault = (await fh.read({ buffer: Buffer.alloc(4), position: 6 })).buffer.toString();
  out.stat = (await fh.stat()).size;
  await fh.truncate(5);
  out.readFile = await fh.readFile("utf8");
  await fh.close();
  out.closedRead = await errOfP(fh.read(Buffer.alloc(1), 0, 1, 0));
  const h2 = await fsp.open("h.txt");
  out.whole = await h2.readFile({ encoding: "utf8" });
  await h2.close();
  const lines = await fsp.open("lines.txt", "w");
  await lines.writeFile("x\ny\nz\n");
  await lines.close();
  const lr = await fsp.open("lines.txt");
  out.lines = [];
  for await (const l of lr.readLines()) out.lines.push(l);
  await lr.close();

  const dir = await fsp.opendir("dir", { bufferSize: 2 });
  out.dir = [];
  for await (const d of dir) out.dir.push(d.name + ":" + d.isFile());
  const ds = fs.opendirSync("dir");
  out.dirSync = [];
  for (let d; (d = ds.readSync()) !== null;) out.dirSync.push(d.name);
  ds.closeSync();
  out.opendirFile = await errOfP(fsp.opendir("dir/a"));

  await new Promise((resolve, reject) => {
    const ws = fs.createWriteStream("s.txt");
    ws.on("error", reject);
    ws.write("one,");
    ws.write(Buffer.from("two,"));
    ws.end("three", () => resolve());
  });
  out.stream = fs.readFileSync("s.txt", "utf8");
  out.chunks = await new Promise((resolve, reject) => {
    const chunks = [];
    fs.createReadStream("s.txt", { highWaterMark: 4, encoding: "utf8" })
      .on("data", (c) => chunks.push(c)).on("error", reject).on("end", () => resolve(chunks));
  });
  out.iter = [];
  for await (const c of fs.createReadStream("s.txt", { start: 4, end: 6 })) out.iter.push(c.toString());
  out.streamErr = await new Promise((resolve) => fs.createReadStream("nope").on("error", (e) => resolve(e.code)));
  await new Promise((resolve) => fs.createReadStream("s.txt").pipe(fs.createWriteStream("copy.txt")).on("finish", resolve));
  out.piped = fs.readFileSync("copy.txt", "utf8");
  return out;
}`, runtime.ReadWrite)
	wantJSON(t, r, `{
 "fd": "number", "write": 6, "write2": 5,
 "read": [5, "hello"], "readDefault": "worl", "stat": 12, "readFile": "",
 "closedRead": ["EBADF", "file closed", "read", null, null, null],
 "whole": "hello",
 "lines": ["x", "y", "z"],
 "dir": ["a:true", "b:true", "c:true", "d:true", "e:true"],
 "dirSync": ["a", "b", "c", "d", "e"],
 "opendirFile": ["ENOTDIR", "ENOTDIR: not a directory, opendir 'dir/a'", "opendir", "dir/a", null, -20],
 "stream": "one,two,three",
 "chunks": ["one,", "two,", "thre", "e"],
 "iter": ["two"],
 "streamErr": "ENOENT",
 "piped": "one,two,three"
}`)
}

// TestFSDeterministic runs a module that races several fs calls with
// Promise.all: every run gives the same result.
func TestFSDeterministic(t *testing.T) {
	var first string
	for i := range 10 {
		e := newFSEnv(t, runtime.ReadWrite)
		e.write("/workspace/in/a", "1")
		e.write("/workspace/in/b", "22")
		e.write("/workspace/in/c", "333")
		r := e.runFS(`
import fsp from "node:fs/promises";
import fs from "node:fs";
export default async function () {
  const log = [];
  const names = await fsp.readdir("in");
  const sizes = await Promise.all(names.map(async (n) => {
    const d = await fsp.readFile("in/" + n, "utf8");
    log.push("read " + n);
    await fsp.writeFile("out-" + n, d + d);
    log.push("wrote " + n);
    return (await fsp.stat("out-" + n)).size;
  }));
  const pending = Promise.allSettled([fsp.readFile("nope"), fsp.mkdir("m"), fsp.appendFile("log", "x"), fsp.appendFile("log", "y")]);
  fs.appendFileSync("log", "z"); // after the appends issued before it
  const settled = await pending;
  await Promise.all([
    new Promise((r) => fs.readFile("in/a", () => r(log.push("cb a")))),
    new Promise((r) => fs.stat("in/b", () => r(log.push("cb b"))))]);
  return { sizes, log, settled: settled.map((s) => s.status), logFile: fs.readFileSync("log", "utf8"), all: fs.readdirSync(".") };
}`, runtime.ReadWrite)
		if i == 0 {
			first = string(r.exit.Value)
			continue
		}
		if string(r.exit.Value) != first {
			t.Fatalf("run %d differs:\n%s\n%s", i, r.exit.Value, first)
		}
	}
	want := `{"sizes":[2,4,6],"log":["read a","read b","read c","wrote a","wrote b","wrote c","cb a","cb b"],"settled":["rejected","fulfilled","fulfilled","fulfilled"],"logFile":"xyz","all":["in","log","m","out-a","out-b","out-c"]}`
	if first != want {
		t.Fatalf("value %s\nwant  %s", first, want)
	}
}

func TestFSHardLinksFromJS(t *testing.T) {
	e := newFSEnv(t, runtime.ReadWrite)
	e.write("/workspace/a.txt", "A")
	r := e.runFS(errOf+`
import fs from "node:fs";
import fsp from "node:fs/promises";
const p = (f) => new Promise((resolve) => f((...args) => resolve(args)));
export default async function () {
  const out = {};
  fs.linkSync("a.txt", "b.txt");
  const a = fs.statSync("a.txt"), b = fs.statSync("b.txt");
  out.sync = [a.ino === b.ino, a.nlink, b.nlink];
  fs.writeFileSync("b.txt", "through b");
  out.shared = fs.readFileSync("a.txt", "utf8");
  out.promise = await fsp.link("a.txt", "c.txt");
  out.callback = await p((cb) => fs.link("c.txt", "d.txt", cb));
  out.nlink = fs.statSync("d.txt").nlink;
  fs.unlinkSync("a.txt");
  out.afterUnlink = [fs.readFileSync("d.txt", "utf8"), fs.statSync("b.txt").nlink];
  out.exists = errOf(() => fs.linkSync("b.txt", "c.txt"));
  out.missing = await errOfP(fsp.link("nope", "e.txt"));
  out.dir = await p((cb) => fs.link("/workspace", "e", cb)).then(([err]) => [err.code, err.message]);
  out.outside = errOf(() => fs.linkSync("/secret/key", "k"));
  out.badArg = errOf(() => fs.linkSync("b.txt"));
  return out;
}`, runtime.ReadWrite)
	wantJSON(t, r, `{
 "sync": [true, 2, 2],
 "shared": "through b",
 "promise": null,
 "callback": [null],
 "nlink": 4,
 "afterUnlink": ["through b", 3],
 "exists": ["EEXIST", "EEXIST: file already exists, link 'b.txt' -> 'c.txt'", "link", "b.txt", "c.txt", -17],
 "missing": ["ENOENT", "ENOENT: no such file or directory, link 'nope' -> 'e.txt'", "link", "nope", "e.txt", -2],
 "dir": ["EPERM", "EPERM: operation not permitted, link '/workspace' -> 'e'"],
 "outside": ["EACCES", "EACCES: permission denied, link '/secret/key' -> 'k'", "link", "/secret/key", "k", -13],
 "badArg": ["ERR_INVALID_ARG_TYPE", "The \"newPath\" argument must be of type string or an instance of Buffer or URL. Received undefined", null, null, null, null]
}`)
	if e.read("/workspace/d.txt") != "through b" {
		t.Fatal("link not in the workspace")
	}
}
