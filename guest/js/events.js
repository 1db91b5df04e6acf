'use strict';
// node:events — EventEmitter, once, and the EventTarget/AbortController family.

// EventEmitter is a plain function, not a class, so that the old way of
// inheriting (EventEmitter.call(this) with util.inherits) works as in Node.
const kCapture = Symbol('kCapture');
const errorMonitor = Symbol('events.errorMonitor');

function invalidArg(name, types, v) {
  const e = new TypeError(`The "${name}" argument must be of type ${types}.` + received(v));
  e.code = 'ERR_INVALID_ARG_TYPE';
  return e;
}
// received ends Node's ERR_INVALID_ARG_TYPE messages (nook:errors.js).
function received(v) {
  return ' Received ' + require('nook:errors.js').determineSpecificType(v);
}
function checkListener(fn) {
  if (typeof fn !== 'function') throw invalidArg('listener', 'function', fn);
}

function EventEmitter(opts) {
  EventEmitter.init.call(this, opts);
}
EventEmitter.init = function (opts) {
  if (this._events === undefined || this._events === Object.getPrototypeOf(this)._events) {
    this._events = Object.create(null);
    this._eventsCount = 0;
  }
  this._maxListeners = this._maxListeners || undefined;
  if (opts && opts.captureRejections) this[kCapture] = true;
};
let defaultMaxListeners = 10;
Object.defineProperty(EventEmitter, 'defaultMaxListeners', {
  enumerable: true,
  get() { return defaultMaxListeners; },
  set(n) {
    require('nook:errors.js').validateNumber(n, 'defaultMaxListeners', 0);
    defaultMaxListeners = n;
  },
});
EventEmitter.prototype._events = undefined;
EventEmitter.prototype._eventsCount = 0;
EventEmitter.prototype._maxListeners = undefined;
EventEmitter.errorMonitor = errorMonitor;
EventEmitter.captureRejectionSymbol = Symbol.for('nodejs.rejection');

