'use strict';
// node:util — format, inspect, promisify, types, deep equality.
//
// inspect follows Node's layout rules (lib/internal/util/inspect.js, read
// for its semantics): an object goes on one line when it and the objects
// formatted inside it are at most `compact` (3) levels deep and the line
// fits in breakLength (80); arrays of more than six short items are grouped
// into aligned columns; strings longer than the line are split after their
// newlines; strings pick the quote that needs no escaping.

const customInspect = Symbol.for('nodejs.util.inspect.custom');
const customPromisify = Symbol.for('nodejs.util.promisify.custom');
const toStr = (v) => Object.prototype.toString.call(v);
const hasOwn = (o, k) => Object.prototype.hasOwnProperty.call(o, k);
const isEnum = (o, k) => Object.prototype.propertyIsEnumerable.call(o, k);

const kObjectType = 0;
const kArrayType = 1;
const kArrayExtrasType = 2;

const defaultOptions = {
  showHidden: false, depth: 2, colors: false, customInspect: true, showProxy: false, maxArrayLength: 100,
  maxStringLength: 10000, breakLength: 80, compact: 3, sorted: false, getters: false, numericSeparator: false,
};
const optionNames = Object.keys(defaultOptions);

const colors = Object.assign(Object.create(null), {
  reset: [0, 0], bold: [1, 22], dim: [2, 22], italic: [3, 23], underline: [4, 24], blink: [5, 25], inverse: [7, 27],
  hidden: [8, 28], strikethrough: [9, 29], doubleunderline: [21, 24], black: [30, 39], red: [31, 39], green: [32, 39],
  yellow: [33, 39], blue: [34, 39], magenta: [35, 39], cyan: [36, 39], white: [37, 39], bgBlack: [40, 49],
  bgRed: [41, 49], bgGreen: [42, 49], bgYellow: [43, 49], bgBlue: [44, 49], bgMagenta: [45, 49], bgCyan: [46, 49],
  bgWhite: [47, 49], framed: [51, 54], overlined: [53, 55], gray: [90, 39], redBright: [91, 39],
  greenBright: [92, 39], yellowBright: [93, 39], blueBright: [94, 39], magentaBright: [95, 39], cyanBright: [96, 39],
  whiteBright: [97, 39], bgGray: [100, 49], bgRedBright: [101, 49], bgGreenBright: [102, 49],
  bgYellowBright: [103, 49], bgBlueBright: [104, 49], bgMagentaBright: [105, 49], bgCyanBright: [106, 49],
  bgWhiteBright: [107, 49],
});
for (const [alias, target] of [['grey', 'gray'], ['blackBright', 'gray'], ['bgGrey', 'bgGray'], ['bgBlackBright', 'bgGray'],
  ['faint', 'dim'], ['crossedout', 'strikethrough'], ['strikeThrough', 'strikethrough'], ['crossedOut', 'strikethrough'],
  ['conceal', 'hidden'], ['swapColors', 'inverse'], ['swapcolors', 'inverse'], ['doubleUnderline', 'doubleunderline']]) {
  Object.defineProperty(colors, alias, {
    get() { return this[target]; }, set(v) { this[target] = v; }, configurable: true, enumerable: false,
  });
}
const styles = Object.assign(Object.create(null), {
  special: 'cyan', number: 'yellow', bigint: 'yellow', boolean: 'yellow', undefined: 'grey', null: 'bold',
  string: 'green', symbol: 'green', date: 'magenta', regexp: 'red', module: 'underline',
});

function stylizeWithColor(str, type) {
  const style = styles[type];
  const c = style !== undefined ? colors[style] : undefined;
  return c !== undefined ? '\u001b[' + c[0] + 'm' + str + '\u001b[' + c[1] + 'm' : str;
}
const stylizeNoColor = (str) => str;

// escapeChar returns the escape of one UTF-16 unit that must not appear raw.
function escapeChar(c) {
  switch (c) {
    case 8: return '\\b';
    case 9: return '\\t';
    case 10: return '\\n';
    case 12: return '\\f';
    case 13: return '\\r';
    case 39: return "\\'";
    case 92: return '\\\\';
  }
  if (c < 0xa0) return '\\x' + (c < 16 ? '0' : '') + c.toString(16).toUpperCase();
  return '\\u' + c.toString(16);
}

// escapeAll escapes control characters, backslashes, lone surrogates and,
// if quote is 39, single quotes.
function escapeAll(str, quote) {
  let out = '';
  let last = 0;
  for (let i = 0; i < str.length; i++) {
    const c = str.charCodeAt(i);
    if (c === quote || c === 92 || c < 32 || (c > 126 && c < 160)) {
      out += str.slice(last, i) + escapeChar(c);
      last = i + 1;
    } else if (c >= 0xd800 && c <= 0xdfff) {
      if (c <= 0xdbff && i + 1 < str.length) {
        const d = str.charCodeAt(i + 1);
        if (d >= 0xdc00 && d <= 0xdfff) { i++; continue; }
      }
      out += str.slice(last, i) + escapeChar(c);
      last = i + 1;
    }
  }
  return last === 0 ? str : out + str.slice(last);
}

// strEscape quotes a string: single quotes unless it holds one, then double
// quotes, then backticks; only the chosen quote is escaped.
function strEscape(str) {
  let q = "'";
  if (str.includes("'")) {
    if (!str.includes('"')) q = '"';
    else if (!str.includes('`') && !str.includes('${')) q = '`';
  }
  return q + escapeAll(str, q === "'" ? 39 : -1) + q;
}

const keyStrRegExp = /^[a-zA-Z_][a-zA-Z_0-9]*$/;
const numberRegExp = /^(0|[1-9][0-9]*)$/;
// Terminal control sequences: CSI (ESC [ or 0x9b, parameters, a final byte) and OSC (ESC ], up to BEL, ESC \ or ST 0x9c).
const ansiRegExp = /(?:\u001b\[|\u009b)[\x30-\x3f]*[\x20-\x2f]*[\x40-\x7e]|\u001b\][^\u0007\u001b\u009c]*(?:\u0007|\u001b\\|\u009c)|\u001b[@-Z\\-_]/g;

function stripVTControlCharacters(str) {
  if (typeof str !== 'string') throw invalidArgType('str', 'string', str);
  return str.replace(ansiRegExp, '');
}

const isFullWidth = (c) => c >= 0x1100 && (c <= 0x115f || c === 0x2329 || c === 0x232a ||
  (c >= 0x2e80 && c <= 0x3247 && c !== 0x303f) || (c >= 0x3250 && c <= 0x4dbf) || (c >= 0x4e00 && c <= 0xa4c6) ||
  (c >= 0xa960 && c <= 0xa97c) || (c >= 0xac00 && c <= 0xd7a3) || (c >= 0xf900 && c <= 0xfaff) ||
  (c >= 0xfe10 && c <= 0xfe19) || (c >= 0xfe30 && c <= 0xfe6b) || (c >= 0xff01 && c <= 0xff60) ||
  (c >= 0xffe0 && c <= 0xffe6) || (c >= 0x1b000 && c <= 0x1b001) || (c >= 0x1f200 && c <= 0x1f251) ||
  (c >= 0x1f300 && c <= 0x1f64f) || (c >= 0x20000 && c <= 0x3fffd));
const isZeroWidth = (c) => c <= 0x1f || (c >= 0x7f && c <= 0x9f) || (c >= 0x300 && c <= 0x36f) ||
  (c >= 0x200b && c <= 0x200f) || (c >= 0x20d0 && c <= 0x20ff) || (c >= 0xfe00 && c <= 0xfe0f) ||
  (c >= 0xfe20 && c <= 0xfe2f) || (c >= 0xe0100 && c <= 0xe01ef);

