'use strict';
// node:fs for sandboxed code.
//
// Every operation is written once, as a generator that yields host calls
// ([op, args, paths]) and receives their results; three runners turn it into
// the synchronous form (host.callSync), the promise form (host.call) and the
// callback form (the promise form, with the callback called later). The host
// side is runtime.FSOps: path-based ops only, confined to the workspace root,
// answering with Node's error codes and messages. File descriptors live here:
// fd → {path, flags, position, append}; reads and writes through them are
// ranged host calls (pread, pwrite), so a replayed run needs no live handle.
//
// Paths are resolved here, against process.cwd(), and the host sees absolute
// paths; errors name the path as the code gave it, as Node's do.

const { Buffer } = require('node:buffer');

// ---- constants ----

const constants = Object.freeze(Object.assign(Object.create(null), {
  UV_FS_SYMLINK_DIR: 1, UV_FS_SYMLINK_JUNCTION: 2,
  O_RDONLY: 0, O_WRONLY: 1, O_RDWR: 2,
  UV_DIRENT_UNKNOWN: 0, UV_DIRENT_FILE: 1, UV_DIRENT_DIR: 2, UV_DIRENT_LINK: 3,
  UV_DIRENT_FIFO: 4, UV_DIRENT_SOCKET: 5, UV_DIRENT_CHAR: 6, UV_DIRENT_BLOCK: 7,
  S_IFMT: 0o170000, S_IFREG: 0o100000, S_IFDIR: 0o040000, S_IFCHR: 0o020000, S_IFBLK: 0o060000,
  S_IFIFO: 0o010000, S_IFLNK: 0o120000, S_IFSOCK: 0o140000,
  O_CREAT: 0o100, O_EXCL: 0o200, UV_FS_O_FILEMAP: 0, O_NOCTTY: 0o400, O_TRUNC: 0o1000,
  O_APPEND: 0o2000, O_DIRECTORY: 0o200000, O_NOATIME: 0o1000000, O_NOFOLLOW: 0o400000,
  O_SYNC: 0o4010000, O_DSYNC: 0o10000, O_DIRECT: 0o40000, O_NONBLOCK: 0o4000,
  S_IRWXU: 0o700, S_IRUSR: 0o400, S_IWUSR: 0o200, S_IXUSR: 0o100,
  S_IRWXG: 0o70, S_IRGRP: 0o40, S_IWGRP: 0o20, S_IXGRP: 0o10,
  S_IRWXO: 0o7, S_IROTH: 0o4, S_IWOTH: 0o2, S_IXOTH: 0o1,
  F_OK: 0, R_OK: 4, W_OK: 2, X_OK: 1,
  UV_FS_COPYFILE_EXCL: 1, COPYFILE_EXCL: 1, UV_FS_COPYFILE_FICLONE: 2, COPYFILE_FICLONE: 2,
  UV_FS_COPYFILE_FICLONE_FORCE: 4, COPYFILE_FICLONE_FORCE: 4,
}));
const C = constants;

// ---- errors ----

const DESCRIPTIONS = {
  ENOENT: 'no such file or directory', EEXIST: 'file already exists', ENOTDIR: 'not a directory',
  EISDIR: 'illegal operation on a directory', ENOTEMPTY: 'directory not empty', EINVAL: 'invalid argument',
  EPERM: 'operation not permitted', EROFS: 'read-only file system', EBADF: 'bad file descriptor',
  EMFILE: 'too many open files', EACCES: 'permission denied', ENOSYS: 'function not implemented',
};
const ERRNO = {
  EPERM: -1, ENOENT: -2, EIO: -5, EBADF: -9, EACCES: -13, EEXIST: -17, EXDEV: -18, ENOTDIR: -20,
  EISDIR: -21, EINVAL: -22, EMFILE: -24, EFBIG: -27, ENOSPC: -28, EROFS: -30, ENAMETOOLONG: -36,
  ENOSYS: -38, ENOTEMPTY: -39, ELOOP: -40, EBUSY: -16,
};

// uvError is an error made here, in the words the host would use.
function uvError(code, syscall, path, dest) {
  let msg = code + ': ' + (DESCRIPTIONS[code] || 'unknown error') + ', ' + syscall;
  if (path !== undefined) msg += " '" + path + "'";
  if (dest !== undefined) msg += " -> '" + dest + "'";
  const e = new Error(msg);
  e.errno = ERRNO[code];
  e.code = code;
  e.syscall = syscall;
  if (path !== undefined) e.path = path;
  if (dest !== undefined) e.dest = dest;
  return e;
}

// nodeErrorString is Node's toString of its internal errors:
// "TypeError [ERR_X]: message", which assert.throws(fn, /regexp/) matches.
function nodeErrorString() { return this.name + ' [' + this.code + ']: ' + this.message; }

function nodeError(Ctor, code, msg) {
  const e = new Ctor(msg);
  e.code = code;
  Object.defineProperty(e, 'toString', { value: nodeErrorString, writable: true, configurable: true });
  return e;
}

function inspectShort(v) {
  if (typeof v === 'string') {
    const s = v.length > 28 ? v.slice(0, 25) + '...' : v;
    return "'" + s + "'";
  }
  if (typeof v === 'bigint') return String(v) + 'n';
  return String(v);
}

const inspect = (v, o) => require('node:util').inspect(v, o);

// describe words a received value as Node's argument errors do
// (determineSpecificType in Node's lib/internal/errors.js).
function describe(v) {
  if (v === null) return 'null';
  if (v === undefined) return 'undefined';
  switch (typeof v) {
    case 'function': return 'function ' + v.name;
    case 'object':
      if (v.constructor && 'name' in v.constructor) return 'an instance of ' + v.constructor.name;
      return inspect(v, { depth: -1 });
    case 'string': {
      const s = v.length > 28 ? v.slice(0, 25) + '...' : v;
      return 'type string (' + (s.includes("'") ? JSON.stringify(s) : "'" + s + "'") + ')';
    }
    case 'number': return 'type number (' + (Object.is(v, -0) ? '-0' : String(v)) + ')';
    case 'bigint': return 'type bigint (' + v + 'n)';
    default: return 'type ' + typeof v + ' (' + String(v) + ')';
  }
}

function argType(name, expected, v) {
  // Node says "property" for a dotted name (options.fs.open).
  const what = name.includes('.') ? 'property' : 'argument';
  return nodeError(TypeError, 'ERR_INVALID_ARG_TYPE', 'The "' + name + '" ' + what + ' must be ' + expected + '. Received ' + describe(v));
}

// argValue is Node's ERR_INVALID_ARG_VALUE ("The property 'a.b' ..." for a
// dotted name).
function argValue(name, v, reason) {
  let shown = inspect(v);
  if (shown.length > 128) shown = shown.slice(0, 128) + '...';
  const what = name.includes('.') ? 'property' : 'argument';
  return nodeError(TypeError, 'ERR_INVALID_ARG_VALUE', 'The ' + what + " '" + name + "' " + (reason || 'is invalid') + '. Received ' + shown);
}

// oneOf is Node's validateOneOf.
function oneOf(v, name, allowed) {
  if (allowed.includes(v)) return v;
  const list = allowed.map((a) => (typeof a === 'string' ? "'" + a + "'" : String(a))).join(', ');
  throw argValue(name, v, 'must be one of: ' + list);
}

function outOfRange(name, range, v) {
  return nodeError(RangeError, 'ERR_OUT_OF_RANGE', 'The value of "' + name + '" is out of range. It must be ' + range + '. Received ' + inspectShort(v));
}

// isArgError tells errors of the arguments (thrown at once, even by the
// callback forms) from errors of the operation.
const isArgError = (e) => e && typeof e.code === 'string' && e.code.startsWith('ERR_') && (e instanceof TypeError || e instanceof RangeError);

// ---- paths ----

function cwd() {
  try {
    const p = globalThis.process;
    if (p && typeof p.cwd === 'function') {
      const c = p.cwd();
      if (typeof c === 'string' && c[0] === '/') return c;
    }
  } catch (e) { /* fall back to the run's cwd */ }
  return host.cwd;
}

// normalize cleans a posix path lexically.
function normalize(p) {
  const abs = p[0] === '/';
  const out = [];
  for (const s of p.split('/')) {
    if (s === '' || s === '.') continue;
    if (s === '..') {
      if (out.length && out[out.length - 1] !== '..') out.pop();
      else if (!abs) out.push('..');
    } else out.push(s);
  }
  const r = (abs ? '/' : '') + out.join('/');
  return r || (abs ? '/' : '.');
}

const joinPath = (a, b) => normalize(a + '/' + b);
const dirname = (p) => { const i = p.lastIndexOf('/'); return i < 0 ? '.' : i === 0 ? '/' : p.slice(0, i); };
const basename = (p) => p.slice(p.lastIndexOf('/') + 1);

function isURL(v) {
  return v != null && typeof v === 'object' && typeof v.href === 'string' && typeof v.protocol === 'string' && typeof v.pathname === 'string';
}

function fileURLToPath(u) {
  if (u.protocol !== 'file:') throw nodeError(TypeError, 'ERR_INVALID_URL_SCHEME', 'The URL must be of scheme file');
  if (u.hostname && u.hostname !== 'localhost') {
    throw nodeError(TypeError, 'ERR_INVALID_FILE_URL_HOST', 'File URL host must be "localhost" or empty on linux');
  }
  const p = u.pathname;
  if (/%2f/i.test(p)) throw nodeError(TypeError, 'ERR_INVALID_FILE_URL_PATH', 'File URL path must not include encoded / characters');
  return decodeURIComponent(p);
}

