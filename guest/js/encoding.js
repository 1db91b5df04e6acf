'use strict';
// TextEncoder, TextDecoder (utf-8), btoa and atob.

function makeEncoding() {
  class TextEncoder {
    get encoding() { return 'utf-8'; }
    encode(s = '') { return host.utf8Encode(String(s)); }
    // encodeInto writes whole characters only, as many as fit.
    encodeInto(src, dest) {
      const str = String(src);
      let read = 0, written = 0;
      for (let i = 0; i < str.length;) {
        let cp = str.codePointAt(i);
        const units = cp > 0xffff ? 2 : 1;
        if (cp >= 0xd800 && cp <= 0xdfff) cp = 0xfffd; // a lone surrogate
        const n = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
        if (written + n > dest.length) break;
        if (n === 1) dest[written] = cp;
        else if (n === 2) { dest[written] = 0xc0 | (cp >> 6); dest[written + 1] = 0x80 | (cp & 63); }
        else if (n === 3) { dest[written] = 0xe0 | (cp >> 12); dest[written + 1] = 0x80 | ((cp >> 6) & 63); dest[written + 2] = 0x80 | (cp & 63); }
        else {
          dest[written] = 0xf0 | (cp >> 18); dest[written + 1] = 0x80 | ((cp >> 12) & 63);
          dest[written + 2] = 0x80 | ((cp >> 6) & 63); dest[written + 3] = 0x80 | (cp & 63);
        }
        written += n;
        read += units;
        i += units;
      }
      return { read, written };
    }
  }

  // The labels of the encodings the decoder knows (WHATWG names).
  const labels = {
    'utf-8': ['utf-8', 'utf8', 'unicode-1-1-utf-8', 'unicode11utf8', 'unicode20utf8', 'x-unicode20utf8'],
    'utf-16le': ['utf-16le', 'utf-16', 'ucs-2', 'unicode', 'csunicode', 'iso-10646-ucs-2', 'unicodefeff'],
    'windows-1252': ['windows-1252', 'latin1', 'iso-8859-1', 'ascii', 'us-ascii', 'cp1252', 'cp819', 'ibm819',
      'iso-ir-100', 'iso8859-1', 'iso88591', 'iso_8859-1', 'iso_8859-1:1987', 'l1', 'csisolatin1', 'x-cp1252', 'ansi_x3.4-1968'],
  };
  const byLabel = new Map();
  for (const [enc, ls] of Object.entries(labels)) for (const l of ls) byLabel.set(l, enc);
  const bytesOf = (input) => {
    if (input instanceof ArrayBuffer) return new Uint8Array(input);
    if (ArrayBuffer.isView(input)) return new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
    const e = new TypeError('The "input" argument must be an instance of ArrayBuffer or ArrayBufferView.' +
      (input === null ? ' Received null' : ' Received type ' + typeof input));
    e.code = 'ERR_INVALID_ARG_TYPE';
    throw e;
  };
  // incompleteTail is how many bytes at the end of b start a UTF-8
  // sequence that the next chunk may complete.
  const incompleteTail = (b) => {
    for (let k = 1; k <= 3 && k <= b.length; k++) {
      const c = b[b.length - k];
      if ((c & 0xc0) === 0x80) continue;
      const need = c >= 0xf5 ? 1 : c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 ? 2 : 1;
      return need > k ? k : 0;
    }
    return 0;
  };

  class TextDecoder {
    constructor(label = 'utf-8', opts = {}) {
      const l = String(label).toLowerCase().replace(/^[\t\n\f\r ]+|[\t\n\f\r ]+$/g, ''); // ASCII whitespace only (WHATWG)
      const enc = byLabel.get(l);
      if (enc === undefined) {
        const e = new RangeError('The "' + label + '" encoding is not supported');
        e.code = 'ERR_ENCODING_NOT_SUPPORTED';
        throw e;
      }
      this._enc = enc;
      this._fatal = !!(opts && opts.fatal);
      this._ignoreBOM = !!(opts && opts.ignoreBOM);
      this._pending = null;
      this._bomSeen = false;
    }
    get encoding() { return this._enc; }
    get fatal() { return this._fatal; }
    get ignoreBOM() { return this._ignoreBOM; }
    decode(input, opts) {
      const stream = !!(opts && opts.stream);
      let b = input === undefined ? new Uint8Array(0) : bytesOf(input);
      if (this._pending) {
        const all = new Uint8Array(this._pending.length + b.length);
        all.set(this._pending);
        all.set(b, this._pending.length);
        b = all;
        this._pending = null;
      }
      let keep = 0;
      if (stream) keep = this._enc === 'utf-8' ? incompleteTail(b) : this._enc === 'utf-16le' ? b.length % 2 : 0;
      if (keep) { this._pending = b.slice(b.length - keep); b = b.subarray(0, b.length - keep); }
      let s;
      if (this._enc === 'utf-8') {
        try { s = host.utf8Decode(b, this._fatal); } catch (err) {
          const e = new TypeError('The encoded data was not valid for encoding utf-8');
          e.code = 'ERR_ENCODING_INVALID_ENCODED_DATA';
          this._bomSeen = false;
          throw e;
        }
      } else if (this._enc === 'utf-16le') {
        s = '';
        for (let i = 0; i + 1 < b.length; i += 2) s += String.fromCharCode(b[i] | (b[i + 1] << 8));
        if (b.length % 2) s += '\ufffd';
      } else {
        s = '';
        // Node 20 decodes its windows-1252 labels as ISO-8859-1 (0x80-0x9f too).
        for (let i = 0; i < b.length; i++) s += String.fromCharCode(b[i]);
      }
      if (!this._bomSeen && s.length) {
        if (!this._ignoreBOM && this._enc !== 'windows-1252' && s.charCodeAt(0) === 0xfeff) s = s.slice(1);
        this._bomSeen = true;
      }
      if (!stream) this._bomSeen = false;
      return s;
    }
  }
  return { TextEncoder, TextDecoder };
}

