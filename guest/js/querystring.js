'use strict';
// node:querystring — parse and stringify application/x-www-form-urlencoded
// strings as Node does: repeated keys collect into arrays, '+' is a space,
// malformed percent escapes are kept as written, parse returns a
// null-prototype object and stops after maxKeys (1000) pairs.

const { Buffer } = require('node:buffer');

const hexValue = (c) => (c >= 48 && c <= 57 ? c - 48 : c >= 65 && c <= 70 ? c - 55 : c >= 97 && c <= 102 ? c - 87 : -1);

// unescapeBuffer decodes the valid %XX escapes of s into bytes and keeps
// everything else; '+' becomes a space if decodeSpaces.
function unescapeBuffer(s, decodeSpaces) {
  s = String(s);
  const out = Buffer.alloc(s.length);
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 37 && i + 2 < s.length) {
      const hi = hexValue(s.charCodeAt(i + 1)), lo = hexValue(s.charCodeAt(i + 2));
      if (hi >= 0 && lo >= 0) { out[n++] = hi * 16 + lo; i += 2; continue; }
    }
    // As in Node, another character is one byte: its low 8 bits.
    out[n++] = c === 43 && decodeSpaces ? 32 : c & 0xff;
  }
  return out.subarray(0, n);
}

function unescape(s, decodeSpaces) {
  try { return decodeURIComponent(s); } catch { return unescapeBuffer(s, decodeSpaces).toString(); }
}

// unreserved are the characters escape keeps: those encodeURIComponent keeps.
const unreserved = /[A-Za-z0-9\-_.!~*'()]/;
const hex = (b) => '%' + (b < 16 ? '0' : '') + b.toString(16).toUpperCase();

// escape percent-encodes s as UTF-8, as Node's does: a surrogate (high or
// low) takes the next code unit as its pair, whatever it is, and one at
// the end of the string is malformed.
function escape(s) {
  if (typeof s !== 'string') {
    if (typeof s === 'object') s = String(s);
    else s += '';
  }
  let out = '';
  for (let i = 0; i < s.length; i++) {
    let c = s.charCodeAt(i);
    if (c < 0x80) { out += unreserved.test(s[i]) ? s[i] : hex(c); continue; }
    if (c < 0x800) { out += hex(0xC0 | (c >> 6)) + hex(0x80 | (c & 0x3F)); continue; }
    if (c < 0xD800 || c >= 0xE000) {
      out += hex(0xE0 | (c >> 12)) + hex(0x80 | ((c >> 6) & 0x3F)) + hex(0x80 | (c & 0x3F));
      continue;
    }
    if (++i >= s.length) {
      const e = new URIError('URI malformed');
      e.code = 'ERR_INVALID_URI';
      throw e;
    }
    c = 0x10000 + (((c & 0x3FF) << 10) | (s.charCodeAt(i) & 0x3FF));
    out += hex(0xF0 | (c >> 18)) + hex(0x80 | ((c >> 12) & 0x3F)) + hex(0x80 | ((c >> 6) & 0x3F)) + hex(0x80 | (c & 0x3F));
  }
  return out;
}

function primitive(v) {
  switch (typeof v) {
    case 'string': return v;
    case 'number': return Number.isFinite(v) ? '' + v : '';
    case 'bigint': return '' + v;
    case 'boolean': return v ? 'true' : 'false';
    default: return '';
  }
}

function stringify(obj, sep, eq, options) {
  sep = sep || '&';
  eq = eq || '=';
  const encode = options && typeof options.encodeURIComponent === 'function' ? options.encodeURIComponent : module.exports.escape;
  if (obj === null || typeof obj !== 'object') return '';
  let out = '';
  for (const k of Object.keys(obj)) {
    const v = obj[k];
    const ks = encode(primitive(k)) + eq;
    if (Array.isArray(v)) {
      if (v.length === 0) continue;
      for (let j = 0; j < v.length; j++) {
        if (out) out += sep;
        out += ks + encode(primitive(v[j]));
      }
    } else {
      if (out) out += sep;
      out += ks + encode(primitive(v));
    }
  }
  return out;
}

function parse(qs, sep, eq, options) {
  const obj = Object.create(null);
  if (typeof qs !== 'string' || qs.length === 0) return obj;
  sep = sep ? String(sep) : '&';
  eq = eq ? String(eq) : '=';
  let maxKeys = 1000;
  if (options && typeof options.maxKeys === 'number') maxKeys = options.maxKeys;
  // The decoder is options.decodeURIComponent, or else the module's
  // unescape (a program may replace it), as in Node.
  const decoder = options && typeof options.decodeURIComponent === 'function' ? options.decodeURIComponent : module.exports.unescape;
  const custom = decoder !== unescape;
  // As in Node, a key or value is decoded only if it holds a '+' or a
  // valid %XX escape (always, with a custom decoder).
  const decode = (s) => {
    if (!custom && !/\+|%[0-9a-fA-F]{2}/.test(s)) return s;
    s = s.replace(/\+/g, ' ');
    if (!custom) return unescape(s, true);
    try { return decoder(s); } catch { return module.exports.unescape(s, true); }
  };
  let pairs = 0;
  for (const piece of qs.split(sep)) {
    // As in Node, an empty piece counts toward maxKeys.
    if (maxKeys > 0 && pairs >= maxKeys) break;
    pairs++;
    if (piece.length === 0) continue;
    const at = piece.indexOf(eq);
    const k = decode(at < 0 ? piece : piece.slice(0, at));
    const v = at < 0 ? '' : decode(piece.slice(at + eq.length));
    const cur = obj[k];
    if (cur === undefined) obj[k] = v;
    else if (Array.isArray(cur)) cur.push(v);
    else obj[k] = [cur, v];
  }
  return obj;
}

module.exports = { unescapeBuffer, unescape, escape, stringify, encode: stringify, parse, decode: parse };
