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

function escape(s) {
  if (typeof s !== 'string') {
    if (typeof s === 'object') s = String(s);
    else s += '';
  }
  try {
    return encodeURIComponent(s);
  } catch {
    const e = new URIError('URI malformed');
    e.code = 'ERR_INVALID_URI';
    throw e;
  }
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
  const encode = options && typeof options.encodeURIComponent === 'function' ? options.encodeURIComponent : escape;
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
  const custom = options && typeof options.decodeURIComponent === 'function' && options.decodeURIComponent !== unescape;
  // As in Node, a key or value is decoded only if it holds a '+' or a
  // valid %XX escape (always, with a custom decoder).
  const decode = (s) => {
    if (!custom && !/\+|%[0-9a-fA-F]{2}/.test(s)) return s;
    s = s.replace(/\+/g, ' ');
    if (!custom) return unescape(s, true);
    try { return options.decodeURIComponent(s); } catch { return unescape(s, true); }
  };
  let pairs = 0;
  for (const piece of qs.split(sep)) {
    if (maxKeys > 0 && pairs >= maxKeys) break;
    if (piece.length === 0) continue;
    pairs++;
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
