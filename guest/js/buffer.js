'use strict';
// node:buffer — the npm package "buffer" (vendor_buffer.js, bundled by
// npm/build.go) with what Node has and it lacks: the base64url
// encoding, ERR_UNKNOWN_ENCODING, Node's constructor name, and UTF-8
// encoding and decoding done in Go (large files are read as Buffers).

const vendor = require('nook:vendor_buffer.js');

// Node 25's maxima on 64-bit hosts: a Buffer of at most 2^53 - 1 bytes
// (V8's largest typed array) and a string of at most 2^29 - 24 UTF-16
// units (V8's). Past them Node's errors are thrown before anything is
// allocated; below them a run's MaxAllocBytes still applies (guards.js).
const kMaxLength = Number.MAX_SAFE_INTEGER;
const kStringMaxLength = 2 ** 29 - 24;
const { Buffer } = vendor;
const proto = Buffer.prototype;

Object.defineProperty(Buffer, 'name', { value: 'Buffer' });

const unknownEncoding = (enc) => {
  const e = new TypeError('Unknown encoding: ' + enc);
  e.code = 'ERR_UNKNOWN_ENCODING';
  return e;
};

// norm returns the canonical name of an encoding, or undefined.
const norm = (enc) => {
  switch (enc) {
    case undefined: case null: case 'utf8': case 'utf-8': return 'utf8';
    case 'hex': case 'base64': case 'base64url': case 'ascii': case 'latin1': case 'utf16le': return enc;
    case 'binary': return 'latin1';
    case 'ucs2': case 'ucs-2': case 'utf-16le': return 'utf16le';
  }
  const l = String(enc).toLowerCase();
  return l === enc ? undefined : norm(l);
};

const toUrl = (b64) => b64.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
const fromUrl = (s) => s.replace(/-/g, '+').replace(/_/g, '/');
const wrap = (u8) => Object.setPrototypeOf(u8, proto);

// Base64 and hex decoding as Node's: base64 takes both alphabets, skips
// characters outside them and stops at the first '='; a two-byte character
// counts as its low byte (Node reads the string's UTF-16 units as bytes).
// Hex stops at the first pair that is not hex.
const b64 = new Int8Array(256).fill(-1);
for (let i = 0; i < 64; i++) b64['ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'.charCodeAt(i)] = i;
b64[0x2d] = 62; b64[0x5f] = 63;
function base64ByteLength(str) {
  let n = str.length;
  if (n > 0 && str.charCodeAt(n - 1) === 0x3d) n--;
  if (n > 1 && str.charCodeAt(n - 1) === 0x3d) n--;
  return (n * 3) >>> 2;
}
function decodeBase64(str) {
  const out = new Uint8Array(base64ByteLength(str));
  let acc = 0, bits = 0, n = 0;
  for (let i = 0; i < str.length && n < out.length; i++) {
    const c = str.charCodeAt(i) & 0xff;
    if (c === 0x3d) break;
    const v = b64[c];
    if (v < 0) continue;
    acc = ((acc << 6) | v) & 0xffffff;
    bits += 6;
    if (bits >= 8) { bits -= 8; out[n++] = (acc >> bits) & 0xff; }
  }
  return out.subarray(0, n);
}
const hexv = (c) => (c >= 48 && c <= 57 ? c - 48 : c >= 65 && c <= 70 ? c - 55 : c >= 97 && c <= 102 ? c - 87 : -1);
function decodeHex(str) {
  const out = new Uint8Array(str.length >>> 1);
  let i = 0;
  for (; i < out.length; i++) {
    const a = hexv(str.charCodeAt(2 * i)), b = hexv(str.charCodeAt(2 * i + 1));
    if (a < 0 || b < 0) break;
    out[i] = a * 16 + b;
  }
  return out.subarray(0, i);
}
const decoders = { base64: decodeBase64, base64url: decodeBase64, hex: decodeHex };

