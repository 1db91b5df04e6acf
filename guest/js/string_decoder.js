'use strict';
// node:string_decoder — Node's StringDecoder: write(buf) returns the text
// of the complete characters seen so far and keeps the bytes of an
// incomplete one (at most 3) for the next write; end() flushes them. The
// text a run of writes and end() returns is always that of
// Buffer.concat(bufs).toString(encoding). Each write costs time linear in
// its buffer; the held bytes never exceed 4.

const { makeError } = require('nook:errors.js');

// normalize returns Node's canonical name of a StringDecoder encoding, or
// undefined.
function normalize(enc) {
  if (enc === undefined || enc === null || enc === '') return 'utf8';
  switch (`${enc}`.toLowerCase()) {
    case 'utf8': case 'utf-8': return 'utf8';
    case 'ucs2': case 'ucs-2': case 'utf16le': case 'utf-16le': return 'utf16le';
    case 'latin1': case 'binary': return 'latin1';
    case 'base64': return 'base64';
    case 'base64url': return 'base64url';
    case 'hex': return 'hex';
    case 'ascii': return 'ascii';
    default: return undefined;
  }
}

// utf8Need returns how many continuation bytes the lead byte b needs and
// the range its first continuation byte must be in, or null when b cannot
// start a character of more than one byte.
function utf8Need(b) {
  if (b >= 0xc2 && b <= 0xdf) return [1, 0x80, 0xbf];
  if (b === 0xe0) return [2, 0xa0, 0xbf];
  if (b === 0xed) return [2, 0x80, 0x9f];
  if (b >= 0xe1 && b <= 0xef) return [2, 0x80, 0xbf];
  if (b === 0xf0) return [3, 0x90, 0xbf];
  if (b >= 0xf1 && b <= 0xf3) return [3, 0x80, 0xbf];
  if (b === 0xf4) return [3, 0x80, 0x8f];
  return null;
}

// utf8Tail returns [start, total]: where the valid but incomplete
// character at the end of bytes starts and how long it will be, or null
// when bytes ends on a boundary (or on bytes the decoder replaces anyway).
function utf8Tail(bytes) {
  const len = bytes.length;
  for (let k = 1; k <= 3 && len - k >= 0; k++) {
    const p = len - k;
    const b = bytes[p];
    if (b >= 0x80 && b <= 0xbf) continue;
    const need = utf8Need(b);
    if (need === null || k > need[0]) return null;
    if (k >= 2 && (bytes[p + 1] < need[1] || bytes[p + 1] > need[2])) return null;
    for (let j = p + 2; j < len; j++) if (bytes[j] < 0x80 || bytes[j] > 0xbf) return null;
    return [p, need[0] + 1];
  }
  return null;
}

const kPending = Symbol('pending');
const kTotal = Symbol('total');

// StringDecoder decodes a stream of buffers in encoding (utf8 by default)
// without splitting characters.
function StringDecoder(encoding) {
  const enc = normalize(encoding);
  if (enc === undefined) throw makeError('ERR_UNKNOWN_ENCODING', encoding);
  this.encoding = enc;
  this[kPending] = Buffer.alloc(0);
  this[kTotal] = 0;
}

// asBuffer views any ArrayBufferView as a Buffer, without copying.
function asBuffer(buf) {
  if (Buffer.isBuffer(buf)) return buf;
  return Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength);
}

StringDecoder.prototype.write = function write(buf) {
  if (typeof buf === 'string') return buf;
  if (!ArrayBuffer.isView(buf)) throw makeError('ERR_INVALID_ARG_TYPE', 'buf', ['Buffer', 'TypedArray', 'DataView'], buf);
  if (this === null || typeof this !== 'object' || !(kPending in this)) throw makeError('ERR_INVALID_THIS', 'StringDecoder');
  let b = asBuffer(buf);
  if (b.length === 0) return '';
  if (this[kPending].length) b = Buffer.concat([this[kPending], b]);
  let keep = 0;
  let total = 0;
  switch (this.encoding) {
    case 'utf8': {
      const tail = utf8Tail(b);
      if (tail) { keep = b.length - tail[0]; total = tail[1]; }
      break;
    }
    case 'utf16le': {
      keep = b.length % 2;
      total = 2;
      if (keep === 0 && b.length >= 2) {
        const u = b[b.length - 2] | (b[b.length - 1] << 8);
        if (u >= 0xd800 && u <= 0xdbff) { keep = 2; total = 4; }
      } else if (keep === 1 && b.length >= 3) {
        const u = b[b.length - 3] | (b[b.length - 2] << 8);
        if (u >= 0xd800 && u <= 0xdbff) { keep = 3; total = 4; }
      }
      break;
    }
    case 'base64': case 'base64url':
      keep = b.length % 3;
      total = 3;
      break;
    default:
      break;
  }
  this[kPending] = keep ? Buffer.from(b.subarray(b.length - keep)) : Buffer.alloc(0);
  this[kTotal] = keep ? total : 0;
  // Decoded as a whole buffer, so the same decoder as Buffer#toString's
  // (the one a concatenation would go through) handles invalid bytes.
  return (keep ? b.subarray(0, b.length - keep) : b).toString(this.encoding);
};

StringDecoder.prototype.end = function end(buf) {
  let ret = '';
  if (buf !== undefined) ret = this.write(buf);
  const p = this[kPending];
  if (p.length) {
    ret += this.encoding === 'utf8' ? '\ufffd' : p.toString(this.encoding);
    this[kPending] = Buffer.alloc(0);
    this[kTotal] = 0;
  }
  return ret;
};

StringDecoder.prototype.text = function text(buf, offset) {
  this[kPending] = Buffer.alloc(0);
  this[kTotal] = 0;
  return this.write(asBuffer(buf).subarray(offset));
};

Object.defineProperties(StringDecoder.prototype, {
  // lastChar is the 4-byte buffer that holds the incomplete character.
  lastChar: {
    configurable: true, enumerable: true,
    get() { const out = Buffer.alloc(4); this[kPending].copy(out); return out; },
  },
  // lastNeed is how many bytes the incomplete character still needs.
  lastNeed: {
    configurable: true, enumerable: true,
    get() { return this[kPending].length ? this[kTotal] - this[kPending].length : 0; },
  },
  // lastTotal is the length of the incomplete character when complete.
  lastTotal: {
    configurable: true, enumerable: true,
    get() { return this[kPending].length ? this[kTotal] : 0; },
  },
});

module.exports = { StringDecoder };
