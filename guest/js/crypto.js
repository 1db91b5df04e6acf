'use strict';
// node:crypto — randomness from the run's host, hashes and HMAC.

const { Buffer } = require('node:buffer');

const toBytes = (data, enc) => {
  if (typeof data === 'string') return Buffer.from(data, enc || 'utf8');
  if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  throw new TypeError('The "data" argument must be of type string or an instance of Buffer, TypedArray, or DataView');
};
// encode is a digest in an output encoding: as in Node, no encoding, or
// one Buffer does not know ('buffer' among them), is the Buffer itself.
const encode = (bytes, enc) => {
  const b = host.bufferFrom(bytes);
  return enc && Buffer.isEncoding(`${enc}`) ? b.toString(`${enc}`) : b;
};
const blockSize = (alg) => {
  const a = String(alg).toLowerCase();
  if (/^sha-?(384|512)(-224|-256)?$/.test(a)) return 128;
  return { 'sha3-224': 144, 'sha3-256': 136, 'sha3-384': 104, 'sha3-512': 72 }[a] || 64;
};

const finalized = () => {
  const e = new Error('Digest already called');
  e.code = 'ERR_CRYPTO_HASH_FINALIZED';
  return e;
};
const newHash = (alg) => {
  try { return host.hashNew(String(alg)); } catch { throw new Error('Digest method not supported'); }
};

class Hash {
  constructor(alg) { this._alg = alg; this._h = newHash(alg); this._done = false; }
  update(data, enc) {
    if (this._done) throw finalized();
    this._h.update(toBytes(data, enc));
    return this;
  }
  digest(enc) {
    if (this._done) throw finalized();
    this._done = true;
    return encode(this._h.digest(), enc);
  }
  copy() {
    if (this._done) throw finalized();
    const c = Object.create(Hash.prototype);
    c._alg = this._alg;
    c._h = this._h.copy();
    c._done = false;
    return c;
  }
}

class Hmac {
  constructor(alg, key) {
    let k = toBytes(key);
    const bs = blockSize(alg);
    if (k.length > bs) k = host.digest(alg, k);
    const pad = new Uint8Array(bs);
    pad.set(k);
    this._alg = alg;
    this._opad = pad.map((x) => x ^ 0x5c);
    this._inner = newHash(alg);
    this._inner.update(pad.map((x) => x ^ 0x36));
    this._done = false;
  }
  update(data, enc) { if (this._done) throw finalized(); this._inner.update(toBytes(data, enc)); return this; }
  digest(enc) {
    if (this._done) throw finalized();
    this._done = true;
    const outer = host.hashNew(this._alg);
    outer.update(this._opad);
    outer.update(this._inner.digest());
    return encode(outer.digest(), enc);
  }
}

function checkInt(name, v, min, max) {
  if (typeof v !== 'number') {
    const e = new TypeError(`The "${name}" argument must be of type number.` + (v == null ? ' Received ' + v : ' Received type ' + typeof v + ' (' + String(v) + ')'));
    e.code = 'ERR_INVALID_ARG_TYPE';
    throw e;
  }
  if (!Number.isInteger(v) || v < min || v > max) {
    const e = new RangeError(`The value of "${name}" is out of range. It must be ${Number.isInteger(v) ? `>= ${min} && <= ${max}` : 'an integer'}. Received ${String(v)}`);
    e.code = 'ERR_OUT_OF_RANGE';
    throw e;
  }
}

// pbkdf2Sync derives keylen bytes with PBKDF2-HMAC-digest (RFC 8018).
function pbkdf2Sync(password, salt, iterations, keylen, digest) {
  if (typeof digest !== 'string') {
    const e = new TypeError('The "digest" argument must be of type string.' + (digest == null ? ' Received ' + digest : ' Received type ' + typeof digest));
    e.code = 'ERR_INVALID_ARG_TYPE';
    throw e;
  }
  checkInt('iterations', iterations, 1, 2147483647);
  checkInt('keylen', keylen, 0, 2147483647);
  return host.bufferFrom(host.pbkdf2(digest.toLowerCase(), toBytes(password), toBytes(salt), iterations, keylen));
}

// hkdfSync derives keylen bytes with HKDF (RFC 5869); an ArrayBuffer, as in Node.
function hkdfSync(digest, ikm, salt, info, keylen) {
  checkInt('keylen', keylen, 0, 2147483647);
  const b = host.hkdf(String(digest).toLowerCase(), toBytes(ikm), toBytes(salt), toBytes(info), keylen);
  return b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength);
}

function randomBytes(n, cb) {
  const b = host.bufferFrom(host.random(n));
  if (typeof cb === 'function') { setImmediate(() => cb(null, b)); return undefined; }
  return b;
}

function randomInt(min, max, cb) {
  if (max === undefined || typeof max === 'function') { cb = max; max = min; min = 0; }
  const range = max - min;
  if (!(range > 0) || range > 2 ** 48) throw new RangeError('The value of "max" is out of range');
  const b = host.random(6);
  let n = 0;
  for (const x of b) n = n * 256 + x;
  const v = min + (n % range);
  if (typeof cb === 'function') { setImmediate(() => cb(null, v)); return undefined; }
  return v;
}

function timingSafeEqual(a, b) {
  if (a.byteLength !== b.byteLength) {
    const e = new RangeError('Input buffers must have the same byte length');
    e.code = 'ERR_CRYPTO_TIMING_SAFE_EQUAL_LENGTH';
    throw e;
  }
  const x = toBytes(a), y = toBytes(b);
  let d = 0;
  for (let i = 0; i < x.length; i++) d |= x[i] ^ y[i];
  return d === 0;
}

module.exports = {
  createHash: (alg) => new Hash(alg),
  createHmac: (alg, key) => new Hmac(alg, key),
  hash: (alg, data, enc = 'hex') => new Hash(alg).update(data).digest(enc),
  getHashes: () => ['md5', 'sha1', 'sha224', 'sha256', 'sha3-224', 'sha3-256', 'sha3-384', 'sha3-512', 'sha384', 'sha512', 'sha512-224', 'sha512-256'],
  pbkdf2Sync,
  pbkdf2(password, salt, iterations, keylen, digest, cb) {
    if (typeof digest === 'function') { cb = digest; digest = undefined; }
    if (typeof cb !== 'function') {
      const e = new TypeError('The "callback" argument must be of type function.');
      e.code = 'ERR_INVALID_ARG_TYPE';
      throw e;
    }
    const key = pbkdf2Sync(password, salt, iterations, keylen, digest);
    setImmediate(() => cb(null, key));
  },
  hkdfSync,
  hkdf(digest, ikm, salt, info, keylen, cb) {
    const key = hkdfSync(digest, ikm, salt, info, keylen);
    setImmediate(() => cb(null, key));
  },
  randomBytes,
  randomInt,
  randomUUID(options) {
    if (options !== undefined) {
      const { validateObject, validateBoolean } = require('nook:errors.js');
      validateObject(options, 'options');
      if (options.disableEntropyCache !== undefined) validateBoolean(options.disableEntropyCache, 'options.disableEntropyCache');
    }
    return crypto.randomUUID();
  },
  getRandomValues: (ta) => crypto.getRandomValues(ta),
  randomFillSync(buf, offset = 0, size) {
    const view = new Uint8Array(buf.buffer || buf, (buf.byteOffset || 0) + offset, size === undefined ? (buf.byteLength - offset) : size);
    view.set(host.random(view.length));
    return buf;
  },
  timingSafeEqual,
  webcrypto: globalThis.crypto,
  subtle: globalThis.crypto.subtle,
};