const vFrom = Buffer.from;
Buffer.from = function from(value, enc, length) {
  if (typeof value === 'string') {
    const e = norm(enc === '' ? undefined : enc);
    if (e === undefined) throw unknownEncoding(enc);
    if (e === 'utf8') return wrap(host.utf8Encode(value));
    if (decoders[e]) return vFrom.call(Buffer, decoders[e](value));
    return vFrom.call(Buffer, value, e);
  }
  if (value === null || (typeof value !== 'object' && typeof value !== 'function')) {
    throw invalidArg('first argument', 'of type string or an instance of Buffer, ArrayBuffer, or Array or an Array-like Object', value);
  }
  // An object that only inherits from ArrayBuffer.prototype is no
  // ArrayBuffer (its byteLength getter throws): Node rejects it.
  if (!ArrayBuffer.isView(value) && value instanceof ArrayBuffer && !isRealArrayBuffer(value)) {
    throw invalidArg('first argument', 'of type string or an instance of Buffer, ArrayBuffer, or Array or an Array-like Object', value);
  }
  if (!ArrayBuffer.isView(value) && value instanceof ArrayBuffer) {
    // Node's fromArrayBuffer: a NaN offset is 0, a length <= 0 is 0, and
    // either past the end is ERR_BUFFER_OUT_OF_BOUNDS.
    const { makeError } = require('nook:errors.js');
    let off = enc === undefined ? 0 : +enc;
    if (Number.isNaN(off)) off = 0;
    const max = value.byteLength - off;
    if (max < 0) throw makeError('ERR_BUFFER_OUT_OF_BOUNDS', 'offset');
    let len;
    if (length === undefined) len = max;
    else { len = +length; if (len > 0) { if (len > max) throw makeError('ERR_BUFFER_OUT_OF_BOUNDS', 'length'); } else len = 0; }
    return vFrom.call(Buffer, value, off, len);
  }
  return vFrom.call(Buffer, value, enc, length);
};

const abByteLength = Object.getOwnPropertyDescriptor(ArrayBuffer.prototype, 'byteLength').get;
const isRealArrayBuffer = (v) => { try { abByteLength.call(v); return true; } catch { return false; } };

// Node accepts any Uint8Array where a Buffer is compared or searched.
const asBuffer = (v) => (v instanceof Uint8Array && !(v instanceof Buffer) ? vFrom.call(Buffer, v.buffer, v.byteOffset, v.byteLength) : v);
const invalidArg = (name, what, v) => {
  const e = new TypeError(`The ${name} must be ${what}.` + received(v));
  e.code = 'ERR_INVALID_ARG_TYPE';
  return e;
};
const vCompare = Buffer.compare;
Buffer.compare = function compare(a, b) {
  if (!(a instanceof Uint8Array)) throw invalidArg('"buf1" argument', 'an instance of Buffer or Uint8Array', a);
  if (!(b instanceof Uint8Array)) throw invalidArg('"buf2" argument', 'an instance of Buffer or Uint8Array', b);
  return vCompare(asBuffer(a), asBuffer(b));
};
const vProtoCompare = proto.compare;
// compare is Node's: integer offsets within bounds (no coercion), then
// the two ranges compared byte by byte.
proto.compare = function compare(target, targetStart, targetEnd, sourceStart, sourceEnd) {
  if (!(target instanceof Uint8Array)) throw invalidArg('"target" argument', 'an instance of Buffer or Uint8Array', target);
  if (arguments.length === 1) return vProtoCompare.call(this, asBuffer(target));
  const { validateInteger, makeError } = require('nook:errors.js');
  if (targetStart === undefined) targetStart = 0; else validateInteger(targetStart, 'targetStart', 0, kMaxLength);
  if (targetEnd === undefined) targetEnd = target.length; else validateInteger(targetEnd, 'targetEnd', 0, target.length);
  if (sourceStart === undefined) sourceStart = 0; else validateInteger(sourceStart, 'sourceStart', 0, kMaxLength);
  if (sourceEnd === undefined) sourceEnd = this.length; else validateInteger(sourceEnd, 'sourceEnd', 0, this.length);
  if (sourceStart >= sourceEnd) return targetStart >= targetEnd ? 0 : -1;
  if (targetStart >= targetEnd) return 1;
  if (sourceStart > this.length) throw makeError('ERR_OUT_OF_RANGE', 'sourceStart', `>= 0 && <= ${this.length}`, sourceStart);
  if (targetStart > target.length) throw makeError('ERR_OUT_OF_RANGE', 'targetStart', `>= 0 && <= ${target.length}`, targetStart);
  const sl = sourceEnd - sourceStart, tl = targetEnd - targetStart;
  const n = Math.min(sl, tl, this.length - sourceStart);
  for (let i = 0; i < n; i++) {
    const x = this[sourceStart + i], y = target[targetStart + i];
    if (x !== y) return x < y ? -1 : 1;
  }
  return sl === tl ? 0 : sl < tl ? -1 : 1;
};
const vEquals = proto.equals;
proto.equals = function equals(other) {
  if (!(other instanceof Uint8Array)) throw invalidArg('"otherBuffer" argument', 'an instance of Buffer or Uint8Array', other);
  return vEquals.call(this, asBuffer(other));
};
const vConcat = Buffer.concat;
Buffer.concat = function concat(list, length) {
  if (!Array.isArray(list)) throw invalidArg('"list" argument', 'an instance of Array', list);
  for (let i = 0; i < list.length; i++) {
    if (!(list[i] instanceof Uint8Array)) throw invalidArg(`"list[${i}]" argument`, 'an instance of Buffer or Uint8Array', list[i]);
  }
  if (length !== undefined) require('nook:errors.js').validateInteger(length, 'length', 0, kMaxLength);
  return vConcat.call(Buffer, list.map(asBuffer), length);
};
for (const name of ['alloc', 'allocUnsafe', 'allocUnsafeSlow']) {
  const orig = Buffer[name];
  Buffer[name] = { [name](size, ...rest) {
    if (typeof size !== 'number') throw invalidArg('"size" argument', 'of type number', size);
    if (!(size >= 0 && size <= kMaxLength)) {
      throw require('nook:errors.js').makeError('ERR_OUT_OF_RANGE', 'size', `>= 0 && <= ${kMaxLength}`, size);
    }
    // Node's alloc fills as buf.fill(fill, 0, size, encoding) does.
    if (name === 'alloc' && rest[0] !== undefined && rest[0] !== 0 && size > 0) return orig.call(Buffer, size).fill(rest[0], 0, size, rest[1]);
    return orig.call(Buffer, size, ...rest);
  } }[name];
}
const vIndexOf = proto.indexOf;
for (const name of ['indexOf', 'lastIndexOf', 'includes']) {
  // includes is indexOf's search (the package's calls this.indexOf).
  const orig = name === 'includes' ? vIndexOf : proto[name];
  proto[name] = { [name](val, byteOffset, enc) {
    if (typeof val !== 'number' && typeof val !== 'string' && !(val instanceof Uint8Array)) {
      throw require('nook:errors.js').makeError('ERR_INVALID_ARG_TYPE', 'value', ['number', 'string', 'Buffer', 'Uint8Array'], val);
    }
    // An empty needle is found at byteOffset (clamped to the length).
    if ((typeof val === 'string' && val.length === 0) || (val instanceof Uint8Array && val.length === 0)) {
      let off = byteOffset === undefined || typeof byteOffset === 'string' ? (name === 'lastIndexOf' ? this.length : 0) : Math.trunc(+byteOffset) || 0;
      if (off < 0) off = Math.max(0, this.length + off);
      off = Math.min(off, this.length);
      return name === 'includes' ? true : off;
    }
    const i = orig.call(asBuffer(this), val instanceof Uint8Array ? asBuffer(val) : val, byteOffset, enc);
    return name === 'includes' ? i !== -1 : i;
  } }[name];
}

