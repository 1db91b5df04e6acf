'use strict';
// setTimeout and friends over the backend's event loop.

function makeTimers() {
  class Timeout {
    constructor(id, start) {
      this._id = id;
      Object.defineProperty(this, '_start', { value: start, enumerable: false });
    }
    // refresh restarts the timer with its delay from now (a new id inside).
    refresh() {
      if (this._start) {
        host.timerClear(this._id);
        this._id = this._start();
        if (this._ref === false) host.timerRef(this._id, false);
      }
      return this;
    }
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
    const f = timerFn(fn, args), d = delay(ms);
    const start = () => host.timerStart(f, d, false);
    return new Timeout(start(), start);
  });
  const setInterval = (function setInterval(fn, ms, ...args) {
    const f = timerFn(fn, args), d = delay(ms);
    const start = () => host.timerStart(f, d, true);
    return new Timeout(start(), start);
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
