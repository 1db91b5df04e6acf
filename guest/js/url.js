'use strict';
// node:url — WHATWG URL from goja_nodejs, plus the file URL helpers.

const native = host.native('url');
const { URL, URLSearchParams } = native;

function fileURLToPath(u) {
  const url = typeof u === 'string' ? new URL(u) : u;
  if (url.protocol !== 'file:') {
    const e = new TypeError('The URL must be of scheme file');
    e.code = 'ERR_INVALID_URL_SCHEME';
    throw e;
  }
  return decodeURIComponent(url.pathname);
}

function pathToFileURL(p) {
  const abs = require('node:path').resolve(p);
  return new URL('file://' + abs.split('/').map(encodeURIComponent).join('/'));
}

function parse(s) {
  const u = new URL(s);
  return {
    href: u.href, protocol: u.protocol, host: u.host, hostname: u.hostname, port: u.port || null,
    pathname: u.pathname, search: u.search || null, query: u.search ? u.search.slice(1) : null,
    hash: u.hash || null, auth: u.username ? u.username + (u.password ? ':' + u.password : '') : null,
    path: u.pathname + u.search, slashes: true,
  };
}

module.exports = {
  URL, URLSearchParams, fileURLToPath, pathToFileURL, parse,
  format: (u) => (u instanceof URL ? u.href : String(u && u.href ? u.href : u)),
  domainToASCII: native.domainToASCII, domainToUnicode: native.domainToUnicode,
};