const proto = EventEmitter.prototype;
proto.setMaxListeners = function setMaxListeners(n) {
  require('nook:errors.js').validateNumber(n, 'setMaxListeners', 0);
  this._maxListeners = n;
  return this;
};
proto.getMaxListeners = function getMaxListeners() {
  return this._maxListeners === undefined ? defaultMaxListeners : this._maxListeners;
};
function events(em) {
  if (em._events === undefined) { em._events = Object.create(null); em._eventsCount = 0; }
  return em._events;
}
function addListener(target, type, listener, prepend) {
  checkListener(listener);
  let ev = events(target);
  if (ev.newListener !== undefined) {
    target.emit('newListener', type, listener.listener ? listener.listener : listener);
    ev = events(target);
  }
  const existing = ev[type];
  if (existing === undefined) {
    ev[type] = listener;
    target._eventsCount++;
  } else {
    const list = typeof existing === 'function' ? [existing] : existing;
    if (prepend) list.unshift(listener); else list.push(listener);
    ev[type] = list;
    const m = target.getMaxListeners();
    if (m > 0 && list.length > m && !list.warned) {
      list.warned = true;
      const w = new Error(`Possible EventEmitter memory leak detected. ${list.length} ${String(type)} listeners added to ${target.constructor && target.constructor.name === 'EventEmitter' ? '[EventEmitter]' : '[' + ((target.constructor && target.constructor.name) || 'EventEmitter') + ']'}. MaxListeners is ${m}. Use emitter.setMaxListeners() to increase limit`);
      w.name = 'MaxListenersExceededWarning';
      w.emitter = target; w.type = type; w.count = list.length;
      if (typeof process !== 'undefined' && process.emitWarning) process.emitWarning(w);
    }
  }
  return target;
}
proto.addListener = function addListener_(type, fn) { return addListener(this, type, fn, false); };
proto.on = proto.addListener;
proto.prependListener = function prependListener(type, fn) { return addListener(this, type, fn, true); };
function onceWrap(target, type, listener) {
  const state = { fired: false, target, type, listener };
  const wrapped = function (...args) {
    if (state.fired) return undefined;
    state.target.removeListener(state.type, wrapped);
    state.fired = true;
    return state.listener.apply(state.target, args);
  };
  wrapped.listener = listener;
  return wrapped;
}
proto.once = function once(type, fn) { checkListener(fn); return this.on(type, onceWrap(this, type, fn)); };
proto.prependOnceListener = function prependOnceListener(type, fn) { checkListener(fn); return this.prependListener(type, onceWrap(this, type, fn)); };
proto.removeListener = function removeListener(type, listener) {
  checkListener(listener);
  const ev = this._events;
  if (ev === undefined) return this;
  const list = ev[type];
  if (list === undefined) return this;
  if (list === listener || list.listener === listener) {
    this._eventsCount--;
    if (this._eventsCount === 0) this._events = Object.create(null);
    else delete ev[type];
    if (ev.removeListener) this.emit('removeListener', type, list.listener || listener);
  } else if (typeof list !== 'function') {
    let at = -1;
    for (let i = list.length - 1; i >= 0; i--) {
      if (list[i] === listener || list[i].listener === listener) { at = i; break; }
    }
    if (at < 0) return this;
    if (at === 0) list.shift(); else list.splice(at, 1);
    if (list.length === 1) ev[type] = list[0];
    // Node passes the listener as given here (a once wrapper stays one).
    if (ev.removeListener !== undefined) this.emit('removeListener', type, listener);
  }
  return this;
};
proto.off = proto.removeListener;
proto.removeAllListeners = function removeAllListeners(type) {
  const ev = this._events;
  if (ev === undefined) return this;
  if (ev.removeListener === undefined) {
    if (arguments.length === 0) { this._events = Object.create(null); this._eventsCount = 0; }
    else if (ev[type] !== undefined) {
      if (--this._eventsCount === 0) this._events = Object.create(null); else delete ev[type];
    }
    return this;
  }
  if (arguments.length === 0) {
    for (const key of Reflect.ownKeys(ev)) {
      if (key === 'removeListener') continue;
      this.removeAllListeners(key);
    }
    this.removeAllListeners('removeListener');
    this._events = Object.create(null);
    this._eventsCount = 0;
    return this;
  }
  const l = ev[type];
  if (typeof l === 'function') this.removeListener(type, l);
  else if (l !== undefined) for (let i = l.length - 1; i >= 0; i--) this.removeListener(type, l[i]);
  return this;
};
proto.emit = function emit(type, ...args) {
  const ev = this._events;
  if (type === 'error') {
    if (ev !== undefined && ev[errorMonitor] !== undefined) this.emit(errorMonitor, ...args);
    if (ev === undefined || ev.error === undefined) {
      const er = args[0];
      if (er instanceof Error) throw er;
      let shown = '';
      if (er !== undefined) { try { shown = ` (${require('node:util').inspect(er)})`; } catch { shown = ` (${String(er)})`; } }
      const e = new Error('Unhandled error.' + shown);
      e.code = 'ERR_UNHANDLED_ERROR';
      e.context = er;
      throw e;
    }
  }
  if (ev === undefined) return false;
  const handler = ev[type];
  if (handler === undefined) return false;
  if (typeof handler === 'function') {
    const r = handler.apply(this, args);
    if (r !== undefined && r !== null && this[kCapture] && typeof r.then === 'function') captureRejection(this, r, type, args);
  } else {
    for (const fn of handler.slice()) {
      const r = fn.apply(this, args);
      if (r !== undefined && r !== null && this[kCapture] && typeof r.then === 'function') captureRejection(this, r, type, args);
    }
  }
  return true;
};
function captureRejection(em, p, type, args) {
  p.then(undefined, (err) => {
    setImmediate(() => {
      const h = em[EventEmitter.captureRejectionSymbol];
      if (typeof h === 'function') h.call(em, err, type, ...args);
      else em.emit('error', err);
    });
  });
}
proto.listeners = function listeners(type) {
  const l = this._events === undefined ? undefined : this._events[type];
  if (l === undefined) return [];
  if (typeof l === 'function') return [l.listener || l];
  return l.map((f) => f.listener || f);
};
proto.rawListeners = function rawListeners(type) {
  const l = this._events === undefined ? undefined : this._events[type];
  if (l === undefined) return [];
  return typeof l === 'function' ? [l] : l.slice();
};
proto.listenerCount = function listenerCount(type, listener) {
  const l = this._events === undefined ? undefined : this._events[type];
  if (l === undefined) return 0;
  const list = typeof l === 'function' ? [l] : l;
  if (listener === undefined) return list.length;
  return list.filter((f) => f === listener || f.listener === listener).length;
};
proto.eventNames = function eventNames() {
  return this._eventsCount > 0 ? Reflect.ownKeys(this._events) : [];
};
EventEmitter.EventEmitter = EventEmitter;
EventEmitter.usingDomains = false;
// The static listenerCount counts an EventTarget's listeners too (an
// AbortSignal's, say), and any other object's as an emitter's.
EventEmitter.listenerCount = (em, type) => {
  if (typeof em.listenerCount === 'function') return em.listenerCount(type);
  if (em !== null && typeof em === 'object' && em._l) return EventEmitter.getEventListeners(em, type).length;
  return proto.listenerCount.call(em, type);
};
EventEmitter.getEventListeners = (em, type) => (typeof em.listeners === 'function' ? em.listeners(type) : em._l && em._l.get(type) ? em._l.get(type).map((e) => e.fn) : []);
EventEmitter.getMaxListeners = (em) => (typeof em.getMaxListeners === 'function' ? em.getMaxListeners()
  : em && em._maxListeners !== undefined ? em._maxListeners : defaultMaxListeners);
