'use strict';
// structuredClone, crypto (randomUUID, getRandomValues, subtle.digest) and
// performance, from the run's host clock and randomness.

const g = globalThis;

function makeStructuredClone() {
    return (function structuredClone(value) {
    if (arguments.length === 0) throw new TypeError('The value argument must be specified');
    const seen = new Map();
    // Nesting is bounded by MaxNestingDepth (a catchable RangeError), not
    // by the call stack.
    let depth = 0;
    const clone = (v) => {
      if (v === null || typeof v !== 'object') return cloneOne(v);
      if (++depth > host.maxNesting) host.nestingLimit('a value to structuredClone');
      try { return cloneOne(v); } finally { depth--; }
    };
    const cloneOne = (v) => {
      if (typeof v === 'function' || typeof v === 'symbol') {
        throw new DOMException((typeof v === 'function' ? Function.prototype.toString.call(v) : v.toString()) + ' could not be cloned.', 'DataCloneError');
      }
      if (v === null || typeof v !== 'object') return v;
      if (seen.has(v)) return seen.get(v);
      const tag = Object.prototype.toString.call(v).slice(8, -1);
      let out;
      const uncloneable = () => {
        return new DOMException('#<' + tag + '> could not be cloned.', 'DataCloneError');
      };
      if (tag === 'Date') out = new Date(v.getTime());
      else if (tag === 'RegExp') out = new RegExp(v.source, v.flags);
      else if (tag === 'ArrayBuffer') out = v.slice(0);
      else if (ArrayBuffer.isView(v)) {
        // Views keep their offset and share a cloned buffer with the
        // other views of the same buffer in the value.
        const buf = clone(v.buffer);
        out = tag === 'DataView' ? new DataView(buf, v.byteOffset, v.byteLength) : new g[tag](buf, v.byteOffset, v.length);
      } else if (tag === 'Map') { out = new Map(); seen.set(v, out); for (const [k, x] of v) out.set(clone(k), clone(x)); return out; }
      else if (tag === 'Set') { out = new Set(); seen.set(v, out); for (const x of v) out.add(clone(x)); return out; }
      else if (tag === 'DOMException' && require('nook:dom.js').isDOMException(v)) {
        const D = require('nook:dom.js').DOMException;
        out = new D(v.message, v.name);
        Object.defineProperty(out, 'stack', { value: v.stack, writable: true, configurable: true, enumerable: false });
      } else if (tag !== 'DOMException' && (tag === 'Error' || v instanceof Error)) {
        const C = { EvalError, RangeError, ReferenceError, SyntaxError, TypeError, URIError }[v.name] || Error;
        out = new C(v.message);
        if (v.stack) out.stack = v.stack;
        if ('cause' in v) out.cause = clone(v.cause);
      } else if (tag === 'Number' || tag === 'String' || tag === 'Boolean' || tag === 'BigInt') {
        out = Object(v.valueOf());
      } else if (Array.isArray(v)) {
        out = new Array(v.length);
        seen.set(v, out);
        for (const k of Object.keys(v)) out[k] = clone(v[k]);
        return out;
      } else if (['WeakMap', 'WeakSet', 'WeakRef', 'Promise', 'Generator', 'AsyncGenerator', 'Map Iterator', 'Set Iterator',
        'Array Iterator', 'String Iterator', 'FinalizationRegistry'].includes(tag)) {
        throw uncloneable();
      } else {
        // Any other object (a class instance too) is copied as a plain
        // object of its own enumerable properties.
        out = {};
        seen.set(v, out);
        for (const k of Object.keys(v)) out[k] = clone(v[k]);
        return out;
      }
      seen.set(v, out);
      return out;
    };
    return clone(value);
  });
}

function makeCrypto() {
  const cryptoObj = {
    randomUUID() {
      const b = host.random(16);
      b[6] = (b[6] & 0x0f) | 0x40;
      b[8] = (b[8] & 0x3f) | 0x80;
      let h = '';
      for (let i = 0; i < 16; i++) h += (b[i] < 16 ? '0' : '') + b[i].toString(16);
      return h.slice(0, 8) + '-' + h.slice(8, 12) + '-' + h.slice(12, 16) + '-' + h.slice(16, 20) + '-' + h.slice(20);
    },
    getRandomValues(ta) {
      if (!ArrayBuffer.isView(ta) || ta instanceof Float32Array || ta instanceof Float64Array || ta instanceof DataView) {
        throw new TypeError('The data argument must be an integer-type TypedArray');
      }
      if (ta.byteLength > 65536) {
        const e = new Error("The ArrayBufferView's byte length (" + ta.byteLength + ') exceeds the number of bytes of entropy available via this API (65536)');
        e.name = 'QuotaExceededError';
        throw e;
      }
      new Uint8Array(ta.buffer, ta.byteOffset, ta.byteLength).set(host.random(ta.byteLength));
      return ta;
    },
    subtle: {
      // digest settles in a later macrotask, as Node's (a thread-pool job) does.
      digest(alg, data) {
        return new Promise((resolve, reject) => {
          let d;
          try {
            const name = typeof alg === 'string' ? alg : alg && alg.name;
            if (!/^SHA-(1|256|384|512)$/i.test(String(name))) throw new Error('Unrecognized algorithm name: ' + name);
            d = host.digest(String(name), data);
          } catch (e) {
            reject(e);
            return;
          }
          setImmediate(() => resolve(d.buffer));
        });
      },
    },
  };
  return cryptoObj;
}

function makePerformance() {

  const timeOrigin = host.now();
  return {
    timeOrigin,
    now: () => host.hrnow() / 1e6,
    mark: () => undefined, measure: () => undefined, clearMarks: () => undefined, clearMeasures: () => undefined,
    getEntries: () => [], getEntriesByName: () => [], getEntriesByType: () => [],
    toJSON() { return { timeOrigin }; },
  };


}

module.exports = { structuredClone: makeStructuredClone(), crypto: makeCrypto(), performance: makePerformance() };
