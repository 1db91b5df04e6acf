'use strict';
// node:zlib — gzip, deflate (zlib format) and raw deflate, with unzip
// detecting the format; the codec is Go's compress/* (host.zlib*), run in
// the sandbox and bounded by MaxAllocBytes. Streams (createGzip, ...)
// gather their input and convert it when it ends. Brotli is not available.

const { Transform } = require('node:stream');
const { Buffer } = require('node:buffer');

const constants = Object.freeze({
  Z_NO_FLUSH: 0, Z_PARTIAL_FLUSH: 1, Z_SYNC_FLUSH: 2, Z_FULL_FLUSH: 3, Z_FINISH: 4, Z_BLOCK: 5,
  Z_OK: 0, Z_STREAM_END: 1, Z_NEED_DICT: 2, Z_ERRNO: -1, Z_STREAM_ERROR: -2, Z_DATA_ERROR: -3,
  Z_MEM_ERROR: -4, Z_BUF_ERROR: -5, Z_VERSION_ERROR: -6,
  Z_NO_COMPRESSION: 0, Z_BEST_SPEED: 1, Z_BEST_COMPRESSION: 9, Z_DEFAULT_COMPRESSION: -1,
  Z_FILTERED: 1, Z_HUFFMAN_ONLY: 2, Z_RLE: 3, Z_FIXED: 4, Z_DEFAULT_STRATEGY: 0, ZLIB_VERNUM: 4865,
  DEFLATE: 1, INFLATE: 2, GZIP: 3, GUNZIP: 4, DEFLATERAW: 5, INFLATERAW: 6, UNZIP: 7,
  Z_MIN_WINDOWBITS: 8, Z_MAX_WINDOWBITS: 15, Z_DEFAULT_WINDOWBITS: 15, Z_MIN_CHUNK: 64, Z_MAX_CHUNK: Infinity,
  Z_DEFAULT_CHUNK: 16384, Z_MIN_MEMLEVEL: 1, Z_MAX_MEMLEVEL: 9, Z_DEFAULT_MEMLEVEL: 8, Z_MIN_LEVEL: -1,
  Z_MAX_LEVEL: 9, Z_DEFAULT_LEVEL: -1,
});

const { makeError, validateFunction, validateNumber, validateUint32 } = require('nook:errors.js');

function input(data) {
  if (typeof data === 'string') return Buffer.from(data);
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  throw makeError('ERR_INVALID_ARG_TYPE', 'buffer', ['string', 'Buffer', 'TypedArray', 'DataView', 'ArrayBuffer'], data);
}

// checkRange is Node's checkRangesOrGetDefault: an option that is
// undefined or NaN takes its default; any other must be a finite number
// in [lower, upper].
function checkRange(number, name, lower, upper, def) {
  if (number === undefined || Number.isNaN(number)) return def;
  if (!Number.isFinite(number)) {
    validateNumber(number, name);
    throw makeError('ERR_OUT_OF_RANGE', name, 'a finite number', number);
  }
  if (number < lower || number > upper) {
    throw makeError('ERR_OUT_OF_RANGE', name, upper === Infinity ? `>= ${lower}` : `>= ${lower} and <= ${upper}`, number);
  }
  return number;
}

// checkOptions validates the options of a zlib stream or call as Node's
// Zlib constructor does (same errors), for the codec named.
function checkOptions(opts, codec) {
  const out = { level: constants.Z_DEFAULT_COMPRESSION, strategy: constants.Z_DEFAULT_STRATEGY };
  if (opts === undefined || opts === null || typeof opts !== 'object') return out;
  const c = constants;
  checkRange(opts.chunkSize, 'options.chunkSize', c.Z_MIN_CHUNK, c.Z_MAX_CHUNK, c.Z_DEFAULT_CHUNK);
  checkRange(opts.flush, 'options.flush', c.Z_NO_FLUSH, c.Z_BLOCK, c.Z_NO_FLUSH);
  checkRange(opts.finishFlush, 'options.finishFlush', c.Z_NO_FLUSH, c.Z_BLOCK, c.Z_FINISH);
  const inflating = codec === 'gunzip' || codec === 'inflate' || codec === 'unzip';
  if (!(inflating && opts.windowBits === 0)) {
    // { windowBits: 8 } is valid for deflate (zlib upgrades it to 9) but
    // not for gzip, as in Node.
    checkRange(opts.windowBits, 'options.windowBits', c.Z_MIN_WINDOWBITS + (codec === 'gzip' ? 1 : 0), c.Z_MAX_WINDOWBITS, c.Z_DEFAULT_WINDOWBITS);
  }
  out.level = checkRange(opts.level, 'options.level', c.Z_MIN_LEVEL, c.Z_MAX_LEVEL, c.Z_DEFAULT_COMPRESSION);
  checkRange(opts.memLevel, 'options.memLevel', c.Z_MIN_MEMLEVEL, c.Z_MAX_MEMLEVEL, c.Z_DEFAULT_MEMLEVEL);
  out.strategy = checkRange(opts.strategy, 'options.strategy', c.Z_DEFAULT_STRATEGY, c.Z_FIXED, c.Z_DEFAULT_STRATEGY);
  checkRange(opts.maxOutputLength, 'options.maxOutputLength', 1, 2 ** 32, 2 ** 32);
  const d = opts.dictionary;
  if (d !== undefined && !ArrayBuffer.isView(d) && !(d instanceof ArrayBuffer)) {
    throw makeError('ERR_INVALID_ARG_TYPE', 'options.dictionary', ['Buffer', 'TypedArray', 'DataView', 'ArrayBuffer'], d);
  }
  return out;
}

