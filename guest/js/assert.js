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
    // The diff style of the Assert that threw it ('simple' or 'full').
    this.diff = opts.diff === undefined ? 'simple' : opts.diff;
    // As in Node (which captures the stack from the assert function), the
    // stack shows the program's frames, not node:assert's own.
    const st = this.stack;
    if (typeof st === 'string' && st.includes('nook:assert.js')) {
      Object.defineProperty(this, 'stack', { value: st.split('\n').filter((l) => !l.includes('nook:assert.js')).join('\n'), writable: true, configurable: true, enumerable: false });
    }
  }
}

const failWith = (actual, expected, message, operator, dflt, diff) => {
  if (message instanceof Error) throw message;
  throw new AssertionError({ message: message !== undefined ? message : dflt(), actual, expected, operator, userMessage: message !== undefined, diff });
};
const show = (v) => util.inspect(v);

// callSource returns the source text of the assert call a failing
// assert(value) or assert.ok(value) came from, as Node's message quotes
// it ("The expression evaluated to a falsy value:\n\n  assert.ok(x)\n"),
// or undefined when the call's file cannot be read. Like Node it reads
// one line: the call's first frame outside node:assert names the file,
// line and column (goja's column is the call's '('), the callee's member
// chain is taken back from there, and the arguments up to the matching
// ')' (outside strings and comments) or the end of the line. The work is
// one read of the file (the workspace's own limits bound it) and two
// scans of the line.
function callSource() {
  const frames = String(new Error().stack).split('\n');
  const frame = frames.find((l, i) => i > 0 && !l.includes('nook:assert.js'));
  const m = frame && /(?:\(|at )((?:vfs|entry):\/[^()]*?):(\d+):(\d+)(?:\(\d+\))?\)?$/.exec(frame);
  if (!m) return undefined;
  let text;
  try {
    text = require('node:fs').readFileSync(m[1].slice(m[1].indexOf(':') + 1), 'utf8');
  } catch {
    return undefined;
  }
  let start = 0;
  for (let n = Number(m[2]); n > 1; n--) {
    const nl = text.indexOf('\n', start);
    if (nl < 0) return undefined;
    start = nl + 1;
  }
  let end = text.indexOf('\n', start);
  if (end < 0) end = text.length;
  const line = text.slice(start, end).replace(/\r$/, '');
  const open = callParen(line, Number(m[3]) - 1);
  if (open < 0) return undefined;
  return escapeControls(line.slice(calleeStart(line, open), argsEnd(line, open)));
}

// A name character: anything but blanks and ASCII punctuation other than
// $ and _ (non-ASCII letters count as names).
const nameChar = /[^\s!-#%-\/:-@[-^`{-~]/;

// callParen finds the '(' of the call near column hint. The column comes
// through the bundle's source map, which places it on the nearest mapped
// token: a few characters before or after the '(' (an argument, the
// callee). So it is the nearest '(' that opens a call (one after a name
// or a ']', not a grouping one), looking back first on a tie; -1 if none.
function callParen(line, hint) {
  const opensCall = (i) => {
    if (line[i] !== '(') return false;
    let j = i;
    while (j > 0 && (line[j - 1] === ' ' || line[j - 1] === '\t')) j--;
    return j > 0 && (nameChar.test(line[j - 1]) || line[j - 1] === ']');
  };
  let back = Math.min(hint, line.length - 1);
  while (back >= 0 && !opensCall(back)) back--;
  let fwd = Math.max(hint + 1, 0);
  while (fwd < line.length && !opensCall(fwd)) fwd++;
  if (fwd >= line.length) return back;
  if (back < 0 || fwd - hint < hint - back) return fwd;
  return back;
}

// calleeStart is where the callee before line[open] ('(') starts: its
// chain of names, '.', '?.' and [...] members.
function calleeStart(line, open) {
  const name = nameChar;
  let i = open;
  while (i > 0 && (line[i - 1] === ' ' || line[i - 1] === '\t')) i--;
  for (;;) {
    const top = i;
    while (i > 0 && name.test(line[i - 1])) i--;
    if (i > 0 && line[i - 1] === '.') {
      i--;
      if (i > 0 && line[i - 1] === '?') i--;
      continue;
    }
    if (i > 0 && line[i - 1] === ']' && i === top) {
      let depth = 0;
      let j = i - 1;
      for (; j >= 0; j--) {
        if (line[j] === ']') depth++;
        else if (line[j] === '[' && --depth === 0) break;
      }
      if (j < 0) return i;
      i = j;
      continue;
    }
    return i;
  }
}

// argsEnd is the index just past the ')' that closes line[open], or the
// line's length.
function argsEnd(line, open) {
  let depth = 0;
  for (let i = open; i < line.length; i++) {
    const c = line[i];
    if (c === '"' || c === "'" || c === '`') {
      for (i++; i < line.length && line[i] !== c; i++) if (line[i] === '\\') i++;
    } else if (c === '/' && line[i + 1] === '/') {
      return line.length;
    } else if (c === '/' && line[i + 1] === '*') {
      const close = line.indexOf('*/', i + 2);
      if (close < 0) return line.length;
      i = close + 1;
    } else if (c === '(') {
      depth++;
    } else if (c === ')' && --depth === 0) {
      return i + 1;
    }
  }
  return line.length;
}

// escapeControls writes the control characters other than \n and \t as
// escapes, as Node's message does.
function escapeControls(s) {
  return s.replace(/[\x00-\x08\x0b\x0c\x0e-\x1f]/g, (c) => (c === '\b' ? '\\b' : c === '\f' ? '\\f' : '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0')));
}

