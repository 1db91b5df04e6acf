'use strict';
// nook's replacement for Node's test/common: the helpers test/parallel's
// fs tests use, written for nook's JavaScript backend. It needs no
// worker_threads, net or child_process; every mustCall is checked when the
// process emits 'exit', as Node's own common does.

// Some tests tamper with the process global, as Node's common knows.
const process = global.process;
const assert = require('assert');
const util = require('util');

const isWindows = false;
const noop = () => {};

// Checks run at exit: each reports a failure message or nothing.
const exitChecks = [];
let exitHooked = false;
function onExit(check) {
  exitChecks.push(check);
  if (exitHooked) return;
  exitHooked = true;
  process.on('exit', () => {
    const failures = [];
    for (const c of exitChecks) {
      const m = c();
      if (m) failures.push(m);
    }
    if (failures.length) {
      console.error(failures.join('\n'));
      process.exit(1);
    }
  });
}

function where() {
  const lines = String(new Error().stack).split('\n');
  return lines.slice(3, 4).join('').trim();
}

function counted(fn, min, max, what) {
  if (typeof fn === 'number') { max = min = fn; fn = noop; }
  if (fn === undefined) fn = noop;
  let calls = 0;
  const at = where();
  const name = fn.name || '<anonymous>';
  onExit(() => {
    if (calls < min || calls > max) {
      return `Mismatched ${name} function calls. Expected ${what}, actual ${calls}.\n    ${at}`;
    }
  });
  const wrapped = function (...args) {
    calls++;
    return fn.apply(this, args);
  };
  Object.defineProperty(wrapped, 'length', { value: fn.length });
  Object.defineProperty(wrapped, 'name', { value: name });
  return wrapped;
}

function mustCall(fn, exact) {
  if (typeof fn === 'number') { exact = fn; fn = noop; }
  if (exact === undefined) exact = 1;
  return counted(fn, exact, exact, `exactly ${exact}`);
}

function mustCallAtLeast(fn, min) {
  if (typeof fn === 'number') { min = fn; fn = noop; }
  if (min === undefined) min = 1;
  return counted(fn, min, Infinity, `at least ${min}`);
}

function mustSucceed(fn, exact) {
  return mustCall(function (err, ...args) {
    assert.ifError(err);
    if (typeof fn === 'function') return fn.apply(this, args);
  }, exact);
}

// The returned function is named mustNotCall, as Node's is (assert's
// messages name it); the outer one is not, so no transform renames it.
function mustNotCallFn(msg) {
  const at = where();
  return function mustNotCall(...args) {
    const shown = args.map((a) => util.inspect(a)).join(', ');
    assert.fail(`${msg || 'function should not have been called'} at ${at}` +
      (args.length ? `\ncalled with arguments: ${shown}` : ''));
  };
}

function expectsError(validator, exact) {
  return mustCall((...args) => {
    if (args.length !== 1) assert.fail(`Expected one argument, got ${util.inspect(args)}`);
    const err = args[0];
    assert.throws(() => { throw err; }, validator);
    return true;
  }, exact);
}

// mustNotMutateObjectDeep returns a view of obj whose every mutation, at
// any depth, throws. Binary data is returned as is (a proxy cannot stand
// for a typed array's internal slots).
function mustNotMutateObjectDeep(original) {
  if (original === null || typeof original !== 'object') return original;
  if (ArrayBuffer.isView(original) || original instanceof ArrayBuffer) return original;
  const cache = new WeakMap();
  const wrap = (o) => {
    if (o === null || typeof o !== 'object') return o;
    if (ArrayBuffer.isView(o) || o instanceof ArrayBuffer) return o;
    if (cache.has(o)) return cache.get(o);
    const refuse = (what) => () => { throw new TypeError(`Expected no side effects, got ${what}`); };
    const p = new Proxy(o, {
      get(t, k, r) { return wrap(Reflect.get(t, k, r)); },
      set: refuse('a property set'),
      defineProperty: refuse('a property definition'),
      deleteProperty: refuse('a property deletion'),
      setPrototypeOf: refuse('a prototype change'),
      preventExtensions: refuse('preventExtensions'),
    });
    cache.set(o, p);
    return p;
  };
  return wrap(original);
}

function skip(msg) {
  printSkipMessage(msg);
  process.exit(0);
}

function printSkipMessage(msg) {
  console.log(`1..0 # Skipped: ${msg}`);
}

