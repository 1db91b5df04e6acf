'use strict';
// node:util — format, inspect, promisify, types, deep equality.

const customInspect = Symbol.for('nodejs.util.inspect.custom');
const customPromisify = Symbol.for('nodejs.util.promisify.custom');
const ident = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const typedName = (v) => Object.prototype.toString.call(v).slice(8, -1);

const quote = (s) => "'" + s.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n').replace(/\t/g, '\\t') + "'";
const keyStr = (k) => (typeof k === 'symbol' ? '[' + k.toString() + ']' : ident.test(k) ? k : quote(k));

function ctorName(v) {
  const p = Object.getPrototypeOf(v);
  if (p === null) return null;
  const c = p.constructor;
  return c && typeof c.name === 'string' ? c.name : '';
}

function fnLabel(f) {
  const src = Function.prototype.toString.call(f);
  const name = f.name;
  if (/^class\b/.test(src)) return '[class ' + (name || '(anonymous)') + ']';
  const kind = /^async\b/.test(src) ? 'AsyncFunction' : /^(async\s*)?function\s*\*/.test(src) ? 'GeneratorFunction' : 'Function';
  return '[' + kind + (name ? ': ' + name : ' (anonymous)') + ']';
}

function errorText(e) {
  let s = e.stack ? String(e.stack) : '';
  const head = (e.name || 'Error') + (e.message ? ': ' + e.message : '');
  if (!s || !s.startsWith(head)) return head;
  return host.cleanStack(s);
}

