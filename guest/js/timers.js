'use strict';
// setTimeout and friends over the backend's event loop.

function makeTimers() {
  const TIMEOUT_MAX = 2147483647;
  const dispose = Symbol.dispose || Symbol.for('Symbol.dispose');
  // A Timeout carries the fields Node's has and programs (and Node's own
  // tests) read or set: _idleTimeout (-1 once cleared), _onTimeout (null
  // stops it), _repeat (the interval, or null: setting it turns a timeout
  // into an interval), _timerArgs and _destroyed.
  class Timeout {
    constructor(fn, after, args, repeat) {
      this._idleTimeout = after;
      this._onTimeout = fn;
      this._timerArgs = args;
      this._repeat = repeat ? after : null;
      this._destroyed = false;
      Object.defineProperty(this, '_id', { value: 0, writable: true, enumerable: false });
      Object.defineProperty(this, '_ref', { value: true, writable: true, enumerable: false });
      Object.defineProperty(this, '_armed', { value: 0, writable: true, enumerable: false });
    }
    // refresh restarts the timer with its delay from now (a new id
    // inside), one that has fired too, but not one cleared.
    refresh() {
      if (this._idleTimeout >= 0) { this._destroyed = false; arm(this); }
      return this;
    }
    ref() { this._ref = true; if (this._id) host.timerRef(this._id, true); return this; }
    unref() { this._ref = false; if (this._id) host.timerRef(this._id, false); return this; }
    hasRef() { return this._ref; }
    close() { clearTimer(this); return this; }
    [dispose]() { clearTimer(this); }
    // A Timeout's primitive is a number clearTimeout takes, as in Node.
    [Symbol.toPrimitive]() {
      if (!this._prim) {
        Object.defineProperty(this, '_prim', { value: ++lastPrim, enumerable: false });
        known.set(this._prim, this);
      }
      return this._prim;
    }
  }
  let lastPrim = 0;
  const known = new Map();
  class Immediate {
    constructor(fn, args) {
      this._onImmediate = fn;
      this._argv = args;
      this._destroyed = false;
      Object.defineProperty(this, '_ref', { value: true, writable: true, enumerable: false });
      Object.defineProperty(this, '_id', { value: 0, writable: true, enumerable: false });
    }
    ref() { this._ref = true; if (!this._destroyed) host.timerRef(this._id, true); return this; }
    unref() { this._ref = false; if (!this._destroyed) host.timerRef(this._id, false); return this; }
    hasRef() { return this._ref; }
    [dispose]() { clearImmediate(this); }
  }
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
  // Node clamps a delay outside [1, 2**31-1] ms to 1 ms (so an immediate
  // set at the same time runs first), with a warning for a delay too
  // large, and once per process for a negative one or NaN.
  let negativeWarned = false, nanWarned = false;
  const delay = (ms) => {
    let after = ms === undefined ? 1 : ms * 1;
    if (!(after >= 1 && after <= TIMEOUT_MAX)) {
      const warn = (text, type) => process.emitWarning(`${after} ${text}\nTimeout duration was set to 1.`, type);
      if (after > TIMEOUT_MAX) warn('does not fit into a 32-bit signed integer.', 'TimeoutOverflowWarning');
      else if (after < 0 && !negativeWarned) { negativeWarned = true; warn('is a negative number.', 'TimeoutNegativeWarning'); }
      else if (Number.isNaN(after) && !nanWarned) { nanWarned = true; warn('is not a number.', 'TimeoutNaNWarning'); }
      after = 1;
    }
    return after;
  };
  // The armed Timeouts and pending Immediates, for
  // process.getActiveResourcesInfo (those that keep the run alive).
  const active = new Set();
  const disarm = (t) => {
    if (t._id) host.timerClear(t._id);
    t._id = 0;
    active.delete(t);
  };
  // arm (re)starts t's host timer: a repeating one while t._repeat is set.
  const arm = (t) => {
    disarm(t);
    const repeat = !!t._repeat;
    const ms = repeat ? t._repeat : t._idleTimeout;
    t._armed = repeat ? ms : 0;
    t._id = host.timerStart(() => fire(t), ms, repeat);
    if (!t._ref) host.timerRef(t._id, false);
    active.add(t);
  };
  // fire runs t's callback, with t as its this, then the nextTick queue
  // (which Node runs before the promise jobs the callback queued), and
  // keeps, changes or ends the host timer as t's fields now say.
  const fire = (t) => {
    if (typeof t._onTimeout !== 'function') { disarm(t); t._destroyed = true; return; }
    const id = t._id;
    try {
      const args = t._timerArgs;
      if (args === undefined) Reflect.apply(t._onTimeout, t, []);
      else Reflect.apply(t._onTimeout, t, args);
    } finally {
      if (t._repeat && t._idleTimeout !== -1) {
        if (t._armed !== t._repeat) arm(t);
      } else if (!t._destroyed && t._id === id) {
        disarm(t);
        if (t._prim) known.delete(t._prim);
        t._destroyed = true;
      }
    }
    host.runTicks();
  };
  const clearTimer = (t) => {
    disarm(t);
    if (t._prim) known.delete(t._prim);
    t._idleTimeout = -1;
    t._destroyed = true;
  };
  const startTimer = (fn, ms, args, repeat) => {
    if (typeof fn !== 'function') throw notFunction(fn);
    const t = new Timeout(fn, delay(ms), args.length ? args : undefined, repeat);
    arm(t);
    return t;
  };
  const setTimeout = (function setTimeout(fn, ms, ...args) { return startTimer(fn, ms, args, false); });
  const setInterval = (function setInterval(fn, ms, ...args) { return startTimer(fn, ms, args, true); });
  const setImmediate = (function setImmediate(fn, ...args) {
    if (typeof fn !== 'function') throw notFunction(fn);
    const im = new Immediate(fn, args);
    active.add(im);
    im._id = host.timerStart(() => {
      im._destroyed = true;
      active.delete(im);
      Reflect.apply(im._onImmediate, im, im._argv);
      host.runTicks();
    }, 0, false);
    return im;
  });
  // clearTimeout and clearInterval clear a Timeout (or its id), not an
  // Immediate; clearImmediate clears an Immediate only, as in Node.
  const clear = function clearTimeout(t) {
    if (t == null || t instanceof Immediate) return;
    if (t instanceof Timeout) clearTimer(t);
    else if ((typeof t === 'number' || typeof t === 'string') && known.has(Number(t))) clearTimer(known.get(Number(t)));
  };
  function clearImmediate(im) {
    if (!(im instanceof Immediate) || im._destroyed) return;
    host.timerClear(im._id);
    im._destroyed = true;
    active.delete(im);
  }
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
  // activeResources names each timer that keeps the run alive, as
  // process.getActiveResourcesInfo() lists them.
  const activeResources = () => {
    const out = [];
    for (const t of active) if (t._ref) out.push(t instanceof Immediate ? 'Immediate' : 'Timeout');
    return out;
  };
  for (const C of [Timeout, Immediate]) {
    C.prototype[Symbol.for('nodejs.ref')] = C.prototype.ref;
    C.prototype[Symbol.for('nodejs.unref')] = C.prototype.unref;
  }
  return { activeResources, setTimeout, setInterval, setImmediate, clearTimeout: clear, clearInterval: clear, clearImmediate, queueMicrotask, Timeout, Immediate };
}

module.exports = makeTimers();