Buffer.copyBytesFrom = function copyBytesFrom(view, offset = 0, length) {
  if (!ArrayBuffer.isView(view) || view instanceof DataView) throw invalidArg('"view" argument', 'an instance of TypedArray', view);
  const size = view.BYTES_PER_ELEMENT;
  const end = length === undefined ? view.length : Math.min(view.length, offset + length);
  if (offset >= view.length || end <= offset) return Buffer.alloc(0);
  const bytes = new Uint8Array(view.buffer, view.byteOffset + offset * size, (end - offset) * size);
  return vFrom.call(Buffer, bytes);
};

// copy is Node's: both ends Uint8Arrays, integer positions (others
// truncated, NaN 0), errors for negative ones, and the bytes copied as
// if through a temporary (overlap is safe).
const toInteger = (n, def) => {
  n = +n;
  if (!Number.isNaN(n) && n >= Number.MIN_SAFE_INTEGER && n <= Number.MAX_SAFE_INTEGER) return n % 1 === 0 ? n : Math.floor(n);
  return def;
};
proto.copy = function copy(target, targetStart, sourceStart, sourceEnd) {
  const { makeError } = require('nook:errors.js');
  if (!(this instanceof Uint8Array)) throw makeError('ERR_INVALID_ARG_TYPE', 'source', ['Buffer', 'Uint8Array'], this);
  if (!ArrayBuffer.isView(target)) throw makeError('ERR_INVALID_ARG_TYPE', 'target', ['Buffer', 'Uint8Array'], target);
  if (!(target instanceof Uint8Array)) target = new Uint8Array(target.buffer, target.byteOffset, target.byteLength);
  const slen = this.byteLength;
  if (targetStart === undefined) targetStart = 0;
  else {
    targetStart = Number.isInteger(targetStart) ? targetStart : toInteger(targetStart, 0);
    if (targetStart < 0) throw makeError('ERR_OUT_OF_RANGE', 'targetStart', '>= 0', targetStart);
  }
  if (sourceStart === undefined) sourceStart = 0;
  else {
    sourceStart = Number.isInteger(sourceStart) ? sourceStart : toInteger(sourceStart, 0);
    if (sourceStart < 0 || sourceStart > slen) throw makeError('ERR_OUT_OF_RANGE', 'sourceStart', `>= 0 && <= ${slen}`, sourceStart);
  }
  if (sourceEnd === undefined) sourceEnd = slen;
  else {
    sourceEnd = Number.isInteger(sourceEnd) ? sourceEnd : toInteger(sourceEnd, 0);
    if (sourceEnd < 0) throw makeError('ERR_OUT_OF_RANGE', 'sourceEnd', '>= 0', sourceEnd);
  }
  if (targetStart >= target.byteLength || sourceStart >= sourceEnd) return 0;
  if (sourceEnd - sourceStart > target.byteLength - targetStart) sourceEnd = sourceStart + target.byteLength - targetStart;
  let nb = sourceEnd - sourceStart;
  if (nb > slen - sourceStart) nb = slen - sourceStart;
  if (nb <= 0) return 0;
  target.set(new Uint8Array(this.buffer, this.byteOffset + sourceStart, nb), targetStart);
  return nb;
};

