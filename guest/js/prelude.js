'use strict';
// The prelude builds the globals a program sees. It runs once per run,
// before the program, with the internal host bridge.

const g = globalThis;
// goja has no Symbol.asyncIterator; esbuild's helpers fall back to this
// registered symbol, so for-await and async generators agree on it.
if (!Symbol.asyncIterator) Object.defineProperty(Symbol, 'asyncIterator', { value: Symbol.for('Symbol.asyncIterator') });
const define = (o, name, value) =>
  Object.defineProperty(o, name, { value, writable: true, configurable: true, enumerable: false });
const lazy = (o, name, get) =>
  Object.defineProperty(o, name, {
    configurable: true, enumerable: false,
    get() { const v = get(); define(o, name, v); return v; },
    set(v) { define(o, name, v); },
  });

let util;
const inspectFn = (v) => (util || (util = require('node:util'))).inspect(v);
host.setInspect(inspectFn);

// ---- allocation guards (MaxAllocBytes) ----
const MAX = host.maxAlloc;
const tooBig = (what, n) => host.allocLimit(what, n);
{
  const SP = String.prototype;
  const repeat = SP.repeat, padStart = SP.padStart, padEnd = SP.padEnd;
  define(SP, 'repeat', function repeat_(count) {
    const n = Math.floor(Number(count));
    if (this != null && n > 0) {
      const len = String(this).length;
      if (len * n > MAX) tooBig('string', len * n);
    }
    return Reflect.apply(repeat, this, arguments);
  });
  define(SP, 'padStart', function padStart_(n) {
    if (Number(n) > MAX) tooBig('string', Number(n));
    return Reflect.apply(padStart, this, arguments);
  });
  define(SP, 'padEnd', function padEnd_(n) {
    if (Number(n) > MAX) tooBig('string', Number(n));
    return Reflect.apply(padEnd, this, arguments);
  });
  Object.defineProperty(SP.repeat, 'name', { value: 'repeat' });
  Object.defineProperty(SP.padStart, 'name', { value: 'padStart' });
  Object.defineProperty(SP.padEnd, 'name', { value: 'padEnd' });

  // Arrays are counted at 8 bytes an element.
  const AP = Array.prototype;
  const fill = AP.fill, join = AP.join, from = Array.from;
  define(AP, 'fill', function fill_(value, start, end) {
    const len = this != null ? Number(this.length) : 0;
    if (len * 8 > MAX) tooBig('array of ' + len + ' elements', len * 8);
    return Reflect.apply(fill, this, arguments);
  });
  define(AP, 'join', function join_(sep) {
    const len = this != null ? Number(this.length) : 0;
    const s = sep === undefined ? 1 : String(sep).length;
    if (len > 1 && (len - 1) * s > MAX) tooBig('string', (len - 1) * s);
    return Reflect.apply(join, this, arguments);
  });
  Object.defineProperty(AP.join, 'name', { value: 'join' });
  Object.defineProperty(AP.fill, 'name', { value: 'fill' });
  define(Array, 'from', function from_(items) {
    if (items != null && typeof items === 'object' && !(Symbol.iterator in items)) {
      const len = Number(items.length);
      if (len * 8 > MAX) tooBig('array of ' + len + ' elements', len * 8);
    }
    return Reflect.apply(from, this, arguments);
  });
  Object.defineProperty(Array.from, 'name', { value: 'from' });

  // Typed arrays and ArrayBuffer allocate at once: their constructors
  // check the size first.
  const guardCtor = (name, bytesPer) => {
    const C = g[name];
    if (!C) return;
    const W = function (a) {
      if (new.target === undefined) throw new TypeError("Constructor " + name + " requires 'new'");
      if (typeof a === 'number' && a * bytesPer > MAX) tooBig(name, a * bytesPer);
      return Reflect.construct(C, arguments, new.target === W ? C : new.target);
    };
    Object.defineProperty(W, 'name', { value: name });
    Object.defineProperty(W, 'length', { value: C.length });
    Object.setPrototypeOf(W, Object.getPrototypeOf(C));
    for (const k of Reflect.ownKeys(C)) {
      if (k !== 'prototype' && k !== 'name' && k !== 'length') Object.defineProperty(W, k, Object.getOwnPropertyDescriptor(C, k));
    }
    Object.defineProperty(W, 'prototype', { value: C.prototype, writable: false });
    define(C.prototype, 'constructor', W);
    define(g, name, W);
  };
  guardCtor('ArrayBuffer', 1);
  for (const [n, b] of [['Int8Array', 1], ['Uint8Array', 1], ['Uint8ClampedArray', 1], ['Int16Array', 2],
    ['Uint16Array', 2], ['Int32Array', 4], ['Uint32Array', 4], ['Float32Array', 4], ['Float64Array', 8],
    ['BigInt64Array', 8], ['BigUint64Array', 8]]) guardCtor(n, b);
}