// stringWidth is the number of terminal columns str takes.
function stringWidth(str, removeControl = true) {
  if (removeControl) str = str.replace(ansiRegExp, '');
  let w = 0;
  for (let i = 0; i < str.length; i++) {
    const c = str.charCodeAt(i);
    if (c < 127) { if (c >= 32) w++; continue; }
    const cp = str.codePointAt(i);
    if (cp > 0xffff) i++;
    w += isFullWidth(cp) ? 2 : isZeroWidth(cp) ? 0 : 1;
  }
  return w;
}

function withSeparators(digits) {
  let out = '';
  let i = digits.length;
  const start = digits[0] === '-' ? 1 : 0;
  for (; i >= start + 4; i -= 3) out = '_' + digits.slice(i - 3, i) + out;
  return i === digits.length ? digits : digits.slice(0, i) + out;
}

function formatNumber(fn, n, sep) {
  if (!sep) return fn(Object.is(n, -0) ? '-0' : '' + n, 'number');
  const int = Math.trunc(n);
  const s = String(int);
  if (int === n) return fn(!Number.isFinite(n) || s.includes('e') ? s : withSeparators(s), 'number');
  if (Number.isNaN(n)) return fn(s, 'number');
  const frac = String(n).slice(s.length + 1);
  let f = '';
  let i = 0;
  for (; i < frac.length - 3; i += 3) f += frac.slice(i, i + 3) + '_';
  return fn(withSeparators(s) + '.' + (i === 0 ? frac : f + frac.slice(i)), 'number');
}

const formatBigInt = (fn, n, sep) => fn((sep ? withSeparators(String(n)) : String(n)) + 'n', 'bigint');

function formatPrimitive(fn, v, ctx) {
  switch (typeof v) {
    case 'string': {
      let trailer = '';
      if (v.length > ctx.maxStringLength) {
        const rest = v.length - ctx.maxStringLength;
        v = v.slice(0, ctx.maxStringLength);
        trailer = '... ' + rest + ' more character' + (rest > 1 ? 's' : '');
      }
      if (ctx.compact !== true && v.length > 16 && v.length > ctx.breakLength - ctx.indentationLvl - 4) {
        const lines = [];
        let at = 0;
        for (let i = v.indexOf('\n'); i !== -1 && i < v.length - 1; i = v.indexOf('\n', at)) {
          lines.push(v.slice(at, i + 1));
          at = i + 1;
        }
        lines.push(v.slice(at));
        return lines.map((l) => fn(strEscape(l), 'string')).join(' +\n' + ' '.repeat(ctx.indentationLvl + 2)) + trailer;
      }
      return fn(strEscape(v), 'string') + trailer;
    }
    case 'number': return formatNumber(fn, v, ctx.numericSeparator);
    case 'bigint': return formatBigInt(fn, v, ctx.numericSeparator);
    case 'boolean': return fn('' + v, 'boolean');
    case 'undefined': return fn('undefined', 'undefined');
    default: return fn(v.toString(), 'symbol');
  }
}

// Built-in classes (their prototype methods are not the program's).
const builtinNames = new Set(['Object', 'Array', 'Function', 'Error', 'EvalError', 'RangeError', 'ReferenceError',
  'SyntaxError', 'TypeError', 'URIError', 'AggregateError', 'Date', 'RegExp', 'Map', 'Set', 'WeakMap', 'WeakSet',
  'Promise', 'Number', 'String', 'Boolean', 'Symbol', 'BigInt', 'ArrayBuffer', 'SharedArrayBuffer', 'DataView',
  'Int8Array', 'Uint8Array', 'Uint8ClampedArray', 'Int16Array', 'Uint16Array', 'Int32Array', 'Uint32Array',
  'Float32Array', 'Float64Array', 'BigInt64Array', 'BigUint64Array', 'Proxy', 'WeakRef', 'FinalizationRegistry']);

function isInstance(v, C) { try { return v instanceof C; } catch { return false; } }

// constructorName is the name of the first constructor up the prototype
// chain that v is an instance of, or null for a null-prototype object.
function constructorName(v) {
  let obj = v;
  let first;
  while (obj) {
    const d = Object.getOwnPropertyDescriptor(obj, 'constructor');
    if (d !== undefined && typeof d.value === 'function' && d.value.name !== '' && isInstance(v, d.value)) {
      return String(d.value.name);
    }
    obj = Object.getPrototypeOf(obj);
    if (first === undefined) first = obj;
  }
  if (first === null) return null;
  return internalName(v) + ' <Complex prototype>';
}

const internalName = (v) => toStr(v).slice(8, -1);

function getPrefix(ctor, tag, fallback, size = '') {
  if (ctor === null) {
    if (tag !== '' && fallback !== tag) return '[' + fallback + size + ': null prototype] [' + tag + '] ';
    return '[' + fallback + size + ': null prototype] ';
  }
  if (tag !== '' && ctor !== tag) return ctor + size + ' [' + tag + '] ';
  return ctor + size + ' ';
}

function ctxStyle(v, ctor, tag) {
  let fallback = '';
  if (ctor === null) {
    fallback = internalName(v);
    if (fallback === tag) fallback = 'Object';
  }
  return getPrefix(ctor, tag, fallback);
}

function getKeys(v, showHidden) {
  const symbols = Object.getOwnPropertySymbols(v);
  const keys = showHidden ? Object.getOwnPropertyNames(v) : Object.keys(v);
  for (const s of symbols) if (showHidden || isEnum(v, s)) keys.push(s);
  return keys;
}

function isIndex(k) {
  if (typeof k !== 'string' || !numberRegExp.test(k)) return false;
  return +k < 2 ** 32 - 1;
}
// nonIndexKeys are an array's other keys: index keys come first in key
// order, so only the tail past the last index is looked at.
function nonIndexKeys(v, showHidden) {
  const keys = getKeys(v, showHidden);
  let i = keys.length;
  while (i > 0 && !isIndex(keys[i - 1])) i--;
  if (i === 0) return keys;
  const out = keys.slice(i);
  // With showHidden, getOwnPropertyNames puts "length" after the indices.
  return out;
}

function boxed(v) {
  for (const [type, C] of [['Number', Number], ['String', String], ['Boolean', Boolean], ['BigInt', globalThis.BigInt], ['Symbol', Symbol]]) {
    if (typeof v !== 'object' || !C) continue;
    try { return [type, C.prototype.valueOf.call(v)]; } catch { /* not this type */ }
  }
  return undefined;
}

// Internal-slot checks: a built-in method that throws on other objects
// tells a Map from an object that only looks like one (or a Map whose
// prototype was removed).
const slot = (fn) => (v) => { try { fn.call(v); return true; } catch { return false; } };
const mapSize = Object.getOwnPropertyDescriptor(Map.prototype, 'size').get;
const setSize = Object.getOwnPropertyDescriptor(Set.prototype, 'size').get;
const isMap = slot(mapSize);
const isSet = slot(setSize);
const isDate = slot(Date.prototype.getTime);
const isError = (v) => isInstance(v, Error) || internalName(v) === 'Error';
const isAsyncFn = (f) => { const t = toStr(f); return t === '[object AsyncFunction]' || t === '[object AsyncGeneratorFunction]' || /^async\b/.test(Function.prototype.toString.call(f)); };
const isGeneratorFn = (f) => { const t = toStr(f); return t === '[object GeneratorFunction]' || t === '[object AsyncGeneratorFunction]' || /^(async\s*)?function\s*\*/.test(Function.prototype.toString.call(f)); };