const vByteLength = Buffer.byteLength;
Buffer.byteLength = function byteLength(s, enc) {
  if (typeof s === 'string') {
    const e = norm(enc) || 'utf8';
    if (e === 'base64' || e === 'base64url') return base64ByteLength(s);
    if (e === 'hex') return s.length >>> 1;
    if (e === 'utf8' && s.length > 64) return host.utf8Encode(s).length;
    return vByteLength(s, e);
  }
  if (s === null || typeof s !== 'object' || !(ArrayBuffer.isView(s) || s instanceof ArrayBuffer)) {
    const e = new TypeError('The "string" argument must be of type string or an instance of Buffer or ArrayBuffer.' + received(s));
    e.code = 'ERR_INVALID_ARG_TYPE';
    throw e;
  }
  return vByteLength(s, enc);
};

Buffer.isEncoding = function isEncoding(enc) {
  return typeof enc === 'string' && enc !== '' && norm(enc) !== undefined;
};

const vToString = proto.toString;
// decodedLength is how many UTF-16 units decoding n bytes as e makes at
// most: past kStringMaxLength Node throws ERR_STRING_TOO_LONG before
// decoding.
const decodedLength = (e, n) => (e === 'hex' ? 2 * n : e === 'base64' || e === 'base64url' ? Math.ceil(n / 3) * 4 : e === 'utf16le' ? n >>> 1 : n);
const tooLong = () => require('nook:errors.js').makeError('ERR_STRING_TOO_LONG');
proto.toString = function toString(enc, start, end) {
  if (arguments.length === 0) {
    if (this.length > kStringMaxLength) throw tooLong();
    return host.utf8Decode(this, false);
  }
  const e = norm(enc);
  if (e === undefined) throw unknownEncoding(enc);
  const from = start === undefined ? 0 : Math.max(0, Math.min(this.length, Math.trunc(+start) || 0));
  const to = end === undefined ? this.length : Math.max(0, Math.min(this.length, Math.trunc(+end) || 0));
  if (decodedLength(e, to - from) > kStringMaxLength) throw tooLong();
  if (e === 'utf8' && start === undefined && end === undefined) return host.utf8Decode(this, false);
  if (e === 'base64url') return toUrl(vToString.call(this, 'base64', start, end));
  return vToString.call(this, e, start, end);
};
proto.toLocaleString = proto.toString;