// ---- polyfills goja lacks ----
if (!Object.groupBy) {
  define(Object, 'groupBy', function groupBy(items, fn) {
    const out = Object.create(null);
    let i = 0;
    for (const x of items) {
      const k = fn(x, i++);
      const key = typeof k === 'symbol' ? k : String(k);
      (out[key] || (out[key] = [])).push(x);
    }
    return out;
  });
}
if (!Map.groupBy) {
  define(Map, 'groupBy', function groupBy(items, fn) {
    const out = new Map();
    let i = 0;
    for (const x of items) {
      const k = fn(x, i++);
      const a = out.get(k);
      if (a) a.push(x); else out.set(k, [x]);
    }
    return out;
  });
}
if (!Promise.withResolvers) {
  define(Promise, 'withResolvers', function withResolvers() {
    let resolve, reject;
    const promise = new this((a, b) => { resolve = a; reject = b; });
    return { promise, resolve, reject };
  });
}
if (!Array.fromAsync) {
  define(Array, 'fromAsync', async function fromAsync(items, fn, thisArg) {
    const out = [];
    let i = 0;
    if (items != null && typeof items[Symbol.asyncIterator] === 'function') {
      const it = items[Symbol.asyncIterator]();
      for (;;) {
        const r = await it.next();
        if (r.done) break;
        out.push(fn ? await fn.call(thisArg, r.value, i) : r.value);
        i++;
      }
      return out;
    }
    const src = items != null && typeof items[Symbol.iterator] === 'function' ? items : Array.from(items);
    for (const x of src) {
      const v = await x;
      out.push(fn ? await fn.call(thisArg, v, i) : v);
      i++;
    }
    return out;
  });
}
for (const [name, impl] of [
  ['union', function (o) { const s = new Set(this); for (const x of o.keys()) s.add(x); return s; }],
  ['intersection', function (o) { const s = new Set(); for (const x of this) if (o.has(x)) s.add(x); return s; }],
  ['difference', function (o) { const s = new Set(); for (const x of this) if (!o.has(x)) s.add(x); return s; }],
  ['symmetricDifference', function (o) {
    const s = new Set(this); for (const x of o.keys()) { if (this.has(x)) s.delete(x); else s.add(x); } return s;
  }],
  ['isSubsetOf', function (o) { for (const x of this) if (!o.has(x)) return false; return true; }],
  ['isSupersetOf', function (o) { for (const x of o.keys()) if (!this.has(x)) return false; return true; }],
  ['isDisjointFrom', function (o) { for (const x of this) if (o.has(x)) return false; return true; }],
]) {
  if (!Set.prototype[name]) define(Set.prototype, name, impl);
}