// make returns the assert function, its methods on it, with strict or
// loose equal/deepEqual; the errors they throw carry diff.
function make(strict, diff = 'simple') {
  const fail = (actual, expected, message, operator, dflt) => failWith(actual, expected, message, operator, dflt, diff);
  const newError = (opts) => new AssertionError({ ...opts, diff });
  const eq = (a, b) => (strict ? Object.is(a, b) : a == b || (a !== a && b !== b));
  const deep = (a, b) => util._deepEqual(a, b, strict);
  function assert(value, message) {
    // arguments is read here, not in the arrow: goja panics on an arrow
    // that reads its enclosing function's arguments.
    const none = arguments.length === 0;
    if (!value) {
      fail(value, true, message == null ? undefined : message, '==', () => {
        if (none) return 'No value argument passed to `assert.ok()`';
        const src = callSource();
        return src ? `The expression evaluated to a falsy value:\n\n  ${src}\n` : `${show(value)} == true`;
      });
    }
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
    throw newError({ message: m, actual, expected, operator: operator || 'fail', userMessage: arguments.length < 3 });
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
      throw newError({ message: missing(expected, message, 'exception'), actual: undefined, expected, operator: 'throws', userMessage: false });
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
    if (!caught) throw newError({ message: missing(expected, message, 'rejection'), actual: undefined, expected, operator: 'rejects', userMessage: false });
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
    const e = newError({ message: m, actual: v, expected: null, operator: 'ifError', userMessage: false });
    if (v instanceof Error && typeof v.stack === 'string') e.origStack = v.stack;
    throw e;
  };
  assert.AssertionError = AssertionError;
  return assert;
}

const assert = make(false);
assert.strict = make(true);
assert.strict.strict = assert.strict;

// Assert is Node's class of assertion sets: new Assert({ strict, diff })
// has the module's methods on its prototype, equal and the other loose
// ones the strict ones unless strict is false, and its errors carry its
// diff. A method called without its instance (destructured) is the
// loose one with diff 'simple', as in Node; the strict aliases are the
// instance's own properties, so they keep their strictness.
const kImpl = Symbol('nook.assert.impl');
const methods = ['ok', 'equal', 'notEqual', 'strictEqual', 'notStrictEqual', 'deepEqual', 'notDeepEqual',
  'deepStrictEqual', 'notDeepStrictEqual', 'fail', 'throws', 'doesNotThrow', 'rejects', 'doesNotReject',
  'match', 'doesNotMatch', 'ifError'];
function Assert(options) {
  const errors = require('nook:errors.js');
  if (!new.target) throw errors.makeError('ERR_CONSTRUCT_CALL_REQUIRED', 'Assert');
  if (options === undefined) options = {};
  errors.validateObject(options, 'options');
  const { diff = 'simple', strict = true, skipPrototype = false } = options;
  errors.validateOneOf(diff, 'options.diff', ['simple', 'full']);
  errors.validateBoolean(strict, 'options.strict');
  errors.validateBoolean(skipPrototype, 'options.skipPrototype');
  if (skipPrototype) {
    const e = new TypeError("new Assert({ skipPrototype: true }) is not supported in this sandbox: its deep equality always compares prototypes");
    e.code = 'ERR_FEATURE_UNAVAILABLE_ON_PLATFORM';
    throw e;
  }
  Object.defineProperty(this, kImpl, { value: make(strict, diff) });
  if (strict) {
    this.equal = this.strictEqual;
    this.notEqual = this.notStrictEqual;
    this.deepEqual = this.deepStrictEqual;
    this.notDeepEqual = this.notDeepStrictEqual;
  }
}
for (const name of methods) {
  const method = {
    [name](...args) {
      return (this instanceof Assert ? this[kImpl] : assert)[name](...args);
    },
  }[name];
  Object.defineProperty(Assert.prototype, name, { value: method, writable: true, configurable: true });
}
assert.Assert = Assert;
module.exports = assert;
