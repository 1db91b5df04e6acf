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
TypeError ERR_INVALID_ARG_TYPE The "options.recursive" property must be of type boolean. Received [Object]
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
