'use strict';
// process: env, argv, cwd, exit, stdio, hrtime, nextTick.

const g = globalThis;
// goja has no Symbol.asyncIterator; esbuild's helpers fall back to this
// registered symbol, so for-await and async generators agree on it.
const asyncIterator = () => {
  if (!Symbol.asyncIterator) Object.defineProperty(Symbol, 'asyncIterator', { value: Symbol.for('Symbol.asyncIterator') });
  return Symbol.asyncIterator;
};

function makeProcess() {
  const stdinChunk = () => {
    const b = host.stdin();
    return host.bufferFrom(b);
  };
  const stdin = {
    fd: 0, isTTY: false, readable: true,
    _enc: null,
    setEncoding(enc) { this._enc = enc; return this; },
    _chunk() { const b = stdinChunk(); return this._enc ? b.toString(this._enc) : b; },
    [asyncIterator()]() {
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
        [asyncIterator()]() { return this; },
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
  return process;


}

module.exports = makeProcess();
