'use strict';
// The prelude runs once per run, before the program. It registers the
// inspector used for uncaught errors and returns make(name), which builds a
// global on first use: the backend resolves the names below through it, so
// a run pays only for the globals it touches. Each group lives in its own
// file.

let util;
host.setInspect((v) => (util || (util = require('node:util'))).inspect(v));

const group = (file) => require('nook:' + file); // the require caches modules

const bytesPer = { ArrayBuffer: 1, Int8Array: 1, Uint8Array: 1, Uint8ClampedArray: 1, Int16Array: 2, Uint16Array: 2,
  Int32Array: 4, Uint32Array: 4, Float32Array: 4, Float64Array: 8, BigInt64Array: 8, BigUint64Array: 8 };

// make builds the global name. "typed:<Ctor>" installs a size guard on a
// typed array constructor, "guard:String" and "guard:Array" those on
// string and array built-ins, "polyfills" the built-ins goja lacks and
// "asyncIterator" Symbol.asyncIterator (the backend asks for these when
// the program mentions them).
module.exports = function make(name) {
  switch (name) {
    case 'setTimeout': case 'setInterval': case 'setImmediate': case 'clearTimeout': case 'clearInterval':
    case 'clearImmediate': case 'queueMicrotask':
      return group('timers.js')[name];
    case 'global': return globalThis; // Node's other name for the global object
    case 'console': return group('console.js');
    case 'process': return group('process.js');
    case 'TextEncoder': case 'TextDecoder': case 'btoa': case 'atob': return group('encoding.js')[name];
    case 'structuredClone': case 'crypto': case 'performance': return group('webapi.js')[name];
    case 'DOMException': case 'Blob': case 'File': return group('dom.js')[name];
    case 'Buffer': return group('guards.js').guardBuffer(require('node:buffer').Buffer);
    case 'URL': case 'URLSearchParams': return require('nook:whatwg_url.js')[name];
    case 'EventTarget': case 'Event': case 'CustomEvent': case 'AbortController': case 'AbortSignal': return require('node:events')[name];
    case 'fetch': case 'Headers': case 'Response': case 'Request': return group('fetch.js')[name];
    case 'ReadableStream': case 'WritableStream': case 'TransformStream': case 'ReadableStreamDefaultReader':
    case 'WritableStreamDefaultWriter': case 'ByteLengthQueuingStrategy': case 'CountQueuingStrategy':
    case 'TextEncoderStream': case 'TextDecoderStream': return require('node:stream/web')[name];
    case 'polyfills': group('polyfills.js')(); return undefined;
    case 'locale': group('polyfills.js').locale(); return undefined;
    case 'guard:String': group('guards.js').guardStrings(); return undefined;
    case 'guard:Array': group('guards.js').guardArrays(); return undefined;
    case 'dispose':
      // The symbols esbuild's lowering of using / await using falls back to.
      if (!Symbol.dispose) Object.defineProperty(Symbol, 'dispose', { value: Symbol.for('Symbol.dispose') });
      if (!Symbol.asyncDispose) Object.defineProperty(Symbol, 'asyncDispose', { value: Symbol.for('Symbol.asyncDispose') });
      return undefined;
    case 'asyncIterator':
      if (!Symbol.asyncIterator) Object.defineProperty(Symbol, 'asyncIterator', { value: Symbol.for('Symbol.asyncIterator') });
      return undefined;
  }
  if (name.startsWith('typed:')) group('guards.js').guardCtor(name.slice(6), bytesPer[name.slice(6)] || 1);
  if (name.startsWith('guard:')) group('guards.js').guardMethod(name.slice(6));
  return undefined;
};
