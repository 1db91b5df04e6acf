'use strict';
// node:path — POSIX paths; relative paths resolve from the run's cwd.

function received(v) {
  if (v == null) return ' Received ' + v;
  if (typeof v === 'function') return ' Received function ' + (v.name || '<anonymous>');
  if (typeof v === 'object') return ' Received ' + (v.constructor && v.constructor.name ? 'an instance of ' + v.constructor.name : String(v));
  let str = typeof v === 'string' ? `'${v}'` : typeof v === 'bigint' ? v + 'n' : String(v);
  if (str.length > 28) str = str.slice(0, 25) + '...';
  return ` Received type ${typeof v} (${str})`;
}
const assertPath = (p, name = 'path') => {
  if (typeof p !== 'string') {
    const e = new TypeError('The "' + name + '" argument must be of type string.' + received(p));
    e.code = 'ERR_INVALID_ARG_TYPE';
    throw e;
  }
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
  if (s === '') return abs ? '/' : trailing ? './' : '.';
  if (trailing) s += '/';
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

// dirname drops the last segment and the slashes after the one before it
// ('a//b' → 'a/', '//a' → '//'), as Node does.
function dirname(p) {
  assertPath(p);
  if (p === '') return '.';
  const hasRoot = p[0] === '/';
  let end = -1;
  let trailing = true;
  for (let i = p.length - 1; i >= 1; i--) {
    if (p[i] === '/') {
      if (!trailing) { end = i; break; }
    } else {
      trailing = false;
    }
  }
  if (end === -1) return hasRoot ? '/' : '.';
  if (hasRoot && end === 1) return '//';
  return p.slice(0, end);
}

// lastSegment is the last segment of p ignoring trailing slashes, and
// where it starts.
function lastSegment(p) {
  let end = p.length;
  while (end > 0 && p[end - 1] === '/') end--;
  const start = p.lastIndexOf('/', end - 1) + 1;
  return [p.slice(start, end), start];
}

function basename(p, ext) {
  if (ext !== undefined) assertPath(ext, 'ext');
  assertPath(p);
  if (ext !== undefined && ext.length > 0 && ext.length <= p.length) {
    if (ext === p) return '';
    if (/^\/+$/.test(p)) return p;
  }
  const [b] = lastSegment(p);
  if (ext !== undefined && ext !== '' && b !== ext && b.endsWith(ext)) return b.slice(0, -ext.length);
  return b;
}

// extOf is the extension of a segment: from its last dot, unless that dot
// starts it or the segment is "..".
function extOf(b) {
  const i = b.lastIndexOf('.');
  if (i <= 0 || b === '..') return '';
  return b.slice(i);
}

function extname(p) {
  assertPath(p);
  return extOf(lastSegment(p)[0]);
}

function parse(p) {
  assertPath(p);
  const out = { root: '', dir: '', base: '', ext: '', name: '' };
  if (p === '') return out;
  const abs = p[0] === '/';
  if (abs) out.root = '/';
  const [b, start] = lastSegment(p);
  if (b === '') { if (abs) out.dir = '/'; return out; }
  out.base = b;
  out.ext = extOf(b);
  out.name = out.ext ? b.slice(0, -out.ext.length) : b;
  if (start > 0) out.dir = p.slice(0, start - 1) || (abs ? '/' : '');
  return out;
}

function format(o) {
  if (o === null || typeof o !== 'object') {
    const e = new TypeError('The "pathObject" argument must be of type object.' + received(o));
    e.code = 'ERR_INVALID_ARG_TYPE';
    throw e;
  }
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