const vWrite = proto.write;
// write follows Node's argument forms: (string), (string, encoding),
// (string, offset[, length][, encoding]), with offset and length integers
// within the buffer (ERR_OUT_OF_RANGE otherwise).
proto.write = function write(string, offset, length, enc) {
  const { validateInteger, makeError } = require('nook:errors.js');
  const validateOffset = (v, name) => {
    if (typeof v !== 'number') throw makeError('ERR_INVALID_ARG_TYPE', name, 'number', v);
    validateInteger(v, name, 0, this.length);
  };
  if (offset === undefined) {
    offset = 0; length = this.length;
  } else if (length === undefined && typeof offset === 'string') {
    enc = offset; length = this.length; offset = 0;
  } else {
    validateOffset(offset, 'offset');
    const remaining = this.length - offset;
    if (length === undefined) length = remaining;
    else if (typeof length === 'string') { enc = length; length = remaining; }
    else { validateOffset(length, 'length'); if (length > remaining) length = remaining; }
  }
  const e = norm(enc === '' ? undefined : enc);
  if (e === undefined) throw unknownEncoding(enc);
  if (decoders[e]) {
    const bytes = decoders[e](String(string));
    const n = Math.min(bytes.length, length, Math.max(0, this.length - offset));
    this.set(bytes.subarray(0, n), offset);
    return n;
  }
  return vWrite.call(this, string, offset, length, e);
};

// The encoding-specific methods Node's Buffer.prototype has
// (latin1Slice, hexWrite, ...), generic over any Uint8Array: a slice
// decodes [start, end) (an end before start is start; past the length
// ERR_OUT_OF_RANGE), a write takes an offset and length inside the
// buffer (ERR_BUFFER_OUT_OF_BOUNDS otherwise).
for (const [prefix, enc] of [['ascii', 'ascii'], ['base64', 'base64'], ['base64url', 'base64url'], ['latin1', 'latin1'],
  ['hex', 'hex'], ['ucs2', 'utf16le'], ['utf8', 'utf8']]) {
  const slice = { [prefix + 'Slice'](start, end) {
    const len = this.byteLength;
    start = start === undefined ? 0 : Math.trunc(+start) || 0;
    end = end === undefined ? len : Math.trunc(+end) || 0;
    if (end < start) end = start;
    if (start < 0 || end > len) {
      const e = new RangeError('Index out of range');
      e.code = 'ERR_OUT_OF_RANGE';
      throw e;
    }
    return proto.toString.call(asBuffer(this), enc, start, end);
  } }[prefix + 'Slice'];
  const write = { [prefix + 'Write'](string, offset = 0, length = this.byteLength - offset) {
    const { makeError } = require('nook:errors.js');
    if (offset < 0 || offset > this.byteLength) throw makeError('ERR_BUFFER_OUT_OF_BOUNDS', 'offset');
    if (length < 0 || length > this.byteLength - offset) throw makeError('ERR_BUFFER_OUT_OF_BOUNDS', 'length');
    return proto.write.call(asBuffer(this), string, offset, length, enc);
  } }[prefix + 'Write'];
  Object.defineProperty(proto, slice.name, { value: slice, writable: true, configurable: true, enumerable: true });
  Object.defineProperty(proto, write.name, { value: write, writable: true, configurable: true, enumerable: true });
}

// subarray is Buffer.prototype's own, as Node's: a Buffer over the same
// memory, whatever Uint8Array this is; slice is this.subarray (so a
// Uint8Array's slice stays a Uint8Array).
// (A view made directly: TypedArray's subarray would construct the
// result through Buffer's species, Buffer.from and its checks, which
// made slicing loops twice as slow.)
const relIndex = (v, len, dflt) => {
  if (v === undefined) return dflt;
  let n = Math.trunc(+v) || 0;
  if (n < 0) n = Math.max(len + n, 0);
  return Math.min(n, len);
};
const taLength = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(Uint8Array.prototype), 'length').get;
Object.defineProperty(proto, 'subarray', {
  value: function subarray(start, end) {
    const len = taLength.call(this); // (throws, as TypedArray's, for what is no typed array)
    const from = relIndex(start, len, 0);
    const to = Math.max(relIndex(end, len, len), from);
    return wrap(new Uint8Array(this.buffer, this.byteOffset + from * this.BYTES_PER_ELEMENT, (to - from) * this.BYTES_PER_ELEMENT));
  },
  writable: true, configurable: true, enumerable: true,
});
Object.defineProperty(proto, 'slice', {
  value: function slice(start, end) { return this.subarray(start, end); },
  writable: true, configurable: true, enumerable: true,
});