function functionBase(ctx, v, ctor, tag) {
  const src = Function.prototype.toString.call(v);
  if (src.startsWith('class') && src.endsWith('}')) {
    const name = (hasOwn(v, 'name') && v.name) || '(anonymous)';
    let base = 'class ' + name;
    if (ctor !== 'Function' && ctor !== null) base += ' [' + ctor + ']';
    if (tag !== '' && ctor !== tag) base += ' [' + tag + ']';
    if (ctor !== null) {
      const sup = Object.getPrototypeOf(v).name;
      if (sup) base += ' extends ' + sup;
    } else base += ' extends [null prototype]';
    return '[' + base + ']';
  }
  let type = 'Function';
  if (isGeneratorFn(v)) type = 'Generator' + type;
  if (isAsyncFn(v)) type = 'Async' + type;
  let base = '[' + type;
  if (ctor === null) base += ' (null prototype)';
  base += v.name === '' ? ' (anonymous)' : ': ' + (typeof v.name === 'string' ? v.name : formatValue(ctx, v.name, 0));
  base += ']';
  if (ctor !== type && ctor !== null) base += ' ' + ctor;
  if (tag !== '' && ctor !== tag) base += ' [' + tag + ']';
  return base;
}

function stackOf(err) {
  let s = err.stack;
  if (s && typeof s === 'string') {
    // goja's own frames ("\n\tat file:line:col(pc)") become Node's, user code only.
    if (s.includes('\n\tat ')) s = host.cleanStack(s);
    return s;
  }
  if (s) return String(s);
  return Error.prototype.toString.call(err);
}

function formatError(err, ctor, tag, ctx, keys) {
  const name = err.name != null ? String(err.name) : 'Error';
  let stack = stackOf(err);
  if (!ctx.showHidden && keys.length !== 0) {
    for (const k of ['name', 'message', 'stack']) {
      const i = keys.indexOf(k);
      if (i !== -1 && (typeof err[k] !== 'string' || stack.includes(err[k]))) keys.splice(i, 1);
    }
  }
  if ('cause' in err && !keys.includes('cause')) keys.push('cause');
  if (Array.isArray(err.errors) && !keys.includes('errors')) keys.push('errors');
  const len = name.length;
  if (ctor === null || (name.endsWith('Error') && stack.startsWith(name) &&
      (stack.length === len || stack[len] === ':' || stack[len] === '\n'))) {
    const prefix = getPrefix(ctor, tag, 'Error').slice(0, -1);
    if (name !== prefix) {
      if (prefix.includes(name)) stack = len === 0 ? prefix + ': ' + stack : prefix + stack.slice(len);
      else stack = prefix + ' [' + name + ']' + stack.slice(len);
    }
  }
  let pos = (err.message && stack.indexOf(err.message)) || -1;
  if (pos !== -1) pos += err.message.length;
  const framesAt = stack.indexOf('\n    at', pos);
  if (framesAt === -1) stack = '[' + stack + ']';
  if (ctx.indentationLvl !== 0) stack = stack.split('\n').join('\n' + ' '.repeat(ctx.indentationLvl));
  return stack;
}

function userOptions(ctx) {
  const o = { stylize: ctx.stylize };
  for (const k of optionNames) o[k] = ctx[k];
  return ctx.userOptions ? { ...o, ...ctx.userOptions } : o;
}

function formatValue(ctx, v, recurseTimes, typedArray) {
  if (typeof v !== 'object' && typeof v !== 'function') return formatPrimitive(ctx.stylize, v, ctx);
  if (v === null) return ctx.stylize('null', 'null');
  if (ctx.customInspect) {
    let custom;
    try { custom = v[customInspect]; } catch { custom = undefined; }
    const d = typeof custom === 'function' ? Object.getOwnPropertyDescriptor(v, 'constructor') : undefined;
    if (typeof custom === 'function' && custom !== inspect && !(d && d.value && d.value.prototype === v)) {
      const depth = ctx.depth === null ? null : ctx.depth - recurseTimes;
      const ret = custom.call(v, depth, userOptions(ctx), inspect);
      if (ret !== v) {
        if (typeof ret !== 'string') return formatValue(ctx, ret, recurseTimes);
        return ret.split('\n').join('\n' + ' '.repeat(ctx.indentationLvl));
      }
    }
  }
  if (ctx.seen.includes(v)) {
    if (ctx.circular === undefined) ctx.circular = new Map();
    let index = ctx.circular.get(v);
    if (index === undefined) {
      index = ctx.circular.size + 1;
      ctx.circular.set(v, index);
    }
    return ctx.stylize('[Circular *' + index + ']', 'special');
  }
  return formatRaw(ctx, v, recurseTimes, typedArray);
}

let builtInNames;

// protoProperties lists what Node's inspect shows with showHidden after
// an object's own properties: the non-function properties (getters,
// values) of its user-defined prototypes, three levels at most, stopping
// at a built-in's prototype or null; keys already seen are skipped.
function protoProperties(ctx, value, recurseTimes) {
  if (builtInNames === undefined) {
    builtInNames = new Set(Object.getOwnPropertyNames(globalThis).filter((n) => /^[A-Z][a-zA-Z0-9]+$/.test(n) && typeof globalThis[n] === 'function'));
  }
  const isBuiltIn = (o) => {
    const d = Object.getOwnPropertyDescriptor(o, 'constructor');
    return d !== undefined && typeof d.value === 'function' && builtInNames.has(d.value.name);
  };
  const out = [];
  const seen = new Set();
  let obj = value;
  ctx.seen.push(value);
  for (let depth = 0; depth < 3; depth++) {
    obj = Object.getPrototypeOf(obj);
    if (obj === null || isBuiltIn(obj)) break;
    const keys = Reflect.ownKeys(obj);
    for (const key of keys) {
      if (key === 'constructor' || hasOwn(value, key) || seen.has(key)) continue;
      const desc = Object.getOwnPropertyDescriptor(obj, key);
      if (typeof desc.value === 'function') continue;
      const str = formatProperty(ctx, obj, recurseTimes, key, kObjectType, desc, value);
      out.push(ctx.colors ? '\u001b[2m' + str + '\u001b[22m' : str);
    }
    for (const key of keys) seen.add(key);
  }
  ctx.seen.pop();
  return out;
}