EventEmitter.setMaxListeners = (n = defaultMaxListeners, ...targets) => {
  require('nook:errors.js').validateNumber(n, 'setMaxListeners', 0);
  if (targets.length === 0) defaultMaxListeners = n;
  for (const t of targets) {
    if (typeof t.setMaxListeners === 'function') t.setMaxListeners(n);
    else if (t instanceof EventTarget) t._maxListeners = n;
    else throw require('nook:errors.js').makeError('ERR_INVALID_ARG_TYPE', 'eventTargets', ['EventEmitter', 'EventTarget'], t);
  }
};
// addAbortListener calls listener once signal aborts (at once if it has)
// and returns a disposable that removes it.
EventEmitter.addAbortListener = function addAbortListener(signal, listener) {
  if (signal === undefined || signal === null || typeof signal.addEventListener !== 'function') throw invalidArg('signal', 'AbortSignal', signal);
  checkListener(listener);
  let removed = false;
  const fn = (ev) => { if (!removed) listener(ev); }; // (the abort event; nothing when already aborted)
  if (signal.aborted) queueMicrotask(fn);
  else signal.addEventListener('abort', fn, { once: true, [kResistStopPropagation]: true });
  const dispose = () => { removed = true; signal.removeEventListener('abort', fn); };
  return { [Symbol.dispose || Symbol.for('Symbol.dispose')]: dispose };
};
// once is Node's: an async function (bad arguments reject), options an
// object whose signal is an AbortSignal, the emitter an EventEmitter or
// an EventTarget.
EventEmitter.once = async function once(em, name, opts = {}) {
  const { validateObject, validateAbortSignal, makeError } = require('nook:errors.js');
  validateObject(opts, 'options');
  const signal = opts.signal;
  validateAbortSignal(signal, 'options.signal');
  if (signal && signal.aborted) throw abortError(signal.reason);
  if (em === null || typeof em !== 'object' || (typeof em.once !== 'function' && typeof em.addEventListener !== 'function')) {
    throw makeError('ERR_INVALID_ARG_TYPE', 'emitter', 'EventEmitter', em);
  }
  return new Promise((resolve, reject) => {
    const onErr = (e) => { cleanup(); reject(e); };
    const onEv = (...args) => { cleanup(); resolve(args); };
    const onAbort = () => { cleanup(); reject(abortError(signal.reason)); };
    const cleanup = () => {
      if (typeof em.removeListener === 'function') {
        em.removeListener(name, onEv);
        if (name !== 'error') em.removeListener('error', onErr);
      } else {
        em.removeEventListener(name, onEv);
      }
      if (signal) signal.removeEventListener('abort', onAbort);
    };
    if (typeof em.once === 'function') {
      em.once(name, onEv);
      if (name !== 'error') em.once('error', onErr);
    } else {
      em.addEventListener(name, onEv, { once: true });
    }
    if (signal) signal.addEventListener('abort', onAbort, { once: true, [kResistStopPropagation]: true });
  });
};
function abortError(cause) {
  const e = new Error('The operation was aborted');
  e.name = 'AbortError';
  e.code = 'ABORT_ERR';
  if (cause !== undefined) e.cause = cause;
  return e;
}
// on returns an async iterator over an emitter's events.
EventEmitter.on = function on(em, name, opts) {
  const queue = [];
  const waiting = [];
  let error = null;
  let done = false;
  const signal = opts && opts.signal;
  const onEv = (...args) => {
    if (waiting.length) waiting.shift().resolve({ value: args, done: false });
    else queue.push(args);
  };
  const onErr = (e) => {
    done = true;
    if (waiting.length) waiting.shift().reject(e); else error = e;
    iter.return();
  };
  em.on(name, onEv);
  if (name !== 'error') em.on('error', onErr);
  const closers = (opts && opts.close) || [];
  const onClose = () => { iter.return(); };
  for (const c of closers) em.on(c, onClose);
  const aIter = Symbol.asyncIterator || Symbol.for('Symbol.asyncIterator');
  const iter = {
    next() {
      if (queue.length) return Promise.resolve({ value: queue.shift(), done: false });
      if (error) { const p = Promise.reject(error); error = null; return p; }
      if (done) return Promise.resolve({ value: undefined, done: true });
      return new Promise((resolve, reject) => waiting.push({ resolve, reject }));
    },
    return() {
      em.removeListener(name, onEv);
      em.removeListener('error', onErr);
      for (const c of closers) em.removeListener(c, onClose);
      done = true;
      for (const w of waiting.splice(0)) w.resolve({ value: undefined, done: true });
      return Promise.resolve({ value: undefined, done: true });
    },
    throw(err) { error = err; em.removeListener(name, onEv); em.removeListener('error', onErr); return Promise.reject(err); },
    [aIter]() { return this; },
  };
  if (signal) signal.addEventListener('abort', () => { onErr(abortError(signal.reason)); }, { once: true });
  return iter;
};