const vFill = proto.fill;
// fill is Node's _fill: a string's encoding must be a string naming one,
// and a fill value that makes no bytes (an empty Uint8Array, a string
// with no valid hex or base64 in it) is ERR_INVALID_ARG_VALUE.
proto.fill = function fill(val, start, end, enc) {
  if (typeof val === 'string') {
    if (start === undefined || typeof start === 'string') { enc = start; start = 0; end = this.length; }
    else if (typeof end === 'string') { enc = end; end = this.length; }
    const e = norm(enc);
    if (e === undefined) {
      if (typeof enc !== 'string') throw require('nook:errors.js').makeError('ERR_INVALID_ARG_TYPE', 'encoding', 'string', enc);
      throw unknownEncoding(enc);
    }
    if (val.length > 0 && decoders[e] && decoders[e](val).length === 0 && start < (end === undefined ? this.length : end)) {
      throw require('nook:errors.js').makeError('ERR_INVALID_ARG_VALUE', 'value', val);
    }
    if (e === 'base64url') { val = fromUrl(val); enc = 'base64'; } else enc = e;
  } else {
    if (typeof start === 'string') { enc = start; start = 0; end = this.length; }
    else if (typeof end === 'string') { enc = end; end = this.length; }
    if (val instanceof Uint8Array && val.length === 0 && (start || 0) < (end === undefined ? this.length : end)) {
      throw require('nook:errors.js').makeError('ERR_INVALID_ARG_VALUE', 'value', val);
    }
  }
  return vFill.call(this, val, start, end, enc);
};

// Node's checks on the numeric read*/write* methods, done before the
// package's (which throw other errors, or none): the offset must be an
// integer inside the buffer and a written integer must fit its width.
function withSeparators(digits) {
  let out = '';
  let i = digits.length;
  const start = digits[0] === '-' ? 1 : 0;
  for (; i >= start + 4; i -= 3) out = '_' + digits.slice(i - 3, i) + out;
  return i === digits.length ? digits : digits.slice(0, i) + out;
}
function outOfRange(name, range, v) {
  let got;
  if (Number.isInteger(v) && Math.abs(v) > 2 ** 32) got = withSeparators(String(v));
  else if (typeof v === 'bigint') got = (v > 2n ** 32n || v < -(2n ** 32n) ? withSeparators(String(v)) : String(v)) + 'n';
  else got = typeof v === 'string' ? `'${v}'` : Object.is(v, -0) ? '-0' : String(v);
  const e = new RangeError(`The value of "${name}" is out of range. It must be ${range}. Received ${got}`);
  e.code = 'ERR_OUT_OF_RANGE';
  return e;
}
function checkNumber(v, name) {
  if (typeof v !== 'number') {
    const e = new TypeError(`The "${name}" argument must be of type number.` + received(v));
    e.code = 'ERR_INVALID_ARG_TYPE';
    throw e;
  }
}
function checkOffset(buf, offset, size, name = 'offset') {
  checkNumber(offset, name);
  if (Math.floor(offset) !== offset) throw outOfRange(name, 'an integer', offset);
  const max = buf.length - size;
  if (offset < 0 || offset > max) {
    if (max < 0) {
      const e = new RangeError('Attempt to access memory outside buffer bounds');
      e.code = 'ERR_BUFFER_OUT_OF_BOUNDS';
      throw e;
    }
    throw outOfRange(name, `>= 0 and <= ${max}`, offset);
  }
}
function checkByteLength(n) {
  checkNumber(n, 'byteLength');
  if (!(n >= 1 && n <= 6) || Math.floor(n) !== n) throw outOfRange('byteLength', Math.floor(n) !== n ? 'an integer' : '>= 1 and <= 6', n);
}
function checkValue(v, size, signed, big) {
  const n = big ? 'n' : '';
  const bits = size * 8;
  let min, max, range;
  if (big) { min = signed ? -(2n ** BigInt(bits - 1)) : 0n; max = signed ? 2n ** BigInt(bits - 1) - 1n : 2n ** BigInt(bits) - 1n; }
  else { min = signed ? -(2 ** (bits - 1)) : 0; max = signed ? 2 ** (bits - 1) - 1 : 2 ** bits - 1; }
  if (v > max || v < min) {
    if (size > 4) range = signed ? `>= -(2${n} ** ${bits - 1}${n}) and < 2${n} ** ${bits - 1}${n}` : `>= 0${n} and < 2${n} ** ${bits}${n}`;
    else range = `>= ${min} and <= ${max}`;
    throw outOfRange('value', range, v);
  }
}
const sizes = { Int8: 1, UInt8: 1, Int16LE: 2, Int16BE: 2, UInt16LE: 2, UInt16BE: 2, Int32LE: 4, Int32BE: 4, UInt32LE: 4,
  UInt32BE: 4, FloatLE: 4, FloatBE: 4, DoubleLE: 8, DoubleBE: 8, BigInt64LE: 8, BigInt64BE: 8, BigUInt64LE: 8, BigUInt64BE: 8 };