function formatRaw(ctx, value, recurseTimes, typedArray) {
  let keys;
  const ctor = constructorName(value);
  // A class instance's prototype properties, with showHidden.
  const protoProps = ctx.showHidden && ctor !== null && ctor !== 'Object' && typeof value === 'object' &&
    (recurseTimes <= ctx.depth || ctx.depth === null) ? protoProperties(ctx, value, recurseTimes) : [];
  let tag = value[Symbol.toStringTag];
  if (typeof tag !== 'string' || (tag !== '' && (ctx.showHidden ? hasOwn : isEnum)(value, Symbol.toStringTag))) tag = '';
  let base = '';
  let formatter = () => [];
  let braces;
  let noIterator = true;
  let extrasType = kObjectType;
  let tagCache;
  const tagNameOf = () => (tagCache === undefined ? (tagCache = internalName(value)) : tagCache);

  const iterable = Symbol.iterator in value;
  if (iterable || ctor === null) {
    noIterator = false;
    if (Array.isArray(value)) {
      const prefix = ctor !== 'Array' || tag !== '' ? getPrefix(ctor, tag, 'Array', '(' + value.length + ')') : '';
      keys = nonIndexKeys(value, ctx.showHidden);
      braces = [prefix + '[', ']'];
      if (value.length === 0 && keys.length === 0) return braces[0] + ']';
      extrasType = kArrayExtrasType;
      formatter = formatArray;
    } else if (isSet(value)) {
      const size = setSize.call(value);
      const prefix = getPrefix(ctor, tag, 'Set', '(' + size + ')');
      keys = getKeys(value, ctx.showHidden);
      formatter = formatSet;
      if (size === 0 && keys.length === 0) return prefix + '{}';
      braces = [prefix + '{', '}'];
    } else if (isMap(value)) {
      const size = mapSize.call(value);
      const prefix = getPrefix(ctor, tag, 'Map', '(' + size + ')');
      keys = getKeys(value, ctx.showHidden);
      formatter = formatMap;
      if (size === 0 && keys.length === 0) return prefix + '{}';
      braces = [prefix + '{', '}'];
    } else if (ArrayBuffer.isView(value) && !isInstance(value, DataView)) {
      keys = nonIndexKeys(value, ctx.showHidden);
      const fallback = ctor === null ? tagNameOf() : '';
      const prefix = getPrefix(ctor, tag, fallback, '(' + value.length + ')');
      braces = [prefix + '[', ']'];
      if (value.length === 0 && keys.length === 0 && !ctx.showHidden) return braces[0] + ']';
      formatter = formatTypedArray;
      extrasType = kArrayExtrasType;
    } else if (tagNameOf() === 'Map Iterator' || tagNameOf() === 'Set Iterator') {
      keys = getKeys(value, ctx.showHidden);
      const type = tagNameOf().slice(0, 3);
      let t = tag;
      if (t !== type + ' Iterator') t = (t !== '' ? t + '] [' : '') + type + ' Iterator';
      braces = ['[' + t + '] {', '}'];
      formatter = () => [ctx.stylize('<items unknown>', 'special')];
    } else {
      noIterator = true;
    }
  }
  if (noIterator) {
    keys = getKeys(value, ctx.showHidden);
    braces = ['{', '}'];
    let box;
    if (typeof value === 'function') {
      base = functionBase(ctx, value, ctor, tag);
      if (keys.length === 0) return ctx.stylize(base, 'special');
    } else if (ctor === 'Object') {
      if (iterable && tagNameOf() === 'Arguments') braces[0] = '[Arguments] {';
      else if (tag !== '') braces[0] = getPrefix(ctor, tag, 'Object') + '{';
      if (keys.length === 0) return braces[0] + '}';
    } else if (isInstance(value, RegExp) || (ctor === null && tagNameOf() === 'RegExp')) {
      base = RegExp.prototype.toString.call(ctor !== null ? value : new RegExp(value));
      const prefix = getPrefix(ctor, tag, 'RegExp');
      if (prefix !== 'RegExp ') base = prefix + base;
      if (keys.length === 0 || (recurseTimes > ctx.depth && ctx.depth !== null)) return ctx.stylize(base, 'regexp');
    } else if (tagNameOf() === 'Date') {
      const t = Date.prototype.getTime.call(value);
      base = Number.isNaN(t) ? 'Invalid Date' : Date.prototype.toISOString.call(value);
      const prefix = getPrefix(ctor, tag, 'Date');
      if (prefix !== 'Date ') base = prefix + base;
      if (keys.length === 0) return ctx.stylize(base, 'date');
    } else if (isError(value)) {
      base = formatError(value, ctor, tag, ctx, keys);
      if (keys.length === 0) return base;
    } else if (tagNameOf() === 'ArrayBuffer' || tagNameOf() === 'SharedArrayBuffer') {
      const prefix = getPrefix(ctor, tag, tagNameOf());
      if (typedArray === undefined) formatter = formatArrayBuffer;
      else if (keys.length === 0) return prefix + '{ byteLength: ' + formatNumber(ctx.stylize, value.byteLength, false) + ' }';
      braces[0] = prefix + '{';
      keys.unshift('byteLength');
    } else if (tagNameOf() === 'DataView') {
      braces[0] = getPrefix(ctor, tag, 'DataView') + '{';
      keys.unshift('byteLength', 'byteOffset', 'buffer');
    } else if (tagNameOf() === 'Promise') {
      braces[0] = getPrefix(ctor, tag, 'Promise') + '{';
      formatter = formatPromise;
    } else if (tagNameOf() === 'WeakSet' || tagNameOf() === 'WeakMap') {
      braces[0] = getPrefix(ctor, tag, tagNameOf()) + '{';
      formatter = () => [ctx.stylize('<items unknown>', 'special')];
    } else if (tagNameOf() === 'Module') {
      braces[0] = getPrefix(ctor, tag, 'Module') + '{';
    } else if (['Number', 'String', 'Boolean', 'BigInt', 'Symbol'].includes(tagNameOf()) && (box = boxed(value)) !== undefined) {
      const [type, prim] = box;
      if (type === 'String') keys.splice(0, prim.length);
      base = '[' + type;
      if (type !== ctor) base += ctor === null ? ' (null prototype)' : ' (' + ctor + ')';
      base += ': ' + formatPrimitive(stylizeNoColor, prim, ctx) + ']';
      if (tag !== '' && tag !== ctor) base += ' [' + tag + ']';
      if (keys.length === 0) return ctx.stylize === stylizeNoColor ? base : ctx.stylize(base, type.toLowerCase());
    } else {
      if (keys.length === 0 && protoProps.length === 0) return ctxStyle(value, ctor, tag) + '{}';
      braces[0] = ctxStyle(value, ctor, tag) + '{';
    }
  }

  if (recurseTimes > ctx.depth && ctx.depth !== null) {
    let name = ctxStyle(value, ctor, tag).slice(0, -1);
    if (ctor !== null) name = '[' + name + ']';
    return ctx.stylize(name, 'special');
  }
  recurseTimes += 1;
  if (recurseTimes > ctx.maxNesting) host.nestingLimit('a value to inspect');
  ctx.seen.push(value);
  ctx.currentDepth = recurseTimes;
  const output = formatter(ctx, value, recurseTimes);
  for (let i = 0; i < keys.length; i++) output.push(formatProperty(ctx, value, recurseTimes, keys[i], extrasType));
  output.push(...protoProps);
  if (ctx.circular !== undefined) {
    const index = ctx.circular.get(value);
    if (index !== undefined) {
      const ref = ctx.stylize('<ref *' + index + '>', 'special');
      if (ctx.compact !== true) base = base === '' ? ref : ref + ' ' + base;
      else braces[0] = ref + ' ' + braces[0];
    }
  }
  ctx.seen.pop();
  if (ctx.sorted) {
    const cmp = ctx.sorted === true ? undefined : ctx.sorted;
    if (extrasType === kObjectType) output.sort(cmp);
    else if (keys.length > 1) {
      const tail = output.splice(output.length - keys.length, keys.length).sort(cmp);
      output.push(...tail);
    }
  }
  return reduceToSingleString(ctx, output, base, braces, extrasType, recurseTimes, value);
}

const remainingText = (n) => '... ' + n + ' more item' + (n > 1 ? 's' : '');

function formatArray(ctx, value, recurseTimes) {
  const len = Math.min(Math.max(0, ctx.maxArrayLength), value.length);
  const output = [];
  for (let i = 0; i < len; i++) {
    if (!hasOwn(value, i)) return formatSparseArray(ctx, value, recurseTimes, len, output, i);
    output.push(formatProperty(ctx, value, recurseTimes, i, kArrayType));
  }
  if (value.length > len) output.push(remainingText(value.length - len));
  return output;
}

function formatSparseArray(ctx, value, recurseTimes, maxLength, output, i) {
  const keys = Object.keys(value);
  let index = i;
  for (; i < keys.length && output.length < maxLength; i++) {
    const key = keys[i];
    const n = +key;
    if (n > 2 ** 32 - 2) break;
    if ('' + index !== key) {
      if (!numberRegExp.test(key)) break;
      const empty = n - index;
      output.push(ctx.stylize('<' + empty + ' empty item' + (empty > 1 ? 's' : '') + '>', 'undefined'));
      index = n;
      if (output.length === maxLength) break;
    }
    output.push(formatProperty(ctx, value, recurseTimes, key, kArrayType));
    index++;
  }
  const remaining = value.length - index;
  if (output.length !== maxLength) {
    if (remaining > 0) output.push(ctx.stylize('<' + remaining + ' empty item' + (remaining > 1 ? 's' : '') + '>', 'undefined'));
  } else if (remaining > 0) {
    output.push(remainingText(remaining));
  }
  return output;
}

