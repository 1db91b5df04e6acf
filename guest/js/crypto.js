'use strict';
// node:crypto — randomness from the run's host, hashes and HMAC.

const { Buffer } = require('node:buffer');

const toBytes = (data, enc) => {
  if (typeof data === 'string') return Buffer.from(data, enc || 'utf8');
  if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  throw new TypeError('The "data" argument must be of type string or an instance of Buffer, TypedArray, or DataView');
};
const encode = (bytes, enc) => {
  const b = host.bufferFrom(bytes);
  return enc ? b.toString(enc === 'base64url' ? 'base64url' : enc) : b;
};
const blockSize = (alg) => (/^sha-?(384|512)$/i.test(alg) ? 128 : 64);

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
  getHashes: () => ['md5', 'sha1', 'sha256', 'sha384', 'sha512'],
  randomBytes,
  randomInt,
  randomUUID: () => crypto.randomUUID(),
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
