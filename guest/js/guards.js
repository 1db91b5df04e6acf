'use strict';
// Allocation guards (MaxAllocBytes): built-ins that allocate a whole
// string, array or buffer at once check the size first.

const g = globalThis;
const define = (o, name, value) =>
  Object.defineProperty(o, name, { value, writable: true, configurable: true, enumerable: false });
const MAX = host.maxAlloc;
const tooBig = (what, n) => host.allocLimit(what, n);

function guardStrings() {
  const SP = String.prototype;
  const repeat = SP.repeat, padStart = SP.padStart, padEnd = SP.padEnd;
  define(SP, 'repeat', function repeat_(count) {
    const n = Math.floor(Number(count));
    if (this != null && n > 0) {
      const len = String(this).length;
      if (len * n > MAX) tooBig('string', len * n);
    }
    return Reflect.apply(repeat, this, arguments);
  });
  define(SP, 'padStart', function padStart_(n) {
    if (Number(n) > MAX) tooBig('string', Number(n));
    return Reflect.apply(padStart, this, arguments);
  });
  define(SP, 'padEnd', function padEnd_(n) {
    if (Number(n) > MAX) tooBig('string', Number(n));
    return Reflect.apply(padEnd, this, arguments);
  });
  Object.defineProperty(SP.repeat, 'name', { value: 'repeat' });
  Object.defineProperty(SP.padStart, 'name', { value: 'padStart' });
  Object.defineProperty(SP.padEnd, 'name', { value: 'padEnd' });

}

// Arrays are counted at 8 bytes an element.
function guardArrays() {
  const AP = Array.prototype;
  const fill = AP.fill, from = Array.from;
  define(AP, 'fill', function fill_(value, start, end) {
    const len = this != null ? Number(this.length) : 0;
    if (len * 8 > MAX) tooBig('array of ' + len + ' elements', len * 8);
    return Reflect.apply(fill, this, arguments);
  });
  // join is guarded by the backend on every run (it also bounds the
  // recursion of String(nestedArray)).
  Object.defineProperty(AP.fill, 'name', { value: 'fill' });
  define(Array, 'from', function from_(items) {
    // Array-likes, and the iterables whose length is known: strings and
    // typed arrays.
    if (typeof items === 'string' || items != null && typeof items === 'object' && (!(Symbol.iterator in items) || ArrayBuffer.isView(items))) {
      const len = Number(items.length);
      if (len * 8 > MAX) tooBig('array of ' + len + ' elements', len * 8);
    }
    return Reflect.apply(from, this, arguments);
  });
  Object.defineProperty(Array.from, 'name', { value: 'from' });

}

// Everything below is built on first use: the backend makes these names
// resolve through make(name) when code first reads them, so a run pays
// only for the globals it touches.

// Typed arrays and ArrayBuffer allocate at once: their constructors
// check the size first.
function guardCtor(name, bytesPer) {
  const C = g[name];
  if (!C) return;
  const W = function (a) {
    if (new.target === undefined) throw new TypeError("Constructor " + name + " requires 'new'");
    if (typeof a === 'number' && a * bytesPer > MAX) {
      // V8's largest typed array is 2^53 - 1 bytes (Node's
      // buffer.kMaxLength): a larger one is V8's RangeError, thrown
      // before anything is allocated; a smaller one past MaxAllocBytes
      // stops the run.
      if (a * bytesPer > Number.MAX_SAFE_INTEGER) {
        throw new RangeError(name === 'ArrayBuffer' ? 'Invalid array buffer length' : `Invalid typed array length: ${a}`);
      }
      tooBig(name, a * bytesPer);
    }
    return Reflect.construct(C, arguments, new.target === W ? C : new.target);
  };
  Object.defineProperty(W, 'name', { value: name });
  Object.defineProperty(W, 'length', { value: C.length });
  Object.setPrototypeOf(W, C); // statics (from, of, BYTES_PER_ELEMENT) by inheritance
  Object.defineProperty(W, 'prototype', { value: C.prototype, writable: false });
  define(C.prototype, 'constructor', W);
  define(g, name, W);
}

