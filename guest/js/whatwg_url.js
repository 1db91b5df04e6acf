'use strict';
// URL and URLSearchParams as the WHATWG URL Standard defines them (the
// parser Node uses): special schemes and their default ports, relative
// resolution against a base, dot segments, the percent-encode sets of each
// component, IPv4 and IPv6 hosts, and a searchParams object bound to its
// URL. International domain names go through the host's IDNA conversion.

const SPECIAL = { 'ftp:': '21', 'file:': '', 'http:': '80', 'https:': '443', 'ws:': '80', 'wss:': '443' };
const isSpecial = (scheme) => Object.prototype.hasOwnProperty.call(SPECIAL, scheme);

// Percent-encode sets: a table of the ASCII code points each holds (every
// set holds all the others), built from a predicate.
const asTable = (inSet) => { const t = new Uint8Array(128); for (let c = 0; c < 128; c++) t[c] = inSet(c) ? 1 : 0; return t; };
const inC0 = (c) => c < 0x20 || c > 0x7e;
const inFragment = (c) => inC0(c) || c === 0x20 || c === 0x22 || c === 0x3c || c === 0x3e || c === 0x60;
const inQuery = (c) => inC0(c) || c === 0x20 || c === 0x22 || c === 0x23 || c === 0x3c || c === 0x3e;
const inSpecialQuery = (c) => inQuery(c) || c === 0x27;
const inPath = (c) => inQuery(c) || c === 0x3f || c === 0x60 || c === 0x7b || c === 0x7d;
const inUserinfo = (c) => inPath(c) || c === 0x2f || c === 0x3a || c === 0x3b || c === 0x3d || c === 0x40 ||
  (c >= 0x5b && c <= 0x5e) || c === 0x7c;
const c0 = asTable(inC0), fragmentSet = asTable(inFragment), querySet = asTable(inQuery);
const specialQuerySet = asTable(inSpecialQuery), pathSet = asTable(inPath), userinfoSet = asTable(inUserinfo);
const hex2 = (b) => '%' + (b < 16 ? '0' : '') + b.toString(16).toUpperCase();

function utf8(cp) {
  if (cp < 0x80) return [cp];
  if (cp < 0x800) return [0xc0 | (cp >> 6), 0x80 | (cp & 63)];
  if (cp < 0x10000) return [0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63)];
  return [0xf0 | (cp >> 18), 0x80 | ((cp >> 12) & 63), 0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63)];
}

// encodeSet percent-encodes the code points of s in the set (a table; a lone
// surrogate as U+FFFD): one table look-up a character and the pieces
// joined once (predicate calls and += a character made a 288 KB file URL
// take 5 s to parse; now 0.5 s).
function encodeSet(s, set) {
  let out = null, from = 0;
  for (let i = 0; i < s.length; i++) {
    let cp = s.charCodeAt(i);
    if (cp < 0x80 && set[cp] === 0) continue;
    const at = i;
    if (cp >= 0xd800 && cp <= 0xdfff) {
      cp = s.codePointAt(i);
      if (cp > 0xffff) i++;
      else cp = 0xfffd;
    }
    if (out === null) out = [];
    out.push(s.slice(from, at));
    if (cp < 0x80) out.push(hex2(cp));
    else { const bytes = utf8(cp); for (let k = 0; k < bytes.length; k++) out.push(hex2(bytes[k])); }
    from = i + 1;
  }
  if (out === null) return s;
  out.push(s.slice(from));
  return out.join('');
}

// percentDecode turns the valid %XX escapes of s into bytes (UTF-8 text).
function percentDecodeBytes(s) {
  const bytes = [];
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x25 && /^[0-9a-fA-F]{2}$/.test(s.slice(i + 1, i + 3))) {
      bytes.push(parseInt(s.slice(i + 1, i + 3), 16));
      i += 2;
    } else if (c < 0x80) {
      bytes.push(c);
    } else {
      let cp = s.codePointAt(i);
      if (cp > 0xffff) i++;
      bytes.push(...utf8(cp));
    }
  }
  return new Uint8Array(bytes);
}
const utf8Text = (b) => host.utf8Decode(b, false);

function invalidURL(input, base) {
  const e = new TypeError('Invalid URL');
  e.code = 'ERR_INVALID_URL';
  e.input = input;
  if (base !== undefined) e.base = base;
  return e;
}

// Hosts.

function parseIPv4Number(s) {
  if (s === '') return NaN;
  let radix = 10;
  if (/^0[xX]/.test(s)) { s = s.slice(2); radix = 16; } else if (s.length > 1 && s[0] === '0') { s = s.slice(1); radix = 8; }
  if (s === '') return 0;
  const re = radix === 16 ? /^[0-9a-fA-F]+$/ : radix === 8 ? /^[0-7]+$/ : /^[0-9]+$/;
  if (!re.test(s)) return NaN;
  return parseInt(s, radix);
}

