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
  // A callback ends with the process.nextTick queue, which Node runs
  // before the promise jobs the callback queued.
  const timerFn = (fn, args) => {
    if (typeof fn !== 'function') throw new TypeError('The "callback" argument must be of type function. Received ' + typeof fn);
    return () => { fn(...args); host.runTicks(); };
  };
  // Node clamps a delay outside [1, 2**31-1] ms to 1 ms, so an immediate
  // set at the same time runs first.
  const delay = (ms) => { const n = Number(ms); return n >= 1 && n <= 2147483647 ? n : 1; };
  const timerId = (t) => (t != null && typeof t === 'object' ? t._id : Number(t));
  const setTimeout = (function setTimeout(fn, ms, ...args) {
    return new Timeout(host.timerStart(timerFn(fn, args), delay(ms), false));
  });
  const setInterval = (function setInterval(fn, ms, ...args) {
    return new Timeout(host.timerStart(timerFn(fn, args), delay(ms), true));
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