function inspect(value, opts) {
  const o = { depth: 2, breakLength: 80, ...(typeof opts === 'object' && opts ? opts : {}) };
  if (!(o.depth <= host.maxNesting)) o.depth = host.maxNesting; // Infinity and null too: nesting is bounded
  const seen = [];
  const circular = new Map();
  const fmt = (v, depth, lvl) => {
    switch (typeof v) {
      case 'string': return lvl === 0 && o._top ? v : quote(v);
      case 'number': return Object.is(v, -0) ? '-0' : String(v);
      case 'bigint': return v + 'n';
      case 'boolean': case 'undefined': return String(v);
      case 'symbol': return v.toString();
      case 'function': {
        const keys = Object.keys(v);
        if (!keys.length || depth > o.depth) return fnLabel(v);
        return entriesOf(v, fnLabel(v) + ' ', keys.map((k) => keyStr(k) + ': ' + fmt(v[k], depth + 1, lvl + 1)), lvl, '{', '}');
      }
    }
    if (v === null) return 'null';
    if (seen.includes(v)) {
      if (!circular.has(v)) circular.set(v, circular.size + 1);
      return '[Circular *' + circular.get(v) + ']';
    }
    if (typeof v[customInspect] === 'function') {
      const r = v[customInspect](o.depth - depth, o, inspect);
      return typeof r === 'string' ? r : fmt(r, depth, lvl);
    }
    if (v instanceof Error) return errorText(v);
    if (v instanceof Date) return isNaN(v.getTime()) ? 'Invalid Date' : v.toISOString();
    if (v instanceof RegExp) return v.toString();
    if (v instanceof Promise) return 'Promise { <unknown> }';
    if (v instanceof WeakMap) return 'WeakMap { <items unknown> }';
    if (v instanceof WeakSet) return 'WeakSet { <items unknown> }';
    if (typeof v.valueOf === 'function' && (v instanceof Number || v instanceof String || v instanceof Boolean)) {
      return '[' + ctorName(v) + ': ' + fmt(v.valueOf(), depth, lvl + 1) + ']';
    }
    const name = ctorName(v);
    if (ArrayBuffer.isView(v) && !(v instanceof DataView)) {
      if (name === 'Buffer') {
        let s = '<Buffer';
        const n = Math.min(v.length, 50);
        for (let i = 0; i < n; i++) s += ' ' + (v[i] < 16 ? '0' : '') + v[i].toString(16);
        return s + (v.length > 50 ? ' ... ' + (v.length - 50) + ' more bytes' : '') + '>';
      }
      if (depth > o.depth) return '[' + name + ']';
      const items = [];
      const n = Math.min(v.length, 100);
      for (let i = 0; i < n; i++) items.push(fmt(v[i], depth + 1, lvl + 1));
      if (v.length > 100) items.push('... ' + (v.length - 100) + ' more items');
      return entriesOf(v, name + '(' + v.length + ') ', items, lvl, '[', ']');
    }
    if (v instanceof ArrayBuffer) return 'ArrayBuffer { byteLength: ' + v.byteLength + ' }';
    if (Array.isArray(v)) {
      if (depth > o.depth) return '[Array]';
      seen.push(v);
      const items = [];
      const n = Math.min(v.length, 100);
      let holes = 0;
      const flush = () => { if (holes) { items.push('<' + holes + ' empty item' + (holes > 1 ? 's' : '') + '>'); holes = 0; } };
      for (let i = 0; i < n; i++) {
        if (!(i in v)) { holes++; continue; }
        flush();
        items.push(fmt(v[i], depth + 1, lvl + 1));
      }
      flush();
      if (v.length > 100) items.push('... ' + (v.length - 100) + ' more items');
      for (const k of Object.keys(v)) if (!/^\d+$/.test(k)) items.push(keyStr(k) + ': ' + fmt(v[k], depth + 1, lvl + 1));
      seen.pop();
      return entriesOf(v, name !== 'Array' && name ? name + '(' + v.length + ') ' : '', items, lvl, '[', ']');
    }
    if (v instanceof Map) {
      if (depth > o.depth) return '[Map]';
      seen.push(v);
      const items = [];
      for (const [k, x] of v) items.push(fmt(k, depth + 1, lvl + 1) + ' => ' + fmt(x, depth + 1, lvl + 1));
      seen.pop();
      return entriesOf(v, 'Map(' + v.size + ') ', items, lvl, '{', '}');
    }
    if (v instanceof Set) {
      if (depth > o.depth) return '[Set]';
      seen.push(v);
      const items = [];
      for (const x of v) items.push(fmt(x, depth + 1, lvl + 1));
      seen.pop();
      return entriesOf(v, 'Set(' + v.size + ') ', items, lvl, '{', '}');
    }
    const prefix = name === null ? '[Object: null prototype] ' : name && name !== 'Object' ? name + ' ' : '';
    if (depth > o.depth) return '[' + (name || 'Object') + ']';
    seen.push(v);
    const items = [];
    const keys = [...Object.keys(v), ...Object.getOwnPropertySymbols(v).filter((s) => Object.prototype.propertyIsEnumerable.call(v, s))];
    for (const k of keys) {
      const d = Object.getOwnPropertyDescriptor(v, k);
      let val;
      if (d && (d.get || d.set)) val = d.get && d.set ? '[Getter/Setter]' : d.get ? '[Getter]' : '[Setter]';
      else val = fmt(v[k], depth + 1, lvl + 1);
      items.push(keyStr(k) + ': ' + val);
    }
    seen.pop();
    const tag = v[Symbol.toStringTag];
    const p = prefix + (typeof tag === 'string' && tag !== name ? '[' + tag + '] ' : '');
    let s = entriesOf(v, p, items, lvl, '{', '}');
    if (circular.has(v)) s = '<ref *' + circular.get(v) + '> ' + s;
    return s;
  };
  const entriesOf = (v, prefix, items, lvl, open, close) => {
    if (!items.length) return prefix + open + close;
    const one = prefix + open + ' ' + items.join(', ') + ' ' + close;
    if (one.length + lvl * 2 <= o.breakLength - 8 && !one.includes('\n')) return one;
    const pad = '  '.repeat(lvl + 1);
    return prefix + open + '\n' + items.map((x) => pad + x.split('\n').join('\n' + pad)).join(',\n') + '\n' + '  '.repeat(lvl) + close;
  };
  return fmt(value, 0, 0);
}
inspect.custom = customInspect;
inspect.defaultOptions = { depth: 2 };

function format(...args) {
  let out = '';
  let i = 0;
  if (typeof args[0] === 'string') {
    const f = args[0];
    i = 1;
    let last = 0;
    for (let j = 0; j < f.length - 1; j++) {
      if (f[j] !== '%') continue;
      const c = f[j + 1];
      let rep;
      if (c === '%') { out += f.slice(last, j) + '%'; last = j + 2; j++; continue; }
      if (i >= args.length) continue;
      const a = args[i];
      switch (c) {
        case 's': rep = typeof a === 'string' ? a : typeof a === 'bigint' ? a + 'n' : typeof a === 'object' && a !== null ? inspect(a, { depth: 1 }) : String(a); break;
        case 'd': case 'i': rep = typeof a === 'bigint' ? a + 'n' : typeof a === 'object' ? 'NaN' : String(c === 'i' ? Math.trunc(Number(a)) : Number(a)); break;
        case 'f': rep = String(parseFloat(a)); break;
        case 'j': try { rep = JSON.stringify(a); } catch (e) { rep = '[Circular]'; } break;
        case 'o': case 'O': rep = inspect(a, { depth: c === 'o' ? 4 : 2 }); break;
        case 'c': rep = ''; break;
        default: continue;
      }
      out += f.slice(last, j) + rep;
      last = j + 2;
      j++;
      i++;
    }
    out += f.slice(last);
  }
  for (; i < args.length; i++) {
    const a = args[i];
    if (out.length || i > 0) out += ' ';
    out += typeof a === 'string' ? a : inspect(a);
  }
  return out;
}