function formatTypedArray(ctx, value, recurseTimes) {
  const len = Math.min(Math.max(0, ctx.maxArrayLength), value.length);
  const output = [];
  const big = value.length > 0 && typeof value[0] === 'bigint';
  for (let i = 0; i < len; i++) output.push(big ? formatBigInt(ctx.stylize, value[i], ctx.numericSeparator) : formatNumber(ctx.stylize, value[i], ctx.numericSeparator));
  if (value.length > len) output.push(remainingText(value.length - len));
  if (ctx.showHidden) {
    ctx.indentationLvl += 2;
    for (const k of ['BYTES_PER_ELEMENT', 'length', 'byteLength', 'byteOffset', 'buffer']) {
      output.push('[' + k + ']: ' + formatValue(ctx, value[k], recurseTimes, true));
    }
    ctx.indentationLvl -= 2;
  }
  return output;
}

function formatArrayBuffer(ctx, value) {
  const bytes = new Uint8Array(value);
  const n = Math.min(ctx.maxArrayLength, bytes.length);
  const hex = [];
  for (let i = 0; i < n; i++) hex.push((bytes[i] < 16 ? '0' : '') + bytes[i].toString(16));
  let str = hex.join(' ');
  const rest = bytes.length - ctx.maxArrayLength;
  if (rest > 0) str += ' ... ' + rest + ' more byte' + (rest > 1 ? 's' : '');
  return [ctx.stylize('[Uint8Contents]', 'special') + ': <' + str + '>'];
}

function formatSet(ctx, value, recurseTimes) {
  const size = setSize.call(value);
  const max = Math.min(Math.max(0, ctx.maxArrayLength), size);
  const output = [];
  ctx.indentationLvl += 2;
  let i = 0;
  for (const v of Set.prototype.values.call(value)) {
    if (i++ >= max) break;
    output.push(formatValue(ctx, v, recurseTimes));
  }
  if (size > max) output.push(remainingText(size - max));
  ctx.indentationLvl -= 2;
  return output;
}

function formatMap(ctx, value, recurseTimes) {
  const size = mapSize.call(value);
  const max = Math.min(Math.max(0, ctx.maxArrayLength), size);
  const output = [];
  ctx.indentationLvl += 2;
  let i = 0;
  for (const [k, v] of Map.prototype.entries.call(value)) {
    if (i++ >= max) break;
    output.push(formatValue(ctx, k, recurseTimes) + ' => ' + formatValue(ctx, v, recurseTimes));
  }
  if (size > max) output.push(remainingText(size - max));
  ctx.indentationLvl -= 2;
  return output;
}

function formatPromise(ctx, value, recurseTimes) {
  const [state, result] = host.promiseState(value);
  if (state === 'pending') return [ctx.stylize('<pending>', 'special')];
  ctx.indentationLvl += 2;
  const str = formatValue(ctx, result, recurseTimes);
  ctx.indentationLvl -= 2;
  return [state === 'rejected' ? ctx.stylize('<rejected>', 'special') + ' ' + str : str];
}

// formatProperty formats value's property key; a prototype's property
// comes with its descriptor and the object whose getter it calls.
function formatProperty(ctx, value, recurseTimes, key, type, protoDesc, receiver = value) {
  let name, str;
  let extra = ' ';
  const desc = protoDesc || Object.getOwnPropertyDescriptor(value, key) || { value: value[key], enumerable: true };
  if (desc.value !== undefined) {
    const diff = ctx.compact !== true || type !== kObjectType ? 2 : 3;
    ctx.indentationLvl += diff;
    str = formatValue(ctx, desc.value, recurseTimes);
    if (diff === 3 && ctx.breakLength < stringWidth(str, ctx.colors)) extra = '\n' + ' '.repeat(ctx.indentationLvl);
    ctx.indentationLvl -= diff;
  } else if (desc.get !== undefined) {
    const label = desc.set !== undefined ? 'Getter/Setter' : 'Getter';
    const s = ctx.stylize;
    if (ctx.getters && (ctx.getters === true || (ctx.getters === 'get' && desc.set === undefined) ||
        (ctx.getters === 'set' && desc.set !== undefined))) {
      try {
        const tmp = desc.get.call(receiver);
        ctx.indentationLvl += 2;
        if (tmp === null) str = s('[' + label + ':', 'special') + ' ' + s('null', 'null') + s(']', 'special');
        else if (typeof tmp === 'object') str = s('[' + label + ']', 'special') + ' ' + formatValue(ctx, tmp, recurseTimes);
        else str = s('[' + label + ':', 'special') + ' ' + formatPrimitive(s, tmp, ctx) + s(']', 'special');
        ctx.indentationLvl -= 2;
      } catch (err) {
        str = s('[' + label + ':', 'special') + ' <Inspection threw (' + (err && err.message) + ')>' + s(']', 'special');
      }
    } else {
      str = s('[' + label + ']', 'special');
    }
  } else if (desc.set !== undefined) {
    str = ctx.stylize('[Setter]', 'special');
  } else {
    str = ctx.stylize('undefined', 'undefined');
  }
  if (type === kArrayType) return str;
  if (typeof key === 'symbol') name = '[' + ctx.stylize(escapeAll(key.toString(), 39), 'symbol') + ']';
  else if (key === '__proto__') name = "['__proto__']";
  else if (desc.enumerable === false) name = '[' + escapeAll(key, 39) + ']';
  else if (keyStrRegExp.test(key)) name = ctx.stylize(key, 'name');
  else name = ctx.stylize(strEscape(key), 'string');
  return name + ':' + extra + str;
}

function isBelowBreakLength(ctx, output, start, base) {
  let total = output.length + start;
  if (total + output.length > ctx.breakLength) return false;
  for (const o of output) {
    total += ctx.colors ? o.replace(ansiRegExp, '').length : o.length;
    if (total > ctx.breakLength) return false;
  }
  return base === '' || !base.includes('\n');
}

function reduceToSingleString(ctx, output, base, braces, extrasType, recurseTimes, value) {
  if (ctx.compact !== true) {
    if (typeof ctx.compact === 'number' && ctx.compact >= 1) {
      const entries = output.length;
      if (extrasType === kArrayExtrasType && entries > 6) output = groupArrayElements(ctx, output, value);
      // currentDepth is the depth of the innermost object formatted last.
      if (ctx.currentDepth - recurseTimes < ctx.compact && entries === output.length) {
        const start = output.length + ctx.indentationLvl + braces[0].length + base.length + 10;
        if (isBelowBreakLength(ctx, output, start, base)) {
          const joined = output.join(', ');
          if (!joined.includes('\n')) return (base ? base + ' ' : '') + braces[0] + ' ' + joined + ' ' + braces[1];
        }
      }
    }
    const ind = '\n' + ' '.repeat(ctx.indentationLvl);
    return (base ? base + ' ' : '') + braces[0] + ind + '  ' + output.join(',' + ind + '  ') + ind + braces[1];
  }
  if (isBelowBreakLength(ctx, output, 0, base)) {
    return braces[0] + (base ? ' ' + base : '') + ' ' + output.join(', ') + ' ' + braces[1];
  }
  const ind = ' '.repeat(ctx.indentationLvl);
  const ln = base === '' && braces[0].length === 1 ? ' ' : (base ? ' ' + base : '') + '\n' + ind + '  ';
  return braces[0] + ln + output.join(',\n' + ind + '  ') + ' ' + braces[1];
}