// ---- timers ----
class Timeout {
  constructor(id) { this._id = id; }
  ref() { host.timerRef(this._id, true); return this; }
  unref() { host.timerRef(this._id, false); return this; }
  hasRef() { return true; }
  [Symbol.toPrimitive]() { return this._id; }
}
class Immediate extends Timeout {}
const timerFn = (fn, args) => {
  if (typeof fn !== 'function') throw new TypeError('The "callback" argument must be of type function. Received ' + typeof fn);
  return args.length ? () => fn(...args) : fn;
};
const timerId = (t) => (t != null && typeof t === 'object' ? t._id : Number(t));
define(g, 'setTimeout', function setTimeout(fn, ms, ...args) {
  return new Timeout(host.timerStart(timerFn(fn, args), Number(ms) || 0, false));
});
define(g, 'setInterval', function setInterval(fn, ms, ...args) {
  return new Timeout(host.timerStart(timerFn(fn, args), Number(ms) || 0, true));
});
define(g, 'setImmediate', function setImmediate(fn, ...args) {
  return new Immediate(host.timerStart(timerFn(fn, args), 0, false));
});
for (const n of ['clearTimeout', 'clearInterval', 'clearImmediate']) {
  define(g, n, function (t) { if (t != null) host.timerClear(timerId(t)); });
}
define(g, 'queueMicrotask', function queueMicrotask(fn) {
  if (typeof fn !== 'function') throw new TypeError('The "callback" argument must be of type function');
  Promise.resolve().then(fn);
});

// ---- console ----
const simple = (v) => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' || v == null;
const format = (args) => {
  if (args.length === 1 && typeof args[0] === 'string') return args[0];
  let all = true;
  for (const a of args) if (!simple(a) || (typeof a === 'string' && a.includes('%'))) { all = false; break; }
  if (all) return args.map((a) => (a === null ? 'null' : String(a))).join(' ');
  return (util || (util = require('node:util'))).format(...args);
};
let indent = '';
const out = (stream) => (...args) => {
  let s = format(args);
  if (indent) s = indent + s.split('\n').join('\n' + indent);
  host.write(stream, s + '\n');
};
const counts = new Map(), times = new Map();
const console = {
  log: out(1), info: out(1), debug: out(1), warn: out(2), error: out(2),
  trace: (...args) => {
    const e = new Error(format(args));
    host.write(2, 'Trace: ' + format(args) + host.userFrames(String(e.stack)) + '\n');
  },
  dir: (v) => host.write(1, indent + inspectFn(v) + '\n'),
  table: (v) => out(1)(v),
  assert: (ok, ...args) => { if (!ok) out(2)('Assertion failed' + (args.length ? ': ' + format(args) : '')); },
  count: (label = 'default') => { const n = (counts.get(label) || 0) + 1; counts.set(label, n); out(1)(label + ': ' + n); },
  countReset: (label = 'default') => counts.delete(label),
  time: (label = 'default') => times.set(label, host.hrnow()),
  timeEnd: (label = 'default') => {
    const t = times.get(label);
    if (t !== undefined) { times.delete(label); out(1)(label + ': ' + ((host.hrnow() - t) / 1e6).toFixed(3) + 'ms'); }
  },
  timeLog: (label = 'default', ...args) => {
    const t = times.get(label);
    if (t !== undefined) out(1)(label + ': ' + ((host.hrnow() - t) / 1e6).toFixed(3) + 'ms', ...args);
  },
  group: (...args) => { if (args.length) out(1)(...args); indent += '  '; },
  groupCollapsed: (...args) => { if (args.length) out(1)(...args); indent += '  '; },
  groupEnd: () => { indent = indent.slice(2); },
};
define(g, 'console', console);