// pathArg returns the path a string, Buffer or file: URL argument names.
function pathArg(v, name) {
  let s;
  if (typeof v === 'string') s = v;
  else if (v instanceof Uint8Array) s = decode(v, 'utf8');
  else if (isURL(v)) s = fileURLToPath(v);
  else throw argType(name || 'path', 'of type string or an instance of Buffer or URL', v);
  if (s.indexOf('\u0000') >= 0) {
    throw argValue(name || 'path', v, 'must be a string, Uint8Array, or URL without null bytes');
  }
  return s;
}

// P checks a path argument and resolves it: {given, abs}. An empty path
// names nothing: the host call that uses it fails with ENOENT, as in Node,
// after every argument was checked (err, thrown by callSync/callAsync).
function P(v, syscall, name) {
  const given = pathArg(v, name);
  if (given === '') return { given, abs: cwd(), err: uvError('ENOENT', syscall, '') };
  if (given[0] === '/') return { given, abs: normalize(given) };
  const c = cwd();
  const p = { given, abs: joinPath(c, given) };
  if (goneCwd === c) p.err = uvError('ENOENT', syscall, given);
  return p;
}

// goneCwd is the working directory once the program removed it: as on
// Linux, relative paths then resolve nowhere (ENOENT) until a chdir, even
// if a directory of that name is made again.
let goneCwd = null;
function removed(abs) {
  const c = cwd();
  if (c === abs || c.startsWith(abs === '/' ? '/' : abs + '/')) goneCwd = c;
}

// pathError is the deferred error of an empty path among a request's paths.
function pathError(paths) {
  if (!paths) return undefined;
  const [a, b] = paths;
  if (a && a.err && b) return uvError(a.err.code, a.err.syscall, a.given, b.given);
  if (a && a.err) return a.err;
  if (b && b.err) return uvError(b.err.code, b.err.syscall, a ? a.given : b.given, a ? b.given : undefined);
  return undefined;
}

// fixError makes a host error name the paths as the code gave them.
function fixError(e, paths) {
  if (!e || typeof e !== 'object' || !paths) return e;
  const fields = ['path', 'dest'];
  for (let i = 0; i < paths.length && i < 2; i++) {
    const p = paths[i];
    if (!p || p.given === p.abs) continue;
    const f = fields[i];
    try {
      if (e[f] === p.abs) e[f] = p.given;
      if (typeof e.message === 'string') {
        e.message = e.code && e.code.startsWith('ERR_')
          ? e.message.split(p.abs).join(p.given)
          : e.message.replace("'" + p.abs + "'", "'" + p.given + "'");
      }
    } catch (err) { /* a frozen error stays as it is */ }
  }
  return e;
}

// ---- data ----

function normEncoding(enc) {
  if (enc === undefined || enc === null) return null;
  const e = String(enc).toLowerCase();
  switch (e) {
    case 'utf8': case 'utf-8': return 'utf8';
    case 'latin1': case 'binary': return 'latin1';
    case 'ucs2': case 'ucs-2': case 'utf16le': case 'utf-16le': return 'utf16le';
    case 'ascii': case 'hex': case 'base64': case 'base64url': case 'buffer': return e;
  }
  throw argValue('encoding', enc, 'is invalid encoding');
}

const toBuffer = (u8) => (u8 instanceof Buffer ? u8 : Buffer.from(u8.buffer, u8.byteOffset, u8.byteLength));

function decode(u8, enc) {
  enc = normEncoding(enc);
  if (enc === null || enc === 'buffer') return toBuffer(u8);
  switch (enc) {
    case 'utf8': case 'hex': case 'base64':
      return toBuffer(u8).toString(enc);
    case 'base64url':
      return toBuffer(u8).toString('base64').replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
    case 'latin1': case 'ascii': {
      const mask = enc === 'ascii' ? 0x7f : 0xff;
      let s = '';
      for (let i = 0; i < u8.length; i += 8192) {
        const part = Array.prototype.slice.call(u8.subarray(i, i + 8192)).map((b) => b & mask);
        s += String.fromCharCode.apply(null, part);
      }
      return s;
    }
    case 'utf16le': {
      let s = '';
      for (let i = 0; i + 1 < u8.length; i += 2) s += String.fromCharCode(u8[i] | (u8[i + 1] << 8));
      return s;
    }
  }
  return toBuffer(u8).toString('utf8');
}

function encode(str, enc) {
  enc = normEncoding(enc) || 'utf8';
  switch (enc) {
    case 'utf8': case 'buffer': return Buffer.from(str, 'utf8');
    case 'hex': case 'base64': return Buffer.from(str, enc);
    case 'base64url': {
      let b = str.replace(/-/g, '+').replace(/_/g, '/');
      while (b.length % 4) b += '=';
      return Buffer.from(b, 'base64');
    }
    case 'latin1': case 'ascii': {
      const out = Buffer.alloc(str.length);
      for (let i = 0; i < str.length; i++) out[i] = str.charCodeAt(i) & 0xff;
      return out;
    }
    case 'utf16le': {
      const out = Buffer.alloc(str.length * 2);
      for (let i = 0; i < str.length; i++) {
        const c = str.charCodeAt(i);
        out[2 * i] = c & 0xff;
        out[2 * i + 1] = c >> 8;
      }
      return out;
    }
  }
  return Buffer.from(str, 'utf8');
}

// encodeName returns a file name (a path, a link's target) in the
// encoding the code asked for: its UTF-8 bytes as a Buffer, or those bytes
// decoded with the encoding, as Node does.
function encodeName(name, enc) {
  enc = normEncoding(enc);
  if (enc === null || enc === 'utf8') return name;
  const bytes = Buffer.from(name, 'utf8');
  return enc === 'buffer' ? bytes : decode(bytes, enc);
}

// bytesOf returns the bytes of any binary view (no copy).
function bytesOf(v) {
  if (v instanceof Uint8Array) return v;
  if (ArrayBuffer.isView(v)) return new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
  return null;
}

// dataArg returns the bytes of data written to a file.
function dataArg(data, enc, name) {
  if (typeof data === 'string') return encode(data, enc);
  const b = bytesOf(data);
  if (b) return b;
  throw argType(name || 'data', 'of type string or an instance of Buffer, TypedArray, or DataView', data);
}

// ---- options ----

function options(o, defaults) {
  if (o === undefined || o === null || typeof o === 'function') return Object.assign({}, defaults);
  if (typeof o === 'string') {
    const r = Object.assign({}, defaults);
    if (o !== 'buffer') normEncoding(o);
    r.encoding = o;
    return r;
  }
  if (typeof o !== 'object') throw argType('options', 'of type object', o);
  const r = Object.assign({}, defaults, o);
  if (r.encoding !== undefined && r.encoding !== null) normEncoding(r.encoding);
  return r;
}

const FLAGS = {
  r: C.O_RDONLY, rs: C.O_RDONLY | C.O_SYNC, sr: C.O_RDONLY | C.O_SYNC,
  'r+': C.O_RDWR, 'rs+': C.O_RDWR | C.O_SYNC, 'sr+': C.O_RDWR | C.O_SYNC,
  w: C.O_TRUNC | C.O_CREAT | C.O_WRONLY, wx: C.O_TRUNC | C.O_CREAT | C.O_WRONLY | C.O_EXCL,
  xw: C.O_TRUNC | C.O_CREAT | C.O_WRONLY | C.O_EXCL,
  'w+': C.O_TRUNC | C.O_CREAT | C.O_RDWR, 'wx+': C.O_TRUNC | C.O_CREAT | C.O_RDWR | C.O_EXCL,
  'xw+': C.O_TRUNC | C.O_CREAT | C.O_RDWR | C.O_EXCL,
  a: C.O_APPEND | C.O_CREAT | C.O_WRONLY, ax: C.O_APPEND | C.O_CREAT | C.O_WRONLY | C.O_EXCL,
  xa: C.O_APPEND | C.O_CREAT | C.O_WRONLY | C.O_EXCL, as: C.O_APPEND | C.O_CREAT | C.O_WRONLY | C.O_SYNC,
  sa: C.O_APPEND | C.O_CREAT | C.O_WRONLY | C.O_SYNC,
  'a+': C.O_APPEND | C.O_CREAT | C.O_RDWR, 'ax+': C.O_APPEND | C.O_CREAT | C.O_RDWR | C.O_EXCL,
  'xa+': C.O_APPEND | C.O_CREAT | C.O_RDWR | C.O_EXCL, 'as+': C.O_APPEND | C.O_CREAT | C.O_RDWR | C.O_SYNC,
  'sa+': C.O_APPEND | C.O_CREAT | C.O_RDWR | C.O_SYNC,
};

function flagsArg(f, def) {
  if (f === undefined || f === null) return FLAGS[def];
  if (typeof f === 'number' && Number.isInteger(f)) return f;
  if (typeof f === 'string' && Object.prototype.hasOwnProperty.call(FLAGS, f)) return FLAGS[f];
  throw argValue('flags', f);
}

function modeArg(m, def, name) {
  if (m === undefined || m === null) return def;
  if (typeof m === 'string') {
    if (!/^[0-7]+$/.test(m)) throw argValue(name || 'mode', m, 'must be a 32-bit unsigned integer or an octal string');
    return parseInt(m, 8);
  }
  if (typeof m !== 'number') throw argType(name || 'mode', 'of type number', m);
  if (!Number.isInteger(m)) throw outOfRange(name || 'mode', 'an integer', m);
  if (m < 0 || m > 0xffffffff) throw outOfRange(name || 'mode', '>= 0 && <= 4294967295', m);
  return m;
}

