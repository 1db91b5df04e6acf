package js_test

import (
	"strings"
	"testing"

	"github.com/nookdev/nook/runtime"
)

// Argument checks and semantics of node:fs that Node's own test suite
// (conformance/node) exercises, with Node 25's codes and messages.

// wantLines compares a run's stdout with want and names the first line
// that differs.
func wantLines(t *testing.T, got, want string) {
	t.Helper()
	if got == want {
		return
	}
	t.Errorf("stdout:\n%s\nwant:\n%s", got, want)
	gl, wl := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := range min(len(gl), len(wl)) {
		if gl[i] != wl[i] {
			t.Errorf("first difference, line %d:\n got %s\nwant %s", i+1, gl[i], wl[i])
			return
		}
	}
}

func TestFSNodeArgumentsAndDir(t *testing.T) {
	e := newFSEnv(t, runtime.ReadWrite)
	r := e.runFS(`import fs from 'node:fs';
const show = (f) => { try { f(); console.log('no error'); } catch (e) { console.log(e.name, e.code, e.message); } };
fs.writeFileSync('f', 'x');
const fd = fs.openSync('f', 'r+');
show(() => fs.fchmodSync(fd, NaN));
show(() => fs.ftruncate(fd, null));
show(() => fs.truncate('f', null, () => {}));
show(() => fs.mkdirSync('d', { recursive: 1 }));
show(() => fs.mkdir('d', { recursive: () => {} }, () => {}));
show(() => fs.mkdir('d', { recursive: Object.create(null) }, () => {}));
show(() => fs.rmdirSync('d', { recursive: true }));
show(() => fs.symlinkSync('a', 'b', '🍏'));
show(() => fs.linkSync('', 1));
show(() => fs.readSync(fd, { buffer: null }));
show(() => fs.read(fd, { buffer: null }, () => {}));
show(() => fs.opendir('.'));
try { fs.opendir('.'); } catch (e) { console.log(String(e)); }
show(() => fs.Dir.prototype.path);
await new Promise((r) => fs.link('', 'x', (e) => { console.log('link', e.code, e.syscall, e.message); r(); }));
fs.mkdirSync('gone');
process.chdir('gone');
fs.rmdirSync(process.cwd());
show(() => fs.mkdirSync('X', { recursive: true }));
fs.mkdirSync(process.cwd());
show(() => fs.writeFileSync('X', ''));
process.chdir('..');
show(() => fs.mkdirSync('Y', { recursive: true }));
const dir = fs.opendirSync('.');
const p = dir.read();
show(() => dir.readSync());
show(() => dir.closeSync());
console.log('read', (await p).name);
dir.closeSync();
show(() => dir.closeSync());
await dir.read().catch((e) => console.log('read after close', e.code, e.message));
await dir.close().catch((e) => console.log('close after close', e.code));
const d2 = fs.opendirSync('.');
const names = [];
for await (const e of d2) { names.push(e.name); break; }
await d2.read().catch((e) => console.log('after break', e.code, names.length));
const orig = fs.fsyncSync;
const seen = [];
fs.fsyncSync = (fd) => { seen.push(typeof fd); return orig(fd); };
fs.writeFileSync('g', 'y', { flush: true });
fs.appendFileSync('g', 'z', { flush: false });
fs.fsyncSync = orig;
console.log('fsync calls', seen, fs.readFileSync('g', 'utf8'));
show(() => fs.writeFileSync('g', 'y', { flush: 'true' }));
`, runtime.ReadWrite)
	wantLines(t, r.stdout, `RangeError ERR_OUT_OF_RANGE The value of "mode" is out of range. It must be an integer. Received NaN
TypeError ERR_INVALID_ARG_TYPE The "len" argument must be of type number. Received null
TypeError ERR_INVALID_ARG_TYPE The "len" argument must be of type number. Received null
TypeError ERR_INVALID_ARG_TYPE The "options.recursive" property must be of type boolean. Received type number (1)
TypeError ERR_INVALID_ARG_TYPE The "options.recursive" property must be of type boolean. Received function recursive
TypeError ERR_INVALID_ARG_TYPE The "options.recursive" property must be of type boolean. Received [Object: null prototype] {}
TypeError ERR_INVALID_ARG_VALUE The property 'options.recursive' is no longer supported. Received true
TypeError ERR_INVALID_ARG_VALUE The argument 'type' must be one of: 'dir', 'file', 'junction', null, undefined. Received '🍏'
TypeError ERR_INVALID_ARG_TYPE The "newPath" argument must be of type string or an instance of Buffer or URL. Received type number (1)
TypeError ERR_INVALID_ARG_TYPE The "buffer" argument must be an instance of Buffer, TypedArray, or DataView. Received an instance of Object
TypeError ERR_INVALID_ARG_TYPE The "buffer" argument must be an instance of Buffer, TypedArray, or DataView. Received null
TypeError ERR_INVALID_ARG_TYPE The "callback" argument must be of type function. Received undefined
TypeError [ERR_INVALID_ARG_TYPE]: The "callback" argument must be of type function. Received undefined
TypeError ERR_INVALID_THIS Value of "this" must be of type Dir
link ENOENT link ENOENT: no such file or directory, link '' -> 'x'
Error ENOENT ENOENT: no such file or directory, mkdir 'X'
Error ENOENT ENOENT: no such file or directory, open 'X'
no error
Error ERR_DIR_CONCURRENT_OPERATION Cannot do synchronous work on directory handle with concurrent asynchronous operations
Error ERR_DIR_CONCURRENT_OPERATION Cannot do synchronous work on directory handle with concurrent asynchronous operations
read Y
Error ERR_DIR_CLOSED Directory handle was closed
read after close ERR_DIR_CLOSED Directory handle was closed
close after close ERR_DIR_CLOSED
after break ERR_DIR_CLOSED 1
fsync calls [ 'number' ] yz
TypeError ERR_INVALID_ARG_TYPE The "options.flush" property must be of type boolean. Received type string ('true')
`)
}

