'use strict';
// Built-ins of ES2024 and later that goja lacks.

// goja has no Symbol.asyncIterator; esbuild's helpers fall back to this
// registered symbol, so for-await and async generators agree on it.
const asyncIterator = () => {
  if (!Symbol.asyncIterator) Object.defineProperty(Symbol, 'asyncIterator', { value: Symbol.for('Symbol.asyncIterator') });
  return Symbol.asyncIterator;
};
const define = (o, name, value) =>
  Object.defineProperty(o, name, { value, writable: true, configurable: true, enumerable: false });

function polyfills() {
  if (!Object.groupBy) {
    define(Object, 'groupBy', function groupBy(items, fn) {
      const out = Object.create(null);
      let i = 0;
      for (const x of items) {
        const k = fn(x, i++);
        const key = typeof k === 'symbol' ? k : String(k);
        (out[key] || (out[key] = [])).push(x);
      }
      return out;
    });
  }
  if (!Map.groupBy) {
    define(Map, 'groupBy', function groupBy(items, fn) {
      const out = new Map();
      let i = 0;
      for (const x of items) {
        const k = fn(x, i++);
        const a = out.get(k);
        if (a) a.push(x); else out.set(k, [x]);
      }
      return out;
    });
  }
  if (!Promise.withResolvers) {
    define(Promise, 'withResolvers', function withResolvers() {
      let resolve, reject;
      const promise = new this((a, b) => { resolve = a; reject = b; });
      return { promise, resolve, reject };
    });
  }
  if (!Array.fromAsync) {
    define(Array, 'fromAsync', async function fromAsync(items, fn, thisArg) {
      const out = [];
      let i = 0;
      if (items != null && typeof items[asyncIterator()] === 'function') {
        const it = items[asyncIterator()]();
        for (;;) {
          const r = await it.next();
          if (r.done) break;
          out.push(fn ? await fn.call(thisArg, r.value, i) : r.value);
          i++;
        }
        return out;
      }
      const src = items != null && typeof items[Symbol.iterator] === 'function' ? items : Array.from(items);
      for (const x of src) {
        const v = await x;
        out.push(fn ? await fn.call(thisArg, v, i) : v);
        i++;
      }
      return out;
    });
  }
  for (const [name, impl] of [
    ['union', function (o) { const s = new Set(this); for (const x of o.keys()) s.add(x); return s; }],
    ['intersection', function (o) { const s = new Set(); for (const x of this) if (o.has(x)) s.add(x); return s; }],
    ['difference', function (o) { const s = new Set(); for (const x of this) if (!o.has(x)) s.add(x); return s; }],
    ['symmetricDifference', function (o) {
      const s = new Set(this); for (const x of o.keys()) { if (this.has(x)) s.delete(x); else s.add(x); } return s;
    }],
    ['isSubsetOf', function (o) { for (const x of this) if (!o.has(x)) return false; return true; }],
    ['isSupersetOf', function (o) { for (const x of o.keys()) if (!this.has(x)) return false; return true; }],
    ['isDisjointFrom', function (o) { for (const x of this) if (o.has(x)) return false; return true; }],
  ]) {
    if (!Set.prototype[name]) define(Set.prototype, name, impl);
  }


}

module.exports = polyfills;