function expectWarning(nameOrMap, expected, code) {
  let map = nameOrMap;
  if (typeof nameOrMap === 'string') {
    map = { [nameOrMap]: [[expected, code]] };
    if (Array.isArray(expected)) map = { [nameOrMap]: expected.map((e) => (Array.isArray(e) ? e : [e, code])) };
  }
  const queues = {};
  for (const [name, list] of Object.entries(map)) {
    let items = list;
    if (!Array.isArray(items)) items = [[items]];
    else if (!Array.isArray(items[0])) items = [items];
    queues[name] = items.slice();
  }
  let total = 0;
  for (const q of Object.values(queues)) total += q.length;
  process.on('warning', mustCall((w) => {
    const q = queues[w.name];
    assert.ok(q && q.length, `unexpected warning ${w.name}: ${w.message}`);
    const [message, wcode] = q.shift();
    if (message instanceof RegExp) assert.match(w.message, message);
    else assert.strictEqual(w.message, message);
    if (wcode !== undefined) assert.strictEqual(w.code, wcode);
  }, total));
}

function invalidArgTypeHelper(input) {
  if (input == null) return ` Received ${input}`;
  if (typeof input === 'function') return ` Received function ${input.name}`;
  if (typeof input === 'object') {
    if (input.constructor && input.constructor.name) return ` Received an instance of ${input.constructor.name}`;
    return ` Received ${util.inspect(input, { depth: -1 })}`;
  }
  let shown = util.inspect(input, { colors: false });
  if (shown.length > 28) shown = `${shown.slice(0, 25)}...`;
  return ` Received type ${typeof input} (${shown})`;
}

function runWithInvalidFD(fn) {
  const fs = require('fs');
  let fd = 1 << 30;
  try {
    while (fs.fstatSync(fd--) && fd > 0);
  } catch {
    return fn(fd);
  }
  printSkipMessage('Could not generate an invalid fd');
}

function getArrayBufferViews(buf) {
  const { buffer, byteOffset, byteLength } = buf;
  const out = [];
  for (const T of [Int8Array, Uint8Array, Uint8ClampedArray, Int16Array, Uint16Array, Int32Array, Uint32Array,
    Float32Array, Float64Array, BigInt64Array, BigUint64Array, DataView]) {
    const size = T.BYTES_PER_ELEMENT || 1;
    if (byteLength % size === 0) out.push(new T(buffer, byteOffset, byteLength / size));
  }
  return out;
}

function escapePOSIXShell(parts, ...values) {
  const env = {};
  let cmd = parts[0];
  values.forEach((v, i) => {
    const key = `ESCAPED_${i}`;
    env[key] = String(v);
    cmd += `\${${key}}` + parts[i + 1];
  });
  return [cmd, { env: { ...process.env, ...env } }];
}

// spawnPromisified spawns a child process and resolves with its exit
// code, signal and output, as Node's common does.
function spawnPromisified(...args) {
  let stderr = '';
  let stdout = '';
  const child = require('child_process').spawn(...args);
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (data) => { stderr += data; });
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (data) => { stdout += data; });
  return new Promise((resolve, reject) => {
    child.on('close', (code, signal) => resolve({ code, signal, stderr, stdout }));
    child.on('error', (code, signal) => reject({ code, signal, stderr, stdout }));
  });
}

// getBufferSources is every view kind over buf's bytes, and its buffer.
function getBufferSources(buf) {
  return [...getArrayBufferViews(buf), new Uint8Array(buf).buffer];
}

module.exports = {
  isWindows,
  isDebug: false,
  hasInspector: false,
  hasSQLite: false,
  pwdCommand: ['pwd', []],
  spawnPromisified,
  getBufferSources,
  isLinux: true,
  isMacOS: false,
  isAIX: false,
  isIBMi: false,
  isFreeBSD: false,
  isOpenBSD: false,
  isSunOS: false,
  isDumbTerminal: true,
  isMainThread: true,
  isInsideDirWithUnusualChars: false,
  hasCrypto: true,
  hasIntl: false,
  hasIPv6: false,
  hasOpenSSL3: false,
  enoughTestMem: true,
  localhostIPv4: '127.0.0.1',
  mustCall,
  mustCallAtLeast,
  mustSucceed,
  mustNotCall: mustNotCallFn,
  mustNotMutateObjectDeep,
  expectsError,
  expectWarning,
  skip,
  skipIf32Bits: noop,
  skipIfInspectorDisabled: noop,
  skipIfDumbTerminal: noop,
  printSkipMessage,
  platformTimeout: (ms) => ms,
  canCreateSymLink: () => true,
  allowGlobals: noop,
  invalidArgTypeHelper,
  runWithInvalidFD,
  getArrayBufferViews,
  escapePOSIXShell,
  getCallSite: where,
};