const codecs = {
  gzip: (d, o) => host.zlibCompress('gzip', d, level(o)),
  deflate: (d, o) => host.zlibCompress('deflate', d, level(o)),
  deflateRaw: (d, o) => host.zlibCompress('raw', d, level(o)),
  gunzip: (d, o) => host.zlibDecompress('gzip', d, maxOut(o)),
  inflate: (d, o) => host.zlibDecompress('deflate', d, maxOut(o)),
  inflateRaw: (d, o) => host.zlibDecompress('raw', d, maxOut(o)),
  unzip: (d, o) => host.zlibDecompress('unzip', d, maxOut(o)),
};
function level(o) { return o && typeof o.level === 'number' ? o.level : -1; }
function maxOut(o) { return o && typeof o.maxOutputLength === 'number' ? o.maxOutputLength : 0; }

// codes maps each code name to its number and each number to its name.
const codes = { Z_OK: 0, Z_STREAM_END: 1, Z_NEED_DICT: 2, Z_ERRNO: -1, Z_STREAM_ERROR: -2, Z_DATA_ERROR: -3, Z_MEM_ERROR: -4, Z_BUF_ERROR: -5, Z_VERSION_ERROR: -6 };
for (const [k, v] of Object.entries(codes)) codes[v] = k;
const zlib = { constants };
// codes is frozen and read-only, as Node's.
Object.defineProperty(zlib, 'codes', { value: Object.freeze(codes), enumerable: true, writable: false, configurable: false });
Object.assign(zlib, constants);

const names = { gzip: 'Gzip', deflate: 'Deflate', deflateRaw: 'DeflateRaw', gunzip: 'Gunzip', inflate: 'Inflate', inflateRaw: 'InflateRaw', unzip: 'Unzip' };

for (const [name, codec] of Object.entries(codecs)) {
  zlib[name + 'Sync'] = function (data, opts) { const b = input(data); checkOptions(opts, name); return codec(b, opts); };
  zlib[name] = function (data, opts, cb) {
    if (typeof opts === 'function') { cb = opts; opts = undefined; }
    validateFunction(cb, 'callback');
    const bytes = input(data);
    checkOptions(opts, name);
    setImmediate(() => {
      let out;
      try { out = codec(bytes, opts); } catch (e) { cb(e); return; }
      cb(null, out);
    });
  };
  // The stream gathers its input (at most MaxAllocBytes) and converts it at the end.
  const Ctor = function (opts) {
    if (!(this instanceof Ctor)) return new Ctor(opts);
    const o = checkOptions(opts, name);
    this._level = o.level;
    this._strategy = o.strategy;
    Transform.call(this, opts);
    this._chunks = [];
    this._size = 0;
    this._opts = opts;
    this.bytesWritten = 0;
  };
  Object.setPrototypeOf(Ctor.prototype, Transform.prototype);
  Object.setPrototypeOf(Ctor, Transform);
  Object.defineProperty(Ctor, 'name', { value: names[name] });
  Ctor.prototype._transform = function (chunk, enc, cb) {
    const b = typeof chunk === 'string' ? Buffer.from(chunk, enc) : chunk;
    this._size += b.length;
    if (this._size > host.maxAlloc) { host.allocLimit('zlib stream input', this._size); }
    this._chunks.push(b);
    this.bytesWritten += b.length;
    cb();
  };
  // The conversion happens in a later macrotask, as Node's (a thread-pool
  // job) does, so a stream's result arrives in the same order.
  Ctor.prototype._flush = function (cb) {
    const input = Buffer.concat(this._chunks);
    this._chunks = [];
    setImmediate(() => {
      let out;
      try { out = codec(input, this._opts); } catch (e) { cb(e); return; }
      cb(null, out);
    });
  };
  Ctor.prototype.close = function (cb) { if (cb) process.nextTick(cb); this.destroy(); };
  Ctor.prototype.flush = function (kind, cb) { if (typeof kind === 'function') cb = kind; if (cb) process.nextTick(cb); };
  Ctor.prototype.params = function (l, s, cb) { if (cb) process.nextTick(cb); };
  Ctor.prototype.reset = function () { this._chunks = []; this._size = 0; };
  zlib[names[name]] = Ctor;
  zlib['create' + names[name]] = (opts) => new Ctor(opts);
}

const noBrotli = () => {
  const e = new Error('Brotli is not available in this sandbox (use gzip or deflate)');
  e.code = 'ERR_FEATURE_UNAVAILABLE_ON_PLATFORM';
  throw e;
};
for (const n of ['brotliCompress', 'brotliCompressSync', 'brotliDecompress', 'brotliDecompressSync', 'createBrotliCompress',
  'createBrotliDecompress', 'BrotliCompress', 'BrotliDecompress', 'zstdCompress', 'zstdCompressSync', 'zstdDecompress', 'zstdDecompressSync']) {
  zlib[n] = noBrotli;
}

let crcTable;
zlib.crc32 = function crc32(data, value = 0) {
  if (!crcTable) {
    crcTable = new Int32Array(256);
    for (let i = 0; i < 256; i++) {
      let c = i;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[i] = c;
    }
  }
  if (typeof data !== 'string' && !ArrayBuffer.isView(data)) {
    throw makeError('ERR_INVALID_ARG_TYPE', 'data', ['Buffer', 'TypedArray', 'DataView', 'string'], data);
  }
  validateUint32(value, 'value');
  const b = input(data);
  let c = ~value;
  for (let i = 0; i < b.length; i++) c = crcTable[(c ^ b[i]) & 0xff] ^ (c >>> 8);
  return ~c >>> 0;
};

module.exports = zlib;
