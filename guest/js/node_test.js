'use strict';
// node:test — a small runner with Node's API: test/it, describe/suite,
// hooks, skip/todo/only, subtests (t.test) and mock (fn, method, getter,
// setter). Tests run one at a time in the order they were declared; each
// result is printed in TAP form and a failure sets process.exitCode = 1.

const assert = require('node:assert');

let counter = 0;
const out = (s) => process.stdout.write(s + '\n');
const summary = { tests: 0, pass: 0, fail: 0, skipped: 0, todo: 0 };

function parseArgs(args) {
  let name, options = {}, fn;
  for (const a of args) {
    if (typeof a === 'string') name = a;
    else if (typeof a === 'function') fn = a;
    else if (a && typeof a === 'object') options = a;
  }
  if (name === undefined) name = (fn && fn.name) || '<anonymous>';
  return { name, options, fn };
}

// ---- mock ----

function MockTracker() { this._restores = []; }
MockTracker.prototype.fn = function fn(original = function () {}, implementation = original, opts = {}) {
  if (typeof implementation === 'object' && implementation !== null) { opts = implementation; implementation = original; }
  const ctx = {
    calls: [],
    _impl: implementation,
    _once: new Map(),
    callCount() { return this.calls.length; },
    mockImplementation(f) { this._impl = f; },
    mockImplementationOnce(f, onCall) { this._once.set(onCall === undefined ? this.calls.length : onCall, f); },
    resetCalls() { this.calls = []; },
    restore() { this._impl = original; },
  };
  let times = opts.times === undefined ? Infinity : opts.times;
  const mocked = function (...args) {
    const n = ctx.calls.length;
    let impl = ctx._once.has(n) ? ctx._once.get(n) : ctx._impl;
    ctx._once.delete(n);
    if (times-- <= 0) impl = original;
    const call = { arguments: args, error: undefined, result: undefined, stack: new Error(), target: new.target, this: this };
    ctx.calls.push(call);
    try {
      call.result = new.target ? Reflect.construct(impl, args, new.target) : impl.apply(this, args);
      return call.result;
    } catch (e) { call.error = e; throw e; }
  };
  Object.defineProperty(mocked, 'mock', { value: ctx, enumerable: false });
  Object.defineProperty(mocked, 'name', { value: original.name || 'mock' });
  Object.defineProperty(mocked, 'length', { value: original.length });
  return mocked;
};
MockTracker.prototype.method = function method(obj, name, implementation, opts) {
  if (implementation && typeof implementation === 'object') { opts = implementation; implementation = undefined; }
  opts = opts || {};
  let holder = obj;
  let desc;
  while (holder && !(desc = Object.getOwnPropertyDescriptor(holder, name))) holder = Object.getPrototypeOf(holder);
  const own = Object.getOwnPropertyDescriptor(obj, name);
  const kind = opts.getter ? 'get' : opts.setter ? 'set' : 'value';
  const original = desc ? desc[kind] : undefined;
  const m = this.fn(original, implementation === undefined ? original : implementation);
  const nd = Object.assign({}, desc || { configurable: true, enumerable: true, writable: true });
  if (kind === 'value') nd.value = m; else { delete nd.value; delete nd.writable; nd[kind] = m; }
  Object.defineProperty(obj, name, nd);
  const restore = () => { if (own) Object.defineProperty(obj, name, own); else delete obj[name]; };
  m.mock.restore = restore;
  this._restores.push(restore);
  return m;
};
MockTracker.prototype.getter = function getter(obj, name, impl, opts) { return this.method(obj, name, impl, Object.assign({}, opts, { getter: true })); };
MockTracker.prototype.setter = function setter(obj, name, impl, opts) { return this.method(obj, name, impl, Object.assign({}, opts, { setter: true })); };
MockTracker.prototype.restoreAll = function restoreAll() { for (const r of this._restores.splice(0).reverse()) r(); };
MockTracker.prototype.reset = MockTracker.prototype.restoreAll;

// ---- tests ----

class Suite {
  constructor(name, parent) { this.name = name; this.parent = parent; this.items = []; this.hooks = { before: [], after: [], beforeEach: [], afterEach: [] }; }
  eachHooks(kind) {
    const chain = [];
    for (let s = this; s; s = s.parent) chain.unshift(s);
    const hs = [];
    for (const s of kind === 'beforeEach' ? chain : chain.reverse()) hs.push(...s.hooks[kind]);
    return hs;
  }
}

const root = new Suite('<root>', null);
let current = root;
let started = false;
let hasOnly = false;

class TestContext {
  constructor(name, suite) {
    this.name = name;
    this._suite = suite;
    this._subs = [];
    this.mock = new MockTracker();
    this.assert = assert;
    this.signal = new AbortController().signal;
    this._skip = null;
  }
  diagnostic(msg) { out('# ' + msg); }
  skip(msg) { this._skip = msg || ''; }
  todo(msg) { this._skip = msg || ''; }
  plan() {}
  runOnly() {}
  before(fn) { this._suite.hooks.before.push(fn); }
  after(fn) { this._suite.hooks.after.push(fn); }
  beforeEach(fn) { this._suite.hooks.beforeEach.push(fn); }
  afterEach(fn) { this._suite.hooks.afterEach.push(fn); }
  test(...args) {
    const { name, options, fn } = parseArgs(args);
    const p = runTest({ name, options, fn, suite: this._suite }, '    ');
    this._subs.push(p);
    return p;
  }
}