// groupArrayElements lays out more than six short array items in columns.
function groupArrayElements(ctx, output, value) {
  let total = 0;
  let maxLength = 0;
  let outputLength = output.length;
  if (ctx.maxArrayLength < output.length) outputLength--; // the "... more items" entry
  const sep = 2;
  const dataLen = new Array(outputLength);
  for (let i = 0; i < outputLength; i++) {
    const len = stringWidth(output[i], ctx.colors);
    dataLen[i] = len;
    total += len + sep;
    if (maxLength < len) maxLength = len;
  }
  const actualMax = maxLength + sep;
  if (actualMax * 3 + ctx.indentationLvl < ctx.breakLength && (total / actualMax > 5 || maxLength <= 6)) {
    const averageBias = Math.sqrt(actualMax - total / output.length);
    const biasedMax = Math.max(actualMax - 3 - averageBias, 1);
    const columns = Math.min(
      Math.round(Math.sqrt(2.5 * biasedMax * outputLength) / biasedMax),
      Math.floor((ctx.breakLength - ctx.indentationLvl) / actualMax),
      ctx.compact * 4,
      15,
    );
    if (columns <= 1) return output;
    const maxLineLength = [];
    for (let i = 0; i < columns; i++) {
      let lineMax = 0;
      for (let j = i; j < output.length; j += columns) if (dataLen[j] > lineMax) lineMax = dataLen[j];
      maxLineLength.push(lineMax + sep);
    }
    let padStart = true;
    if (value !== undefined) {
      for (let i = 0; i < output.length; i++) {
        if (typeof value[i] !== 'number' && typeof value[i] !== 'bigint') { padStart = false; break; }
      }
    }
    const pad = (s, n) => (padStart ? s.padStart(n, ' ') : s.padEnd(n, ' '));
    const tmp = [];
    for (let i = 0; i < outputLength; i += columns) {
      const max = Math.min(i + columns, outputLength);
      let str = '';
      let j = i;
      for (; j < max - 1; j++) str += pad(output[j] + ', ', maxLineLength[j - i] + output[j].length - dataLen[j]);
      if (padStart) str += output[j].padStart(maxLineLength[j - i] + output[j].length - dataLen[j] - sep, ' ');
      else str += output[j];
      tmp.push(str);
    }
    if (ctx.maxArrayLength < output.length) tmp.push(output[outputLength]);
    output = tmp;
  }
  return output;
}

function inspect(value, opts) {
  const ctx = { indentationLvl: 0, seen: [], currentDepth: 0, stylize: stylizeNoColor, ...defaultOptions };
  if (arguments.length > 1) {
    if (arguments.length > 2) {
      if (arguments[2] !== undefined) ctx.depth = arguments[2];
      if (arguments.length > 3 && arguments[3] !== undefined) ctx.colors = arguments[3];
    }
    if (typeof opts === 'boolean') ctx.showHidden = opts;
    else if (opts) {
      for (const k of Object.keys(opts)) {
        if (hasOwn(defaultOptions, k) || k === 'stylize') ctx[k] = opts[k];
        else if (ctx.userOptions === undefined) ctx.userOptions = opts;
      }
    }
  }
  if (ctx.colors) ctx.stylize = stylizeWithColor;
  if (ctx.maxArrayLength === null) ctx.maxArrayLength = Infinity;
  if (ctx.maxStringLength === null) ctx.maxStringLength = Infinity;
  ctx.maxNesting = host.maxNesting; // nesting is bounded whatever the depth asked
  return formatValue(ctx, value, 0);
}
inspect.custom = customInspect;
Object.defineProperty(inspect, 'defaultOptions', {
  get() { return defaultOptions; },
  set(o) {
    if (o === null || typeof o !== 'object') throw invalidArgType('options', 'object', o);
    Object.assign(defaultOptions, o);
  },
});
inspect.colors = colors;
inspect.styles = styles;

function invalidArgType(name, type, v) {
  let got;
  if (v == null) got = ' Received ' + v;
  else if (typeof v === 'function') got = ' Received function ' + (v.name || '<anonymous>');
  else if (typeof v === 'object') got = ' Received ' + (v.constructor && v.constructor.name ? 'an instance of ' + v.constructor.name : inspect(v, { depth: -1 }));
  else {
    let s = inspect(v, { colors: false });
    if (s.length > 28) s = s.slice(0, 25) + '...';
    got = ' Received type ' + typeof v + ' (' + s + ')';
  }
  const e = new TypeError('The "' + name + '" argument must be of type ' + type + '.' + got);
  e.code = 'ERR_INVALID_ARG_TYPE';
  return e;
}

// hasBuiltInToString tells whether an object's string conversion is a
// built-in one (then %s inspects it) rather than the program's.
// hasBuiltInToString is Node's: an object whose toString (if it has a
// callable one) comes from a built-in prototype, and without its own
// Symbol.toPrimitive, is inspected by %s rather than stringified.
function hasBuiltInToString(v) {
  // A toPrimitive of the program's makes %s stringify; the built-in ones
  // (Date's, Symbol's) leave the object to be inspected, as in Node.
  const toPrimitive = v[Symbol.toPrimitive];
  if (typeof toPrimitive === 'function' && toPrimitive !== Date.prototype[Symbol.toPrimitive] &&
    toPrimitive !== Symbol.prototype[Symbol.toPrimitive]) return false;
  if (typeof v.toString !== 'function') return true;
  if (hasOwn(v, 'toString')) return false;
  let holder = v;
  do { holder = Object.getPrototypeOf(holder); } while (holder !== null && !hasOwn(holder, 'toString'));
  if (holder === null) return true;
  const d = Object.getOwnPropertyDescriptor(holder, 'constructor');
  return d !== undefined && typeof d.value === 'function' && builtinNames.has(d.value.name);
}

let circularMessage;
function tryStringify(v) {
  try {
    return JSON.stringify(v);
  } catch (err) {
    if (circularMessage === undefined) {
      const a = {};
      a.a = a;
      try { JSON.stringify(a); } catch (e) { circularMessage = String(e.message).split('\n')[0]; }
    }
    if (err && err.name === 'TypeError' && String(err.message).split('\n')[0] === circularMessage) return '[Circular]';
    throw err;
  }
}

function formatWithOptionsInternal(opts, args) {
  const first = args[0];
  let a = 0;
  let str = '';
  let join = '';
  const num = (n) => formatNumber(stylizeNoColor, n, opts && opts.numericSeparator !== undefined ? opts.numericSeparator : defaultOptions.numericSeparator);
  const big = (n) => formatBigInt(stylizeNoColor, n, opts && opts.numericSeparator !== undefined ? opts.numericSeparator : defaultOptions.numericSeparator);
  if (typeof first === 'string') {
    if (args.length === 1) return first;
    let tmp;
    let lastPos = 0;
    for (let i = 0; i < first.length - 1; i++) {
      if (first.charCodeAt(i) !== 37) continue; // '%'
      const next = first.charCodeAt(++i);
      if (a + 1 !== args.length) {
        switch (next) {
          case 115: { // s
            const arg = args[++a];
            if (typeof arg === 'number') tmp = num(arg);
            else if (typeof arg === 'bigint') tmp = big(arg);
            else if (typeof arg !== 'object' || arg === null || !hasBuiltInToString(arg)) tmp = String(arg);
            else tmp = inspect(arg, { ...opts, compact: 3, colors: false, depth: 0 });
            break;
          }
          case 106: tmp = tryStringify(args[++a]); break; // j
          case 100: { // d
            const arg = args[++a];
            tmp = typeof arg === 'bigint' ? big(arg) : typeof arg === 'symbol' ? 'NaN' : num(Number(arg));
            break;
          }
          case 79: tmp = inspect(args[++a], opts); break; // O
          case 111: tmp = inspect(args[++a], { ...opts, showHidden: true, showProxy: true, depth: 4 }); break; // o
          case 105: { // i
            const arg = args[++a];
            if (typeof arg === 'bigint') tmp = big(arg);
            else if (typeof arg === 'symbol') tmp = 'NaN';
            else {
              // goja's parseInt drops the sign of a negative zero ("-0.5").
              const s = String(arg);
              const n = parseInt(s);
              tmp = num(n === 0 && /^\s*-/.test(s) ? -0 : n);
            }
            break;
          }
          case 102: { // f
            const arg = args[++a];
            tmp = typeof arg === 'symbol' ? 'NaN' : num(parseFloat(arg));
            break;
          }
          case 99: a += 1; tmp = ''; break; // c
          case 37: str += first.slice(lastPos, i); lastPos = i + 1; continue; // %%
          default: continue;
        }
        if (lastPos !== i - 1) str += first.slice(lastPos, i - 1);
        str += tmp;
        lastPos = i + 1;
      } else if (next === 37) {
        str += first.slice(lastPos, i);
        lastPos = i + 1;
      }
    }
    if (lastPos !== 0) {
      a++;
      join = ' ';
      if (lastPos < first.length) str += first.slice(lastPos);
    }
  }
  while (a < args.length) {
    const v = args[a];
    str += join;
    str += typeof v !== 'string' ? inspect(v, opts) : v;
    join = ' ';
    a++;
  }
  return str;
}