// endsInNumber tells whether a domain is to be read as an IPv4 address.
function endsInNumber(host) {
  const parts = host.split('.');
  if (parts[parts.length - 1] === '') {
    if (parts.length === 1) return false;
    parts.pop();
  }
  const last = parts[parts.length - 1];
  if (last !== '' && /^[0-9]+$/.test(last)) return true;
  return !Number.isNaN(parseIPv4Number(last)) && /^0[xX]/.test(last);
}

function parseIPv4(host) {
  const parts = host.split('.');
  if (parts[parts.length - 1] === '' && parts.length > 1) parts.pop();
  if (parts.length > 4) return null;
  const nums = parts.map(parseIPv4Number);
  if (nums.some((n) => Number.isNaN(n))) return null;
  for (let i = 0; i < nums.length - 1; i++) if (nums[i] > 255) return null;
  if (nums[nums.length - 1] >= 256 ** (5 - nums.length)) return null;
  let ipv4 = nums[nums.length - 1];
  for (let i = 0; i < nums.length - 1; i++) ipv4 += nums[i] * 256 ** (3 - i);
  const out = [];
  for (let i = 0; i < 4; i++) { out.unshift(ipv4 % 256); ipv4 = Math.floor(ipv4 / 256); }
  return out.join('.');
}

function parseIPv6(s) {
  const pieces = [0, 0, 0, 0, 0, 0, 0, 0];
  let piece = 0, compress = null, i = 0;
  if (s[0] === ':') {
    if (s[1] !== ':') return null;
    i = 2;
    compress = ++piece;
  }
  while (i < s.length) {
    if (piece === 8) return null;
    if (s[i] === ':') {
      if (compress !== null) return null;
      i++;
      compress = ++piece;
      continue;
    }
    let value = 0, len = 0;
    while (len < 4 && i < s.length && /[0-9a-fA-F]/.test(s[i])) { value = value * 16 + parseInt(s[i], 16); i++; len++; }
    if (s[i] === '.') {
      if (len === 0 || piece > 6) return null;
      i -= len;
      const v4 = parseIPv4(s.slice(i));
      if (v4 === null || !/^\d+\.\d+\.\d+\.\d+$/.test(s.slice(i))) return null;
      const b = v4.split('.').map(Number);
      pieces[piece++] = b[0] * 256 + b[1];
      pieces[piece++] = b[2] * 256 + b[3];
      i = s.length;
      break;
    }
    if (s[i] === ':') { i++; if (i === s.length) return null; } else if (i < s.length) return null;
    pieces[piece++] = value;
  }
  if (compress !== null) {
    let swaps = piece - compress;
    piece = 7;
    while (piece !== 0 && swaps > 0) {
      const t = pieces[compress + swaps - 1];
      pieces[compress + swaps - 1] = pieces[piece];
      pieces[piece] = t;
      piece--;
      swaps--;
    }
  } else if (piece !== 8) return null;
  // Serialize: the longest run of two or more zero pieces becomes "::".
  let best = -1, bestLen = 1;
  for (let j = 0; j < 8;) {
    if (pieces[j] !== 0) { j++; continue; }
    let k = j;
    while (k < 8 && pieces[k] === 0) k++;
    if (k - j > bestLen) { best = j; bestLen = k - j; }
    j = k;
  }
  let out = '';
  for (let j = 0; j < 8; j++) {
    if (j === best) { out += j === 0 ? '::' : ':'; j += bestLen - 1; continue; }
    out += pieces[j].toString(16) + (j < 7 ? ':' : '');
  }
  return '[' + out + ']';
}