const guardBuffer = (Buffer) => {
  for (const n of ['alloc', 'allocUnsafe', 'allocUnsafeSlow']) {
    const f = Buffer[n];
    if (typeof f !== 'function') continue;
    define(Buffer, n, function (size) {
      // A size Node refuses (not a number, or past buffer.kMaxLength)
      // gets Node's error from the function itself.
      if (typeof size === 'number' && size > MAX && size <= Number.MAX_SAFE_INTEGER) tooBig('Buffer', size);
      return Reflect.apply(f, this, arguments);
    });
  }
  return Buffer;
};

// Built-ins whose work grows with an array-like's length inside one
// native call (which goja cannot interrupt) check the length first, as
// fill does: more elements than MaxAllocBytes allows at 8 bytes an
// element stop the run. guardMethod(name) installs the guard of one of
// them; the backend asks for those the program's text mentions.
const elements = (o) => {
  const n = o != null ? Number(o.length) : 0;
  return n > 0 ? Math.floor(n) : 0;
};
const checkElements = (o) => {
  const n = elements(o);
  if (n * 8 > MAX) tooBig('array of ' + n + ' elements', n * 8);
  return n;
};
function wrap(o, name, check) {
  const orig = o[name];
  if (typeof orig !== 'function') return;
  // A method: like a built-in, it has no prototype and cannot be new'd.
  const w = { [name]() { check.apply(this, arguments); return Reflect.apply(orig, this, arguments); } }[name];
  Object.defineProperty(w, 'length', { value: orig.length });
  define(o, name, w);
}
// Object.keys/values/entries make one entry per element of a string, an
// array or a typed array (not of any object with a length).
const indexed = (x) => typeof x === 'string' || Array.isArray(x) || ArrayBuffer.isView(x) || x instanceof String;
const guards = {
  // (sort is guarded by the backend on every run.)
  reverse() { wrap(Array.prototype, 'reverse', function () { checkElements(this); }); },
  copyWithin() { wrap(Array.prototype, 'copyWithin', function () { checkElements(this); }); },
  indexOf() { wrap(Array.prototype, 'indexOf', function () { checkElements(this); }); },
  lastIndexOf() { wrap(Array.prototype, 'lastIndexOf', function () { checkElements(this); }); },
  includes() { wrap(Array.prototype, 'includes', function () { checkElements(this); }); },
  concat() {
    wrap(Array.prototype, 'concat', function () {
      let n = elements(this);
      for (let i = 0; i < arguments.length; i++) {
        const a = arguments[i];
        n += a !== null && typeof a === 'object' && (Array.isArray(a) || a[Symbol.isConcatSpreadable]) ? elements(a) : 1;
      }
      if (n * 8 > MAX) tooBig('array of ' + n + ' elements', n * 8);
    });
  },
  keys() { wrap(Object, 'keys', (x) => { if (indexed(x)) checkElements(x); }); },
  values() { wrap(Object, 'values', (x) => { if (indexed(x)) checkElements(x); }); },
  entries() { wrap(Object, 'entries', (x) => { if (indexed(x)) checkElements(x); }); },
  // split makes one string per piece: an empty separator splits every
  // character, a string separator as often as it occurs (counted first).
  split() {
    wrap(String.prototype, 'split', function (sep, limit) {
      if (this == null || (typeof sep !== 'string' && !(sep instanceof String))) return;
      const s = String(this);
      let n = sep === '' || String(sep) === '' ? s.length : host.countSplit(s, String(sep));
      if (limit !== undefined) n = Math.min(n, limit >>> 0);
      if (n * 8 > MAX) tooBig('array of ' + n + ' elements', n * 8);
    });
  },
};
const guardMethod = (name) => { if (Object.prototype.hasOwnProperty.call(guards, name)) guards[name](); };

module.exports = { guardStrings, guardArrays, guardCtor, guardBuffer, guardMethod };