function format(...args) { return formatWithOptionsInternal(undefined, args); }
function formatWithOptions(opts, ...args) {
  if (opts === null || typeof opts !== 'object') throw invalidArgType('inspectOptions', 'object', opts);
  return formatWithOptionsInternal(opts, args);
}

function promisify(original) {
  if (typeof original !== 'function') throw invalidArgType('original', 'function', original);
  const custom = original[customPromisify];
  if (custom !== undefined) {
    if (typeof custom !== 'function') throw invalidArgType('util.promisify.custom', 'function', custom);
    return custom;
  }
  function fn(...args) {
    return new Promise((resolve, reject) => {
      original.call(this, ...args, (err, ...values) => (err ? reject(err) : resolve(values[0])));
    });
  }
  Object.setPrototypeOf(fn, Object.getPrototypeOf(original));
  Object.defineProperty(fn, customPromisify, { value: fn, enumerable: false, writable: false, configurable: true });
  const descs = Object.getOwnPropertyDescriptors(original);
  for (const k of Reflect.ownKeys(descs)) {
    try { Object.defineProperty(fn, k, descs[k]); } catch { /* a non-configurable own property of fn */ }
  }
  return fn;
}
promisify.custom = customPromisify;

function callbackify(original) {
  if (typeof original !== 'function') throw invalidArgType('original', 'function', original);
  function callbackified(...args) {
    const last = args.pop();
    if (typeof last !== 'function') throw invalidArgType('last argument', 'function', last);
    const cb = last.bind(this);
    const onRejected = (reason) => {
      if (!reason) {
        const e = new Error('Promise was rejected with falsy value');
        e.code = 'ERR_FALSY_VALUE_REJECTION';
        e.reason = reason;
        reason = e;
      }
      cb(reason);
    };
    Reflect.apply(original, this, args).then((v) => process.nextTick(cb, null, v), (e) => process.nextTick(onRejected, e));
  }
  Object.setPrototypeOf(callbackified, Object.getPrototypeOf(original));
  const descs = Object.getOwnPropertyDescriptors(original);
  for (const k of Reflect.ownKeys(descs)) {
    if (k === 'length' || k === 'name') continue;
    try { Object.defineProperty(callbackified, k, descs[k]); } catch { /* non-configurable */ }
  }
  return callbackified;
}

// deprecate wraps fn to emit a DeprecationWarning on its first call (once
// per code, as Node does).
const warnedCodes = new Set();
function deprecate(fn, msg, code) {
  if (typeof fn !== 'function') throw invalidArgType('fn', 'function', fn);
  if (code !== undefined) require('nook:errors.js').validateString(code, 'code');
  let warned = false;
  function deprecated(...args) {
    if (!warned && !(process.noDeprecation)) {
      warned = true;
      if (code === undefined || !warnedCodes.has(code)) {
        if (code !== undefined) warnedCodes.add(code);
        process.emitWarning(msg, 'DeprecationWarning', code, deprecated);
      }
    }
    return new.target ? Reflect.construct(fn, args, new.target) : fn.apply(this, args);
  }
  Object.setPrototypeOf(deprecated, fn);
  if (fn.prototype) deprecated.prototype = fn.prototype;
  return deprecated;
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

// parseArgs parses command-line arguments as Node's util.parseArgs does:
// long (--name, --name=value) and short (-n, -abc, -nVALUE) options,
// "--" ending the options, strict checks, defaults, and tokens.
function parseArgsError(code, msg) {
  const e = new TypeError(msg);
  e.code = code;
  return e;
}
function parseArgs(config = {}) {
  if (config === null || typeof config !== 'object') throw invalidArgType('config', 'object', config);
  const args = config.args !== undefined ? config.args : process.argv.slice(2);
  const strict = config.strict !== undefined ? !!config.strict : true;
  const allowPositionals = config.allowPositionals !== undefined ? !!config.allowPositionals : !strict;
  const allowNegative = !!config.allowNegative;
  const wantTokens = !!config.tokens;
  const options = config.options || {};
  if (!Array.isArray(args)) throw invalidArgType('args', 'Array', args);
  for (const [name, o] of Object.entries(options)) {
    if (o === null || typeof o !== 'object') throw invalidArgType(`options.${name}`, 'object', o);
    if (o.type !== 'string' && o.type !== 'boolean') {
      const e = new TypeError(`The property 'options.${name}.type' must be one of: 'string', 'boolean'. Received ${inspect(o.type)}`);
      e.code = 'ERR_INVALID_ARG_VALUE';
      throw e;
    }
    if (o.short !== undefined && (typeof o.short !== 'string' || o.short.length !== 1)) {
      const e = new TypeError(`The property 'options.${name}.short' must be a single character. Received ${inspect(o.short)}`);
      e.code = 'ERR_INVALID_ARG_VALUE';
      throw e;
    }
  }
  const byShort = (c) => Object.keys(options).find((n) => options[n].short === c);
  const tokens = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--') {
      tokens.push({ kind: 'option-terminator', index: i });
      for (let j = i + 1; j < args.length; j++) tokens.push({ kind: 'positional', index: j, value: args[j] });
      break;
    }
    if (arg.length > 1 && arg[0] === '-' && arg[1] !== '-') {
      // A short option, a group of them, or one with its value attached.
      const first = arg[1];
      const name = byShort(first) || first;
      const o = options[name];
      if (arg.length === 2) {
        let value, inlineValue;
        if (o && o.type === 'string' && i + 1 < args.length) { value = args[++i]; inlineValue = false; }
        tokens.push({ kind: 'option', name, rawName: arg, index: i - (inlineValue === false ? 1 : 0), value, inlineValue });
        continue;
      }
      if (o && o.type === 'string') {
        tokens.push({ kind: 'option', name, rawName: '-' + first, index: i, value: arg.slice(2), inlineValue: true });
        continue;
      }
      for (let k = 1; k < arg.length; k++) {
        const c = arg[k];
        const n = byShort(c) || c;
        const oc = options[n];
        if (oc && oc.type === 'string' && k < arg.length - 1) {
          tokens.push({ kind: 'option', name: n, rawName: '-' + c, index: i, value: arg.slice(k + 1), inlineValue: true });
          break;
        }
        let value, inlineValue;
        if (oc && oc.type === 'string' && k === arg.length - 1 && i + 1 < args.length) { value = args[i + 1]; inlineValue = false; }
        tokens.push({ kind: 'option', name: n, rawName: '-' + c, index: i, value, inlineValue });
        if (inlineValue === false) i++;
      }
      continue;
    }
    if (arg.startsWith('--') && arg.length > 2) {
      const eq = arg.indexOf('=');
      if (eq !== -1) {
        tokens.push({ kind: 'option', name: arg.slice(2, eq), rawName: arg.slice(0, eq), index: i, value: arg.slice(eq + 1), inlineValue: true });
        continue;
      }
      const name = arg.slice(2);
      const o = options[name];
      let value, inlineValue;
      if (o && o.type === 'string' && i + 1 < args.length) { value = args[i + 1]; inlineValue = false; }
      tokens.push({ kind: 'option', name, rawName: arg, index: i, value, inlineValue });
      if (inlineValue === false) i++;
      continue;
    }
    tokens.push({ kind: 'positional', index: i, value: arg });
  }
  const values = Object.create(null);
  const positionals = [];
  const label = (name) => { const o = options[name]; return o && o.short ? `-${o.short}, --${name}` : `--${name}`; };
  for (const t of tokens) {
    if (t.kind === 'positional') {
      if (!allowPositionals) {
        throw parseArgsError('ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL', `Unexpected argument '${t.value}'. This command does not take positional arguments`);
      }
      positionals.push(t.value);
      continue;
    }
    if (t.kind !== 'option') continue;
    let name = t.name;
    let value = t.value;
    let o = options[name];
    if (!o && allowNegative && name.startsWith('no-') && options[name.slice(3)] && options[name.slice(3)].type === 'boolean' && value === undefined) {
      name = name.slice(3);
      o = options[name];
      value = false;
      t.name = name;
    }
    if (strict) {
      if (!o) {
        const raw = t.rawName;
        throw parseArgsError('ERR_PARSE_ARGS_UNKNOWN_OPTION', allowPositionals
          ? `Unknown option '${raw}'. To specify a positional argument starting with a '-', place it at the end of the command after '--', as in '-- ${JSON.stringify(raw)}`
          : `Unknown option '${raw}'`);
      }
      if (o.type === 'string' && typeof value !== 'string') {
        throw parseArgsError('ERR_PARSE_ARGS_INVALID_OPTION_VALUE', `Option '${label(name)} <value>' argument missing`);
      }
      if (o.type === 'boolean' && typeof value === 'string') {
        throw parseArgsError('ERR_PARSE_ARGS_INVALID_OPTION_VALUE', `Option '${label(name)}' does not take an argument`);
      }
      if (o.type === 'string' && t.inlineValue === false && value.startsWith('-')) {
        throw parseArgsError('ERR_PARSE_ARGS_INVALID_OPTION_VALUE', `Option '${t.rawName}' argument is ambiguous.\nDid you forget to specify the option argument for '${t.rawName}'?\nTo specify an option argument starting with a dash use '${t.rawName.startsWith('--') ? t.rawName + '=-XYZ' : '--' + name + '=-XYZ\' or \'' + t.rawName + '-XYZ'}'.`);
      }
    }
    const v = value === undefined ? true : value;
    if (o && o.multiple) (values[name] || (values[name] = [])).push(v);
    else values[name] = v;
  }
  for (const [name, o] of Object.entries(options)) {
    if (o.default !== undefined && values[name] === undefined) values[name] = o.default;
  }
  const out = { values, positionals };
  if (wantTokens) out.tokens = tokens.map((t) => (t.kind === 'option' && t.value === undefined ? { ...t, value: undefined, inlineValue: undefined } : t));
  return out;
}