function promisify(fn) {
  if (typeof fn !== 'function') throw new TypeError('The "original" argument must be of type function');
  if (fn[customPromisify]) return fn[customPromisify];
  return function (...args) {
    return new Promise((resolve, reject) => {
      fn.call(this, ...args, (err, ...vals) => (err ? reject(err) : resolve(vals.length > 1 ? vals : vals[0])));
    });
  };
}
promisify.custom = customPromisify;

function callbackify(fn) {
  return function (...args) {
    const cb = args.pop();
    fn.apply(this, args).then((v) => cb(null, v), (e) => cb(e));
  };
}

function isDeepStrictEqual(a, b, strict = true, seen = new Map()) {
  if (strict ? Object.is(a, b) : a == b || (a !== a && b !== b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (strict && Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  if (seen.get(a) === b) return true;
  seen.set(a, b);
  if (a instanceof Date) return b instanceof Date && a.getTime() === b.getTime();
  if (a instanceof RegExp) return b instanceof RegExp && String(a) === String(b);
  if (ArrayBuffer.isView(a)) {
    if (!ArrayBuffer.isView(b) || a.byteLength !== b.byteLength) return false;
    const x = new Uint8Array(a.buffer, a.byteOffset, a.byteLength), y = new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
    for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
    return true;
  }
  if (a instanceof Map) {
    if (!(b instanceof Map) || a.size !== b.size) return false;
    for (const [k, v] of a) if (!b.has(k) || !isDeepStrictEqual(v, b.get(k), strict, seen)) return false;
    return true;
  }
  if (a instanceof Set) {
    if (!(b instanceof Set) || a.size !== b.size) return false;
    outer: for (const v of a) {
      if (b.has(v)) continue;
      if (typeof v === 'object') for (const w of b) if (isDeepStrictEqual(v, w, strict, seen)) continue outer;
      return false;
    }
    return true;
  }
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a), kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  for (const k of ka) {
    if (!Object.prototype.hasOwnProperty.call(b, k)) return false;
    if (!isDeepStrictEqual(a[k], b[k], strict, seen)) return false;
  }
  if (a instanceof Error && (a.message !== b.message || a.name !== b.name)) return false;
  return true;
}

const types = {
  isDate: (v) => v instanceof Date,
  isRegExp: (v) => v instanceof RegExp,
  isPromise: (v) => v instanceof Promise,
  isMap: (v) => v instanceof Map,
  isSet: (v) => v instanceof Set,
  isWeakMap: (v) => v instanceof WeakMap,
  isWeakSet: (v) => v instanceof WeakSet,
  isArrayBuffer: (v) => v instanceof ArrayBuffer,
  isAnyArrayBuffer: (v) => v instanceof ArrayBuffer,
  isArrayBufferView: (v) => ArrayBuffer.isView(v),
  isTypedArray: (v) => ArrayBuffer.isView(v) && !(v instanceof DataView),
  isUint8Array: (v) => v instanceof Uint8Array,
  isDataView: (v) => v instanceof DataView,
  isNativeError: (v) => v instanceof Error,
  isAsyncFunction: (v) => typeof v === 'function' && /^async\b/.test(Function.prototype.toString.call(v)),
  isGeneratorFunction: (v) => typeof v === 'function' && /^(async\s*)?function\s*\*/.test(Function.prototype.toString.call(v)),
  isBoxedPrimitive: (v) => v instanceof Number || v instanceof String || v instanceof Boolean,
};

module.exports = {
  format,
  formatWithOptions: (opts, ...args) => format(...args),
  inspect,
  promisify,
  callbackify,
  isDeepStrictEqual: (a, b) => isDeepStrictEqual(a, b, true),
  _deepEqual: isDeepStrictEqual,
  types,
  TextEncoder,
  TextDecoder,
  deprecate: (fn) => fn,
  debuglog: () => Object.assign(() => {}, { enabled: false }),
  debug: () => Object.assign(() => {}, { enabled: false }),
  inherits(ctor, superCtor) {
    Object.setPrototypeOf(ctor.prototype, superCtor.prototype);
    Object.setPrototypeOf(ctor, superCtor);
    ctor.super_ = superCtor;
  },
  isArray: Array.isArray,
  stripVTControlCharacters: (s) => String(s).replace(/\u001b\[[0-9;]*[A-Za-z]/g, ''),
  styleText: (f, text) => String(text),
  toUSVString: (s) => String(s).toWellFormed ? String(s).toWellFormed() : String(s),
};