// fs.ReadStream/WriteStream as Node's lib/internal/fs/streams.js: the fd while
// close is issued, errorOrDestroy, EAGAIN retries, ERR_STREAM_DESTROYED, a
// FileHandle's references; and timers' this.
func TestFSNodeStreams(t *testing.T) {
	e := newFSEnv(t, runtime.ReadWrite)
	r := e.runFS(`import fs from 'node:fs';
import { finished } from 'node:stream/promises';
const show = (f) => { try { f(); console.log('no error'); } catch (e) { console.log(e.name, e.code, e.message); } };
fs.writeFileSync('f', 'hello world');

// An interval's callback gets its Timeout as this.
await new Promise((resolve) => {
  let n = 0;
  const iv = setInterval(function () { n++; if (this === iv) { clearInterval(this); console.log('interval this', n); resolve(); } }, 1);
});
await new Promise((resolve) => setTimeout(function (a) { console.log('timeout this', typeof this.ref, a); resolve(); }, 1, 'arg'));

// fs.close sees the descriptor, which is null once close was issued.
{
  const s = fs.createReadStream('f');
  const err = new Error('BAM');
  const { read, close } = fs;
  fs.close = (fd, cb) => { console.log('close sees fd', fd === s.fd, typeof fd); fs.close = close; close(fd, cb); };
  fs.read = function (...args) { fs.read = read; const cb = args[args.length - 1]; process.nextTick(() => cb(err)); };
  s.resume();
  await new Promise((resolve) => s.on('error', (e) => { console.log('error', e === err, s.fd); s.on('close', resolve); }));
}

// autoClose: false keeps the stream (and its descriptor) after an error.
{
  const s = fs.createReadStream(null, { fd: 9999, autoClose: false });
  s.resume();
  await new Promise((resolve) => s.on('error', (e) => { console.log('autoClose false', e.code, s.destroyed, s.fd); resolve(); }));
}
show(() => fs.WriteStream.prototype.autoClose);
show(() => fs.ReadStream.prototype.autoClose);
show(() => fs.createReadStream('f', { signal: null }));
show(() => fs.createWriteStream('g', { flush: null }).destroy());
show(() => fs.createWriteStream('g', { flush: 1 }));

// EAGAIN counts as nothing written, and the write is tried again.
{
  let calls = 0;
  const s = fs.createWriteStream('g', { fs: {
    open: fs.open, close: fs.close,
    write(fd, buf, off, len, pos, cb) {
      if (++calls === 1) { cb(Object.assign(new Error('again'), { code: 'EAGAIN' }), 0, buf); return; }
      fs.write(fd, buf, off, len, pos, cb);
    },
  } });
  s.end('foo');
  await finished(s);
  console.log('EAGAIN', calls, fs.readFileSync('g', 'utf8'));
}
// A write that completes after the stream was destroyed fails.
{
  const s = fs.createWriteStream('g');
  Object.defineProperty(s, 'destroyed', { get: () => true });
  s.end('foo');
  await finished(s).catch((e) => console.log('destroyed', e.code, e.message));
}

// A FileHandle closed under its stream: 'close' at once, the stream
// closes, nothing fails.
{
  const fh = await fs.promises.open('f', 'r');
  const s = fs.createReadStream(null, { fd: fh });
  const events = [];
  fh.on('close', () => events.push('handle close'));
  s.on('close', () => events.push('stream close'));
  s.on('error', (e) => events.push('error ' + e.message));
  s.on('data', () => events.push('data'));
  await fh.close();
  await new Promise((r) => setTimeout(r, 5));
  console.log(events.join(', '), fh.fd);
  show(() => fs.createReadStream(null, { fd: fh, fs }));
}
{
  const fh = await fs.promises.open('f', 'r');
  const s = fh.createReadStream();
  let text = '';
  s.on('data', (d) => { text += d; });
  await finished(s);
  await new Promise((r) => setTimeout(r, 1));
  console.log('read through handle', text, fh.fd);
}
`, runtime.ReadWrite)
	wantLines(t, r.stdout, `interval this 1
timeout this function arg
close sees fd true number
error true null
autoClose false EBADF false 9999
TypeError ERR_INVALID_THIS Value of "this" must be of type WriteStream
TypeError ERR_INVALID_THIS Value of "this" must be of type ReadStream
TypeError ERR_INVALID_ARG_TYPE The "options.signal" property must be an instance of AbortSignal. Received null
no error
TypeError ERR_INVALID_ARG_TYPE The "options.flush" property must be of type boolean. Received type number (1)
EAGAIN 2 foo
destroyed ERR_STREAM_DESTROYED Cannot call write after a stream was destroyed
handle close, stream close -1
Error ERR_METHOD_NOT_IMPLEMENTED The FileHandle with fs method is not implemented
read through handle hello world -1
`)
}