function makeBase64() {
  const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  const btoa = (function btoa(s) {
    if (arguments.length === 0) throw require('nook:errors.js').makeError('ERR_MISSING_ARGS', 'input');
    s = `${s}`;
    let out = '';
    for (let i = 0; i < s.length; i += 3) {
      const a = s.charCodeAt(i), b = s.charCodeAt(i + 1), c = s.charCodeAt(i + 2);
      if (a > 255 || b > 255 || c > 255) throw new DOMException('Invalid character', 'InvalidCharacterError');
      const n = (a << 16) | ((b || 0) << 8) | (c || 0);
      out += B64[n >> 18] + B64[(n >> 12) & 63] + (i + 1 < s.length ? B64[(n >> 6) & 63] : '=') + (i + 2 < s.length ? B64[n & 63] : '=');
    }
    return out;
  });
  const atob = (function atob(s) {
    if (arguments.length === 0) throw require('nook:errors.js').makeError('ERR_MISSING_ARGS', 'input');
    s = `${s}`.replace(/[\t\n\f\r ]/g, '');
    if (s.length % 4 === 0) s = s.replace(/==?$/, '');
    if (s.length % 4 === 1 || /[^A-Za-z0-9+/]/.test(s)) throw new DOMException('The string to be decoded is not correctly encoded.', 'InvalidCharacterError');
    let out = '', bits = 0, n = 0;
    for (let i = 0; i < s.length; i++) {
      n = (n << 6) | B64.indexOf(s[i]);
      bits += 6;
      if (bits >= 8) { bits -= 8; out += String.fromCharCode((n >> bits) & 255); }
    }
    return out;
  });

  return { btoa, atob };
}

module.exports = { ...makeEncoding(), ...makeBase64() };