// getSystemErrorName names a (negative) errno, as libuv does on Linux.
function getSystemErrorName(err) {
  if (typeof err !== 'number') throw invalidArgType('err', 'number', err);
  if (err >= 0 || !Number.isSafeInteger(err)) {
    const e = new RangeError(`The value of "err" is out of range. It must be a negative integer. Received ${err}`);
    e.code = 'ERR_OUT_OF_RANGE';
    throw e;
  }
  const errno = require('node:os').constants.errno;
  for (const k of Object.keys(errno)) if (errno[k] === -err) return k;
  return `Unknown system error ${err}`;
}

// Type checks by internal class (Object.prototype.toString), which, unlike
// instanceof, a subclass or a changed prototype does not fool.
const tagIs = (name) => (v) => v !== null && (typeof v === 'object' || typeof v === 'function') && internalName(v) === name;
const typedTag = (v) => (ArrayBuffer.isView(v) && !(internalName(v) === 'DataView') ? internalName(v) : undefined);
const boxedIs = (type) => (v) => { const b = boxed(v); return b !== undefined && b[0] === type; };
const types = {
  isDate,
  isRegExp: (v) => isInstance(v, RegExp),
  isPromise: tagIs('Promise'),
  isMap,
  isSet,
  isWeakMap: tagIs('WeakMap'),
  isWeakSet: tagIs('WeakSet'),
  isMapIterator: tagIs('Map Iterator'),
  isSetIterator: tagIs('Set Iterator'),
  isGeneratorObject: tagIs('Generator'),
  isArrayBuffer: tagIs('ArrayBuffer'),
  isSharedArrayBuffer: tagIs('SharedArrayBuffer'),
  isAnyArrayBuffer: (v) => tagIs('ArrayBuffer')(v) || tagIs('SharedArrayBuffer')(v),
  isArrayBufferView: (v) => ArrayBuffer.isView(v),
  isTypedArray: (v) => typedTag(v) !== undefined,
  isDataView: tagIs('DataView'),
  isNativeError: (v) => isInstance(v, Error),
  isAsyncFunction: (v) => typeof v === 'function' && isAsyncFn(v),
  isGeneratorFunction: (v) => typeof v === 'function' && isGeneratorFn(v),
  isBoxedPrimitive: (v) => boxed(v) !== undefined,
  isNumberObject: boxedIs('Number'),
  isStringObject: boxedIs('String'),
  isBooleanObject: boxedIs('Boolean'),
  isBigIntObject: boxedIs('BigInt'),
  isSymbolObject: boxedIs('Symbol'),
  isArgumentsObject: tagIs('Arguments'),
  isModuleNamespaceObject: tagIs('Module'),
  isProxy: () => false,
  isExternal: () => false,
  isKeyObject: () => false,
  isCryptoKey: () => false,
};
for (const n of ['Int8Array', 'Uint8Array', 'Uint8ClampedArray', 'Int16Array', 'Uint16Array', 'Int32Array', 'Uint32Array',
  'Float32Array', 'Float64Array', 'BigInt64Array', 'BigUint64Array']) {
  types['is' + n] = (v) => typedTag(v) === n;
}

module.exports = {
  format,
  formatWithOptions,
  inspect,
  promisify,
  callbackify,
  isDeepStrictEqual: (a, b) => isDeepStrictEqual(a, b, true),
  _deepEqual: isDeepStrictEqual,
  types,
  TextEncoder,
  TextDecoder,
  deprecate,
  debuglog: () => Object.assign(() => {}, { enabled: false }),
  debug: () => Object.assign(() => {}, { enabled: false }),
  inherits(ctor, superCtor) {
    // As Node's: super_ is a non-enumerable property, and only the
    // prototypes are linked (the constructors' statics are not).
    const { makeError } = require('nook:errors.js');
    if (ctor === undefined || ctor === null) throw makeError('ERR_INVALID_ARG_TYPE', 'ctor', 'Function', ctor);
    if (superCtor === undefined || superCtor === null) throw makeError('ERR_INVALID_ARG_TYPE', 'superCtor', 'Function', superCtor);
    if (superCtor.prototype === undefined) throw makeError('ERR_INVALID_ARG_TYPE', 'superCtor.prototype', 'Object', superCtor.prototype);
    Object.defineProperty(ctor, 'super_', { value: superCtor, writable: true, configurable: true });
    Object.setPrototypeOf(ctor.prototype, superCtor.prototype);
  },
  isArray: Array.isArray,
  stripVTControlCharacters,
  parseArgs,
  parseEnv: (content) => require('nook:dotenv.js').parseEnv(content),
  getSystemErrorName,
  styleText: (f, text) => String(text),
  toUSVString: (s) => String(s).toWellFormed ? String(s).toWellFormed() : String(s),
};
// The console's table layout measures cells as inspect does.
Object.defineProperty(module.exports, '_stringWidth', { value: stringWidth, enumerable: false });
