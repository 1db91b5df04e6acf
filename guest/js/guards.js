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
  const fill = AP.fill, join = AP.join, from = Array.from;
  define(AP, 'fill', function fill_(value, start, end) {
    const len = this != null ? Number(this.length) : 0;
    if (len * 8 > MAX) tooBig('array of ' + len + ' elements', len * 8);
    return Reflect.apply(fill, this, arguments);
  });
  define(AP, 'join', function join_(sep) {
    const len = this != null ? Number(this.length) : 0;
    const s = sep === undefined ? 1 : String(sep).length;
    if (len > 1 && (len - 1) * s > MAX) tooBig('string', (len - 1) * s);
    return Reflect.apply(join, this, arguments);
  });
  Object.defineProperty(AP.join, 'name', { value: 'join' });
  Object.defineProperty(AP.fill, 'name', { value: 'fill' });
  define(Array, 'from', function from_(items) {
    if (items != null && typeof items === 'object' && !(Symbol.iterator in items)) {
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
    if (typeof a === 'number' && a * bytesPer > MAX) tooBig(name, a * bytesPer);
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
      if (Number(size) > MAX) tooBig('Buffer', Number(size));
      return Reflect.apply(f, this, arguments);
    });
  }
  return Buffer;
};

module.exports = { guardStrings, guardArrays, guardCtor, guardBuffer };