function intArg(v, name, min, max) {
  if (typeof v !== 'number') throw argType(name, 'of type number', v);
  if (!Number.isInteger(v)) throw outOfRange(name, 'an integer', v);
  if (v < min || v > max) throw outOfRange(name, '>= ' + min + ' && <= ' + max, v);
  return v;
}

// timeArg converts a time argument (seconds, a Date, a numeric string) to
// milliseconds.
function timeArg(t, name) {
  if (t instanceof Date) return t.getTime();
  if (typeof t === 'number' && Number.isFinite(t)) return t * 1000;
  if (typeof t === 'string' && t.trim() !== '' && Number.isFinite(Number(t))) return Number(t) * 1000;
  throw argType(name, 'of type number or an instance of Date', t);
}

// ---- Stats, Dirent ----

// Stats is a function, as in Node: fs.Stats(dev, mode, ...) may be called
// without new (deprecated, DEP0180); the module makes its own from a
// host stats map.
let statsInternal = false;
let statsWarned = false;
function Stats(...a) {
  if (!(this instanceof Stats)) return new Stats(...a);
  let s = a[0];
  if (!statsInternal) {
    if (!statsWarned) {
      statsWarned = true;
      process.emitWarning('fs.Stats constructor is deprecated.', 'DeprecationWarning', 'DEP0180');
    }
    s = { dev: a[0], mode: a[1], nlink: a[2], uid: a[3], gid: a[4], rdev: a[5], blksize: a[6], ino: a[7], size: a[8],
      blocks: a[9], atimeMs: a[10], mtimeMs: a[11], ctimeMs: a[12], birthtimeMs: a[13] };
  }
  this.dev = s.dev; this.mode = s.mode; this.nlink = s.nlink; this.uid = s.uid; this.gid = s.gid;
  this.rdev = s.rdev; this.blksize = s.blksize; this.ino = s.ino; this.size = s.size; this.blocks = s.blocks;
  this.atimeMs = s.atimeMs; this.mtimeMs = s.mtimeMs; this.ctimeMs = s.ctimeMs; this.birthtimeMs = s.birthtimeMs;
  this.atime = new Date(s.atimeMs); this.mtime = new Date(s.mtimeMs);
  this.ctime = new Date(s.ctimeMs); this.birthtime = new Date(s.birthtimeMs);
}
const typeIs = (bits) => function () { return (Number(this.mode) & C.S_IFMT) === bits; };
Stats.prototype.isFile = typeIs(C.S_IFREG);
Stats.prototype.isDirectory = typeIs(C.S_IFDIR);
Stats.prototype.isSymbolicLink = typeIs(C.S_IFLNK);
Stats.prototype.isBlockDevice = typeIs(C.S_IFBLK);
Stats.prototype.isCharacterDevice = typeIs(C.S_IFCHR);
Stats.prototype.isFIFO = typeIs(C.S_IFIFO);
Stats.prototype.isSocket = typeIs(C.S_IFSOCK);
const newStats = (s) => {
  statsInternal = true;
  try { return new Stats(s); } finally { statsInternal = false; }
};

function makeStats(s, o) {
  if (!(o && o.bigint) || typeof BigInt !== 'function') return newStats(s);
  const st = newStats(s);
  const B = (n) => BigInt(Math.trunc(n));
  for (const k of ['dev', 'mode', 'nlink', 'uid', 'gid', 'rdev', 'blksize', 'ino', 'size', 'blocks',
    'atimeMs', 'mtimeMs', 'ctimeMs', 'birthtimeMs']) st[k] = B(st[k]);
  for (const k of ['atime', 'mtime', 'ctime', 'birthtime']) st[k + 'Ns'] = B(s[k + 'Ms'] * 1e6);
  return st;
}

const kType = Symbol('type');
const TYPE_BITS = { file: C.S_IFREG, dir: C.S_IFDIR, symlink: C.S_IFLNK };

class Dirent {
  constructor(name, type, parentPath) {
    this.name = name;
    this.parentPath = parentPath;
    this.path = parentPath;
    this[kType] = TYPE_BITS[type] || 0;
  }
  isFile() { return this[kType] === C.S_IFREG; }
  isDirectory() { return this[kType] === C.S_IFDIR; }
  isSymbolicLink() { return this[kType] === C.S_IFLNK; }
  isBlockDevice() { return false; }
  isCharacterDevice() { return false; }
  isFIFO() { return false; }
  isSocket() { return false; }
}

// ---- runners ----

// A generator yields [op, args, paths]: a host call, whose result it gets
// back (or whose error is thrown into it). paths are the {given, abs} of the
// call's path and dest, for fixError.

// kAwait marks a request that is not a host call: a value the code gave
// (fs.cp's filter result) that the promise forms await and the sync form
// must not receive as a promise.
const kAwait = Symbol('await');

// kFsync marks a request to flush a descriptor through the module's own
// fsync (fsyncSync for the sync form), as Node's writeFile with
// {flush: true} does: a program (or a test's spy) replacing fs.fsync sees
// the call.
const kFsync = Symbol('fsync');

// fsEpoch counts the host calls that may change files: a stat poller
// (watchFile) that saw no change needs to look again soon only after one.
let fsEpoch = 0;
const READS = new Set(['stat', 'lstat', 'readFile', 'pread', 'readdir', 'readdirPage', 'readlink', 'realpath', 'access', 'changes']);

function callSync(req) {
  if (req[0] === kAwait) {
    const v = req[1];
    if (v && typeof v.then === 'function') {
      throw nodeError(TypeError, 'ERR_INVALID_RETURN_VALUE', 'Expected a boolean to be returned from the "filter" function but got an instance of Promise.');
    }
    return v;
  }
  if (req[0] === kFsync) return fs.fsyncSync(req[1]);
  const bad = pathError(req[2]);
  if (bad) throw bad;
  if (!READS.has(req[0])) fsEpoch++;
  try {
    return host.callSync('fs', req[0], req[1]);
  } catch (e) {
    throw fixError(e, req[2]);
  }
}

// The engine performs filesystem calls one at a time in the order the code
// issued them (a synchronous call waits for the asynchronous ones before it),
// so two appends raced with Promise.all land in program order every time.
// A failed call's error names the paths as the host saw them: runAsync
// fixes them (a .then here would cost every call a promise more).
function callAsync(req) {
  if (req[0] === kAwait) return Promise.resolve(req[1]);
  if (req[0] === kFsync) return new Promise((resolve, reject) => fs.fsync(req[1], (e) => (e ? reject(e) : resolve())));
  const bad = pathError(req[2]);
  if (bad) return Promise.reject(bad);
  if (!READS.has(req[0])) fsEpoch++;
  try {
    return host.call('fs', req[0], req[1]);
  } catch (e) {
    return Promise.reject(e);
  }
}

// callCb is callAsync for the callback forms: cb(err, value), with no
// promise in between (host.callCb).
function callCb(req, cb) {
  if (req[0] === kAwait) { Promise.resolve(req[1]).then((v) => cb(null, v), cb); return; }
  if (req[0] === kFsync) { fs.fsync(req[1], (e) => cb(e || null)); return; }
  const bad = pathError(req[2]);
  if (bad) { Promise.resolve().then(() => cb(bad)); return; }
  if (!READS.has(req[0])) fsEpoch++;
  try {
    host.callCb('fs', req[0], req[1], cb);
  } catch (e) {
    Promise.resolve().then(() => cb(e));
  }
}

// runCallback drives gen as runAsync does, reporting to done(err, value)
// with no promise at all (a pending callback call holds only its host
// call): Node's test-fs-sir-writes-alot has 10,240 fs.write calls in
// flight at once. done is always called asynchronously.
function runCallback(gen, first, done) {
  let sync = true;
  let req;
  const finish = (e, v) => {
    if (sync) Promise.resolve().then(() => done(e, v));
    else done(e, v);
  };
  const next = (e, v) => {
    let n;
    try {
      n = e ? gen.throw(fixError(e, req[2])) : gen.next(v);
    } catch (e2) {
      finish(e2);
      return;
    }
    step(n);
  };
  const step = (r) => {
    if (r.done) { finish(null, r.value); return; }
    req = r.value;
    callCb(req, next);
  };
  step(first);
  sync = false;
}

function runSync(gen) {
  let r = gen.next();
  while (!r.done) {
    let v;
    let err;
    let failed = false;
    try { v = callSync(r.value); } catch (e) { failed = true; err = e; }
    r = failed ? gen.throw(err) : gen.next(v);
  }
  return r.value;
}

// runAsync drives gen with asynchronous host calls. With first given, the
// generator's first step has already run (to throw argument errors at
// once).
function runAsync(gen, first) {
  return new Promise((resolve, reject) => {
    const step = (r) => {
      if (r.done) { resolve(r.value); return; }
      const req = r.value;
      callAsync(req).then(
        (v) => { let n; try { n = gen.next(v); } catch (e) { reject(e); return; } step(n); },
        (e) => { let n; try { n = gen.throw(fixError(e, req[2])); } catch (e2) { reject(e2); return; } step(n); });
    };
    if (first) { step(first); return; }
    let r;
    try { r = gen.next(); } catch (e) { reject(e); return; }
    step(r);
  });
}

// callbackify makes the callback form of impl: argument errors throw at
// once, everything else reaches the callback, always asynchronously. spread
// turns a result into the callback's arguments.
// CALLBACK_FIRST are the functions whose callback Node checks before
// their other arguments.
const CALLBACK_FIRST = new Set(['stat', 'lstat', 'fstat', 'statfs', 'readFile', 'writeFile', 'appendFile', 'readdir',
  'readlink', 'realpath', 'mkdtemp', 'mkdir', 'cp', 'opendir']);
