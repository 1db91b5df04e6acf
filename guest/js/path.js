'use strict';
// node:path — POSIX paths; relative paths resolve from the run's cwd.

const assertPath = (p, name = 'path') => {
  if (typeof p !== 'string') throw new TypeError('The "' + name + '" argument must be of type string. Received ' + (p === null ? 'null' : typeof p));
};

function normalizeParts(path, absolute) {
  const out = [];
  for (const seg of path.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      if (out.length && out[out.length - 1] !== '..') out.pop();
      else if (!absolute) out.push('..');
    } else out.push(seg);
  }
  return out;
}

function normalize(p) {
  assertPath(p);
  if (p === '') return '.';
  const abs = p.startsWith('/');
  const trailing = p.endsWith('/');
  let s = normalizeParts(p, abs).join('/');
  if (!s && !abs) s = '.';
  if (s && trailing && s !== '.') s += '/';
  return (abs ? '/' : '') + s;
}

function join(...parts) {
  for (const p of parts) assertPath(p);
  const s = parts.filter((p) => p !== '').join('/');
  return s === '' ? '.' : normalize(s);
}

function resolve(...parts) {
  let r = '';
  for (let i = parts.length - 1; i >= 0 && !r.startsWith('/'); i--) {
    assertPath(parts[i]);
    if (parts[i]) r = parts[i] + (r ? '/' + r : '');
  }
  if (!r.startsWith('/')) { const c = globalThis.process ? globalThis.process.cwd() : host.cwd; r = c + (r ? '/' + r : ''); }
  return '/' + normalizeParts(r, true).join('/');
}

function isAbsolute(p) { assertPath(p); return p.startsWith('/'); }

function relative(from, to) {
  assertPath(from, 'from'); assertPath(to, 'to');
  const a = resolve(from).split('/').filter(Boolean), b = resolve(to).split('/').filter(Boolean);
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return [...Array(a.length - i).fill('..'), ...b.slice(i)].join('/');
}

function dirname(p) {
  assertPath(p);
  if (p === '') return '.';
  const s = p.replace(/\/+$/, '');
  if (s === '') return '/';
  const i = s.lastIndexOf('/');
  if (i < 0) return '.';
  if (i === 0) return '/';
  return s.slice(0, i).replace(/\/+$/, '') || '/';
}

function basename(p, ext) {
  assertPath(p);
  const s = p.replace(/\/+$/, '');
  let b = s.slice(s.lastIndexOf('/') + 1);
  if (ext !== undefined && b.endsWith(ext) && b !== ext) b = b.slice(0, -ext.length);
  return b;
}

function extname(p) {
  const b = basename(p);
  const i = b.lastIndexOf('.');
  return i <= 0 ? '' : b.slice(i);
}

function parse(p) {
  assertPath(p);
  const root = p.startsWith('/') ? '/' : '';
  const base = basename(p);
  const ext = extname(p);
  let dir = dirname(p);
  if (dir === '.' && !p.includes('/')) dir = '';
  return { root, dir, base, ext, name: ext ? base.slice(0, -ext.length) : base };
}

function format(o) {
  const dir = o.dir || o.root || '';
  const base = o.base || (o.name || '') + (o.ext ? (o.ext.startsWith('.') ? '' : '.') + o.ext : '');
  if (!dir) return base;
  return dir === o.root ? dir + base : dir + '/' + base;
}

const path = {
  sep: '/', delimiter: ':',
  normalize, join, resolve, isAbsolute, relative, dirname, basename, extname, parse, format,
  toNamespacedPath: (p) => p,
  matchesGlob: undefined,
};
path.posix = path;
path.win32 = path;
module.exports = path;
