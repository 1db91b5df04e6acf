'use strict';
// setTimeout and friends over the backend's event loop.

function makeTimers() {
  class Timeout {
    constructor(id) { this._id = id; }
    ref() { host.timerRef(this._id, true); this._ref = true; return this; }
    unref() { host.timerRef(this._id, false); this._ref = false; return this; }
    hasRef() { return this._ref !== false; }
    [Symbol.toPrimitive]() { return this._id; }
  }
  class Immediate extends Timeout {}
  const timerFn = (fn, args) => {
    if (typeof fn !== 'function') throw new TypeError('The "callback" argument must be of type function. Received ' + typeof fn);
    return args.length ? () => fn(...args) : fn;
  };
  const timerId = (t) => (t != null && typeof t === 'object' ? t._id : Number(t));
  const setTimeout = (function setTimeout(fn, ms, ...args) {
    return new Timeout(host.timerStart(timerFn(fn, args), Number(ms) || 0, false));
  });
  const setInterval = (function setInterval(fn, ms, ...args) {
    return new Timeout(host.timerStart(timerFn(fn, args), Number(ms) || 0, true));
  });
  const setImmediate = (function setImmediate(fn, ...args) {
    return new Immediate(host.timerStart(timerFn(fn, args), 0, false));
  });
  const clear = function clearTimeout(t) { if (t != null) host.timerClear(timerId(t)); };
  const queueMicrotask = function queueMicrotask(fn) {
    if (typeof fn !== 'function') throw new TypeError('The "callback" argument must be of type function');
    Promise.resolve().then(fn);
  };
  // util.promisify(setTimeout) and util.promisify(setImmediate) are the
  // versions of node:timers/promises, as in Node.
  const custom = Symbol.for('nodejs.util.promisify.custom');
  for (const [fn, name] of [[setTimeout, 'setTimeout'], [setImmediate, 'setImmediate']]) {
    Object.defineProperty(fn, custom, { get() { return require('node:timers/promises')[name]; }, enumerable: false, configurable: true });
  }
  return { setTimeout, setInterval, setImmediate, clearTimeout: clear, clearInterval: clear, clearImmediate: clear, queueMicrotask };
}

module.exports = makeTimers();
