'use strict';
// node:buffer — the npm package "buffer" (vendor_buffer.js, bundled by
// npm/build.go) with what Node has and it lacks: the base64url
// encoding, ERR_UNKNOWN_ENCODING, Node's constructor name, and UTF-8
// encoding and decoding done in Go (large files are read as Buffers).

const vendor = require('nook:vendor_buffer.js');
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

const vFrom = Buffer.from;
Buffer.from = function from(value, enc, length) {
  if (typeof value === 'string') {
    const e = norm(enc === '' ? undefined : enc);
    if (e === undefined) throw unknownEncoding(enc);
    if (e === 'utf8') return wrap(host.utf8Encode(value));
    if (e === 'base64url') return vFrom.call(Buffer, fromUrl(value), 'base64');
    return vFrom.call(Buffer, value, e);
  }
  return vFrom.call(Buffer, value, enc, length);
};

const vByteLength = Buffer.byteLength;
Buffer.byteLength = function byteLength(s, enc) {
  if (typeof s === 'string') {
    const e = norm(enc) || 'utf8';
    if (e === 'base64url') return vByteLength(fromUrl(s), 'base64');
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
proto.toString = function toString(enc, start, end) {
  if (arguments.length === 0) return host.utf8Decode(this, false);
  const e = norm(enc);
  if (e === undefined) throw unknownEncoding(enc);
  if (e === 'utf8' && start === undefined && end === undefined) return host.utf8Decode(this, false);
  if (e === 'base64url') return toUrl(vToString.call(this, 'base64', start, end));
  return vToString.call(this, e, start, end);
};
proto.toLocaleString = proto.toString;

const vWrite = proto.write;
proto.write = function write(string, offset, length, enc) {
  if (typeof offset === 'string') { enc = offset; offset = undefined; length = undefined; }
  else if (typeof length === 'string') { enc = length; length = undefined; }
  const e = norm(enc);
  if (e === undefined) throw unknownEncoding(enc);
  // The package's write reads an undefined offset or length as "utf8".
  if (offset === undefined) offset = 0;
  if (length === undefined) length = this.length - (offset >>> 0);
  if (e === 'base64url') return vWrite.call(this, fromUrl(string), offset, length, 'base64');
  return vWrite.call(this, string, offset, length, e);
};

const vFill = proto.fill;
proto.fill = function fill(val, start, end, enc) {
  if (typeof start === 'string') { enc = start; start = 0; end = this.length; }
  else if (typeof end === 'string') { enc = end; end = this.length; }
  if (typeof val === 'string' && enc !== undefined) {
    const e = norm(enc);
    if (e === undefined) throw unknownEncoding(enc);
    if (e === 'base64url') { val = fromUrl(val); enc = 'base64'; } else enc = e;
  }
  return vFill.call(this, val, start, end, enc);
};

function received(v) {
  if (v == null) return ' Received ' + v;
  if (typeof v === 'function') return ' Received function ' + v.name;
  if (typeof v === 'object') return ' Received ' + (v.constructor && v.constructor.name ? 'an instance of ' + v.constructor.name : String(v));
  let s = typeof v === 'string' ? `'${v}'` : String(v);
  if (s.length > 28) s = s.slice(0, 25) + '...';
  return ` Received type ${typeof v} (${s})`;
}

const kMaxLength = 2 ** 32;
module.exports = {
  Buffer,
  SlowBuffer: vendor.SlowBuffer,
  INSPECT_MAX_BYTES: 50,
  kMaxLength,
  kStringMaxLength: 2 ** 29 - 24,
  constants: { MAX_LENGTH: kMaxLength, MAX_STRING_LENGTH: 2 ** 29 - 24 },
  atob: (s) => globalThis.atob(s),
  btoa: (s) => globalThis.btoa(s),
  isUtf8: (b) => { try { host.utf8Decode(b, true); return true; } catch { return false; } },
  isAscii: (b) => { const u = new Uint8Array(b.buffer || b, b.byteOffset || 0, b.byteLength); for (let i = 0; i < u.length; i++) if (u[i] > 127) return false; return true; },
};
