'use strict';
// node:url — the WHATWG URL (whatwg_url.js), the file URL helpers, and the
// legacy url.parse / url.format / url.resolve.

const { URL, URLSearchParams } = require('nook:whatwg_url.js');
const native = host.native('url');
const errors = require('nook:errors.js');

function invalidArgType(name, type, v) {
  const e = new TypeError(`The "${name}" argument must be ${type}.` + (v == null ? ' Received ' + v : ' Received type ' + typeof v + ' (' + String(v) + ')'));
  e.code = 'ERR_INVALID_ARG_TYPE';
  return e;
}

function fileURLToPath(u) {
  let url = u;
  if (typeof u === 'string') url = new URL(u);
  else if (!(u instanceof URL)) throw invalidArgType('path', 'of type string or an instance of URL', u);
  if (url.protocol !== 'file:') {
    const e = new TypeError('The URL must be of scheme file');
    e.code = 'ERR_INVALID_URL_SCHEME';
    throw e;
  }
  if (url.hostname !== '') {
    const e = new TypeError(`File URL host must be "localhost" or empty on linux`);
    e.code = 'ERR_INVALID_FILE_URL_HOST';
    throw e;
  }
  const p = url.pathname;
  if (/%2f/i.test(p)) {
    const e = errors.makeError('ERR_INVALID_FILE_URL_PATH', 'must not include encoded / characters');
    e.input = url;
    throw e;
  }
  return decodeURIComponent(p);
}

// pathToFileURL is Node 25's: the path resolved (path.win32 with
// { windows: true }, a UNC path \\server\share\... becoming the URL's host)
// and each character outside the ones a file URL's path keeps as they
// are percent-encoded as UTF-8 (a lone surrogate as U+FFFD).
const keptInFilePath = new Uint8Array(128);
for (const c of "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789!$&'()*+,-./:;=@_") keptInFilePath[c.charCodeAt(0)] = 1;
function encodeFilePath(s) {
  const out = []; // joined at the end: goja copies a string on each +=
  let from = 0;
  for (let i = 0; i < s.length; i++) {
    let cp = s.charCodeAt(i);
    if (cp < 0x80 && keptInFilePath[cp]) continue;
    out.push(s.slice(from, i));
    if (cp < 0x80) out.push('%' + (cp < 16 ? '0' : '') + cp.toString(16).toUpperCase());
    else {
      cp = s.codePointAt(i);
      if (cp > 0xffff) i++;
      else if (cp >= 0xd800 && cp <= 0xdfff) cp = 0xfffd;
      out.push(encodeURIComponent(String.fromCodePoint(cp)));
    }
    from = i + 1;
  }
  out.push(s.slice(from));
  return out.join('');
}
function pathToFileURL(filepath, options) {
  errors.validateString(filepath, 'path');
  const windows = options != null && options.windows !== undefined ? !!options.windows : false;
  const path = require('node:path');
  if (windows) {
    let resolved = filepath.startsWith('\\\\') ? filepath : path.win32.resolve(filepath);
    // A local extended path (\\?\C:\...) is its drive path.
    if (resolved.startsWith('\\\\?\\') && !resolved.startsWith('\\\\?\\UNC\\')) resolved = resolved.slice(4);
    if (resolved.startsWith('\\\\')) {
      const prefix = resolved.startsWith('\\\\?\\UNC\\') ? 8 : 2;
      const hostEnd = resolved.indexOf('\\', prefix);
      if (hostEnd === -1) throw errors.makeError('ERR_INVALID_ARG_VALUE', 'path', resolved, 'Missing UNC resource path');
      if (hostEnd === 2) throw errors.makeError('ERR_INVALID_ARG_VALUE', 'path', resolved, 'Empty UNC servername');
      const host = resolved.slice(prefix, hostEnd);
      return new URL('file://' + host + encodeFilePath(resolved.slice(hostEnd).replace(/\\/g, '/')));
    }
    const last = filepath[filepath.length - 1];
    if ((last === '/' || last === '\\') && !resolved.endsWith('\\')) resolved += '\\';
    return new URL('file:///' + encodeFilePath(resolved.replace(/\\/g, '/')));
  }
  let resolved = path.posix.resolve(filepath);
  if (filepath.endsWith('/') && !resolved.endsWith('/')) resolved += '/';
  return new URL('file://' + encodeFilePath(resolved));
}

// Legacy API (url.parse and friends): Node's Url objects.
const slashed = new Set(['http:', 'https:', 'ftp:', 'gopher:', 'file:', 'ws:', 'wss:']);
const noHostProtocols = new Set(['javascript:', 'javascript']);

function Url() {
  this.protocol = null; this.slashes = null; this.auth = null; this.host = null; this.port = null;
  this.hostname = null; this.hash = null; this.search = null; this.query = null; this.pathname = null;
  this.path = null; this.href = null;
}