const forbiddenHost = /[\u0000\t\n\r #/:<>?@[\\\]^|]/;
const forbiddenDomain = /[\u0000-\u001f\t\n\r #/:<>?@[\\\]^|%\u007f]/;

function parseHost(input, special) {
  if (input[0] === '[') {
    if (input[input.length - 1] !== ']') return null;
    return parseIPv6(input.slice(1, -1));
  }
  if (!special) {
    if (forbiddenHost.test(input)) return null;
    return encodeSet(input, c0);
  }
  let domain = utf8Text(percentDecodeBytes(input));
  if (/[^\x00-\x7f]/.test(domain) || /(^|\.)xn--/i.test(domain)) {
    domain = host.native('url').domainToASCII(domain);
    if (domain === '') return null;
  } else {
    domain = domain.toLowerCase();
  }
  if (domain === '' || forbiddenDomain.test(domain)) return null;
  if (endsInNumber(domain)) return parseIPv4(domain);
  return domain;
}

// Paths.

const isSingleDot = (s) => s === '.' || s.toLowerCase() === '%2e';
const isDoubleDot = (s) => { const l = s.toLowerCase(); return l === '..' || l === '.%2e' || l === '%2e.' || l === '%2e%2e'; };
const isDriveLetter = (s) => /^[a-zA-Z][:|]$/.test(s);
const isNormalizedDrive = (s) => /^[a-zA-Z]:$/.test(s);

// pushSegments appends the segments of a path string to path, resolving
// dot segments; special schemes treat "\" as "/".
function pushSegments(path, str, url) {
  const special = isSpecial(url.scheme);
  // (A string split: a RegExp split runs one sticky match a character,
  // which on a 288 KB path passed RegexpMatchTimeout on a loaded host.)
  const segs = special ? str.replace(/\\/g, '/').split('/') : str.split('/');
  for (let i = 0; i < segs.length; i++) {
    const seg = segs[i];
    const last = i === segs.length - 1;
    if (isDoubleDot(seg)) {
      if (!(url.scheme === 'file:' && path.length === 1 && isNormalizedDrive(path[0]))) path.pop();
      if (last) path.push('');
    } else if (isSingleDot(seg)) {
      if (last) path.push('');
    } else {
      let s = encodeSet(seg, pathSet);
      if (url.scheme === 'file:' && path.length === 0 && isDriveLetter(s)) s = s[0] + ':';
      path.push(s);
    }
  }
}

// Parsing. A record is { scheme, username, password, host, port, path
// (array, or a string for an opaque path), query, fragment }.

function splitTail(rest, url) {
  let fragment = null, query = null;
  const h = rest.indexOf('#');
  if (h !== -1) { fragment = encodeSet(rest.slice(h + 1), fragmentSet); rest = rest.slice(0, h); }
  const q = rest.indexOf('?');
  if (q !== -1) { query = encodeSet(rest.slice(q + 1), isSpecial(url.scheme) ? specialQuerySet : querySet); rest = rest.slice(0, q); }
  url.query = query;
  url.fragment = fragment;
  return rest;
}

function parseAuthority(rest, url) {
  const special = isSpecial(url.scheme);
  const end = rest.search(special ? /[/\\?#]/ : /[/?#]/);
  const auth = end === -1 ? rest : rest.slice(0, end);
  const after = end === -1 ? '' : rest.slice(end);
  let hostport = auth;
  const at = auth.lastIndexOf('@');
  if (at !== -1) {
    const info = auth.slice(0, at);
    hostport = auth.slice(at + 1);
    const colon = info.indexOf(':');
    url.username = encodeSet(colon === -1 ? info : info.slice(0, colon), userinfoSet);
    url.password = colon === -1 ? '' : encodeSet(info.slice(colon + 1), userinfoSet);
    if (hostport === '') return null;
  }
  let hostStr = hostport, port = '';
  const m = /:([^\]:]*)$/.exec(hostport);
  if (m && !(hostport[0] === '[' && hostport.lastIndexOf(']') > m.index)) {
    hostStr = hostport.slice(0, m.index);
    port = m[1];
  }
  if (hostStr === '') {
    if (special || url.username || url.password || port) return null;
    url.host = '';
  } else {
    const h = parseHost(hostStr, special);
    if (h === null) return null;
    url.host = h;
  }
  if (port !== '') {
    if (!/^[0-9]+$/.test(port)) return null;
    const n = parseInt(port, 10);
    if (n > 65535) return null;
    url.port = String(n) === SPECIAL[url.scheme] ? '' : String(n);
  }
  return after;
}

function parsePathInto(rest, url) {
  rest = splitTail(rest, url);
  const special = isSpecial(url.scheme);
  if (special || rest !== '' || url.host !== null) {
    if (rest !== '' && rest[0] !== '/' && !(special && rest[0] === '\\')) rest = '/' + rest;
    if (special && rest === '') rest = '/';
    if (rest !== '') pushSegments(url.path, rest.slice(1), url);
  }
}

function parseFile(rest, base, url) {
  url.host = '';
  if (/^[/\\]{2}/.test(rest)) {
    rest = rest.slice(2);
    const end = rest.search(/[/\\?#]/);
    const hostStr = end === -1 ? rest : rest.slice(0, end);
    rest = end === -1 ? '' : rest.slice(end);
    if (isDriveLetter(hostStr)) {
      rest = '/' + hostStr + rest;
    } else if (hostStr !== '') {
      const h = parseHost(hostStr, true);
      if (h === null) return false;
      url.host = h === 'localhost' ? '' : h;
    }
    parsePathInto(rest, url);
    return true;
  }
  if (base && base.scheme === 'file:') {
    url.host = base.host;
    if (rest === '' || rest[0] === '?' || rest[0] === '#') {
      url.path = base.path.slice();
      url.query = base.query;
      if (rest === '') return true;
      const saved = base.query;
      splitTail(rest, url);
      if (rest[0] === '#' && url.query === null) url.query = saved;
      return true;
    }
    if (rest[0] !== '/' && rest[0] !== '\\') {
      url.path = base.path.slice(0, -1);
      rest = splitTail(rest, url);
      pushSegments(url.path, rest, url);
      return true;
    }
  }
  parsePathInto(rest, url);
  return true;
}

function parse(input, base) {
  input = String(input).replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, '').replace(/[\t\n\r]/g, '');
  const url = { scheme: '', username: '', password: '', host: null, port: '', path: [], query: null, fragment: null };
  const m = /^([a-zA-Z][a-zA-Z0-9+\-.]*):/.exec(input);
  let rest;
  if (m) {
    url.scheme = m[1].toLowerCase() + ':';
    rest = input.slice(m[0].length);
    const special = isSpecial(url.scheme);
    if (url.scheme === 'file:') return parseFile(rest, base, url) ? url : null;
    if (special) {
      // "http:/x" (one slash) against an http: base is relative to it.
      if (base && base.scheme === url.scheme && !/^[/\\]{2}/.test(rest)) return relative(rest, base, url);
      rest = rest.replace(/^[/\\]*/, '');
      const after = parseAuthority(rest, url);
      if (after === null) return null;
      parsePathInto(after, url);
      return url;
    }
    if (rest.startsWith('//')) {
      const after = parseAuthority(rest.slice(2), url);
      if (after === null) return null;
      parsePathInto(after, url);
      return url;
    }
    if (rest[0] === '/') { parsePathInto(rest, url); return url; }
    // An opaque path (mailto:, data:, ...).
    rest = splitTail(rest, url);
    url.path = encodeSet(rest, c0);
    return url;
  }
  if (!base) return null;
  url.scheme = base.scheme;
  if (typeof base.path === 'string') {
    if (input[0] !== '#') return null;
    url.path = base.path;
    url.query = base.query;
    url.fragment = encodeSet(input.slice(1), fragmentSet);
    return url;
  }
  if (url.scheme === 'file:') return parseFile(input, base, url) ? url : null;
  return relative(input, base, url);
}

function relative(rest, base, url) {
  const special = isSpecial(url.scheme);
  const slash = special ? /^[/\\]/ : /^\//;
  if (special ? /^[/\\]{2}/.test(rest) : rest.startsWith('//')) {
    const after = parseAuthority(rest.slice(2), url);
    if (after === null) return null;
    parsePathInto(after, url);
    return url;
  }
  url.username = base.username;
  url.password = base.password;
  url.host = base.host;
  url.port = base.port;
  if (slash.test(rest)) { parsePathInto(rest, url); return url; }
  if (rest === '' || rest[0] === '?' || rest[0] === '#') {
    url.path = base.path.slice();
    url.query = base.query;
    if (rest === '') return url;
    const saved = base.query;
    splitTail(rest, url);
    if (rest[0] === '#' && url.query === null) url.query = saved;
    return url;
  }
  url.path = base.path.slice(0, -1);
  rest = splitTail(rest, url);
  pushSegments(url.path, rest, url);
  return url;
}

function pathString(u) {
  if (typeof u.path === 'string') return u.path;
  let s = '/' + u.path.join('/');
  if (u.host === null && u.path.length > 1 && u.path[0] === '') s = '/.' + s;
  return u.path.length === 0 ? '' : s;
}

function serialize(u, noFragment) {
  let s = u.scheme;
  if (u.host !== null) {
    s += '//';
    if (u.username !== '' || u.password !== '') s += u.username + (u.password !== '' ? ':' + u.password : '') + '@';
    s += u.host + (u.port !== '' ? ':' + u.port : '');
  }
  s += pathString(u);
  if (u.query !== null) s += '?' + u.query;
  if (!noFragment && u.fragment !== null) s += '#' + u.fragment;
  return s;
}

// URLSearchParams.

const formByte = (b) => (b === 0x2a || b === 0x2d || b === 0x2e || b === 0x5f || (b >= 0x30 && b <= 0x39) ||
  (b >= 0x41 && b <= 0x5a) || (b >= 0x61 && b <= 0x7a));
function formEncode(s) {
  const out = []; // joined once (see encodeSet)
  for (let i = 0; i < s.length; i++) {
    let cp = s.codePointAt(i);
    if (cp > 0xffff) i++;
    else if (cp >= 0xd800 && cp <= 0xdfff) cp = 0xfffd;
    for (const b of utf8(cp)) out.push(b === 0x20 ? '+' : formByte(b) ? String.fromCharCode(b) : hex2(b));
  }
  return out.join('');
}
// formDecode decodes a name or value as Node does: only if it holds a '+'
// or a valid escape; then decodeURIComponent,
// and, when that fails (a malformed escape), the valid escapes byte by
// byte with each other character taken as one byte (its low 8 bits).
function formDecode(s) {
  if (!/\+|%[0-9a-fA-F]{2}/.test(s)) return s;
  s = s.replace(/\+/g, ' ');
  try { return decodeURIComponent(s); } catch { /* below */ }
  const bytes = [];
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x25 && /^[0-9a-fA-F]{2}$/.test(s.slice(i + 1, i + 3))) {
      bytes.push(parseInt(s.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      bytes.push(c & 0xff);
    }
  }
  return utf8Text(new Uint8Array(bytes));
}
function formParse(s) {
  const list = [];
  for (const piece of s.split('&')) {
    if (piece === '') continue;
    const eq = piece.indexOf('=');
    list.push([formDecode(eq === -1 ? piece : piece.slice(0, eq)), formDecode(eq === -1 ? '' : piece.slice(eq + 1))]);
  }
  return list;
}
const toUSV = (v) => { const s = `${v}`; return typeof s.toWellFormed === 'function' ? s.toWellFormed() : s; };

const kList = Symbol('list');
const kURL = Symbol('url');

const errors = require('nook:errors.js');

function argCount(n, need) {
  if (n < need) throw need > 1 ? errors.makeError('ERR_MISSING_ARGS', 'name', 'value') : errors.makeError('ERR_MISSING_ARGS', 'name');
}
// checkThis throws Node's ERR_INVALID_THIS unless self is a URLSearchParams.
function checkThis(self) {
  if (self === null || typeof self !== 'object' || !(kList in self)) throw errors.makeError('ERR_INVALID_THIS', 'URLSearchParams');
}
// pairOf turns one element of an iterable init into a [name, value] pair,
// with Node's ERR_INVALID_TUPLE for anything that is not a 2-element iterable.
function pairOf(pair) {
  if ((typeof pair !== 'object' && typeof pair !== 'function') || pair === null || typeof pair[Symbol.iterator] !== 'function') {
    throw errors.makeError('ERR_INVALID_TUPLE', 'Each query pair', '[name, value]');
  }
  const p = [];
  for (const x of pair) {
    p.push(x);
    if (p.length > 2) break;
  }
  if (p.length !== 2) throw errors.makeError('ERR_INVALID_TUPLE', 'Each query pair', '[name, value]');
  return [toUSV(p[0]), toUSV(p[1])];
}

const kTarget = Symbol('target');
const kKind = Symbol('kind');
const kIndex = Symbol('index');
const IteratorPrototype = Object.getPrototypeOf(Object.getPrototypeOf([][Symbol.iterator]()));

// URLSearchParamsIterator is the live iterator entries, keys and values
// return, as Node's: it reads the list at each next, so appends made while
// iterating are seen.
function URLSearchParamsIterator(target, kind) {
  this[kTarget] = target;
  this[kKind] = kind;
  this[kIndex] = 0;
}
URLSearchParamsIterator.prototype = Object.create(IteratorPrototype, {
  constructor: { value: URLSearchParamsIterator, writable: true, configurable: true },
  next: {
    value: function next() {
      if (this === null || typeof this !== 'object' || !(kTarget in this)) throw errors.makeError('ERR_INVALID_THIS', 'URLSearchParamsIterator');
      const list = this[kTarget][kList];
      const i = this[kIndex];
      if (i >= list.length) return { value: undefined, done: true };
      this[kIndex] = i + 1;
      const [k, v] = list[i];
      return { value: this[kKind] === 'key' ? k : this[kKind] === 'value' ? v : [k, v], done: false };
    },
    writable: true, enumerable: true, configurable: true,
  },
  [Symbol.toStringTag]: { value: 'URLSearchParams Iterator', configurable: true },
  [Symbol.for('nodejs.util.inspect.custom')]: {
    value: function (depth, opts) {
      const inspect = require('node:util').inspect;
      const inner = { ...opts };
      if (typeof depth === 'number') inner.depth = depth - 1;
      const list = this[kTarget][kList].slice(this[kIndex]);
      const out = list.map(([k, v]) => this[kKind] === 'key' ? inspect(k, inner) : this[kKind] === 'value' ? inspect(v, inner) : inspect([k, v], inner));
      return out.length ? 'URLSearchParams Iterator { ' + out.join(', ') + ' }' : 'URLSearchParams Iterator {  }';
    },
    writable: true, configurable: true,
  },
});

class URLSearchParams {
  constructor(init = undefined) {
    this[kList] = [];
    this[kURL] = null;
    if (init === undefined || init === null) return;
    if (typeof init === 'object' || typeof init === 'function') {
      const method = init[Symbol.iterator];
      if (method !== undefined && method !== null) {
        if (typeof method !== 'function') throw errors.makeError('ERR_ARG_NOT_ITERABLE', 'Query pairs');
        for (const pair of init) this[kList].push(pairOf(pair));
      } else {
        for (const k of Reflect.ownKeys(init)) {
          if (!Object.prototype.propertyIsEnumerable.call(init, k)) continue;
          this[kList].push([toUSV(k), toUSV(init[k])]);
        }
      }
      return;
    }
    let s = toUSV(init);
    if (s[0] === '?') s = s.slice(1);
    this[kList] = formParse(s);
  }
  _update() {
    const u = this[kURL];
    if (u) { const s = this.toString(); u[kRec].query = s === '' ? null : s; }
  }
  get size() { checkThis(this); return this[kList].length; }
  append(name, value) { checkThis(this); argCount(arguments.length, 2); this[kList].push([toUSV(name), toUSV(value)]); this._update(); }
  delete(name, value) { checkThis(this);
    argCount(arguments.length, 1);
    const n = toUSV(name);
    const v = value === undefined ? undefined : toUSV(value);
    this[kList] = this[kList].filter(([k, x]) => !(k === n && (v === undefined || x === v)));
    this._update();
  }
  get(name) { checkThis(this); argCount(arguments.length, 1); const n = toUSV(name); const p = this[kList].find(([k]) => k === n); return p ? p[1] : null; }
  getAll(name) { checkThis(this); argCount(arguments.length, 1); const n = toUSV(name); return this[kList].filter(([k]) => k === n).map(([, v]) => v); }
  has(name, value) { checkThis(this);
    argCount(arguments.length, 1);
    const n = toUSV(name);
    const v = value === undefined ? undefined : toUSV(value);
    return this[kList].some(([k, x]) => k === n && (v === undefined || x === v));
  }
  set(name, value) { checkThis(this);
    argCount(arguments.length, 2);
    const n = toUSV(name), v = toUSV(value);
    const out = [];
    let found = false;
    for (const p of this[kList]) {
      if (p[0] !== n) out.push(p);
      else if (!found) { found = true; out.push([n, v]); }
    }
    if (!found) out.push([n, v]);
    this[kList] = out;
    this._update();
  }
  sort() { checkThis(this);
    const l = this[kList].map((p, i) => [p, i]);
    l.sort((a, b) => (a[0][0] < b[0][0] ? -1 : a[0][0] > b[0][0] ? 1 : a[1] - b[1]));
    this[kList] = l.map(([p]) => p);
    this._update();
  }
  forEach(cb, thisArg) { checkThis(this);
    errors.validateFunction(cb, 'callback');
    for (let i = 0; i < this[kList].length; i++) cb.call(thisArg, this[kList][i][1], this[kList][i][0], this);
  }
  entries() { checkThis(this); return new URLSearchParamsIterator(this, 'key+value'); }
  keys() { checkThis(this); return new URLSearchParamsIterator(this, 'key'); }
  values() { checkThis(this); return new URLSearchParamsIterator(this, 'value'); }
  toString() { checkThis(this); return this[kList].map(([k, v]) => formEncode(k) + '=' + formEncode(v)).join('&'); }
  get [Symbol.toStringTag]() { return 'URLSearchParams'; }
  [Symbol.for('nodejs.util.inspect.custom')](depth, opts) {
    const inspect = require('node:util').inspect;
    const inner = { ...opts };
    if (typeof depth === 'number') inner.depth = depth - 1;
    const out = this[kList].map(([k, v]) => inspect(k, inner) + ' => ' + inspect(v, inner));
    const len = out.reduce((n, s) => n + s.length + 2, -2);
    if (len > (opts && opts.breakLength !== undefined ? opts.breakLength : 80)) return 'URLSearchParams {\n  ' + out.join(',\n  ') + ' }';
    return out.length ? 'URLSearchParams { ' + out.join(', ') + ' }' : 'URLSearchParams {}';
  }
}

// URL.

const kRec = Symbol('record');
const kParams = Symbol('params');

function baseRecord(base) {
  if (base === undefined) return undefined;
  const b = base instanceof URL ? base[kRec] : parse(String(base));
  if (b === null) throw invalidURL(String(base));
  return b;
}

class URL {
  constructor(input, base = undefined) {
    if (arguments.length === 0) {
      const e = new TypeError('The "url" argument must be specified');
      e.code = 'ERR_MISSING_ARGS';
      throw e;
    }
    const s = toUSV(input);
    let b;
    try { b = baseRecord(base); } catch { throw invalidURL(s, String(base)); }
    const rec = parse(s, b);
    if (rec === null) throw invalidURL(s, base === undefined ? undefined : String(base));
    this[kRec] = rec;
    this[kParams] = null;
  }
  static canParse(input, base = undefined) {
    try { return parse(toUSV(input), baseRecord(base)) !== null; } catch { return false; }
  }
  get href() { return serialize(this[kRec]); }
  set href(v) {
    const rec = parse(toUSV(v));
    if (rec === null) throw invalidURL(toUSV(v));
    this[kRec] = rec;
    if (this[kParams]) this[kParams][kList] = formParse(rec.query || '');
  }
  get origin() {
    const u = this[kRec];
    if (u.scheme === 'blob:') {
      try { const inner = new URL(pathString(u)); if (/^https?:$/.test(inner.protocol)) return inner.origin; } catch { /* opaque */ }
      return 'null';
    }
    if (!isSpecial(u.scheme) || u.scheme === 'file:') return 'null';
    return u.scheme + '//' + u.host + (u.port !== '' ? ':' + u.port : '');
  }
  get protocol() { return this[kRec].scheme; }
  set protocol(v) {
    const m = /^([a-zA-Z][a-zA-Z0-9+\-.]*)/.exec(toUSV(v));
    if (!m) return;
    const scheme = m[1].toLowerCase() + ':';
    const u = this[kRec];
    if (isSpecial(scheme) !== isSpecial(u.scheme)) return;
    if (scheme === 'file:' && (u.username || u.password || u.port)) return;
    u.scheme = scheme;
    if (u.port === SPECIAL[scheme]) u.port = '';
  }
  get username() { return this[kRec].username; }
  set username(v) {
    const u = this[kRec];
    if (u.host === null || u.host === '' || u.scheme === 'file:') return;
    u.username = encodeSet(toUSV(v), userinfoSet);
  }
  get password() { return this[kRec].password; }
  set password(v) {
    const u = this[kRec];
    if (u.host === null || u.host === '' || u.scheme === 'file:') return;
    u.password = encodeSet(toUSV(v), userinfoSet);
  }
  get host() { const u = this[kRec]; return u.host === null ? '' : u.host + (u.port !== '' ? ':' + u.port : ''); }
  set host(v) { this._setHost(toUSV(v), true); }
  get hostname() { const u = this[kRec]; return u.host === null ? '' : u.host; }
  set hostname(v) { this._setHost(toUSV(v), false); }
  _setHost(v, withPort) {
    const u = this[kRec];
    if (typeof u.path === 'string') return;
    const end = v.search(isSpecial(u.scheme) ? /[/\\?#]/ : /[/?#]/);
    if (end !== -1) v = v.slice(0, end);
    let port = null;
    const m = /:([^\]:]*)$/.exec(v);
    if (m && !(v[0] === '[' && v.lastIndexOf(']') > m.index)) {
      if (!withPort) return;
      port = m[1];
      v = v.slice(0, m.index);
    }
    if (v === '' && isSpecial(u.scheme)) return;
    const h = parseHost(v, isSpecial(u.scheme));
    if (h === null) return;
    u.host = u.scheme === 'file:' && h === 'localhost' ? '' : h;
    if (port !== null && port !== '') this.port = port;
  }
  get port() { return this[kRec].port; }
  set port(v) {
    const u = this[kRec];
    if (u.host === null || u.host === '' || u.scheme === 'file:') return;
    const s = toUSV(v);
    if (s === '') { u.port = ''; return; }
    const m = /^[0-9]+/.exec(s);
    if (!m) return;
    const n = parseInt(m[0], 10);
    if (n > 65535) return;
    u.port = String(n) === SPECIAL[u.scheme] ? '' : String(n);
  }
  get pathname() { return pathString(this[kRec]); }
  set pathname(v) {
    const u = this[kRec];
    if (typeof u.path === 'string') return;
    u.path = [];
    let s = toUSV(v);
    const special = isSpecial(u.scheme);
    if (s !== '' || special) {
      if (s[0] !== '/' && !(special && s[0] === '\\')) s = '/' + s;
      pushSegments(u.path, s.slice(1), u);
    }
  }
  get search() { const q = this[kRec].query; return q === null || q === '' ? '' : '?' + q; }
  set search(v) {
    const u = this[kRec];
    let s = toUSV(v);
    if (s === '') { u.query = null; } else {
      if (s[0] === '?') s = s.slice(1);
      u.query = encodeSet(s, isSpecial(u.scheme) ? specialQuerySet : querySet);
    }
    if (this[kParams]) this[kParams][kList] = formParse(u.query || '');
  }
  get searchParams() {
    if (!this[kParams]) {
      const p = new URLSearchParams(this[kRec].query || '');
      p[kURL] = this;
      this[kParams] = p;
    }
    return this[kParams];
  }
  get hash() { const f = this[kRec].fragment; return f === null || f === '' ? '' : '#' + f; }
  set hash(v) {
    let s = toUSV(v);
    if (s === '') { this[kRec].fragment = null; return; }
    if (s[0] === '#') s = s.slice(1);
    this[kRec].fragment = encodeSet(s, fragmentSet);
  }
  toString() { return this.href; }
  toJSON() { return this.href; }
  get [Symbol.toStringTag]() { return 'URL'; }
  [Symbol.for('nodejs.util.inspect.custom')](depth, opts) {
    if (typeof depth === 'number' && depth < 0) return this;
    const obj = {
      href: this.href, origin: this.origin, protocol: this.protocol, username: this.username, password: this.password,
      host: this.host, hostname: this.hostname, port: this.port, pathname: this.pathname, search: this.search,
      searchParams: this.searchParams, hash: this.hash,
    };
    return 'URL ' + require('node:util').inspect(obj, opts);
  }
}

Object.defineProperty(URLSearchParams.prototype, Symbol.iterator, { value: URLSearchParams.prototype.entries, writable: true, configurable: true });

// The members of URL.prototype and URLSearchParams.prototype are
// enumerable, as WebIDL makes them (Node's kEnumerableProperty); the
// symbol-named ones and constructor stay not.
for (const proto of [URL.prototype, URLSearchParams.prototype]) {
  for (const k of Object.getOwnPropertyNames(proto)) {
    if (k === 'constructor' || k[0] === '_') continue;
    Object.defineProperty(proto, k, { enumerable: true });
  }
  for (const k of ['_update', '_setHost']) {
    if (Object.prototype.hasOwnProperty.call(proto, k)) Object.defineProperty(proto, k, { enumerable: false });
  }
}

// MaxObjectURLs bounds the blob: URLs URL.createObjectURL registers at
// once in a run (each holds its Blob until revokeObjectURL).
const MaxObjectURLs = 65536;
const objectURLs = new Map();

// createObjectURL registers blob under a fresh blob:nodedata:<uuid> URL.
function createObjectURL(obj) {
  const { isBlob } = require('nook:dom.js');
  if (!isBlob(obj)) throw errors.makeError('ERR_INVALID_ARG_TYPE', 'obj', 'Blob', obj);
  if (objectURLs.size >= MaxObjectURLs) {
    throw new RangeError(`URL.createObjectURL: ${objectURLs.size} object URLs are registered, the limit MaxObjectURLs (${MaxObjectURLs})`);
  }
  const id = require('node:crypto').randomUUID();
  objectURLs.set(id, obj);
  return `blob:nodedata:${id}`;
}
// objectURLId returns the id of a blob:nodedata: URL, or undefined.
function objectURLId(url) {
  let u;
  try { u = new URL(`${url}`); } catch { return undefined; }
  if (u.protocol !== 'blob:') return undefined;
  const parts = u.pathname.split(':');
  if (parts.length !== 2 || parts[0] !== 'nodedata') return undefined;
  return parts[1];
}
// revokeObjectURL forgets a URL createObjectURL made; others are ignored.
function revokeObjectURL(url) {
  if (arguments.length === 0) throw errors.makeError('ERR_MISSING_ARGS', 'url');
  const id = objectURLId(url);
  if (id !== undefined) objectURLs.delete(id);
}
// resolveObjectURL returns the Blob a registered URL names, or undefined.
function resolveObjectURL(url) {
  const id = objectURLId(url);
  return id === undefined ? undefined : objectURLs.get(id);
}
Object.defineProperty(URL, 'createObjectURL', { value: createObjectURL, writable: true, enumerable: true, configurable: true });
Object.defineProperty(URL, 'revokeObjectURL', { value: revokeObjectURL, writable: true, enumerable: true, configurable: true });

module.exports = { resolveObjectURL, MaxObjectURLs, URL, URLSearchParams, parseURL: parse };
