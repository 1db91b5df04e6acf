'use strict';
// node:events — EventEmitter, once, and the EventTarget/AbortController family.

class EventEmitter {
  constructor() { this._events = new Map(); this._max = 10; }
  _list(name) { if (!this._events) this._events = new Map(); return this._events.get(name) || []; }
  on(name, fn) { return this._add(name, fn, false, false); }
  addListener(name, fn) { return this._add(name, fn, false, false); }
  prependListener(name, fn) { return this._add(name, fn, false, true); }
  once(name, fn) { return this._add(name, fn, true, false); }
  prependOnceListener(name, fn) { return this._add(name, fn, true, true); }
  _add(name, fn, once, prepend) {
    if (typeof fn !== 'function') throw new TypeError('The "listener" argument must be of type function');
    if (name !== 'newListener' && this._list('newListener').length) this.emit('newListener', name, fn);
    const l = this._list(name).slice();
    const entry = { fn, once };
    if (prepend) l.unshift(entry); else l.push(entry);
    this._events.set(name, l);
    return this;
  }
  off(name, fn) { return this.removeListener(name, fn); }
  removeListener(name, fn) {
    const l = this._list(name);
    const i = l.findLastIndex((e) => e.fn === fn || e.fn.listener === fn);
    if (i >= 0) {
      const n = l.slice();
      n.splice(i, 1);
      if (n.length) this._events.set(name, n); else this._events.delete(name);
    }
    return this;
  }
  removeAllListeners(name) {
    if (name === undefined) this._events = new Map(); else if (this._events) this._events.delete(name);
    return this;
  }
  emit(name, ...args) {
    const l = this._list(name);
    if (!l.length) {
      if (name === 'error') throw args[0] instanceof Error ? args[0] : new Error('Unhandled error. (' + String(args[0]) + ')');
      return false;
    }
    for (const e of l) {
      if (e.once) this.removeListener(name, e.fn);
      e.fn.apply(this, args);
    }
    return true;
  }
  listeners(name) { return this._list(name).map((e) => e.fn); }
  rawListeners(name) { return this.listeners(name); }
  listenerCount(name) { return this._list(name).length; }
  eventNames() { return this._events ? [...this._events.keys()] : []; }
  setMaxListeners(n) { this._max = n; return this; }
  getMaxListeners() { return this._max; }
}
EventEmitter.defaultMaxListeners = 10;
EventEmitter.EventEmitter = EventEmitter;
EventEmitter.once = function once(em, name) {
  return new Promise((resolve, reject) => {
    const onErr = (e) => { em.removeListener(name, onEv); reject(e); };
    const onEv = (...args) => { if (name !== 'error') em.removeListener('error', onErr); resolve(args); };
    em.once(name, onEv);
    if (name !== 'error') em.once('error', onErr);
  });
};
EventEmitter.on = undefined;

class Event {
  constructor(type, init = {}) {
    this.type = String(type);
    this.bubbles = !!init.bubbles;
    this.cancelable = !!init.cancelable;
    this.defaultPrevented = false;
    this.timeStamp = performance.now();
    this.target = null;
    this.currentTarget = null;
  }
  preventDefault() { if (this.cancelable) this.defaultPrevented = true; }
  stopPropagation() {}
  stopImmediatePropagation() { this._stop = true; }
}
class EventTarget {
  constructor() { this._l = new Map(); }
  addEventListener(type, fn, opts) {
    if (!fn) return;
    const once = typeof opts === 'object' && opts !== null && !!opts.once;
    const l = this._l.get(type) || [];
    if (!l.some((e) => e.fn === fn)) l.push({ fn, once });
    this._l.set(type, l);
  }
  removeEventListener(type, fn) {
    const l = this._l.get(type);
    if (l) this._l.set(type, l.filter((e) => e.fn !== fn));
  }
  dispatchEvent(ev) {
    ev.target = ev.currentTarget = this;
    for (const e of (this._l.get(ev.type) || []).slice()) {
      if (e.once) this.removeEventListener(ev.type, e.fn);
      if (typeof e.fn === 'function') e.fn.call(this, ev); else e.fn.handleEvent(ev);
      if (ev._stop) break;
    }
    const h = this['on' + ev.type];
    if (typeof h === 'function') h.call(this, ev);
    return !ev.defaultPrevented;
  }
}
class AbortSignal extends EventTarget {
  constructor() { super(); this.aborted = false; this.reason = undefined; this.onabort = null; }
  throwIfAborted() { if (this.aborted) throw this.reason; }
  static abort(reason) { const c = new AbortController(); c.abort(reason); return c.signal; }
  static timeout(ms) {
    const c = new AbortController();
    setTimeout(() => { const e = new Error('The operation was aborted due to timeout'); e.name = 'TimeoutError'; c.abort(e); }, ms).unref();
    return c.signal;
  }
}
class AbortController {
  constructor() { this.signal = new AbortSignal(); }
  abort(reason) {
    const s = this.signal;
    if (s.aborted) return;
    s.aborted = true;
    if (reason === undefined) { reason = new Error('This operation was aborted'); reason.name = 'AbortError'; }
    s.reason = reason;
    s.dispatchEvent(new Event('abort'));
  }
}
EventEmitter.Event = Event;
EventEmitter.EventTarget = EventTarget;
EventEmitter.AbortController = AbortController;
EventEmitter.AbortSignal = AbortSignal;
module.exports = EventEmitter;