// CALLBACK_NAME: the name Node's check gives the callback ('cb' by default).
const CALLBACK_NAME = { opendir: 'callback' };

function callbackify(name, impl, spread) {
  const f = function (...args) {
    const cb = args.length > 1 ? args.pop() : undefined;
    if (typeof cb !== 'function') {
      // Node checks the other arguments first: running the operation up
      // to its first host request validates them and performs nothing.
      try {
        const all = [...args, ...(args.length > 0 || cb !== undefined ? [cb] : [])];
        if (name === 'close') fdArg(all[0]); // close forgets the descriptor before its first request
        else if (!CALLBACK_FIRST.has(name)) impl(...all).next();
      } catch (e) {
        if (isArgError(e)) throw e;
      }
      throw argType(CALLBACK_NAME[name] || 'cb', 'of type function', cb);
    }
    let gen;
    let first;
    let early;
    try {
      gen = impl(...args);
      first = gen.next();
    } catch (e) {
      if (isArgError(e)) throw e;
      early = e;
    }
    const done = (e, v) => (e ? cb(e) : spread ? cb(null, ...spread(v)) : v === undefined ? cb(null) : cb(null, v));
    if (early !== undefined) Promise.resolve().then(() => done(early));
    else runCallback(gen, first, done);
  };
  Object.defineProperty(f, 'name', { value: name });
  return f;
}

// ---- file descriptors ----

const MAX_FDS = 1024;
const fds = new Map(); // fd → {path, given, flags, position, append, readable, writable}
let stdinBytes = null;
let stdinPos = 0;

function fdArg(fd) {
  if (typeof fd !== 'number') throw argType('fd', 'of type number', fd);
  if (!Number.isInteger(fd)) throw outOfRange('fd', 'an integer', fd);
  if (fd < 0 || fd > 2147483647) throw outOfRange('fd', '>= 0 && <= 2147483647', fd);
  return fd;
}

function getFd(fd, syscall) {
  const f = fds.get(fdArg(fd));
  if (!f) throw uvError('EBADF', syscall);
  return f;
}

function allocFd(entry) {
  if (fds.size >= MAX_FDS) throw uvError('EMFILE', 'open', entry.given);
  let fd = 3;
  while (fds.has(fd)) fd++;
  fds.set(fd, entry);
  return fd;
}

function stdin() {
  if (stdinBytes === null) stdinBytes = typeof host.stdin === 'function' ? host.stdin() : new Uint8Array(0);
  return stdinBytes;
}

function writeStd(fd, bytes) {
  const proc = globalThis.process;
  const stream = proc && (fd === 1 ? proc.stdout : proc.stderr);
  if (stream && typeof stream.write === 'function') stream.write(toBuffer(bytes));
  else host.write(fd, bytes);
}

const isStd = (fd) => fd === 0 || fd === 1 || fd === 2;
const stdinNames = new Set(['/dev/stdin', '/dev/fd/0', '/proc/self/fd/0']);

// positionArg: null/undefined/-1 mean "the current position".
// positionArg checks a position as Node does: -1, null and undefined mean
// the descriptor's own position; a bigint may reach 2^63-1-length.
function positionArg(pos, length) {
  if (pos === undefined || pos === null) return null;
  if (typeof pos === 'bigint') {
    const max = 2n ** 63n - 1n - BigInt(length || 0);
    if (pos < -1n || pos > max) throw outOfRange('position', `>= -1 && <= ${max}`, pos);
    pos = Number(pos);
  } else {
    if (typeof pos !== 'number') throw argType('position', 'of type number or bigint', pos);
    if (!Number.isInteger(pos) || pos < -1 || pos > Number.MAX_SAFE_INTEGER) throw outOfRange('position', '>= -1 && <= 9007199254740991', pos);
  }
  if (pos === -1) return null;
  return pos;
}

// readFd reads up to length bytes of fd at pos (null: the current position,
// which then advances) into buffer at offset, and returns how many it read.
function* readFd(fd, buffer, offset, length, pos) {
  if (fd === 0) {
    const src = stdin();
    const n = Math.max(0, Math.min(length, src.length - stdinPos));
    buffer.set(src.subarray(stdinPos, stdinPos + n), offset);
    stdinPos += n;
    return n;
  }
  if (isStd(fd)) throw uvError('EBADF', 'read');
  const f = getFd(fd, 'read');
  if (!f.readable) throw uvError('EBADF', 'read');
  let at = pos === null ? f.position : pos;
  let got = 0;
  // No file reaches 2^53 bytes: a read that far is a read past the end.
  while (got < length && at < 2 ** 53 - length) {
    const chunk = yield ['pread', { path: f.path, offset: at, length: length - got }, [f]];
    if (chunk.length === 0) break;
    buffer.set(chunk, offset + got);
    got += chunk.length;
    at += chunk.length;
  }
  if (pos === null) f.position += got;
  return got;
}

// writeFd writes bytes to fd at pos (null: the current position, which then
// advances; the end of the file when fd was opened to append).
function* writeFd(fd, bytes, pos) {
  if (fd === 1 || fd === 2) {
    writeStd(fd, bytes);
    return bytes.length;
  }
  if (fd === 0) throw uvError('EBADF', 'write');
  const f = getFd(fd, 'write');
  if (!f.writable) throw uvError('EBADF', 'write');
  if (f.append) {
    const r = yield ['pwrite', { path: f.path, data: bytes, append: true }, [f]];
    f.position = r.size;
    return r.bytesWritten;
  }
  // At the descriptor's position: taken when the write is issued, since
  // writes execute in issue order, so that writes in flight at once land one
  // after the other as they do on a kernel's file offset.
  let at = pos;
  if (pos === null) {
    at = f.position;
    f.position += bytes.length;
  }
  const r = yield ['pwrite', { path: f.path, data: bytes, offset: at }, [f]];
  if (pos === null && r.bytesWritten < bytes.length) f.position -= bytes.length - r.bytesWritten;
  return r.bytesWritten;
}

// readAllFd reads fd from its position to the end.
function* readAllFd(fd) {
  if (fd === 0) {
    const src = stdin();
    const out = src.subarray(stdinPos);
    stdinPos = src.length;
    return out;
  }
  const parts = [];
  let total = 0;
  for (;;) {
    const buf = Buffer.alloc(65536);
    const n = yield* readFd(fd, buf, 0, buf.length, null);
    if (n === 0) break;
    parts.push(buf.subarray(0, n));
    total += n;
  }
  return Buffer.concat(parts, total);
}

// ---- the operations, each once ----

const impl = {};

impl.readFile = function* readFile(path, opts) {
  const o = options(opts, { encoding: null, flag: 'r' });
  normEncoding(o.encoding);
  if (o.signal !== undefined) {
    if (typeof path !== 'number') pathArg(path); // argument errors first
    yield* checkSignal(o.signal);
  }
  if (typeof path === 'number') {
    if (!isStd(fdArg(path))) getFd(path, 'fstat'); // Node stats the descriptor first
    return decode(yield* readAllFd(path), o.encoding);
  }
  if (path instanceof FileHandle) return decode(yield* readAllFd(path.fd), o.encoding);
  const p = P(path, 'open');
  // The standard input by name (fs.readFileSync('/dev/stdin'), a common
  // way to read all of it) is the run's stdin, as fd 0 is.
  if (stdinNames.has(p.abs)) return decode(yield* readAllFd(0), o.encoding);
  const flags = flagsArg(o.flag, 'r');
  if (flags !== C.O_RDONLY) yield ['open', { path: p.abs, flags, mode: 0o666 }, [p]];
  return decode(yield ['readFile', { path: p.abs }, [p]], o.encoding);
};

// checkSignal lets an AbortSignal stop an operation that has not run yet:
// the promise and callback forms look again a microtask later, after the
// code that called them (and maybe aborted) has gone on.
function* checkSignal(signal) {
  if (signal === undefined || signal === null) return;
  if (typeof signal !== 'object' || !('aborted' in signal)) throw argType('options.signal', 'an instance of AbortSignal', signal);
  if (!signal.aborted) yield [kAwait, undefined];
  if (signal.aborted) {
    const e = new Error('The operation was aborted');
    e.name = 'AbortError';
    e.code = 'ABORT_ERR';
    if (signal.reason !== undefined) e.cause = signal.reason;
    throw e;
  }
}

impl.writeFile = function* writeFile(file, data, opts, defFlag) {
  const o = options(opts, { encoding: 'utf8', mode: 0o666, flag: defFlag || 'w' });
  const flush = o.flush === undefined || o.flush === null ? false : o.flush;
  if (typeof flush !== 'boolean') throw argType('options.flush', 'of type boolean', flush);
  normEncoding(o.encoding);
  const bytes = dataArg(data, o.encoding);
  yield* checkSignal(o.signal);
  if (typeof file === 'number' || file instanceof FileHandle) {
    const fd = typeof file === 'number' ? fdArg(file) : file.fd;
    yield* writeFd(fd, bytes, null);
    return undefined;
  }
  const p = P(file, 'open');
  const flags = flagsArg(o.flag, 'w');
  const mode = modeArg(o.mode, 0o666);
  let flag;
  if (flags & C.O_APPEND) flag = flags & C.O_EXCL ? 'ax' : 'a';
  else if (flags & C.O_EXCL) flag = 'wx';
  else if (flags & C.O_TRUNC) flag = 'w';
  if (flag) {
    yield ['writeFile', { path: p.abs, data: bytes, flag, mode }, [p]];
    if (flush) yield* flushPath(p);
    // Node writes in steps and sees an abort between them; one call here,
    // so an abort while it ran is reported after it.
    if (o.signal && o.signal.aborted) yield* checkSignal(o.signal);
    return undefined;
  }
  // 'r+' and friends: write over the start of the file, no truncation;
  // a read-only flag opens the file and then cannot write to it.
  yield ['open', { path: p.abs, flags, mode }, [p]];
  if ((flags & 3) === C.O_RDONLY) throw uvError('EBADF', 'write');
  yield ['pwrite', { path: p.abs, data: bytes, offset: 0 }, [p]];
  if (flush) yield* flushPath(p);
  return undefined;
};