const callFn = (fn, ctx, arg) => new Promise((resolve, reject) => {
  if (fn.length >= 2) {
    let done = false;
    const r = fn.call(ctx, arg, (err) => { if (done) return; done = true; if (err) reject(err); else resolve(); });
    if (r && typeof r.then === 'function') r.then(() => {}, reject);
    return;
  }
  Promise.resolve().then(() => fn.call(ctx, arg)).then(resolve, reject);
});

function report(indent, ok, name, detail) {
  counter++;
  summary.tests++;
  if (detail && detail.skip !== undefined) { summary.skipped++; out(`${indent}ok ${counter} - ${name} # SKIP${detail.skip ? ' ' + detail.skip : ''}`); return; }
  if (detail && detail.todo !== undefined) { summary.todo++; out(`${indent}ok ${counter} - ${name} # TODO${detail.todo ? ' ' + detail.todo : ''}`); return; }
  if (ok) { summary.pass++; out(`${indent}ok ${counter} - ${name}`); return; }
  summary.fail++;
  process.exitCode = 1;
  const err = detail && detail.error;
  out(`${indent}not ok ${counter} - ${name}`);
  out(`${indent}  ---\n${indent}  error: ${JSON.stringify(String(err && err.message !== undefined ? err.message : err))}`);
  if (err && err.stack) out(`${indent}  stack: |-\n${String(err.stack).split('\n').slice(1, 6).map((l) => indent + '    ' + l.trim()).join('\n')}`);
  out(`${indent}  ...`);
}

async function runTest(t, indent = '') {
  const { name, options, fn, suite } = t;
  if (options.skip || (hasOnly && !options.only && suite === root)) {
    report(indent, true, name, { skip: typeof options.skip === 'string' ? options.skip : '' });
    return;
  }
  if (options.todo) { report(indent, true, name, { todo: typeof options.todo === 'string' ? options.todo : '' }); return; }
  const ctx = new TestContext(name, new Suite(name, suite));
  let error;
  try {
    for (const h of suite.eachHooks('beforeEach')) await callFn(h, ctx, ctx);
    if (fn) await callFn(fn, ctx, ctx);
    await Promise.all(ctx._subs);
    for (const h of suite.eachHooks('afterEach')) await callFn(h, ctx, ctx);
    for (const h of ctx._suite.hooks.after) await callFn(h, ctx, ctx);
  } catch (e) { error = e; }
  ctx.mock.restoreAll();
  if (ctx._skip !== null && !error) report(indent, true, name, { skip: ctx._skip });
  else report(indent, !error, name, { error });
}

async function runSuite(s, indent) {
  let error;
  try { for (const h of s.hooks.before) await callFn(h, s, s); } catch (e) { error = e; }
  if (!error) {
    for (const item of s.items) {
      if (item.suite) await runSuite(item.suite, indent + (s === root ? '' : '    '));
      else await runTest(Object.assign({}, item, { suite: s }), indent + (s === root ? '' : '    '));
    }
  }
  try { for (const h of s.hooks.after) await callFn(h, s, s); } catch (e) { error = error || e; }
  if (s !== root) report(indent, !error, s.name, { error });
}

function start() {
  if (started) return;
  started = true;
  setImmediate(async () => {
    await runSuite(root, '');
    out(`# tests ${summary.tests}\n# suites 0\n# pass ${summary.pass}\n# fail ${summary.fail}\n# cancelled 0\n# skipped ${summary.skipped}\n# todo ${summary.todo}`);
  });
}

function test(...args) {
  const { name, options, fn } = parseArgs(args);
  if (options.only) hasOnly = true;
  let resolve;
  const done = new Promise((r) => { resolve = r; });
  const f = fn && async function (t) { try { return await callFn(fn, this, t); } finally { resolve(); } };
  current.items.push({ name, options, fn: f || (() => resolve()) });
  if (!f) resolve();
  start();
  return done;
}

function describe(...args) {
  const { name, options, fn } = parseArgs(args);
  const s = new Suite(name, current);
  current.items.push({ suite: s, options });
  if (options.skip) { s.items = []; return Promise.resolve(); }
  const prev = current;
  current = s;
  try { if (fn) fn.call(s, s); } finally { current = prev; }
  start();
  return Promise.resolve();
}

const variant = (f, opts) => (...args) => f(...args.map((a) => a), Object.assign({}, opts));
test.skip = (...a) => test(...a, { skip: true });
test.todo = (...a) => test(...a, { todo: true });
test.only = (...a) => test(...a, { only: true });
describe.skip = (...a) => describe(...a, { skip: true });
describe.todo = (...a) => describe(...a, { todo: true });
describe.only = (...a) => describe(...a, { only: true });
void variant;

const hook = (kind) => (fn) => { current.hooks[kind].push(fn); };
const mock = new MockTracker();

module.exports = test;
Object.assign(test, {
  test, it: test, describe, suite: describe, mock,
  before: hook('before'), after: hook('after'), beforeEach: hook('beforeEach'), afterEach: hook('afterEach'),
});