// ---- process ----
const stdinChunk = () => {
  const b = host.stdin();
  return host.bufferFrom(b);
};
const stdin = {
  fd: 0, isTTY: false, readable: true,
  _enc: null,
  setEncoding(enc) { this._enc = enc; return this; },
  _chunk() { const b = stdinChunk(); return this._enc ? b.toString(this._enc) : b; },
  [Symbol.asyncIterator]() {
    let done = false;
    return {
      next: () => {
        if (done) return Promise.resolve({ value: undefined, done: true });
        done = true;
        const c = stdin._chunk();
        if (c.length === 0) return Promise.resolve({ value: undefined, done: true });
        return Promise.resolve({ value: c, done: false });
      },
      return: () => { done = true; return Promise.resolve({ value: undefined, done: true }); },
      [Symbol.asyncIterator]() { return this; },
    };
  },
  _listeners: null,
  on(ev, fn) {
    if (!this._listeners) {
      this._listeners = { data: [], end: [] };
      g.setImmediate(() => {
        const c = this._chunk();
        if (c.length) for (const f of this._listeners.data) f(c);
        for (const f of this._listeners.end) f();
      });
    }
    if (this._listeners[ev]) this._listeners[ev].push(fn);
    return this;
  },
  once(ev, fn) { return this.on(ev, fn); },
  resume() { return this; }, pause() { return this; },
};
stdin.addListener = stdin.on;
const noop = function () { return process; };
const hrtime = (prev) => {
  const ns = Math.floor(host.hrnow());
  let s = Math.floor(ns / 1e9), n = ns % 1e9;
  if (prev) { s -= prev[0]; n -= prev[1]; if (n < 0) { s--; n += 1e9; } }
  return [s, n];
};
hrtime.bigint = () => BigInt(Math.floor(host.hrnow()));
const stream = (fd) => ({
  fd, isTTY: false, writable: true, columns: 80,
  write(chunk, enc, cb) {
    host.write(fd, typeof chunk === 'string' || chunk instanceof Uint8Array ? chunk : String(chunk));
    if (typeof enc === 'function') enc(); else if (typeof cb === 'function') cb();
    return true;
  },
  end(chunk) { if (chunk != null) this.write(chunk); },
  on: noop, once: noop, off: noop,
});
const process = {
  env: host.env,
  argv: host.argv,
  argv0: 'nook',
  execArgv: [],
  execPath: '/usr/local/bin/nook',
  platform: 'linux', arch: 'x64',
  version: 'v22.0.0', versions: { node: '22.0.0' },
  release: { name: 'node' },
  pid: 1, ppid: 0, title: 'nook',
  exitCode: undefined,
  cwd: () => host.cwd,
  chdir() { throw new Error('process.chdir() is not supported: the working directory is fixed for the run'); },
  exit: (code) => host.exit(code),
  abort: () => host.exit(134),
  nextTick: (fn, ...args) => { Promise.resolve().then(() => fn(...args)); },
  hrtime,
  uptime: () => host.hrnow() / 1e9,
  memoryUsage: () => ({ rss: 0, heapTotal: 0, heapUsed: 0, external: 0, arrayBuffers: 0 }),
  cpuUsage: () => ({ user: 0, system: 0 }),
  umask: () => 0o22,
  getuid: () => 1000, getgid: () => 1000, geteuid: () => 1000, getegid: () => 1000,
  emitWarning: (w) => host.write(2, '(nook) Warning: ' + (w && w.message ? w.message : String(w)) + '\n'),
  stdout: stream(1), stderr: stream(2), stdin,
  on: noop, once: noop, off: noop, addListener: noop, removeListener: noop, removeAllListeners: noop,
  emit: () => false, listeners: () => [], listenerCount: () => 0,
};
define(g, 'process', process);