// flushPath flushes a file just written by path: through a descriptor of
// its own (the workspace has no cache to flush; the call is what a program
// can observe).
function* flushPath(p) {
  const fd = allocFd({ path: p.abs, given: p.given, abs: p.abs, flags: C.O_WRONLY, position: 0, append: false,
    readable: false, writable: true, isDir: false });
  try {
    yield [kFsync, fd];
  } finally {
    fds.delete(fd);
  }
}

impl.appendFile = function* appendFile(file, data, opts) {
  return yield* impl.writeFile(file, data, opts, 'a');
};

impl.stat = function* stat(path, opts) {
  const o = options(opts, { bigint: false, throwIfNoEntry: true });
  const p = P(path, 'stat');
  try {
    return makeStats(yield ['stat', { path: p.abs }, [p]], o);
  } catch (e) {
    if (o.throwIfNoEntry === false && e && (e.code === 'ENOENT' || e.code === 'ENOTDIR')) return undefined;
    throw e;
  }
};

impl.lstat = function* lstat(path, opts) {
  const o = options(opts, { bigint: false, throwIfNoEntry: true });
  const p = P(path, 'lstat');
  try {
    return makeStats(yield ['lstat', { path: p.abs }, [p]], o);
  } catch (e) {
    if (o.throwIfNoEntry === false && e && (e.code === 'ENOENT' || e.code === 'ENOTDIR')) return undefined;
    throw e;
  }
};

const STD_STATS = { dev: 1, mode: C.S_IFCHR | 0o620, nlink: 1, uid: 0, gid: 0, rdev: 0, blksize: 4096, ino: 0,
  size: 0, blocks: 0, atimeMs: 0, mtimeMs: 0, ctimeMs: 0, birthtimeMs: 0 };

impl.fstat = function* fstat(fd, opts) {
  const o = options(opts, { bigint: false });
  if (isStd(fdArg(fd))) return makeStats(STD_STATS, o);
  const f = getFd(fd, 'fstat');
  return makeStats(yield ['stat', { path: f.path }, [f]], o);
};

impl.access = function* access(path, mode) {
  const p = P(path, 'access');
  const m = mode === undefined || mode === null ? C.F_OK : intArg(mode, 'mode', 0, 7);
  yield ['access', { path: p.abs, mode: m }, [p]];
  return undefined;
};

impl.exists = function* exists(path) {
  let p;
  try { p = P(path, 'access'); } catch (e) { return false; }
  try {
    yield ['stat', { path: p.abs }, [p]];
    return true;
  } catch (e) {
    return false;
  }
};

impl.readdir = function* readdir(path, opts) {
  const o = options(opts, { encoding: 'utf8', withFileTypes: false, recursive: false });
  const p = P(path, 'scandir');
  const withTypes = !!o.withFileTypes;
  const res = yield ['readdir', { path: p.abs, withFileTypes: withTypes, recursive: !!o.recursive }, [p]];
  const enc = normEncoding(o.encoding);
  const name = (n) => encodeName(n, enc);
  if (!withTypes) return res.map(name);
  return res.map((e) => {
    const i = e.name.lastIndexOf('/');
    const parent = i < 0 ? p.given : joinPath(p.given, e.name.slice(0, i));
    return new Dirent(name(i < 0 ? e.name : e.name.slice(i + 1)), e.type, parent);
  });
};

impl.mkdir = function* mkdir(path, opts) {
  let recursive = false;
  let mode = 0o777;
  if (typeof opts === 'number' || typeof opts === 'string') mode = modeArg(opts, 0o777);
  else if (opts !== undefined && opts !== null) {
    if (typeof opts !== 'object') throw argType('options', 'of type object', opts);
    if (opts.recursive !== undefined) recursive = opts.recursive;
    if (opts.mode !== undefined) mode = modeArg(opts.mode, 0o777, 'options.mode');
  }
  const p = P(path, 'mkdir');
  if (typeof recursive !== 'boolean') throw argType('options.recursive', 'of type boolean', recursive);
  const first = yield ['mkdir', { path: p.abs, recursive, mode }, [p]];
  return recursive ? (first === null ? undefined : first) : undefined;
};

let mkdtempWarned = false;
impl.mkdtemp = function* mkdtemp(prefix, opts) {
  const o = options(opts, { encoding: 'utf8' });
  const given = pathArg(prefix, 'prefix');
  if (given.endsWith('X') && !mkdtempWarned) {
    mkdtempWarned = true;
    process.emitWarning('mkdtemp() templates ending with X are not portable. For details see: https://nodejs.org/api/fs.html');
  }
  const abs = given === '' ? cwd() + '/' : (given[0] === '/' ? given : cwd() + '/' + given);
  const chars = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  for (let attempt = 0; ; attempt++) {
    const rnd = typeof host.random === 'function' ? host.random(6) : crypto.getRandomValues(new Uint8Array(6));
    let suffix = '';
    for (let i = 0; i < 6; i++) suffix += chars[rnd[i] % chars.length];
    const p = { given: given + suffix, abs: normalize(abs + suffix) };
    try {
      yield ['mkdtemp', { path: p.abs }, [p]];
      return encodeName(p.given, o.encoding);
    } catch (e) {
      if (!(e && e.code === 'EEXIST') || attempt >= 100) throw e;
    }
  }
};

impl.rm = function* rm(path, opts) {
  const o = options(opts, { recursive: false, force: false });
  const p = P(path, 'rm');
  yield ['rm', { path: p.abs, recursive: !!o.recursive, force: !!o.force }, [p]];
  removed(p.abs);
  return undefined;
};

// rmdir's recursive option was removed (Node 25): naming it at all is an
// error, so that code relying on it hears about it.
impl.rmdir = function* rmdir(path, opts) {
  if (opts !== null && typeof opts === 'object' && opts.recursive !== undefined) {
    throw argValue('options.recursive', opts.recursive, 'is no longer supported');
  }
  const p = P(path, 'rmdir');
  yield ['rmdir', { path: p.abs, recursive: false }, [p]];
  removed(p.abs);
  return undefined;
};

impl.unlink = function* unlink(path) {
  const p = P(path, 'unlink');
  yield ['unlink', { path: p.abs }, [p]];
  return undefined;
};

impl.rename = function* rename(oldPath, newPath) {
  const a = P(oldPath, 'rename', 'oldPath');
  const b = P(newPath, 'rename', 'newPath');
  yield ['rename', { from: a.abs, to: b.abs }, [a, b]];
  return undefined;
};

// A hard link: a second name for the file (or symlink) at existingPath.
impl.link = function* link(existingPath, newPath) {
  const a = P(existingPath, 'link', 'existingPath');
  const b = P(newPath, 'link', 'newPath');
  yield ['link', { existingPath: a.abs, newPath: b.abs }, [a, b]];
  return undefined;
};

impl.copyFile = function* copyFile(src, dest, mode) {
  const a = P(src, 'copyfile', 'src');
  const b = P(dest, 'copyfile', 'dest');
  const flags = mode === undefined || mode === null ? 0 : intArg(mode, 'mode', 0, 7);
  yield ['copyFile', { from: a.abs, to: b.abs, flags }, [a, b]];
  return undefined;
};

// cp is written over the other operations (fs_cp.js, loaded on first use).
let cpImpl = null;
impl.cp = function* cp(src, dest, opts) {
  if (!cpImpl) {
    cpImpl = require('nook:fs_cp.js')(impl, { argType, outOfRange, pathArg, kAwait,
      resolve: (p) => (p[0] === '/' ? normalize(p) : joinPath(cwd(), p)) });
  }
  return yield* cpImpl(src, dest, opts);
};

impl.symlink = function* symlink(target, path, type) {
  const t = pathArg(target, 'target');
  const p = P(path, 'symlink');
  oneOf(type, 'type', ['dir', 'file', 'junction', null, undefined]);
  yield ['symlink', { target: t, path: p.abs }, [null, p]];
  return undefined;
};

impl.readlink = function* readlink(path, opts) {
  const o = options(opts, { encoding: 'utf8' });
  const p = P(path, 'readlink');
  const t = yield ['readlink', { path: p.abs }, [p]];
  return encodeName(t, o.encoding);
};

impl.realpath = function* realpath(path, opts) {
  const o = options(opts, { encoding: 'utf8' });
  const p = P(path, 'realpath');
  const r = yield ['realpath', { path: p.abs }, [p]];
  return encodeName(r, o.encoding);
};

impl.chmod = function* chmod(path, mode) {
  const p = P(path, 'chmod');
  yield ['chmod', { path: p.abs, mode: modeArg(mode, undefined) & 0o7777 }, [p]];
  return undefined;
};

impl.fchmod = function* fchmod(fd, mode) {
  fdArg(fd);
  if (mode === undefined || mode === null) throw argType('mode', 'of type number', mode);
  const m = modeArg(mode, undefined) & 0o7777; // Node checks the mode before the descriptor
  const f = getFd(fd, 'fchmod');
  yield ['chmod', { path: f.path, mode: m }, [f]];
  return undefined;
};

