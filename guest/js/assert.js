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
    if (!value) fail(value, true, message, '==', () => (arguments.length === 0 ? 'No value argument passed to `assert.ok()`' : 'The expression evaluated to a falsy value:\n\n  assert(' + show(value) + ')\n'));
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
  assert.fail = (m = 'Failed') => { if (m instanceof Error) throw m; throw new AssertionError({ message: m, operator: 'fail', userMessage: true }); };
  const matches = (err, expected) => {
    if (expected === undefined) return true;
    if (typeof expected === 'function') {
      if (expected.prototype !== undefined && err instanceof expected) return true;
      if (Error.isPrototypeOf(expected) || expected === Error) return false;
      return expected(err) === true;
    }
    if (expected instanceof RegExp) return expected.test(String(err && err.message !== undefined ? err.message : err));
    if (typeof expected === 'object') return Object.keys(expected).every((k) => (expected[k] instanceof RegExp ? expected[k].test(err[k]) : util._deepEqual(err[k], expected[k], true)));
    return true;
  };
  assert.throws = (fn, expected, m) => {
    if (typeof expected === 'string') { m = expected; expected = undefined; }
    try { fn(); } catch (e) {
      if (!matches(e, expected)) throw e;
      return;
    }
    fail(undefined, expected, m, 'throws', () => 'Missing expected exception.');
  };
  assert.doesNotThrow = (fn, m) => { try { fn(); } catch (e) { fail(e, undefined, typeof m === 'string' ? m : undefined, 'doesNotThrow', () => 'Got unwanted exception.\nActual message: "' + (e && e.message) + '"'); } };
  assert.rejects = async (p, expected, m) => {
    if (typeof expected === 'string') { m = expected; expected = undefined; }
    try { await (typeof p === 'function' ? p() : p); } catch (e) {
      if (!matches(e, expected)) throw e;
      return;
    }
    fail(undefined, expected, m, 'rejects', () => 'Missing expected rejection.');
  };
  assert.doesNotReject = async (p, m) => { try { await (typeof p === 'function' ? p() : p); } catch (e) { fail(e, undefined, m, 'doesNotReject', () => 'Got unwanted rejection.\nActual message: "' + (e && e.message) + '"'); } };
  assert.match = (s, re, m) => { if (!re.test(s)) fail(s, re, m, 'match', () => `The input did not match the regular expression ${re}. Input:\n\n${show(s)}\n`); };
  assert.doesNotMatch = (s, re, m) => { if (re.test(s)) fail(s, re, m, 'doesNotMatch', () => `The input was expected to not match the regular expression ${re}. Input:\n\n${show(s)}\n`); };
  assert.ifError = (v) => { if (v !== null && v !== undefined) throw v; };
  assert.AssertionError = AssertionError;
  return assert;
}

const assert = make(false);
assert.strict = make(true);
assert.strict.strict = assert.strict;
module.exports = assert;