// ---- encoding ----
class TextEncoder {
  get encoding() { return 'utf-8'; }
  encode(s = '') { return host.utf8Encode(String(s)); }
  encodeInto(s, dest) {
    const b = host.utf8Encode(String(s));
    const n = Math.min(b.length, dest.length);
    dest.set(b.subarray(0, n));
    return { read: n === b.length ? String(s).length : undefined, written: n };
  }
}
class TextDecoder {
  constructor(label = 'utf-8', opts = {}) {
    const l = String(label).toLowerCase().trim();
    if (l !== 'utf-8' && l !== 'utf8' && l !== 'unicode-1-1-utf-8') {
      throw new RangeError('The "' + label + '" encoding is not supported (only utf-8 is)');
    }
    this.fatal = !!opts.fatal;
    this.ignoreBOM = !!opts.ignoreBOM;
  }
  get encoding() { return 'utf-8'; }
  decode(input) {
    if (input === undefined) return '';
    let s = host.utf8Decode(input, this.fatal);
    if (!this.ignoreBOM && s.charCodeAt(0) === 0xfeff) s = s.slice(1);
    return s;
  }
}
define(g, 'TextEncoder', TextEncoder);
define(g, 'TextDecoder', TextDecoder);

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
define(g, 'btoa', function btoa(s) {
  s = String(s);
  let out = '';
  for (let i = 0; i < s.length; i += 3) {
    const a = s.charCodeAt(i), b = s.charCodeAt(i + 1), c = s.charCodeAt(i + 2);
    if (a > 255 || b > 255 || c > 255) throw new Error('Invalid character');
    const n = (a << 16) | ((b || 0) << 8) | (c || 0);
    out += B64[n >> 18] + B64[(n >> 12) & 63] + (i + 1 < s.length ? B64[(n >> 6) & 63] : '=') + (i + 2 < s.length ? B64[n & 63] : '=');
  }
  return out;
});
define(g, 'atob', function atob(s) {
  s = String(s).replace(/[\t\n\f\r ]/g, '');
  if (s.length % 4 === 0) s = s.replace(/==?$/, '');
  if (s.length % 4 === 1 || /[^A-Za-z0-9+/]/.test(s)) throw new Error('The string to be decoded is not correctly encoded.');
  let out = '', bits = 0, n = 0;
  for (let i = 0; i < s.length; i++) {
    n = (n << 6) | B64.indexOf(s[i]);
    bits += 6;
    if (bits >= 8) { bits -= 8; out += String.fromCharCode((n >> bits) & 255); }
  }
  return out;
});

// ---- structuredClone ----
define(g, 'structuredClone', function structuredClone(value) {
  const seen = new Map();
  const clone = (v) => {
    if (typeof v === 'function' || typeof v === 'symbol') {
      const e = new Error((typeof v === 'function' ? 'function' : 'symbol') + ' could not be cloned.');
      e.name = 'DataCloneError';
      throw e;
    }
    if (v === null || typeof v !== 'object') return v;
    if (seen.has(v)) return seen.get(v);
    let out;
    if (v instanceof Date) out = new Date(v.getTime());
    else if (v instanceof RegExp) out = new RegExp(v.source, v.flags);
    else if (v instanceof ArrayBuffer) out = v.slice(0);
    else if (ArrayBuffer.isView(v)) {
      const C = v.constructor === DataView ? DataView : Object.getPrototypeOf(Object.getPrototypeOf(v)).constructor === Object ? Uint8Array : v.constructor;
      out = C === DataView ? new DataView(v.buffer.slice(v.byteOffset, v.byteOffset + v.byteLength))
        : new (Object.getPrototypeOf(v).constructor)(v);
    } else if (v instanceof Map) { out = new Map(); seen.set(v, out); for (const [k, x] of v) out.set(clone(k), clone(x)); return out; }
    else if (v instanceof Set) { out = new Set(); seen.set(v, out); for (const x of v) out.add(clone(x)); return out; }
    else if (v instanceof Error) { out = new (g[v.name] || Error)(v.message); if (v.stack) out.stack = v.stack; }
    else if (Array.isArray(v)) { out = new Array(v.length); seen.set(v, out); for (let i = 0; i < v.length; i++) out[i] = clone(v[i]); return out; }
    else { out = {}; seen.set(v, out); for (const k of Object.keys(v)) out[k] = clone(v[k]); return out; }
    seen.set(v, out);
    return out;
  };
  return clone(value);
});