impl.utimes = function* utimes(path, atime, mtime) {
  const p = P(path, 'utime');
  yield ['utimes', { path: p.abs, atimeMs: timeArg(atime, 'atime'), mtimeMs: timeArg(mtime, 'mtime') }, [p]];
  return undefined;
};

impl.futimes = function* futimes(fd, atime, mtime) {
  fdArg(fd);
  const times = { atimeMs: timeArg(atime, 'atime'), mtimeMs: timeArg(mtime, 'mtime') };
  const f = getFd(fd, 'futime');
  yield ['utimes', Object.assign({ path: f.path }, times), [f]];
  return undefined;
};

impl.truncate = function* truncate(path, len) {
  if (typeof path === 'number') return yield* impl.ftruncate(path, len);
  const n = len === undefined ? 0 : Math.max(0, intArg(len, 'len', -9007199254740991, 9007199254740991));
  const p = P(path, 'open');
  yield ['truncate', { path: p.abs, length: n }, [p]];
  return undefined;
};

impl.ftruncate = function* ftruncate(fd, len) {
  fdArg(fd);
  const n = len === undefined ? 0 : Math.max(0, intArg(len, 'len', -9007199254740991, 9007199254740991));
  const f = getFd(fd, 'ftruncate');
  if (!f.writable) throw uvError('EINVAL', 'ftruncate');
  yield ['truncate', { path: f.path, length: n }, [f]];
  return undefined;
};

impl.open = function* open(path, flags, mode) {
  const p = P(path, 'open');
  const fl = flagsArg(flags, 'r');
  const m = modeArg(mode, 0o666);
  if (fds.size >= MAX_FDS) throw uvError('EMFILE', 'open', p.given);
  const st = yield ['open', { path: p.abs, flags: fl, mode: m }, [p]];
  const acc = fl & 3;
  return allocFd({
    path: p.abs, given: p.given, abs: p.abs, flags: fl, position: 0, append: !!(fl & C.O_APPEND),
    readable: acc !== C.O_WRONLY, writable: acc !== C.O_RDONLY, isDir: st.type === 'dir',
  });
};

impl.close = function* close(fd) {
  if (isStd(fdArg(fd))) return undefined;
  getFd(fd, 'close');
  fds.delete(fd);
  return undefined;
};

impl.fsync = function* fsync(fd) {
  if (!isStd(fdArg(fd))) getFd(fd, 'fsync');
  return undefined;
};

// readArgs normalises read(fd, buffer, offset, length, position) and
// read(fd, buffer, {offset, length, position}) and read(fd, {buffer, ...}).
// readArgs normalises read(fd, buffer, offset, length, position),
// read(fd, buffer, options) and read(fd, options), checking them in
// Node's order and words. nargs is how many arguments followed fd.
function readArgs(buffer, offset, length, position, nargs) {
  if (buffer === undefined || buffer === null || (typeof buffer === 'object' && !ArrayBuffer.isView(buffer))) {
    const o = buffer || {};
    buffer = o.buffer !== undefined ? o.buffer : Buffer.alloc(16384);
    offset = o.offset; length = o.length; position = o.position;
  } else if (nargs === 2 || (offset !== null && typeof offset === 'object')) {
    const o = offset;
    if (o !== undefined && o !== null && (typeof o !== 'object' || Array.isArray(o))) {
      throw argType('options', 'of type object', o);
    }
    offset = o ? o.offset : undefined; length = o ? o.length : undefined; position = o ? o.position : undefined;
  }
  const view = bytesOf(buffer);
  if (!view) throw argType('buffer', 'an instance of Buffer, TypedArray, or DataView', buffer);
  let off = 0;
  if (offset !== undefined && offset !== null) {
    if (typeof offset !== 'number') throw argType('offset', 'of type number', offset);
    if (!Number.isInteger(offset)) throw outOfRange('offset', 'an integer', offset);
    if (offset < 0 || offset > Number.MAX_SAFE_INTEGER) throw outOfRange('offset', '>= 0 && <= 9007199254740991', offset);
    off = offset;
  }
  let len;
  if (length === undefined || length === null) {
    len = view.byteLength - off;
  } else {
    if (typeof length !== 'number') throw argType('length', 'of type number', length);
    if (!Number.isInteger(length)) throw outOfRange('length', 'an integer', length);
    len = length;
  }
  if (len === 0) return { buffer, view, off, len, pos: null };
  if (view.byteLength === 0) {
    throw nodeError(TypeError, 'ERR_INVALID_ARG_VALUE', "The argument 'buffer' is empty and cannot be written. Received " +
      ((buffer.constructor && buffer.constructor.name) || 'Uint8Array') + '(0) []');
  }
  if (off > view.byteLength) throw outOfRange('offset', '<= ' + view.byteLength, off);
  if (len < 0) throw outOfRange('length', '>= 0', len);
  if (off + len > view.byteLength) throw outOfRange('length', '<= ' + (view.byteLength - off), len);
  return { buffer, view, off, len, pos: positionArg(position, len) };
}

impl.read = function* read(fd, buffer, offset, length, position, nargs) {
  fdArg(fd);
  const a = readArgs(buffer, offset, length, position, nargs);
  if (a.len === 0) return { bytesRead: 0, buffer: a.buffer };
  const f = fds.get(fd);
  if (f && f.isDir) throw uvError('EISDIR', 'read');
  const n = yield* readFd(fd, a.view, a.off, a.len, a.pos);
  return { bytesRead: n, buffer: a.buffer };
};

// writeArgs normalises write(fd, buffer, offset?, length?, position?),
// write(fd, buffer, {offset, length, position}) and write(fd, string,
// position?, encoding?).
function writeArgs(data, a, b, c) {
  if (typeof data === 'string') {
    let pos = a;
    let enc = b;
    if (typeof a === 'string') { enc = a; pos = null; }
    return { bytes: encode(data, enc || 'utf8'), pos: positionArg(pos), value: data };
  }
  const view = bytesOf(data);
  if (!view) throw argType('buffer', 'of type string or an instance of Buffer, TypedArray, or DataView', data);
  let offset = a;
  let length = b;
  let position = c;
  if (a !== null && typeof a === 'object') { offset = a.offset; length = a.length; position = a.position; }
  const off = offset === undefined || offset === null ? 0 : intArg(offset, 'offset', 0, view.byteLength);
  const len = length === undefined || length === null ? view.byteLength - off : intArg(length, 'length', 0, view.byteLength - off);
  return { bytes: view.subarray(off, off + len), pos: positionArg(position), value: data };
}

impl.write = function* write(fd, data, a, b, c) {
  fdArg(fd);
  const w = writeArgs(data, a, b, c);
  const n = yield* writeFd(fd, w.bytes, w.pos);
  return { bytesWritten: n, buffer: w.value };
};

impl.writev = function* writev(fd, buffers, position) {
  fdArg(fd);
  if (!Array.isArray(buffers)) throw argType('buffers', 'an instance of ArrayBufferView[]', buffers);
  let pos = positionArg(position);
  let total = 0;
  for (const b of buffers) {
    const view = bytesOf(b);
    if (!view) throw argType('buffers', 'an instance of ArrayBufferView[]', buffers);
    const n = yield* writeFd(fd, view, pos);
    total += n;
    if (pos !== null) pos += n;
  }
  return { bytesWritten: total, buffers };
};

impl.readv = function* readv(fd, buffers, position) {
  fdArg(fd);
  if (!Array.isArray(buffers)) throw argType('buffers', 'an instance of ArrayBufferView[]', buffers);
  let pos = positionArg(position);
  let total = 0;
  for (const b of buffers) {
    const view = bytesOf(b);
    if (!view) throw argType('buffers', 'an instance of ArrayBufferView[]', buffers);
    const n = yield* readFd(fd, view, 0, view.byteLength, pos);
    total += n;
    if (pos !== null) pos += n;
    if (n < view.byteLength) break;
  }
  return { bytesRead: total, buffers };
};

// ---- directories read in pages: opendir ----

// Dir follows Node's lib/internal/fs/dir.js: one asynchronous read at a
// time (later reads and closes wait in a queue; the synchronous forms
// refuse with ERR_DIR_CONCURRENT_OPERATION meanwhile), and everything
// after close fails with ERR_DIR_CLOSED.
const dirState = new WeakMap();
const dirClosed = () => nodeError(Error, 'ERR_DIR_CLOSED', 'Directory handle was closed');
const dirBusy = () => nodeError(Error, 'ERR_DIR_CONCURRENT_OPERATION',
  'Cannot do synchronous work on directory handle with concurrent asynchronous operations');
const tick = (f, ...args) => process.nextTick(f, ...args);

function dirOf(d) {
  const s = dirState.get(d);
  if (!s) throw nodeError(TypeError, 'ERR_INVALID_THIS', 'Value of "this" must be of type Dir');
  return s;
}

function* dirPage(s) {
  const page = yield ['readdirPage', { path: s.p.abs, offset: s.next, limit: s.size }, [s.p]];
  s.next = page.next;
  s.done = page.next === 0;
  for (const e of page.entries) s.buf.push(new Dirent(e.name, e.type, s.p.given));
}

class Dir {
  constructor(p, bufferSize) {
    if (p === undefined || p === null) throw nodeError(TypeError, 'ERR_MISSING_ARGS', 'The "handle" argument must be specified');
    dirState.set(this, { p, size: bufferSize, buf: [], next: 0, done: false, closed: false, queue: null });
  }

  get path() { return dirOf(this).p.given; }

  read(cb) {
    return arguments.length === 0 ? dirReadPromise(this) : dirRead(this, true, cb);
  }