const kStop = Symbol('stop');
class Event {
  constructor(type, init = undefined) {
    if (arguments.length === 0) {
      const e = new TypeError('The "type" argument must be specified');
      e.code = 'ERR_MISSING_ARGS';
      throw e;
    }
    const o = init === null || init === undefined ? {} : init;
    this._type = String(type);
    this._bubbles = !!o.bubbles;
    this._cancelable = !!o.cancelable;
    this._composed = !!o.composed;
    this._defaultPrevented = false;
    this._timeStamp = performance.now();
    this._target = null;
    this._currentTarget = null;
    this._phase = 0;
    this._passive = false;
    this[kStop] = false;
  }
  get type() { return this._type; }
  get bubbles() { return this._bubbles; }
  get cancelable() { return this._cancelable; }
  get composed() { return this._composed; }
  get defaultPrevented() { return this._cancelable && this._defaultPrevented; }
  get timeStamp() { return this._timeStamp; }
  get target() { return this._target; }
  get currentTarget() { return this._currentTarget; }
  get srcElement() { return this._target; }
  get eventPhase() { return this._phase; }
  get isTrusted() { return false; }
  get returnValue() { return !this.defaultPrevented; }
  get cancelBubble() { return this[kStop]; }
  set cancelBubble(v) { if (v) this[kStop] = true; }
  composedPath() { return this._phase === 0 ? [] : [this._currentTarget]; }
  preventDefault() { if (!this._passive) this._defaultPrevented = true; }
  stopPropagation() { this[kStop] = true; }
  stopImmediatePropagation() { this[kStop] = true; this._stopNow = true; }
  get [Symbol.toStringTag]() { return 'Event'; }
}
Event.NONE = 0; Event.CAPTURING_PHASE = 1; Event.AT_TARGET = 2; Event.BUBBLING_PHASE = 3;

class CustomEvent extends Event {
  constructor(type, init = undefined) {
    super(type, init);
    this._detail = init && init.detail !== undefined ? init.detail : null;
  }
  get detail() { return this._detail; }
  get [Symbol.toStringTag]() { return 'CustomEvent'; }
}