// ---- crypto, performance ----
const cryptoObj = {
  randomUUID() {
    const b = host.random(16);
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    let h = '';
    for (let i = 0; i < 16; i++) h += (b[i] < 16 ? '0' : '') + b[i].toString(16);
    return h.slice(0, 8) + '-' + h.slice(8, 12) + '-' + h.slice(12, 16) + '-' + h.slice(16, 20) + '-' + h.slice(20);
  },
  getRandomValues(ta) {
    if (!ArrayBuffer.isView(ta) || ta instanceof Float32Array || ta instanceof Float64Array || ta instanceof DataView) {
      throw new TypeError('The data argument must be an integer-type TypedArray');
    }
    if (ta.byteLength > 65536) {
      const e = new Error("The ArrayBufferView's byte length (" + ta.byteLength + ') exceeds the number of bytes of entropy available via this API (65536)');
      e.name = 'QuotaExceededError';
      throw e;
    }
    new Uint8Array(ta.buffer, ta.byteOffset, ta.byteLength).set(host.random(ta.byteLength));
    return ta;
  },
  subtle: {
    digest(alg, data) {
      try {
        const name = typeof alg === 'string' ? alg : alg && alg.name;
        if (!/^SHA-(1|256|384|512)$/i.test(String(name))) throw new Error('Unrecognized algorithm name: ' + name);
        const d = host.digest(String(name), data);
        return Promise.resolve(d.buffer);
      } catch (e) {
        return Promise.reject(e);
      }
    },
  },
};
define(g, 'crypto', cryptoObj);
const timeOrigin = host.now();
define(g, 'performance', {
  timeOrigin,
  now: () => host.hrnow() / 1e6,
  mark: () => undefined, measure: () => undefined, clearMarks: () => undefined, clearMeasures: () => undefined,
  getEntries: () => [], getEntriesByName: () => [], getEntriesByType: () => [],
  toJSON() { return { timeOrigin }; },
});

// ---- lazily built globals ----
const guardBuffer = (Buffer) => {
  for (const n of ['alloc', 'allocUnsafe', 'allocUnsafeSlow']) {
    const f = Buffer[n];
    if (typeof f !== 'function') continue;
    define(Buffer, n, function (size) {
      if (Number(size) > MAX) tooBig('Buffer', Number(size));
      return Reflect.apply(f, this, arguments);
    });
  }
  return Buffer;
};
lazy(g, 'Buffer', () => guardBuffer(require('node:buffer').Buffer));
lazy(g, 'URL', () => host.native('url').URL);
lazy(g, 'URLSearchParams', () => host.native('url').URLSearchParams);
lazy(g, 'EventTarget', () => require('node:events').EventTarget);
lazy(g, 'Event', () => require('node:events').Event);
lazy(g, 'AbortController', () => require('node:events').AbortController);
lazy(g, 'AbortSignal', () => require('node:events').AbortSignal);

