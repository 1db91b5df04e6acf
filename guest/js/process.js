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
  const hrtime = (prev) => {
    const ns = Math.floor(host.hrnow());
    let s = Math.floor(ns / 1e9), n = ns % 1e9;
    if (prev) { s -= prev[0]; n -= prev[1]; if (n < 0) { s--; n += 1e9; } }
    return [s, n];
  };
  hrtime.bigint = () => BigInt(Math.floor(host.hrnow()));
  // The write of these streams is marked so that the global console
  // knows it may write to the run's output directly (see console.js).
  const stream = (fd) => markWrite({
    fd, isTTY: false, writable: true, columns: 80,
    write(chunk, enc, cb) {
      host.write(fd, typeof chunk === 'string' || chunk instanceof Uint8Array ? chunk : String(chunk));
      if (typeof enc === 'function') enc(); else if (typeof cb === 'function') cb();
      return true;
    },
    end(chunk) { if (chunk != null) this.write(chunk); },
    on() { return this; }, once() { return this; }, off() { return this; }, emit() { return false; },
    removeListener() { return this; }, listenerCount() { return 0; },
  });
  function markWrite(st) {
    Object.defineProperty(st.write, Symbol.for('nook.hostWrite'), { value: true });
    return st;
  }
  const EventEmitter = require('node:events');
  const process = Object.create(EventEmitter.prototype);
  EventEmitter.call(process);
  let exiting = false;
  let cwd = host.cwd;
  const chdirError = (code, dir) => {
    const words = { ENOENT: 'no such file or directory', ENOTDIR: 'not a directory', EACCES: 'permission denied' };
    const e = new Error(`${code}: ${words[code] || 'error'}, chdir ${cwd} -> '${dir}'`);
    e.errno = { ENOENT: -2, ENOTDIR: -20, EACCES: -13 }[code];
    e.code = code;
    e.syscall = 'chdir';
    e.path = cwd;
    e.dest = dir;
    return e;
  };
  // emitExit runs the 'exit' listeners once, with the exit code.
  const emitExit = (code) => {
    if (exiting) return;
    exiting = true;
    process._exiting = true;
    if (code !== undefined) process.exitCode = code;
    process.emit('exit', process.exitCode === undefined ? 0 : Number(process.exitCode) | 0);
  };
  const warnOut = (w) => {
    if (process.noDeprecation && w.name === 'DeprecationWarning') return;
    let s = '(node:' + process.pid + ') ' + (w.code ? '[' + w.code + '] ' : '') + w.name + ': ' + w.message + '\n';
    if (w.detail) s += w.detail + '\n';
    host.write(2, s);
  };
  const emitWarning = (warning, type, code, ctor) => {
    const { validateString, makeError } = require('nook:errors.js');
    let detail;
    if (type !== null && typeof type === 'object' && !Array.isArray(type)) {
      code = type.code;
      if (typeof type.detail === 'string') detail = type.detail;
      type = type.type || 'Warning';
    } else if (typeof type === 'function') {
      code = undefined;
      type = 'Warning';
    }
    if (type !== undefined) validateString(type, 'type');
    if (typeof code === 'function') code = undefined;
    else if (code !== undefined) validateString(code, 'code');
    if (typeof warning === 'string') {
      const w = new Error(warning);
      w.name = String(type || 'Warning');
      if (code !== undefined) w.code = code;
      if (detail !== undefined) w.detail = detail;
      warning = w;
    } else if (!(warning instanceof Error)) {
      throw makeError('ERR_INVALID_ARG_TYPE', 'warning', ['Error', 'string'], warning);
    }
    if (warning.name === 'DeprecationWarning' && process.noDeprecation) return;
    if (warning.name === 'DeprecationWarning' && process.throwDeprecation) throw warning;
    process.nextTick(() => {
      warnOut(warning);
      process.emit('warning', warning);
    });
  };
  const received = (v) => (v == null ? ' Received ' + v : typeof v === 'object' ? ' Received an instance of ' + ((v.constructor && v.constructor.name) || 'Object') : ' Received type ' + typeof v + ' (' + String(v) + ')');
  const ticks = [];
  let tickScheduled = false;
  const runTicks = () => {
    tickScheduled = false;
    while (ticks.length) {
      const [fn, args] = ticks.shift();
      fn(...args);
    }
  };
  Object.assign(process, {
    // As in Node, what is stored in process.env becomes a string.
    env: new Proxy(host.env, {
      // A symbol key or value throws a TypeError, as in Node.
      set: (t, k, v) => {
        if (typeof k === 'symbol') throw new TypeError('Cannot convert a Symbol value to a string');
        t[k] = `${v}`;
        return true;
      },
      defineProperty: (t, k, d) => Reflect.defineProperty(t, k, 'value' in d && typeof k !== 'symbol' ? { ...d, value: String(d.value) } : d),
    }),
    argv: host.argv,
    argv0: 'node',
    execArgv: [],
    execPath: '/usr/local/bin/node',
    platform: 'linux', arch: 'x64',
    version: 'v22.0.0', versions: { node: '22.0.0' },
    release: { name: 'node' },
    features: {},
    config: { variables: {} },
    pid: 1, ppid: 0, title: 'node',
    exitCode: undefined,
    cwd: () => cwd,
    // chdir changes the directory relative paths resolve from (fs, path);
    // the workspace root still bounds every path.
    chdir(dir) {
      if (typeof dir !== 'string') {
        const e = new TypeError('The "directory" argument must be of type string.' + received(dir));
        e.code = 'ERR_INVALID_ARG_TYPE';
        throw e;
      }
      const abs = require('node:path').resolve(cwd, dir);
      let st;
      try { st = require('node:fs').statSync(abs); } catch (e) { throw chdirError(e.code || 'ENOENT', dir); }
      if (!st.isDirectory()) throw chdirError('ENOTDIR', dir);
      cwd = abs;
      const moved = require('node:fs')[Symbol.for('nook.fs.chdir')];
      if (moved) moved();
    },
    // loadEnvFile reads a .env file (util.parseEnv's syntax) into
    // process.env, leaving the variables already set as they are, as
    // Node does; a missing file throws fs's ENOENT (syscall 'open').
    loadEnvFile(path) {
      const fs = require('node:fs');
      const text = fs.readFileSync(path == null ? '.env' : path, 'utf8');
      for (const [k, v] of require('nook:dotenv.js').parse(text)) {
        if (!Object.prototype.hasOwnProperty.call(host.env, k)) process.env[k] = v;
      }
    },
    exit: (code) => {
      if (code !== undefined && code !== null) process.exitCode = code;
      emitExit();
      host.exit(process.exitCode);
    },
    reallyExit: (code) => host.exit(code),
    abort: () => host.exit(134),
    nextTick: (fn, ...args) => {
      if (typeof fn !== 'function') {
        const e = new TypeError('The "callback" argument must be of type function.' + received(fn));
        e.code = 'ERR_INVALID_ARG_TYPE';
        throw e;
      }
      ticks.push([fn, args]);
      // The backend runs the queue after the current macrotask (after its
      // microtasks in the main module, before them in callbacks), as Node.
      if (!tickScheduled) { tickScheduled = true; host.tickPending(); }
    },
    hrtime,
    uptime: () => host.hrnow() / 1e9,
    memoryUsage: Object.assign(() => ({ rss: 50331648, heapTotal: 16777216, heapUsed: 8388608, external: 1048576, arrayBuffers: 16384 }), { rss: () => 50331648 }),
    resourceUsage: () => ({ userCPUTime: 0, systemCPUTime: 0, maxRSS: 49152, fsRead: 0, fsWrite: 0 }),
    // The sandbox measures no CPU time: 0 µs of each, and the
    // difference from a valid previous value (checked as Node does).
    cpuUsage(prevValue) {
      if (prevValue) {
        const { validateObject, validateNumber, makeErrorAs } = require('nook:errors.js');
        const valid = (n) => typeof n === 'number' && n <= Number.MAX_SAFE_INTEGER && n >= 0;
        if (!valid(prevValue.user)) {
          validateObject(prevValue, 'prevValue');
          validateNumber(prevValue.user, 'prevValue.user');
          throw makeErrorAs(RangeError, 'ERR_INVALID_ARG_VALUE', 'prevValue.user', prevValue.user);
        }
        if (!valid(prevValue.system)) {
          validateNumber(prevValue.system, 'prevValue.system');
          throw makeErrorAs(RangeError, 'ERR_INVALID_ARG_VALUE', 'prevValue.system', prevValue.system);
        }
        return { user: 0 - prevValue.user, system: 0 - prevValue.system };
      }
      return { user: 0, system: 0 };
    },
    // The sandbox measures no CPU time of its thread either; prevValue is
    // checked as cpuUsage's is.
    threadCpuUsage(prevValue) {
      if (prevValue !== undefined) {
        const { validateObject } = require('nook:errors.js');
        validateObject(prevValue, 'prevValue');
      }
      return process.cpuUsage(prevValue);
    },
    // The run's memory is bounded by its MaxMemoryBytes, not the host's.
    availableMemory: () => 268435456,
    constrainedMemory: () => 268435456,
    // getActiveResourcesInfo lists what keeps the run alive: its timers.
    getActiveResourcesInfo: () => require('nook:timers.js').activeResources(),
    // ref and unref take an object with the nodejs.ref symbols (or the
    // older ref and unref methods), as Node's do.
    ref(obj) {
      if (obj == null) return;
      const f = obj[Symbol.for('nodejs.ref')] || obj.ref;
      if (typeof f === 'function') Reflect.apply(f, obj, []);
    },
    unref(obj) {
      if (obj == null) return;
      const f = obj[Symbol.for('nodejs.unref')] || obj.unref;
      if (typeof f === 'function') Reflect.apply(f, obj, []);
    },
    umask: () => 0o22,
    getuid: () => 1000, getgid: () => 1000, geteuid: () => 1000, getegid: () => 1000,
    getgroups: () => [1000],
    kill() { throw new Error('process.kill() is not supported in the sandbox'); },
    emitWarning,
    stdout: stream(1), stderr: stream(2), stdin,
  });
  // The backend calls these when the loop is empty (beforeExit, until no
  // listener schedules more work), when the run ends (exit), and for an
  // exception or rejection nothing caught (true: a listener handled it).
  host.setProcessHooks({
    beforeExit: () => (exiting ? false : process.emit('beforeExit', process.exitCode === undefined ? 0 : Number(process.exitCode) | 0)),
    exit: (code) => emitExit(code),
    ticks: () => runTicks(),
    uncaught: (err, origin) => {
      if (origin === 'unhandledRejection' && process.listenerCount('unhandledRejection') > 0) {
        process.emit('unhandledRejection', err, undefined);
        return true;
      }
      if (process.listenerCount('uncaughtException') > 0) {
        process.emit('uncaughtException', err, origin);
        return true;
      }
      return false;
    },
  });
  return process;
}

module.exports = makeProcess();