function parse(s, parseQueryString, slashesDenoteHost) {
  if (s instanceof Url) return s;
  if (typeof s !== 'string') throw errors.makeError('ERR_INVALID_ARG_TYPE', 'url', 'string', s);
  const u = new Url();
  let rest = s.trim();
  const h = rest.indexOf('#');
  if (h !== -1) { u.hash = rest.slice(h); rest = rest.slice(0, h); }
  const q = rest.indexOf('?');
  if (q !== -1) {
    u.search = rest.slice(q);
    u.query = rest.slice(q + 1);
    rest = rest.slice(0, q);
  } else if (parseQueryString) {
    u.search = '';
    u.query = {};
  }
  if (parseQueryString && typeof u.query === 'string') u.query = require('node:querystring').parse(u.query);
  const m = /^([a-zA-Z0-9.+-]+:)/.exec(rest);
  if (m) { u.protocol = m[1].toLowerCase(); rest = rest.slice(m[1].length); }
  if ((slashesDenoteHost || m) && rest.startsWith('//') && !(u.protocol && noHostProtocols.has(u.protocol))) {
    if (!(u.protocol && !slashed.has(u.protocol) && !rest.startsWith('//'))) {
      u.slashes = true;
      rest = rest.slice(2);
      const end = rest.search(/[/]/);
      let hostPart = end === -1 ? rest : rest.slice(0, end);
      rest = end === -1 ? '' : rest.slice(end);
      const at = hostPart.lastIndexOf('@');
      if (at !== -1) { u.auth = decodeURIComponent(hostPart.slice(0, at)); hostPart = hostPart.slice(at + 1); }
      const pm = /:([0-9]*)$/.exec(hostPart);
      if (pm) { if (pm[1] !== '') u.port = pm[1]; hostPart = hostPart.slice(0, pm.index); }
      // As Node's: a colon left outside brackets is a port that is not a
      // number, and an IPv6 host with a character none may hold is no URL.
      const ipv6 = hostPart[0] === '[' && hostPart.endsWith(']');
      if (!ipv6 && hostPart.includes(':')) throw errors.makeError('ERR_INVALID_ARG_VALUE', 'url', s);
      if (ipv6 && /[\0\t\n\r #%/<>?@\\^|]/.test(hostPart.slice(1, -1))) {
        const e = errors.makeError('ERR_INVALID_URL');
        e.input = s;
        throw e;
      }
      u.hostname = hostPart.toLowerCase();
      u.host = u.hostname + (u.port ? ':' + u.port : '');
    }
  }
  u.pathname = rest === '' ? (u.slashes && slashed.has(u.protocol) ? '/' : null) : rest;
  if (u.pathname === null && u.hostname !== null && slashed.has(u.protocol)) u.pathname = '/';
  u.path = (u.pathname || '') + (u.search || '') || null;
  u.href = format(u);
  return u;
}

function format(obj, options) {
  if (typeof obj === 'string') obj = parse(obj);
  else if (obj instanceof URL) {
    const o = { auth: true, fragment: true, search: true, unicode: false, ...options };
    const u = new URL(obj.href);
    if (!o.auth) { u.username = ''; u.password = ''; }
    if (!o.fragment) u.hash = '';
    if (!o.search) u.search = '';
    let href = u.href;
    if (o.unicode && u.hostname) href = href.replace(u.hostname, native.domainToUnicode(u.hostname));
    return href;
  } else if (obj === null || typeof obj !== 'object') {
    throw invalidArgType('urlObject', 'one of type object or string', obj);
  }
  let auth = obj.auth || '';
  if (auth) auth = encodeURIComponent(auth).replace(/%3A/i, ':') + '@';
  let protocol = obj.protocol || '';
  if (protocol && !protocol.endsWith(':')) protocol += ':';
  let pathname = obj.pathname || '';
  let hash = obj.hash || '';
  let host = '';
  if (obj.host) host = auth + obj.host;
  else if (obj.hostname) host = auth + (obj.hostname.includes(':') && obj.hostname[0] !== '[' ? '[' + obj.hostname + ']' : obj.hostname) + (obj.port ? ':' + obj.port : '');
  let search = obj.search || '';
  if (!search && obj.query && typeof obj.query === 'object') {
    const qs = require('node:querystring').stringify(obj.query);
    if (qs) search = '?' + qs;
  }
  if (search && search[0] !== '?') search = '?' + search;
  if (obj.slashes || slashed.has(protocol)) {
    if (obj.slashes || host) {
      if (pathname && pathname[0] !== '/') pathname = '/' + pathname;
      host = '//' + host;
    } else if (protocol.length >= 4 && protocol.startsWith('file')) {
      host = '//';
    }
  }
  if (hash && hash[0] !== '#') hash = '#' + hash;
  pathname = pathname.replace(/[?#]/g, encodeURIComponent);
  search = search.replace(/#/g, '%23');
  return protocol + host + pathname + search + hash;
}

function resolve(from, to) {
  if (/^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(from)) return new URL(to, from).href;
  // A relative base: resolve inside a placeholder origin and drop it.
  const r = new URL(to, new URL(from, 'resolve://x/'));
  if (r.protocol !== 'resolve:') return r.href;
  const out = r.pathname + r.search + r.hash;
  return from.startsWith('/') ? out : out.slice(1);
}

module.exports = {
  URL, URLSearchParams, fileURLToPath, pathToFileURL, parse, format, resolve, Url,
  // As Node's: an empty source resolves to the relative as it is.
  resolveObject: (from, to) => (from ? parse(resolve(from, to)) : to),
  domainToASCII: native.domainToASCII, domainToUnicode: native.domainToUnicode,
  urlToHttpOptions,
};

// urlToHttpOptions turns a URL (or any object with its fields) into the
// options of http.request, as Node's: a null-prototype object with the
// object's own fields, then the URL's.
function urlToHttpOptions(url) {
  errors.validateObject(url, 'url', { allowArray: true, allowFunction: true });
  const { hostname, pathname, port, username, password, search } = url;
  const options = {
    __proto__: null,
    ...url,
    protocol: url.protocol,
    hostname: hostname && hostname[0] === '[' ? hostname.slice(1, -1) : hostname,
    hash: url.hash,
    search,
    pathname,
    path: `${pathname || ''}${search || ''}`,
    href: url.href,
    port: port !== '' ? Number(port) : undefined,
  };
  if (username || password) options.auth = `${decodeURIComponent(username)}:${decodeURIComponent(password)}`;
  return options;
}