for (const [t, size] of Object.entries(sizes)) {
  const isFloat = /^(Float|Double)/.test(t);
  const big = t.startsWith('Big');
  const signed = !/UInt/.test(t);
  let r = proto['read' + t], w = proto['write' + t];
  if (isFloat) {
    // Through a DataView: exact, -0 and NaN payloads included.
    const get = t.startsWith('Float') ? 'getFloat32' : 'getFloat64', set = t.startsWith('Float') ? 'setFloat32' : 'setFloat64';
    const le = t.endsWith('LE');
    const view = (b) => new DataView(b.buffer, b.byteOffset, b.byteLength);
    r = function (offset) { return view(this)[get](offset, le); };
    // A NaN is written as the quiet NaN (0x7ff8... / 0x7fc0...), as V8 does.
    w = function (value, offset) {
      value = +value;
      if (Number.isNaN(value)) {
        const bytes = size === 8 ? [0x7f, 0xf8, 0, 0, 0, 0, 0, 0] : [0x7f, 0xc0, 0, 0];
        for (let i = 0; i < size; i++) this[offset + i] = bytes[le ? size - 1 - i : i];
        return offset + size;
      }
      view(this)[set](offset, value, le);
      return offset + size;
    };
  }
  const read = { ['read' + t](offset = 0) { checkOffset(this, offset, size); return r.call(this, offset); } }['read' + t];
  const write = { ['write' + t](value, offset = 0) {
    if (!isFloat) {
      if (big) {
        if (typeof value !== 'bigint') throw new TypeError('Cannot mix BigInt and other types, use explicit conversions');
      } else value = +value;
      if (size === 1) { checkNumber(offset, 'offset'); checkValue(value, size, signed, big); }
      else { checkValue(value, size, signed, big); }
    }
    checkOffset(this, offset, size);
    return w.call(this, value, offset);
  } }['write' + t];
  proto['read' + t] = read;
  proto['write' + t] = write;
  const alias = t.replace('UInt', 'Uint');
  if (alias !== t) { proto['read' + alias] = read; proto['write' + alias] = write; }
}
for (const t of ['UIntLE', 'UIntBE', 'IntLE', 'IntBE']) {
  const signed = t.startsWith('Int');
  const r = proto['read' + t], w = proto['write' + t];
  const read = { ['read' + t](offset, byteLength) {
    if (byteLength === undefined) checkNumber(byteLength, 'byteLength');
    checkByteLength(byteLength);
    checkOffset(this, offset, byteLength);
    return r.call(this, offset, byteLength);
  } }['read' + t];
  const write = { ['write' + t](value, offset, byteLength) {
    if (byteLength === undefined) checkNumber(byteLength, 'byteLength');
    checkByteLength(byteLength);
    value = +value;
    checkValue(value, byteLength, signed, false);
    checkOffset(this, offset, byteLength);
    return w.call(this, value, offset, byteLength);
  } }['write' + t];
  proto['read' + t] = read;
  proto['write' + t] = write;
  const alias = t.replace('UInt', 'Uint');
  if (alias !== t) { proto['read' + alias] = read; proto['write' + alias] = write; }
}

// Node's inspect of a Buffer: at most INSPECT_MAX_BYTES bytes in hex, and
// any own non-index properties.
let INSPECT_MAX_BYTES = 50;
proto[Symbol.for('nodejs.util.inspect.custom')] = function inspect(recurseTimes, ctx) {
  const n = Math.min(INSPECT_MAX_BYTES, this.length);
  let str = '';
  for (let i = 0; i < n; i++) str += (i ? ' ' : '') + (this[i] < 16 ? '0' : '') + this[i].toString(16);
  const rest = this.length - INSPECT_MAX_BYTES;
  if (rest > 0) str += ` ... ${rest} more byte${rest > 1 ? 's' : ''}`;
  if (ctx) {
    const extra = Object.create(null);
    let any = false;
    for (const k of Object.keys(this)) {
      if (/^(0|[1-9][0-9]*)$/.test(k)) continue;
      any = true;
      extra[k] = this[k];
    }
    if (any) {
      if (this.length !== 0) str += ', ';
      str += require('node:util').inspect(extra, { ...ctx, breakLength: Infinity, compact: true }).slice(27, -2);
    }
  }
  return `<${this.constructor.name} ${str}>`;
};
proto.inspect = proto[Symbol.for('nodejs.util.inspect.custom')];

