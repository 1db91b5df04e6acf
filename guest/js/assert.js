'use strict';
// node:assert

const util = require('node:util');

class AssertionError extends Error {
  constructor(opts) {
    super(opts.message);
    this.name = 'AssertionError';
    this.code = 'ERR_ASSERTION';
    this.actual = opts.actual;
    this.expected = opts.expected;
    this.operator = opts.operator;
    this.generatedMessage = !opts.userMessage;
    // As in Node (which captures the stack from the assert function), the
    // stack shows the program's frames, not node:assert's own.
    const st = this.stack;
    if (typeof st === 'string' && st.includes('nook:assert.js')) {
      Object.defineProperty(this, 'stack', { value: st.split('\n').filter((l) => !l.includes('nook:assert.js')).join('\n'), writable: true, configurable: true, enumerable: false });
    }
  }
}

const fail = (actual, expected, message, operator, dflt) => {
  if (message instanceof Error) throw message;
  throw new AssertionError({ message: message !== undefined ? message : dflt(), actual, expected, operator, userMessage: message !== undefined });
};
const show = (v) => util.inspect(v);

function make(strict) {
  const eq = (a, b) => (strict ? Object.is(a, b) : a == b || (a !== a && b !== b));
  const deep = (a, b) => util._deepEqual(a, b, strict);
  function assert(value, message) {
    // arguments is read here, not in the arrow: goja panics on an arrow
    // that reads its enclosing function's arguments.
    const none = arguments.length === 0;
    if (!value) fail(value, true, message, '==', () => (none ? 'No value argument passed to `assert.ok()`' : 'The expression evaluated to a falsy value:\n\n  assert(' + show(value) + ')\n'));
  }
  assert.ok = assert;
  assert.equal = (a, b, m) => { if (!eq(a, b)) fail(a, b, m, strict ? 'strictEqual' : '==', () => `Expected values to be ${strict ? 'strictly ' : 'loosely '}equal:\n\n${show(a)} !== ${show(b)}\n`); };
  assert.notEqual = (a, b, m) => { if (eq(a, b)) fail(a, b, m, '!=', () => `Expected "actual" to be loosely unequal to: ${show(b)}`); };
  assert.strictEqual = (a, b, m) => { if (!Object.is(a, b)) fail(a, b, m, 'strictEqual', () => `Expected values to be strictly equal:\n\n${show(a)} !== ${show(b)}\n`); };
  assert.notStrictEqual = (a, b, m) => { if (Object.is(a, b)) fail(a, b, m, 'notStrictEqual', () => `Expected "actual" to be strictly unequal to: ${show(b)}`); };
  assert.deepEqual = (a, b, m) => { if (!deep(a, b)) fail(a, b, m, 'deepEqual', () => `Expected values to be ${strict ? 'strictly' : 'loosely'} deep-equal:\n\n${show(a)}\n\nshould equal\n\n${show(b)}`); };
  assert.notDeepEqual = (a, b, m) => { if (deep(a, b)) fail(a, b, m, 'notDeepEqual', () => `Expected "actual" not to be deep-equal to: ${show(b)}`); };
  assert.deepStrictEqual = (a, b, m) => { if (!util._deepEqual(a, b, true)) fail(a, b, m, 'deepStrictEqual', () => `Expected values to be strictly deep-equal:\n\n${show(a)}\n\nshould equal\n\n${show(b)}`); };
  assert.notDeepStrictEqual = (a, b, m) => { if (util._deepEqual(a, b, true)) fail(a, b, m, 'notDeepStrictEqual', () => `Expected "actual" not to be strictly deep-equal to: ${show(b)}`); };
  assert.fail = function (actual, expected, m, operator) {
    if (arguments.length === 0) m = 'Failed';
    else if (arguments.length === 1) m = actual;
    else if (m === undefined) m = `${show(actual)} ${operator || '!='} ${show(expected)}`;
    if (m instanceof Error) throw m;
    throw new AssertionError({ message: m, actual, expected, operator: operator || 'fail', userMessage: arguments.length < 3 });
  };
  // check validates a caught error against what throws/rejects expected,
  // as Node does: a RegExp tests String(err), a class tests instanceof, a
  // function must return true, an object's own properties must match
  // (RegExps test strings). A mismatch is an AssertionError, except that a
  // validation function's own exception propagates.
  const check = (err, expected, message, operator) => {
    if (expected === undefined) return;
    const mismatch = (dflt) => fail(err, expected, message, operator, dflt);
    if (expected instanceof RegExp) {
      const str = String(err);
      if (!expected.test(str)) mismatch(() => `The input did not match the regular expression ${show(expected)}. Input:\n\n${show(str)}\n`);
      return;
    }
    if (typeof expected === 'function') {
      if (expected.prototype !== undefined && err instanceof expected) return;
      if (expected === Error || Error.isPrototypeOf(expected)) {
        mismatch(() => {
          let m = `The error is expected to be an instance of "${expected.name}". Received `;
          if (err instanceof Error) m += `"${err.constructor && err.constructor.name}"\n\nError message:\n\n${err.message}`;
          else m += `"${show(err)}"`;
          return m;
        });
        return;
      }
      const res = expected.call({}, err);
      if (res !== true) {
        mismatch(() => `The ${expected.name ? `"${expected.name}" ` : ''}validation function is expected to return "true". Received ${show(res)}\n\nCaught error:\n\n${err}`);
      }
      return;
    }
    if (expected === null || typeof expected !== 'object') {
      const e = new TypeError('The "error" argument must be of type function or an instance of Error, RegExp, or Object.' + received(expected));
      e.code = 'ERR_INVALID_ARG_TYPE';
      throw e;
    }
    if (err === null || typeof err !== 'object') {
      mismatch(() => `The "error" validation expected an object, got ${show(err)}`);
      return;
    }
    const keys = Object.keys(expected);
    if (expected instanceof Error) keys.push('name', 'message');
    for (const k of keys) {
      const want = expected[k];
      const got = err[k];
      if (want instanceof RegExp && typeof got === 'string') {
        if (!want.test(got)) mismatch(() => `The input did not match the regular expression ${show(want)}. Input:\n\n${show(got)}\n`);
      } else if (!(k in err) || !util._deepEqual(got, want, true)) {
        mismatch(() => `Expected values to be strictly deep-equal:\n+ actual - expected\n\n  Comparison {\n+   ${k}: ${show(got)}\n-   ${k}: ${show(want)}\n  }\n`);
      }
    }
  };
  const received = (v) => (v == null ? ' Received ' + v : typeof v === 'function' ? ' Received function ' + v.name
    : typeof v === 'object' ? ' Received an instance of ' + ((v.constructor && v.constructor.name) || 'Object') : ` Received type ${typeof v} (${show(v)})`);
  const missing = (expected, message, what) => {
    let m = `Missing expected ${what}`;
    if (expected && expected.name && typeof expected === 'function') m += ` (${expected.name})`;
    m += message ? `: ${message}` : '.';
    return m;
  };
  assert.throws = function throws(fn, expected, message) {
    if (typeof fn !== 'function') {
      const e = new TypeError('The "fn" argument must be of type function.' + received(fn));
      e.code = 'ERR_INVALID_ARG_TYPE';
      throw e;
    }
    if (typeof expected === 'string') { message = expected; expected = undefined; }
    let caught = false;
    let err;
    try { fn(); } catch (e) { caught = true; err = e; }
    if (!caught) {
      if (message instanceof Error) throw message;
      throw new AssertionError({ message: missing(expected, message, 'exception'), actual: undefined, expected, operator: 'throws', userMessage: false });
    }
    check(err, expected, message, 'throws');
  };
  assert.doesNotThrow = function doesNotThrow(fn, expected, message) {
    if (typeof expected === 'string') { message = expected; expected = undefined; }
    try { fn(); } catch (e) {
      if (expected !== undefined && typeof expected === 'function' && expected.prototype !== undefined && !(e instanceof expected)) throw e;
      fail(e, expected, message, 'doesNotThrow', () => 'Got unwanted exception.\nActual message: "' + (e && e.message) + '"');
    }
  };
  const awaited = (p, name) => {
    if (typeof p === 'function') {
      p = p();
      if (!p || typeof p.then !== 'function') {
        throw require('nook:errors.js').makeError('ERR_INVALID_RETURN_VALUE', 'instance of Promise', 'promiseFn', p);
      }
      return p;
    }
    if (!p || typeof p.then !== 'function') {
      const e = new TypeError(`The "${name}" argument must be of type function or an instance of Promise.` + received(p));
      e.code = 'ERR_INVALID_ARG_TYPE';
      throw e;
    }
    return p;
  };
  assert.rejects = async function rejects(p, expected, message) {
    if (typeof expected === 'string') { message = expected; expected = undefined; }
    let caught = false;
    let err;
    const pending = awaited(p, 'promiseFn'); // bad arguments reject as they are
    try { await pending; } catch (e) { caught = true; err = e; }
    if (!caught) throw new AssertionError({ message: missing(expected, message, 'rejection'), actual: undefined, expected, operator: 'rejects', userMessage: false });
    check(err, expected, message, 'rejects');
  };
  assert.doesNotReject = async function doesNotReject(p, expected, message) {
    if (typeof expected === 'string') { message = expected; expected = undefined; }
    const pending = awaited(p, 'promiseFn');
    try { await pending; } catch (e) {
      fail(e, expected, message, 'doesNotReject', () => 'Got unwanted rejection.\nActual message: "' + (e && e.message) + '"');
    }
  };
  assert.match = (s, re, m) => { if (!re.test(s)) fail(s, re, m, 'match', () => `The input did not match the regular expression ${re}. Input:\n\n${show(s)}\n`); };
  assert.doesNotMatch = (s, re, m) => { if (re.test(s)) fail(s, re, m, 'doesNotMatch', () => `The input was expected to not match the regular expression ${re}. Input:\n\n${show(s)}\n`); };
  assert.ifError = function ifError(v) {
    if (v === null || v === undefined) return;
    let m = 'ifError got unwanted exception: ';
    m += v && typeof v.message === 'string' ? (v.message === '' && v.constructor ? v.constructor.name : v.message) : show(v);
    const e = new AssertionError({ message: m, actual: v, expected: null, operator: 'ifError', userMessage: false });
    if (v instanceof Error && typeof v.stack === 'string') e.origStack = v.stack;
    throw e;
  };
  assert.AssertionError = AssertionError;
  return assert;
}

const assert = make(false);
assert.strict = make(true);
assert.strict.strict = assert.strict;
module.exports = assert;
