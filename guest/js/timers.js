'use strict';
// setTimeout and friends over the backend's event loop.

function makeTimers() {
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
    return args.length ? function () { return fn.apply(this, args); } : fn;
  };
  const timerId = (t) => (t != null && typeof t === 'object' ? t._id : Number(t));
  // A callback runs with its Timeout as this, as in Node
  // (setInterval(function () { clearInterval(this) })).
  const start = (t, fn, ms, repeat) => { t._id = host.timerStart(fn, ms, repeat, t); return t; };
  const setTimeout = (function setTimeout(fn, ms, ...args) {
    return start(new Timeout(0), timerFn(fn, args), Number(ms) || 0, false);
  });
  const setInterval = (function setInterval(fn, ms, ...args) {
    return start(new Timeout(0), timerFn(fn, args), Number(ms) || 0, true);
  });
  const setImmediate = (function setImmediate(fn, ...args) {
    return start(new Immediate(0), timerFn(fn, args), 0, false);
  });
  const clear = function clearTimeout(t) { if (t != null) host.timerClear(timerId(t)); };
  const queueMicrotask = function queueMicrotask(fn) {
    if (typeof fn !== 'function') throw new TypeError('The "callback" argument must be of type function');
    Promise.resolve().then(fn);
  };
  return { setTimeout, setInterval, setImmediate, clearTimeout: clear, clearInterval: clear, clearImmediate: clear, queueMicrotask };
}

module.exports = makeTimers();
