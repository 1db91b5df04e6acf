'use strict';
// TextEncoder, TextDecoder (utf-8), btoa and atob.

function makeEncoding() {
  class TextEncoder {
    get encoding() { return 'utf-8'; }
    encode(s = '') { return host.utf8Encode(String(s)); }
    encodeInto(s, dest) {
      const b = host.utf8Encode(String(s));
      const n = Math.min(b.length, dest.length);
      dest.set(b.subarray(0, n));
      return { read: n === b.length ? String(s).length : undefined, written: n };
    }
  }
  class TextDecoder {
    constructor(label = 'utf-8', opts = {}) {
      const l = String(label).toLowerCase().trim();
      if (l !== 'utf-8' && l !== 'utf8' && l !== 'unicode-1-1-utf-8') {
        throw new RangeError('The "' + label + '" encoding is not supported (only utf-8 is)');
      }
      this.fatal = !!opts.fatal;
      this.ignoreBOM = !!opts.ignoreBOM;
    }
    get encoding() { return 'utf-8'; }
    decode(input) {
      if (input === undefined) return '';
      let s = host.utf8Decode(input, this.fatal);
      if (!this.ignoreBOM && s.charCodeAt(0) === 0xfeff) s = s.slice(1);
      return s;
    }
  }
  return { TextEncoder, TextDecoder };


}

function makeBase64() {
  const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  const btoa = (function btoa(s) {
    s = String(s);
    let out = '';
    for (let i = 0; i < s.length; i += 3) {
      const a = s.charCodeAt(i), b = s.charCodeAt(i + 1), c = s.charCodeAt(i + 2);
      if (a > 255 || b > 255 || c > 255) throw new Error('Invalid character');
      const n = (a << 16) | ((b || 0) << 8) | (c || 0);
      out += B64[n >> 18] + B64[(n >> 12) & 63] + (i + 1 < s.length ? B64[(n >> 6) & 63] : '=') + (i + 2 < s.length ? B64[n & 63] : '=');
    }
    return out;
  });
  const atob = (function atob(s) {
    s = String(s).replace(/[\t\n\f\r ]/g, '');
    if (s.length % 4 === 0) s = s.replace(/==?$/, '');
    if (s.length % 4 === 1 || /[^A-Za-z0-9+/]/.test(s)) throw new Error('The string to be decoded is not correctly encoded.');
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