// Names in the encoding asked for, cp's errorOnExist on a directory, and
// watchFile's reports as libuv's fs_poll makes them.
func TestFSNodeEncodingsCpWatchFile(t *testing.T) {
	e := newFSEnv(t, runtime.ReadWrite)
	r := e.runFS(`import fs from 'node:fs';
// Names in the encoding asked for.
fs.mkdirSync('d');
fs.writeFileSync('d/ab', '');
console.log(fs.readdirSync('d', 'hex'), fs.readdirSync('d', { encoding: 'base64' }), fs.realpathSync('d', 'hex'));
console.log(fs.readdirSync('d', 'buffer'), fs.realpathSync('d', 'latin1'));
fs.symlinkSync('ab', 'd/l');
console.log(fs.readlinkSync('d/l', 'hex'), fs.readlinkSync('d/l', { encoding: 'buffer' }));

// cp refuses an existing directory with errorOnExist and no force.
fs.mkdirSync('src');
fs.writeFileSync('src/f', 'x');
fs.mkdirSync('dst');
try { fs.cpSync('src', 'dst', { recursive: true, errorOnExist: true, force: false }); } catch (e) { console.log(e.code, e.message); }
await new Promise((r) => fs.cp('src', 'dst', { recursive: true, errorOnExist: true, force: false }, (e) => { console.log('cp', e.code); r(); }));

// watchFile of a missing file reports it once (zero stats), then its
// creation; stopping twice emits 'stop' once.
const events = [];
await new Promise((resolve) => {
  const w = fs.watchFile('missing', { interval: 0 }, (cur, prev) => {
    events.push(cur.ino > 0 ? 'created' : 'missing ' + cur.nlink + ' ' + prev.nlink + ' ' + cur.mtimeMs);
    if (cur.ino === 0) fs.writeFileSync('missing', 'now');
    else { fs.unwatchFile('missing'); w.stop(); }
  });
  w.on('stop', () => { events.push('stop'); setTimeout(resolve, 5); });
});
console.log(events);
`, runtime.ReadWrite)
	wantLines(t, r.stdout, `[ '6162' ] [ 'YWI=' ] 2f776f726b73706163652f64
[ <Buffer 61 62> ] /workspace/d
6162 <Buffer 61 62>
ERR_FS_CP_EEXIST Target already exists: cp returned EEXIST (/workspace/dst already exists) /workspace/dst
cp ERR_FS_CP_EEXIST
[ 'missing 0 0 0', 'created', 'stop' ]
`)
}

