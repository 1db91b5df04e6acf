'use strict';
// node:timers/promises

const abortError = (signal) => {
  const e = new Error('The operation was aborted');
  e.name = 'AbortError';
  e.code = 'ABORT_ERR';
  e.cause = signal.reason;
  return e;
};
function delay(make) {
  return (ms, value, opts = {}) => new Promise((resolve, reject) => {
    const signal = opts && opts.signal;
    if (signal && signal.aborted) return reject(abortError(signal));
    const t = make(() => resolve(value), ms);
    if (opts && opts.ref === false) t.unref();
    if (signal) signal.addEventListener('abort', () => { clearTimeout(t); reject(abortError(signal)); }, { once: true });
  });
}
// setInterval returns an async iterator that yields value every ms; ticks
// that come while nobody waits are counted, not lost (as in Node).
function setIntervalIter(ms, value, opts = {}) {
  const signal = opts && opts.signal;
  let pending = 0;
  let waiting = null;
  let done = false;
  let timer = null;
  const finish = () => { done = true; if (timer) clearInterval(timer); };
  const start = () => {
    timer = setInterval(() => {
      if (waiting) { const w = waiting; waiting = null; w.resolve({ value, done: false }); } else pending++;
    }, ms);
    if (opts && opts.ref === false) timer.unref();
  };
  const onAbort = () => {
    finish();
    if (waiting) { const w = waiting; waiting = null; w.reject(abortError(signal)); }
  };
  if (signal) signal.addEventListener('abort', onAbort, { once: true });
  const iter = {
    next() {
      if (signal && signal.aborted) { finish(); return Promise.reject(abortError(signal)); }
      if (done) return Promise.resolve({ value: undefined, done: true });
      if (!timer) start();
      if (pending > 0) { pending--; return Promise.resolve({ value, done: false }); }
      return new Promise((resolve, reject) => { waiting = { resolve, reject }; });
    },
    return() {
      finish();
      if (signal) signal.removeEventListener('abort', onAbort);
      if (waiting) { const w = waiting; waiting = null; w.resolve({ value: undefined, done: true }); }
      return Promise.resolve({ value: undefined, done: true });
    },
  };
  iter[Symbol.asyncIterator || Symbol.for('Symbol.asyncIterator')] = function () { return this; };
  return iter;
}

// makeScheduler is timers/promises' scheduler: an instance of a class
// the program cannot construct (ERR_ILLEGAL_CONSTRUCTOR), as Node's.
function makeScheduler() {
  const token = Symbol('scheduler');
  class Scheduler {
    constructor(t) {
      if (t !== token) throw require('nook:errors.js').makeError('ERR_ILLEGAL_CONSTRUCTOR');
    }
    wait(ms, opts) { return delay((fn, t) => setTimeout(fn, t))(ms, undefined, opts); }
    yield() { return new Promise((r) => setImmediate(r)); }
  }
  return new Scheduler(token);
}

module.exports = {
  setInterval: setIntervalIter,
  setTimeout: delay((fn, ms) => setTimeout(fn, ms)),
  setImmediate: (value, opts) => delay((fn) => setImmediate(fn))(0, value, opts),
  scheduler: makeScheduler(),
};