// ---- fetch ----
class Headers {
  constructor(init) {
    this._m = new Map();
    if (init == null) return;
    if (init instanceof Headers) init = [...init];
    if (Array.isArray(init)) for (const [k, v] of init) this.append(k, v);
    else for (const k of Object.keys(init)) this.append(k, init[k]);
  }
  append(k, v) { k = String(k).toLowerCase(); const o = this._m.get(k); this._m.set(k, o === undefined ? String(v) : o + ', ' + v); }
  set(k, v) { this._m.set(String(k).toLowerCase(), String(v)); }
  get(k) { const v = this._m.get(String(k).toLowerCase()); return v === undefined ? null : v; }
  has(k) { return this._m.has(String(k).toLowerCase()); }
  delete(k) { this._m.delete(String(k).toLowerCase()); }
  forEach(fn, thisArg) { for (const [k, v] of this) fn.call(thisArg, v, k, this); }
  *entries() { yield* [...this._m.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1)); }
  *keys() { for (const [k] of this.entries()) yield k; }
  *values() { for (const [, v] of this.entries()) yield v; }
  [Symbol.iterator]() { return this.entries(); }
}
const bodyBytes = (body) => {
  if (body == null) return null;
  if (typeof body === 'string') return host.utf8Encode(body);
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  if (ArrayBuffer.isView(body)) return new Uint8Array(body.buffer, body.byteOffset, body.byteLength);
  if (typeof body === 'object' && typeof body.toString === 'function' && body.constructor && body.constructor.name === 'URLSearchParams') {
    return host.utf8Encode(body.toString());
  }
  throw new TypeError('fetch: unsupported body type (use a string, an ArrayBuffer or a Uint8Array)');
};
class Response {
  constructor(body, init = {}) {
    this._body = bodyBytes(body) || new Uint8Array(0);
    this.status = init.status === undefined ? 200 : init.status;
    this.statusText = init.statusText || '';
    this.headers = init.headers instanceof Headers ? init.headers : new Headers(init.headers);
    this.url = init.url || '';
    this.redirected = false;
    this.type = 'basic';
    this.bodyUsed = false;
  }
  get ok() { return this.status >= 200 && this.status < 300; }
  _take() {
    if (this.bodyUsed) return Promise.reject(new TypeError('Body is unusable: Body has already been read'));
    this.bodyUsed = true;
    return Promise.resolve(this._body);
  }
  arrayBuffer() { return this._take().then((b) => b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength)); }
  bytes() { return this._take().then((b) => new Uint8Array(b)); }
  text() { return this._take().then((b) => host.utf8Decode(b, false)); }
  json() { return this.text().then((t) => JSON.parse(t)); }
  clone() {
    if (this.bodyUsed) throw new TypeError('Response.clone: Body has already been consumed.');
    return new Response(new Uint8Array(this._body), { status: this.status, statusText: this.statusText, headers: new Headers(this.headers), url: this.url });
  }
  static json(data, init = {}) {
    const h = new Headers(init.headers);
    if (!h.has('content-type')) h.set('content-type', 'application/json');
    return new Response(JSON.stringify(data), { ...init, headers: h });
  }
}
class Request {
  constructor(input, init = {}) {
    this.url = typeof input === 'string' ? input : input instanceof Request ? input.url : String(input);
    this.method = (init.method || (input instanceof Request ? input.method : 'GET')).toUpperCase();
    this.headers = new Headers(init.headers || (input instanceof Request ? input.headers : undefined));
    this._body = init.body !== undefined ? init.body : input instanceof Request ? input._body : undefined;
  }
}
define(g, 'Headers', Headers);
define(g, 'Response', Response);
define(g, 'Request', Request);
define(g, 'fetch', async function fetch(input, init = {}) {
  if (!host.fetchAllowed) throw new TypeError('fetch is not available: the workspace has no outbound network policy');
  const req = input instanceof Request ? input : null;
  const url = req ? req.url : typeof input === 'string' ? input : String(input && input.href ? input.href : input);
  const method = String(init.method || (req ? req.method : 'GET')).toUpperCase();
  const headers = {};
  for (const [k, v] of new Headers(init.headers || (req ? req.headers : undefined))) headers[k] = v;
  const raw = init.body !== undefined ? init.body : req ? req._body : undefined;
  const body = bodyBytes(raw);
  if (body && raw && typeof raw === 'object' && !ArrayBuffer.isView(raw) && !(raw instanceof ArrayBuffer) && !headers['content-type']) {
    headers['content-type'] = 'application/x-www-form-urlencoded;charset=UTF-8';
  } else if (typeof raw === 'string' && !headers['content-type']) {
    headers['content-type'] = 'text/plain;charset=UTF-8';
  }
  const res = await host.call('fetch', 'fetch', { url, method, headers, body });
  let h = res.headers;
  if (h && !Array.isArray(h)) {
    const pairs = [];
    for (const k of Object.keys(h)) {
      const v = h[k];
      if (Array.isArray(v)) for (const x of v) pairs.push([k, x]); else pairs.push([k, v]);
    }
    h = pairs;
  }
  return new Response(res.body == null ? null : res.body, { status: res.status, statusText: res.statusText || '', headers: h || [], url: res.url || url });
});