// fs.globSync follows the pattern: './', '//', '.', '..', a trailing '/',
// braces across '/', extglobs, exclude patterns resolved lexically, a file:
// URL as cwd, '**' alone matching '.', and symlinks as Node's glob treats
// them.
func TestFSNodeGlob(t *testing.T) {
	e := newFSEnv(t, runtime.ReadWrite)
	r := e.runFS(`import fs from 'node:fs';
import { pathToFileURL } from 'node:url';
for (const f of ['g/src/a.ts', 'g/src/lib/b.ts', 'g/src/lib/c.js', 'g/src/.hidden/d.ts', 'g/docs/x.md', 'g/docs/y.md', 'g/abc/z']) {
  fs.mkdirSync(f.slice(0, f.lastIndexOf('/')), { recursive: true });
  fs.writeFileSync(f, '');
}
const cwd = process.cwd() + '/g';
const show = (p, o = {}) => console.log(JSON.stringify(p), JSON.stringify(fs.globSync(p, { cwd, ...o }).sort()));
show('./src/**/*.ts');
show('src//lib/./*');
show('{src/lib,docs}/*');
show('src/**/');
show('src/lib/../*.ts');
show('+(src|docs)/*');
show('src/!(lib)');
show('*/@(x|y).md');
show('a{b,x}c/*');
show('**', { exclude: ['src/**', './docs/x.md'] });
show('src/**/*', { exclude: ['src/lib/../a.ts'] });
console.log(JSON.stringify(fs.globSync('*/*.md', { cwd: pathToFileURL(cwd) }).sort()));
// Symlinks as Node's glob treats them: a literal segment goes through one,
// a wildcard does not enter one, ** neither, but the part after a ** is
// looked for inside a link the ** meets when it matches the link's name or
// the pattern starts with './'.
fs.mkdirSync('g/real/sub', { recursive: true });
fs.writeFileSync('g/real/sub/f.txt', '');
fs.symlinkSync('real', 'g/link');
show('link/sub/*');
show('*/sub/*');
show('**/f.txt');
show('./**/sub');
show('**/link/*');
show('real/sub/..');
`, runtime.ReadWrite)
	wantLines(t, r.stdout, `"./src/**/*.ts" ["src/a.ts","src/lib/b.ts"]
"src//lib/./*" ["src/lib/b.ts","src/lib/c.js"]
"{src/lib,docs}/*" ["docs/x.md","docs/y.md","src/lib/b.ts","src/lib/c.js"]
"src/**/" ["src","src/lib"]
"src/lib/../*.ts" ["src/a.ts"]
"+(src|docs)/*" ["docs/x.md","docs/y.md","src/a.ts","src/lib"]
"src/!(lib)" ["src/a.ts"]
"*/@(x|y).md" ["docs/x.md","docs/y.md"]
"a{b,x}c/*" ["abc/z"]
"**" [".","abc","abc/z","docs","docs/y.md"]
"src/**/*" ["src/lib","src/lib/b.ts","src/lib/c.js"]
["docs/x.md","docs/y.md"]
"link/sub/*" ["link/sub/f.txt"]
"*/sub/*" ["real/sub/f.txt"]
"**/f.txt" ["real/sub/f.txt"]
"./**/sub" ["link/sub","real/sub"]
"**/link/*" []
"real/sub/.." ["real"]
`)
}

// The callback forms run without promises (host.callCb): writes in flight at
// once land one after another, callbacks and promises complete in issue order,
// and a callback is never called synchronously.
func TestFSNodeCallbacksInFlight(t *testing.T) {
	e := newFSEnv(t, runtime.ReadWrite)
	r := e.runFS(`import fs from 'node:fs';
// Writes in flight at once land one after the other at the descriptor's
// position, as on a kernel file offset.
const fd = fs.openSync('out.txt', 'w');
let n = 0;
await new Promise((resolve) => {
  for (let i = 0; i < 100; i++) {
    fs.write(fd, Buffer.from(String(i % 10)), (err, written) => { if (err) throw err; if (++n === 100) resolve(); });
  }
});
fs.closeSync(fd);
const text = fs.readFileSync('out.txt', 'utf8');
console.log(text.length, text.slice(0, 25));
// Callback and promise forms complete in the order they were issued.
const order = [];
await new Promise((resolve) => {
  fs.promises.stat('out.txt').then(() => order.push('promise 1'));
  fs.stat('out.txt', () => order.push('callback 2'));
  fs.promises.readFile('out.txt').then(() => order.push('promise 3'));
  fs.readFile('out.txt', () => { order.push('callback 4'); setTimeout(resolve, 1); });
});
console.log(order.join(', '));
// A callback is never called synchronously, errors included.
let sync = true;
fs.stat('missing', (err) => console.log('stat callback', err.code, sync ? 'sync' : 'async'));
fs.close(1, (err) => console.log('close callback', err, sync ? 'sync' : 'async'));
sync = false;
`, runtime.ReadWrite)
	wantLines(t, r.stdout, `100 0123456789012345678901234
promise 1, callback 2, promise 3, callback 4
close callback null async
stat callback ENOENT async
`)
}
