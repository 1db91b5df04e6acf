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
  if (!Error.captureStackTrace) {
    // V8's Error.captureStackTrace: target.stack is the target's
    // "name: message" line and the frames of the call, less those up to
    // and including the call of ctor when given.
    define(Error, 'captureStackTrace', function captureStackTrace(target, ctor) {
      if (target === null || (typeof target !== 'object' && typeof target !== 'function')) {
        throw new TypeError('Invalid argument');
      }
      const raw = String(new Error().stack || '');
      let frames = raw.split('\n').slice(2); // "Error" and this function's frame
      if (typeof ctor === 'function' && ctor.name) {
        const i = frames.findIndex((f) => f.includes(`at ${ctor.name} `) || f.includes(`.${ctor.name} `) || f.includes(`at new ${ctor.name} `));
        if (i !== -1) frames = frames.slice(i + 1);
      }
      let head;
      try {
        const name = target.name === undefined ? 'Error' : String(target.name);
        const msg = target.message === undefined ? '' : String(target.message);
        head = name && msg ? `${name}: ${msg}` : name || msg;
      } catch { head = 'Error'; }
      Object.defineProperty(target, 'stack', {
        value: frames.length ? `${head}\n${frames.join('\n')}` : head,
        writable: true, configurable: true, enumerable: false,
      });
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

// locale installs Number and BigInt toLocaleString as Node formats them in
// its default locale (en-US; goja has no Intl): grouping by thousands, at
// most three fraction digits rounded half away from zero on the shortest
// decimal form, and the percent and currency styles (USD, EUR, GBP, JPY
// by symbol, other codes by name). Other locales are formatted as en-US.
function locale() {
  const symbols = { USD: '$', EUR: '€', GBP: '£', JPY: '¥', CNY: 'CN¥', INR: '₹', CAD: 'CA$', AUD: 'A$' };
  const zeroDigit = { JPY: true, KRW: true };
  const digitsOption = (o, name, dflt) => {
    const v = o[name];
    if (v === undefined) return dflt;
    const n = Number(v);
    if (!(n >= 0 && n <= 100) || Number.isNaN(n)) throw new RangeError(name + ' value is out of range.');
    return Math.floor(n);
  };
  const group = (int) => int.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  // decimal splits |x| into integer and fraction digits, exactly as its
  // shortest decimal form reads, with the point moved by shift places.
  const decimal = (x, shift) => {
    const [mant, e] = String(Math.abs(x)).split('e');
    const [i, f = ''] = mant.split('.');
    let digits = i + f;
    let point = i.length + Number(e || 0) + shift;
    if (point <= 0) { digits = '0'.repeat(1 - point) + digits; point = 1; }
    if (point > digits.length) digits += '0'.repeat(point - digits.length);
    return [digits.slice(0, point).replace(/^0+(?=\d)/, ''), digits.slice(point)];
  };
  const round = (int, frac, max) => {
    if (frac.length <= max) return [int, frac];
    const up = frac.charCodeAt(max) >= 53; // '5'
    let all = int + frac.slice(0, max);
    if (up) {
      const d = all.split('');
      let k = d.length - 1;
      for (; k >= 0; k--) { if (d[k] === '9') d[k] = '0'; else { d[k] = String(+d[k] + 1); break; } }
      all = (k < 0 ? '1' : '') + d.join('');
    }
    const n = all.length - max;
    return [all.slice(0, n) || '0', all.slice(n)];
  };
  function format(x, locales, options) {
    const o = options === undefined ? {} : Object(options);
    const style = o.style === undefined ? 'decimal' : String(o.style);
    if (style !== 'decimal' && style !== 'percent' && style !== 'currency' && style !== 'unit') {
      throw new RangeError('Value ' + style + ' out of range for Intl.NumberFormat options property style');
    }
    let code = '';
    if (style === 'currency') {
      if (o.currency === undefined) throw new TypeError('Currency code is required with currency style.');
      code = String(o.currency).toUpperCase();
    }
    const dMin = style === 'currency' ? (zeroDigit[code] ? 0 : 2) : 0;
    const dMax = style === 'currency' ? dMin : style === 'percent' ? 0 : 3;
    let min = digitsOption(o, 'minimumFractionDigits', undefined);
    let max = digitsOption(o, 'maximumFractionDigits', undefined);
    if (min === undefined) min = max === undefined ? dMin : Math.min(dMin, max);
    if (max === undefined) max = Math.max(min, dMax);
    if (min > max) throw new RangeError('maximumFractionDigits value is out of range.');
    const minInt = digitsOption(o, 'minimumIntegerDigits', 1);
    const grouping = o.useGrouping === undefined ? true : !!o.useGrouping && o.useGrouping !== 'false';
    const neg = x < 0 || Object.is(x, -0);
    let body;
    if (Number.isNaN(x)) body = 'NaN';
    else if (!Number.isFinite(x)) body = '∞';
    else {
      let [int, frac] = decimal(x, style === 'percent' ? 2 : 0);
      [int, frac] = round(int, frac, max);
      frac = frac.replace(/0+$/, '');
      if (frac.length < min) frac += '0'.repeat(min - frac.length);
      if (int.length < minInt) int = '0'.repeat(minInt - int.length) + int;
      body = (grouping ? group(int) : int) + (frac ? '.' + frac : '');
    }
    const sign = Number.isNaN(x) ? '' : neg ? '-' : '';
    if (style === 'percent') return sign + body + '%';
    if (style === 'currency') {
      const sym = symbols[code];
      return sign + (sym !== undefined ? sym : code + '\u00a0') + body;
    }
    return sign + body;
  }
  define(Number.prototype, 'toLocaleString', function toLocaleString(locales, options) {
    const x = typeof this === 'number' ? this : Number.prototype.valueOf.call(this);
    return format(x, locales, options);
  });
  if (typeof BigInt === 'function') {
    define(BigInt.prototype, 'toLocaleString', function toLocaleString(locales, options) {
      const v = BigInt.prototype.valueOf.call(this);
      const s = (v < 0n ? -v : v).toString();
      const o = options === undefined ? {} : Object(options);
      const grouping = o.useGrouping === undefined ? true : !!o.useGrouping;
      return (v < 0n ? '-' : '') + (grouping ? group(s) : s);
    });
  }
}
polyfills.locale = locale;

module.exports = polyfills;