// EventTarget keeps, per type, listeners in the order added; one callback
// is added once per capture flag. once, passive and signal are honoured,
// and, as in Node, the listeners node:events adds to an AbortSignal
// (option kResistStopPropagation) run even after stopImmediatePropagation.
const kResistStopPropagation = Symbol('kResistStopPropagation');
class EventTarget {
  constructor() { this._l = new Map(); }
  addEventListener(type, callback, opts) {
    if (callback === null || callback === undefined) return;
    const o = typeof opts === 'boolean' ? { capture: opts } : opts || {};
    const capture = !!o.capture;
    const signal = o.signal;
    require('nook:errors.js').validateAbortSignal(signal, 'options.signal');
    if (signal && signal.aborted) return;
    const list = this._l.get(type) || [];
    if (list.some((e) => e.fn === callback && e.capture === capture)) return;
    const entry = { fn: callback, capture, once: !!o.once, passive: !!o.passive, removed: false, resist: !!o[kResistStopPropagation] };
    list.push(entry);
    this._l.set(type, list);
    if (signal) signal.addEventListener('abort', () => this.removeEventListener(type, callback, { capture }), { once: true, [kResistStopPropagation]: true });
  }
  removeEventListener(type, callback, opts) {
    const capture = typeof opts === 'boolean' ? opts : !!(opts && opts.capture);
    const list = this._l.get(type);
    if (!list) return;
    const i = list.findIndex((e) => e.fn === callback && e.capture === capture);
    if (i === -1) return;
    list[i].removed = true;
    list.splice(i, 1);
  }
  dispatchEvent(ev) {
    if (!(ev instanceof Event)) {
      let got = ev == null ? ' Received ' + ev : typeof ev === 'object' ? ' Received an instance of ' + ((ev.constructor && ev.constructor.name) || 'Object') : ` Received type ${typeof ev} (${typeof ev === 'string' ? `'${ev}'` : String(ev)})`;
      const e = new TypeError('The "event" argument must be an instance of Event.' + got);
      e.code = 'ERR_INVALID_ARG_TYPE';
      throw e;
    }
    ev._target = this;
    ev._currentTarget = this;
    ev._phase = 2;
    for (const e of (this._l.get(ev.type) || []).slice()) {
      if (e.removed || (ev._stopNow && !e.resist)) continue;
      if (e.once) this.removeEventListener(ev.type, e.fn, { capture: e.capture });
      ev._passive = e.passive;
      try {
        if (typeof e.fn === 'function') e.fn.call(this, ev);
        else if (e.fn && typeof e.fn.handleEvent === 'function') e.fn.handleEvent(ev);
      } catch (err) {
        process.nextTick(() => { throw err; });
      }
      ev._passive = false;
    }
    const h = this['on' + ev.type];
    if (typeof h === 'function' && !ev._stopNow) h.call(this, ev);
    ev._currentTarget = null;
    ev._phase = 0;
    return !ev.defaultPrevented;
  }
  get [Symbol.toStringTag]() { return 'EventTarget'; }
}

function domAbort(message, name) {
  const e = new Error(message);
  e.name = name;
  e.code = name === 'AbortError' ? 20 : 23;
  return e;
}
class AbortSignal extends EventTarget {
  constructor() { super(); this.aborted = false; this.reason = undefined; this.onabort = null; }
  throwIfAborted() { if (this.aborted) throw this.reason; }
  static abort(reason) { const c = new AbortController(); c.abort(reason); return c.signal; }
  static timeout(ms) {
    const c = new AbortController();
    setTimeout(() => c.abort(domAbort('The operation was aborted due to timeout', 'TimeoutError')), ms).unref();
    return c.signal;
  }
  static any(signals) {
    const { validateArray, validateAbortSignal, makeError } = require('nook:errors.js');
    validateArray(signals, 'signals');
    for (let i = 0; i < signals.length; i++) {
      if (signals[i] === undefined) throw makeError('ERR_INVALID_ARG_TYPE', `signals[${i}]`, 'AbortSignal', undefined);
      validateAbortSignal(signals[i], `signals[${i}]`);
    }
    const c = new AbortController();
    for (const s of signals) {
      if (s.aborted) { c.abort(s.reason); return c.signal; }
    }
    for (const s of signals) s.addEventListener('abort', () => c.abort(s.reason), { once: true });
    return c.signal;
  }
  get [Symbol.toStringTag]() { return 'AbortSignal'; }
}
class AbortController {
  constructor() { this.signal = new AbortSignal(); }
  abort(reason) {
    const s = this.signal;
    if (s.aborted) return;
    s.aborted = true;
    if (reason === undefined) reason = domAbort('This operation was aborted', 'AbortError');
    s.reason = reason;
    s.dispatchEvent(new Event('abort'));
  }
  get [Symbol.toStringTag]() { return 'AbortController'; }
}
EventEmitter.CustomEvent = CustomEvent;
EventEmitter.Event = Event;
EventEmitter.EventTarget = EventTarget;
EventEmitter.AbortController = AbortController;
EventEmitter.AbortSignal = AbortSignal;
module.exports = EventEmitter;