// Node's Buffer methods are generic: called on a Uint8Array that is no
// Buffer they work on its bytes, through a Buffer over the same memory,
// and what returns this returns the Uint8Array.
// (Aliases such as writeUint8 and writeUInt8 stay one function.)
const generics = new Map();
for (const k of Object.getOwnPropertyNames(proto)) {
  const f = Object.getOwnPropertyDescriptor(proto, k).value;
  if (typeof f !== 'function' || k === 'constructor' || k === 'subarray' || k === 'slice' || k === 'inspect' || k === 'indexOf' || k === 'lastIndexOf' || k === 'includes') continue;
  if (generics.has(f)) {
    Object.defineProperty(proto, k, { value: generics.get(f), writable: true, configurable: true, enumerable: Object.getOwnPropertyDescriptor(proto, k).enumerable });
    continue;
  }
  const name = f.name || k;
  const generic = { [name]() {
    if (!(this instanceof Uint8Array) || this instanceof Buffer) return Reflect.apply(f, this, arguments);
    const view = asBuffer(this);
    const r = Reflect.apply(f, view, arguments);
    return r === view ? this : r;
  } }[name];
  Object.defineProperty(generic, 'length', { value: f.length });
  generics.set(f, generic);
  Object.defineProperty(proto, k, { value: generic, writable: true, configurable: true, enumerable: Object.getOwnPropertyDescriptor(proto, k).enumerable });
}
proto.toLocaleString = proto.toString;

// received ends Node's ERR_INVALID_ARG_TYPE messages (nook:errors.js).
function received(v) {
  return ' Received ' + require('nook:errors.js').determineSpecificType(v);
}

// NodeBuffer is Node's Buffer(arg, encodingOrOffset, length), with or
// without new: a number allocates through Buffer.alloc (its checks and
// errors), anything else is Buffer.from's. It stands for the package's
// function, with the same prototype and statics.
const NodeBuffer = function Buffer(arg, encodingOrOffset, length) {
  if (typeof arg === 'number') {
    if (typeof encodingOrOffset === 'string') {
      throw require('nook:errors.js').makeError('ERR_INVALID_ARG_TYPE', 'string', 'string', arg);
    }
    return NodeBuffer.alloc(arg);
  }
  return NodeBuffer.from(arg, encodingOrOffset, length);
};
for (const k of Reflect.ownKeys(Buffer)) {
  if (k === 'prototype' || k === 'length' || k === 'name') continue;
  Object.defineProperty(NodeBuffer, k, Object.getOwnPropertyDescriptor(Buffer, k));
}
Object.setPrototypeOf(NodeBuffer, Object.getPrototypeOf(Buffer));
Object.defineProperty(NodeBuffer, 'prototype', { value: proto, writable: false });
Object.defineProperty(proto, 'constructor', { value: NodeBuffer, writable: true, configurable: true, enumerable: false });

module.exports = {
  Buffer: NodeBuffer,
  SlowBuffer: vendor.SlowBuffer,
  kMaxLength,
  kStringMaxLength,
  constants: { MAX_LENGTH: kMaxLength, MAX_STRING_LENGTH: kStringMaxLength },
  isUtf8: (b) => {
    if (!ArrayBuffer.isView(b) && !(b instanceof ArrayBuffer)) {
      throw require('nook:errors.js').makeError('ERR_INVALID_ARG_TYPE', 'input', ['ArrayBuffer', 'Buffer', 'TypedArray'], b);
    }
    try { host.utf8Decode(b, true); return true; } catch { return false; }
  },
  isAscii: (b) => { const u = new Uint8Array(b.buffer || b, b.byteOffset || 0, b.byteLength); for (let i = 0; i < u.length; i++) if (u[i] > 127) return false; return true; },
};
// INSPECT_MAX_BYTES is a number >= 0, as Node's setter checks.
Object.defineProperty(module.exports, 'INSPECT_MAX_BYTES', {
  get: () => INSPECT_MAX_BYTES,
  set(v) { require('nook:errors.js').validateNumber(v, 'INSPECT_MAX_BYTES', 0); INSPECT_MAX_BYTES = v; },
  enumerable: true, configurable: true,
});
// resolveObjectURL returns the Blob a URL.createObjectURL URL names.
module.exports.resolveObjectURL = (url) => require('nook:whatwg_url.js').resolveObjectURL(url);
// Blob, File, atob and btoa are the globals, built on first use.
for (const k of ['Blob', 'File', 'atob', 'btoa']) {
  Object.defineProperty(module.exports, k, { get: () => globalThis[k], enumerable: true, configurable: true });
}
