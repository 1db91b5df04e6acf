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
  const notFunction = (v) => {
    let got;
    if (v == null) got = ' Received ' + v;
    else if (typeof v === 'object') got = ' Received an instance of ' + ((v.constructor && v.constructor.name) || 'Object');
    else {
      let str = typeof v === 'string' ? `'${v}'` : typeof v === 'bigint' ? v + 'n' : String(v);
      if (str.length > 28) str = str.slice(0, 25) + '...';
      got = ` Received type ${typeof v} (${str})`;
    }
    const e = new TypeError('The "callback" argument must be of type function.' + got);
    e.code = 'ERR_INVALID_ARG_TYPE';
    return e;
  };
  // The callback's this is its Timeout (or Immediate), as in Node.
  const timerFn = (fn, args, holder) => {
    if (typeof fn !== 'function') throw notFunction(fn);
    return () => { fn.apply(holder.t, args); host.runTicks(); };
  };
  // Node clamps a delay outside [1, 2**31-1] ms to 1 ms, so an immediate
  // set at the same time runs first.
  const delay = (ms) => { const n = Number(ms); return n >= 1 && n <= 2147483647 ? n : 1; };
  const timerId = (t) => (t != null && typeof t === 'object' ? t._id : Number(t));
  const startTimer = (fn, ms, args, repeat) => {
    const holder = {};
    const f = timerFn(fn, args, holder), d = delay(ms);
    const start = () => host.timerStart(f, d, repeat);
    holder.t = new Timeout(start(), start);
    return holder.t;
  };
  const setTimeout = (function setTimeout(fn, ms, ...args) { return startTimer(fn, ms, args, false); });
  const setInterval = (function setInterval(fn, ms, ...args) { return startTimer(fn, ms, args, true); });
  const setImmediate = (function setImmediate(fn, ...args) {
    const holder = {};
    holder.t = new Immediate(host.timerStart(timerFn(fn, args, holder), 0, false));
    return holder.t;
  });
  // clearTimeout and clearInterval clear a Timeout (or its id), not an
  // Immediate; clearImmediate clears an Immediate only, as in Node.
  const clear = function clearTimeout(t) { if (t != null && !(t instanceof Immediate)) host.timerClear(timerId(t)); };
  const clearImmediate = function clearImmediate(t) { if (t instanceof Immediate) host.timerClear(t._id); };
  const queueMicrotask = function queueMicrotask(fn) {
    if (typeof fn !== 'function') throw notFunction(fn);
    Promise.resolve().then(fn);
  };
  // util.promisify(setTimeout) and util.promisify(setImmediate) are the
  // versions of node:timers/promises, as in Node.
  const custom = Symbol.for('nodejs.util.promisify.custom');
  for (const [fn, name] of [[setTimeout, 'setTimeout'], [setImmediate, 'setImmediate']]) {
    Object.defineProperty(fn, custom, { get() { return require('node:timers/promises')[name]; }, enumerable: false, configurable: true });
  }
  return { setTimeout, setInterval, setImmediate, clearTimeout: clear, clearInterval: clear, clearImmediate, queueMicrotask };
}

module.exports = makeTimers();