  readSync() {
    const s = dirOf(this);
    if (s.closed) throw dirClosed();
    if (s.queue !== null) throw dirBusy();
    if (s.buf.length === 0 && !s.done) runSync(dirPage(s));
    return s.buf.length ? s.buf.shift() : null;
  }

  close(cb) {
    const s = dirOf(this);
    if (cb === undefined) {
      if (s.closed) return Promise.reject(dirClosed());
      return new Promise((resolve, reject) => this.close((e) => (e ? reject(e) : resolve())));
    }
    if (typeof cb !== 'function') throw argType('callback', 'of type function', cb);
    if (s.closed) { tick(cb, dirClosed()); return undefined; }
    if (s.queue !== null) { s.queue.push(() => this.close(cb)); return undefined; }
    s.closed = true;
    tick(cb, null);
    return undefined;
  }

  closeSync() {
    const s = dirOf(this);
    if (s.closed) throw dirClosed();
    if (s.queue !== null) throw dirBusy();
    s.closed = true;
  }

  // entries is an async generator in Node: it reads to the end, and
  // closes the directory when the loop ends, however it ends.
  entries() {
    const dir = this;
    let finished = false;
    const finish = () => {
      if (finished) return Promise.resolve({ value: undefined, done: true });
      finished = true;
      return dirClosePromise(dir).then(() => ({ value: undefined, done: true }));
    };
    return {
      next() {
        if (finished) return Promise.resolve({ value: undefined, done: true });
        return dirReadPromise(dir).then((d) => (d !== null ? { value: d, done: false } : finish()),
          (e) => finish().then(() => { throw e; }));
      },
      return() { return finish(); },
      [Symbol.asyncIterator]() { return this; },
    };
  }

  [Symbol.asyncIterator]() { return this.entries(); }
  [Symbol.dispose || Symbol.for('Symbol.dispose')]() { if (!dirOf(this).closed) this.closeSync(); }
  [Symbol.asyncDispose || Symbol.for('Symbol.asyncDispose')]() {
    return dirOf(this).closed ? Promise.resolve() : dirClosePromise(this);
  }
}

function dirReadPromise(dir) {
  return new Promise((resolve, reject) => dirRead(dir, false, (e, d) => (e ? reject(e) : resolve(d))));
}

function dirClosePromise(dir) {
  return new Promise((resolve, reject) => dir.close((e) => (e ? reject(e) : resolve())));
}

function dirRead(dir, maybeSync, cb) {
  const s = dirOf(dir);
  if (s.closed) throw dirClosed();
  if (cb === undefined) return dirReadPromise(dir);
  if (typeof cb !== 'function') throw argType('callback', 'of type function', cb);
  if (s.queue !== null) { s.queue.push(() => dirRead(dir, maybeSync, cb)); return undefined; }
  if (s.buf.length > 0 || s.done) {
    const d = s.buf.length ? s.buf.shift() : null;
    if (maybeSync) tick(cb, null, d);
    else cb(null, d);
    return undefined;
  }
  s.queue = [];
  const settle = (e) => {
    // The read is over once its callback runs (Node clears its queue in
    // the tick after a libuv callback, before any promise job; here the
    // callback runs in a promise job, so it is cleared now), and what
    // waited for it runs in the next tick.
    const q = s.queue;
    s.queue = null;
    tick(() => { for (const op of q) op(); });
    if (e) cb(e);
    else cb(null, s.buf.length ? s.buf.shift() : null);
  };
  runAsync(dirPage(s)).then(() => settle(null), settle);
  return undefined;
}

impl.opendir = function* opendir(path, opts) {
  const o = options(opts, { encoding: 'utf8', bufferSize: 32 });
  const size = intArg(o.bufferSize, 'options.bufferSize', 1, 4294967295);
  const p = P(path, 'opendir');
  const st = yield ['stat', { path: p.abs }, [p]];
  if (st.type !== 'dir') throw fixError(uvError('ENOTDIR', 'opendir', p.abs), [p]);
  return new Dir(p, size);
};

// ---- FileHandle (fs.promises.open) ----

// A FileHandle's methods after close reject with EBADF "file closed", as
// Node's do.
// FileHandle is an EventEmitter ('close'), disposable with await using.
const EventEmitter = require('node:events');
class FileHandle extends EventEmitter {
  constructor(fd) { super(); this.fd = fd; this._refs = 1; }
  // A stream over the handle holds a reference (as in Node): close()
  // emits 'close' at once, but the descriptor stays open until the stream
  // let go of it too.
  _ref() { this._refs++; }
  _unref() {
    this._refs--;
    if (this._refs === 0 && this.fd !== -1) {
      const fd = this.fd;
      this.fd = -1;
      const done = this._closeWait;
      this._closeWait = null;
      const p = runAsync(impl.close(fd));
      if (done) p.then(done.resolve, done.reject);
    }
  }
  getAsyncId() { return this.fd; }
  _run(syscall, make) {
    if (this.fd === -1) {
      const e = new Error('file closed');
      e.code = 'EBADF';
      e.syscall = syscall;
      return Promise.reject(e);
    }
    return runAsync(make(this.fd));
  }
  read(buffer, offset, length, position) { return this._run('read', (fd) => impl.read(fd, buffer, offset, length, position)); }
  write(data, a, b, c) { return this._run('write', (fd) => impl.write(fd, data, a, b, c)); }
  writev(buffers, position) { return this._run('writev', (fd) => impl.writev(fd, buffers, position)); }
  readv(buffers, position) { return this._run('readv', (fd) => impl.readv(fd, buffers, position)); }
  readFile(opts) { return this._run('read', (fd) => impl.readFile(fd, opts)); }
  writeFile(data, opts) { return this._run('write', (fd) => impl.writeFile(fd, data, opts)); }
  appendFile(data, opts) { return this._run('write', (fd) => impl.writeFile(fd, data, opts)); }
  stat(opts) { return this._run('fstat', (fd) => impl.fstat(fd, opts)); }
  truncate(len) { return this._run('ftruncate', (fd) => impl.ftruncate(fd, len)); }
  chmod(mode) { return this._run('fchmod', (fd) => impl.fchmod(fd, mode)); }
  utimes(atime, mtime) { return this._run('futime', (fd) => impl.futimes(fd, atime, mtime)); }
  sync() { return this._run('fsync', (fd) => impl.fsync(fd)); }
  datasync() { return this._run('fdatasync', (fd) => impl.fsync(fd)); }
  close() {
    if (this.fd === -1) return this._closing || Promise.resolve();
    if (this._closing) return this._closing;
    this._refs--;
    if (this._refs === 0) {
      const fd = this.fd;
      this.fd = -1;
      this._closing = runAsync(impl.close(fd));
    } else {
      this._closing = new Promise((resolve, reject) => { this._closeWait = { resolve, reject }; });
    }
    this._closing = this._closing.finally(() => { this._closing = undefined; });
    this.emit('close');
    return this._closing;
  }
  // readableWebStream is a WHATWG ReadableStream of the file's bytes from
  // its current position, as Node's (Uint8Array chunks of up to 64 KiB).
  readableWebStream() {
    if (this.fd === -1) throw uvError('EBADF', 'read');
    const fh = this;
    const { ReadableStream } = require('node:stream/web');
    return new ReadableStream({
      async pull(c) {
        const buf = Buffer.alloc(65536);
        const { bytesRead } = await fh.read(buf, 0, buf.length, null);
        if (bytesRead === 0) c.close();
        else c.enqueue(new Uint8Array(buf.buffer, buf.byteOffset, bytesRead));
      },
    });
  }
  readLines() {
    const fh = this;
    let lines = null;
    return {
      next() {
        const ready = lines ? Promise.resolve() : fh.readFile('utf8').then((text) => {
          lines = text.split(/\r?\n/);
          if (lines.length && lines[lines.length - 1] === '') lines.pop();
        });
        return ready.then(() => (lines.length ? { value: lines.shift(), done: false } : { value: undefined, done: true }));
      },
      return() { lines = []; return Promise.resolve({ value: undefined, done: true }); },
      [Symbol.asyncIterator]() { return this; },
    };
  }
}
FileHandle.prototype[Symbol.asyncDispose || Symbol.for('Symbol.asyncDispose')] = function () { return this.close(); };

// ---- the module ----

const fs = {};
const promises = {};

// The operations whose three forms are generated alike.
const plain = ['readFile', 'writeFile', 'appendFile', 'stat', 'lstat', 'fstat', 'access', 'readdir', 'mkdir',
  'mkdtemp', 'rm', 'rmdir', 'unlink', 'rename', 'link', 'copyFile', 'cp', 'symlink', 'readlink', 'realpath', 'chmod',
  'fchmod', 'utimes', 'futimes', 'truncate', 'ftruncate', 'close', 'fsync', 'opendir'];

for (const name of plain) {
  const f = impl[name];
  fs[name + 'Sync'] = Object.defineProperty(function (...args) { return runSync(f(...args)); }, 'name', { value: name + 'Sync' });
  fs[name] = callbackify(name, f);
  promises[name] = Object.defineProperty(function (...args) { return runAsync(f(...args)); }, 'name', { value: name });
}

fs.fdatasyncSync = fs.fsyncSync;
fs.fdatasync = fs.fsync;

fs.openSync = function openSync(path, flags, mode) { return runSync(impl.open(path, flags, mode)); };
fs.open = callbackify('open', impl.open);
promises.open = function open(path, flags, mode) {
  return runAsync(impl.open(path, flags, mode)).then((fd) => new FileHandle(fd));
};
promises.opendir = function opendir(path, opts) { return runAsync(impl.opendir(path, opts)); };

fs.readSync = function readSync(fd, buffer, offset, length, position) {
  // Unlike read, readSync takes no options object in place of the buffer.
  fdArg(fd);
  if (!bytesOf(buffer)) throw argType('buffer', 'an instance of Buffer, TypedArray, or DataView', buffer);
  return runSync(impl.read(fd, buffer, offset, length, position, arguments.length - 1)).bytesRead;
};
fs.read = callbackify('read', impl.read, (r) => [r.bytesRead, r.buffer]);
fs.writeSync = function writeSync(fd, data, a, b, c) { return runSync(impl.write(fd, data, a, b, c)).bytesWritten; };
fs.write = callbackify('write', impl.write, (r) => [r.bytesWritten, r.buffer]);
fs.writevSync = function writevSync(fd, buffers, position) { return runSync(impl.writev(fd, buffers, position)).bytesWritten; };
fs.writev = callbackify('writev', impl.writev, (r) => [r.bytesWritten, r.buffers]);
fs.readvSync = function readvSync(fd, buffers, position) { return runSync(impl.readv(fd, buffers, position)).bytesRead; };
fs.readv = callbackify('readv', impl.readv, (r) => [r.bytesRead, r.buffers]);

let existsWarned = false;
fs.existsSync = function existsSync(path) {
  try {
    pathArg(path);
  } catch (e) {
    if (e.code === 'ERR_INVALID_ARG_TYPE' && !existsWarned) {
      existsWarned = true;
      process.emitWarning('Passing invalid argument types to fs.existsSync is deprecated', 'DeprecationWarning', 'DEP0187');
    }
    return false;
  }
  try {
    return runSync(impl.exists(path));
  } catch (e) {
    return false;
  }
};
fs.exists = function exists(path, cb) {
  if (typeof cb !== 'function') throw argType('cb', 'of type function', cb);
  let p;
  try { p = runAsync(impl.exists(path)); } catch (e) { p = Promise.resolve(false); }
  p.then((v) => cb(v), () => cb(false));
};

fs.realpathSync.native = fs.realpathSync;
fs.realpath.native = fs.realpath;

// chown: every file belongs to the sandbox's user; changing owners is a
// no-op once the path is known to exist.
for (const name of ['chown', 'lchown']) {
  const f = function* (path, uid, gid) {
    intArg(uid, 'uid', -1, 4294967295);
    intArg(gid, 'gid', -1, 4294967295);
    const p = P(path, name);
    yield [name === 'chown' ? 'stat' : 'lstat', { path: p.abs }, [p]];
    return undefined;
  };
  fs[name + 'Sync'] = function (...args) { return runSync(f(...args)); };
  fs[name] = callbackify(name, f);
  promises[name] = function (...args) { return runAsync(f(...args)); };
}

{
  const f = function* fchown(fd, uid, gid) {
    fdArg(fd);
    intArg(uid, 'uid', -1, 4294967295);
    intArg(gid, 'gid', -1, 4294967295);
    if (!isStd(fd)) getFd(fd, 'fchown');
    return undefined;
  };
  fs.fchownSync = function fchownSync(...args) { return runSync(f(...args)); };
  fs.fchown = callbackify('fchown', f);
}

// statfs: the workspace's numbers, stable across runs (the workspace has
// no blocks of its own; these say "plenty of room").
function StatFs(v) { Object.assign(this, v); }
{
  const f = function* statfs(path, opts) {
    const o = options(opts, { bigint: false });
    const p = P(path, 'statfs');
    yield ['stat', { path: p.abs }, [p]];
    const v = { type: 0x01021994, bsize: 4096, frsize: 4096, blocks: 262144, bfree: 131072, bavail: 131072, files: 1000000, ffree: 999000 };
    if (o.bigint) for (const k of Object.keys(v)) v[k] = BigInt(v[k]);
    return new StatFs(v);
  };
  fs.statfsSync = function statfsSync(...args) { return runSync(f(...args)); };
  fs.statfs = callbackify('statfs', f);
  promises.statfs = function statfs(...args) { return runAsync(f(...args)); };
}

// _toUnixTimestamp is Node's internal time conversion (seconds), which
// programs and tests reach for.
fs._toUnixTimestamp = function toUnixTimestamp(time, name = 'time') {
  return timeArg(time, name) / 1000;
};

// mkdtempDisposableSync / promises.mkdtempDisposable: a temporary
// directory removed (recursively) by remove() or using-disposal; the path
// removed is the absolute one, so a later chdir does not matter.
const disposableDir = (given) => {
  const abs = given[0] === '/' ? normalize(given) : joinPath(cwd(), given);
  const remove = () => fs.rmSync(abs, { recursive: true, force: true });
  return { path: given, remove, [Symbol.dispose || Symbol.for('Symbol.dispose')]: remove };
};
fs.mkdtempDisposableSync = function mkdtempDisposableSync(prefix, opts) {
  return disposableDir(fs.mkdtempSync(prefix, opts));
};
promises.mkdtempDisposable = async function mkdtempDisposable(prefix, opts) {
  const d = disposableDir(await promises.mkdtemp(prefix, opts));
  const remove = () => promises.rm(d.path[0] === '/' ? d.path : joinPath(cwd(), d.path), { recursive: true, force: true });
  return { path: d.path, remove, [Symbol.asyncDispose || Symbol.for('Symbol.asyncDispose')]: remove };
};

// util.promisify(fs.read) and friends resolve to objects, as in Node.
{
  const custom = Symbol.for('nodejs.util.promisify.custom');
  const obj = (f, names) => function (...args) {
    return new Promise((resolve, reject) => {
      f(...args, (err, a, b) => (err ? reject(err) : resolve({ [names[0]]: a, [names[1]]: b })));
    });
  };
  fs.read[custom] = obj(fs.read, ['bytesRead', 'buffer']);
  fs.write[custom] = obj(fs.write, ['bytesWritten', 'buffer']);
  fs.readv[custom] = obj(fs.readv, ['bytesRead', 'buffers']);
  fs.writev[custom] = obj(fs.writev, ['bytesWritten', 'buffers']);
  fs.exists[custom] = (p) => new Promise((resolve) => fs.exists(p, resolve));
}

// lutimes sets the times of a link itself; the workspace keeps no times
// for symlinks apart from their targets', so on a symlink it only checks
// that the link exists.
{
  const f = function* lutimes(path, atime, mtime) {
    const p = P(path, 'lutime');
    const times = { atimeMs: timeArg(atime, 'atime'), mtimeMs: timeArg(mtime, 'mtime') };
    const st = yield ['lstat', { path: p.abs }, [p]];
    if (st.type !== 'symlink') yield ['utimes', Object.assign({ path: p.abs }, times), [p]];
    return undefined;
  };
  fs.lutimesSync = function lutimesSync(...args) { return runSync(f(...args)); };
  fs.lutimes = callbackify('lutimes', f);
  promises.lutimes = function lutimes(...args) { return runAsync(f(...args)); };
}

// glob is built on first use (fs_glob.js).
let globs = null;
const G = () => globs || (globs = require('nook:fs_glob.js')(fs, { argType, pathArg, resolve: (p) => (p[0] === '/' ? normalize(p) : joinPath(cwd(), p)) }));
fs.glob = function glob(pattern, options, cb) { return G().glob(pattern, options, cb); };
fs.globSync = function globSync(pattern, options) { return G().globSync(pattern, options); };
promises.glob = function glob(pattern, options) { return G().promisesGlob(pattern, options); };

// Watchers are built on first use (fs_watch.js).
let watchers = null;
const W = () => watchers || (watchers = require('nook:fs_watch.js')(fs, {
  argType, argValue, pathArg, uvError, Stats: newStats, resolve: (p) => (p[0] === '/' ? normalize(p) : joinPath(cwd(), p)),
  epoch: () => fsEpoch,
}));
fs.watch = function watch(filename, options, listener) { return W().watch(filename, options, listener); };
fs.watchFile = function watchFile(filename, options, listener) { return W().watchFile(filename, options, listener); };
fs.unwatchFile = function unwatchFile(filename, listener) { return W().unwatchFile(filename, listener); };
promises.watch = function watch(filename, options) { return W().promiseWatch(filename, options); };

// ---- streams: built on first use (fs_streams.js) ----

let streams = null;
const S = () => streams || (streams = require('nook:fs_streams.js')(fs, { argType, outOfRange, pathArg, nodeError, FileHandle }));
for (const name of ['ReadStream', 'WriteStream', 'FileReadStream', 'FileWriteStream']) {
  let own;
  Object.defineProperty(fs, name, {
    enumerable: true, configurable: true,
    get() { return own || S()[name.replace('File', '')]; },
    set(v) { own = v; },
  });
}
fs.createReadStream = function createReadStream(path, opts) { return new (S().ReadStream)(path, opts); };
fs.createWriteStream = function createWriteStream(path, opts) { return new (S().WriteStream)(path, opts); };
FileHandle.prototype.createReadStream = function createReadStream(opts) {
  return new (S().ReadStream)(undefined, Object.assign({}, opts, { fd: this }));
};
FileHandle.prototype.createWriteStream = function createWriteStream(opts) {
  return new (S().WriteStream)(undefined, Object.assign({}, opts, { fd: this }));
};

// process.chdir tells the module that the working directory changed.
Object.defineProperty(fs, Symbol.for('nook.fs.chdir'), { value: () => { goneCwd = null; } });

promises.constants = constants;
fs.constants = constants;
fs.promises = promises;
fs.Stats = Stats;
fs.Dirent = Dirent;
fs.Dir = Dir;
Object.assign(fs, {
  F_OK: C.F_OK, R_OK: C.R_OK, W_OK: C.W_OK, X_OK: C.X_OK,
});

module.exports = fs;
