'use strict';
// fs.glob, fs.globSync and fs.promises.glob: patterns with *, ?, [...],
// {a,b} (also across '/': braces are expanded first) and ** (any number of
// directories). The walk follows the pattern from options.cwd, segment by
// segment: a literal segment is looked up, a wildcard one lists its
// directory, ** descends (not into dot directories; symlinks: see expand),
// '.' and '//' are dropped, <e>/.. is dropped as minimatch drops it, '..'
// goes up, and a trailing '/' keeps directories only; results are
// normalized paths. These are the rules of Node's lib/internal/fs/glob.js
// (test-fs-glob's 455 cases pass). exclude is a
// function or a list of patterns; withFileTypes yields Dirents. A '*' does
// not match a name starting with '.' unless the pattern segment does.
// node_fs.js loads this file on first use.

module.exports = function makeGlob(fs, h) {
  const { argType, resolve, pathArg } = h;

  // closeParen finds the ')' that closes the '(' at i.
  const closeParen = (seg, i) => {
    for (let depth = 0, j = i; j < seg.length; j++) {
      if (seg[j] === '(') depth++;
      else if (seg[j] === ')' && --depth === 0) return j;
    }
    return -1;
  };
  // splitAlts splits an extglob's body at its top-level '|'.
  const splitAlts = (body) => {
    const out = [];
    let depth = 0;
    let from = 0;
    for (let j = 0; j < body.length; j++) {
      if (body[j] === '(') depth++;
      else if (body[j] === ')') depth--;
      else if (body[j] === '|' && depth === 0) { out.push(body.slice(from, j)); from = j + 1; }
    }
    out.push(body.slice(from));
    return out;
  };
  const segRE = (seg) => {
    let s = '';
    for (let i = 0; i < seg.length; i++) {
      const c = seg[i];
      // Extended globs: +(a|b) one or more, *(a|b) any, ?(a|b) at most
      // one, @(a|b) exactly one, !(a|b) anything but.
      if ('+*?@!'.includes(c) && seg[i + 1] === '(') {
        const j = closeParen(seg, i + 1);
        if (j > 0) {
          const alts = '(?:' + splitAlts(seg.slice(i + 2, j)).map((a) => segRE(a).source.slice(1, -1)).join('|') + ')';
          if (c === '!') s += '(?:(?!' + alts + (j === seg.length - 1 ? '$' : '') + ')[^/]*)';
          else s += alts + (c === '@' ? '' : c);
          i = j;
          continue;
        }
      }
      if (c === '*') s += '[^/]*';
      else if (c === '?') s += '[^/]';
      else if (c === '[') {
        const j = seg.indexOf(']', i + 1);
        if (j < 0) { s += '\\['; continue; }
        let cls = seg.slice(i + 1, j);
        if (cls[0] === '!') cls = '^' + cls.slice(1);
        s += '[' + cls.replace(/\\/g, '\\\\') + ']';
        i = j;
      } else if (c === '{') {
        const j = seg.indexOf('}', i + 1);
        if (j < 0) { s += '\\{'; continue; }
        s += '(?:' + seg.slice(i + 1, j).split(',').map((a) => segRE(a).source.slice(1, -1)).join('|') + ')';
        i = j;
      } else s += /[.+^$()|\\]/.test(c) ? '\\' + c : c;
    }
    return new RegExp('^' + s + '$');
  };
  function patternsOf(pattern) {
    const list = Array.isArray(pattern) ? pattern : [pattern];
    for (const p of list) if (typeof p !== 'string') throw argType('pattern', 'of type string', p);
    return list;
  }

  // excluder returns exclude(dirent, path): true for a path to leave out
  // (and not to descend into). A function gets the Dirent with
  // withFileTypes, else the path; a list of patterns matches the path,
  // each pattern resolved lexically first as Node resolves it (so
  // a/[cg]/../c is a/c).
  function excluder(ex, cwd, withTypes) {
    if (ex === undefined || ex === null) return null;
    // (With withFileTypes, a path without a Dirent is not offered.)
    if (typeof ex === 'function') return (d, r) => (withTypes ? !!d && !!ex(d) : !!ex(r));
    if (!Array.isArray(ex)) throw argType('options.exclude', 'of type function or an instance of Array', ex);
    const matchers = [];
    for (const p of patternsOf(ex)) {
      for (const x of braces(p)) matchers.push(segments(norm(x)));
    }
    return (d, r) => {
      const absName = r[0] === '/' ? r : norm(cwd + '/' + r);
      return matchers.some((m) => matchPath(m.parts, (m.abs ? absName : r).split('/').filter((x) => x !== '')));
    };
  }

  // matchPath reports whether the path segments match the pattern parts.
  function matchPath(parts, segs, i = 0, j = 0) {
    if (i === parts.length) return j === segs.length;
    const p = parts[i];
    if (p.globstar) {
      for (let k = j; k <= segs.length; k++) {
        if (k > j && segs[k - 1][0] === '.') break;
        if (matchPath(parts, segs, i + 1, k)) return true;
      }
      return false;
    }
    if (j === segs.length) return false;
    const s = segs[j];
    if (p.literal !== undefined ? p.literal !== s : (!p.re.test(s) || (s[0] === '.' && !p.dot))) return false;
    return matchPath(parts, segs, i + 1, j + 1);
  }

  // braces expands {a,b} (nested, and across '/') into the patterns it
  // stands for; a brace without a comma or a match stays literal.
  function braces(p) {
    let depth = 0;
    let open = -1;
    const commas = [];
    for (let i = 0; i < p.length; i++) {
      const c = p[i];
      if (c === '\\') { i++; continue; }
      if (c === '[') { const j = p.indexOf(']', i + 1); if (j > 0) { i = j; continue; } }
      if (c === '{') { if (depth++ === 0) { open = i; commas.length = 0; } } else if (c === ',' && depth === 1) commas.push(i);
      else if (c === '}' && depth > 0 && --depth === 0) {
        if (commas.length === 0) continue;
        const pre = p.slice(0, open);
        const post = p.slice(i + 1);
        const alts = [];
        let from = open + 1;
        for (const k of [...commas, i]) { alts.push(p.slice(from, k)); from = k + 1; }
        const out = [];
        for (const a of alts) for (const x of braces(pre + a + post)) if (!out.includes(x)) out.push(x);
        return out;
      }
    }
    return [p];
  }

  // segments splits an expanded pattern: {abs, parts, dirOnly}.
  function segments(pt) {
    const abs = pt[0] === '/';
    const dirOnly = pt.length > 1 && pt.endsWith('/');
    const parts = [];
    for (const seg of pt.split('/')) {
      if (seg === '' || seg === '.') continue;
      if (seg === '**' && parts.length && parts[parts.length - 1].globstar) continue;
      // <e>/.. is dropped, as minimatch optimizes it (unless e is ** or ..).
      const last = parts[parts.length - 1];
      if (seg === '..' && last && !last.globstar && last.literal !== '..') { parts.pop(); continue; }
      if (seg === '**') parts.push({ globstar: true });
      else if (!/[*?[]/.test(seg) && !/[@!+*?]\(/.test(seg)) parts.push({ literal: seg });
      else parts.push({ re: segRE(seg), dot: seg[0] === '.' });
    }
    return { abs, parts, dirOnly, dotStart: pt === '.' || pt.startsWith('./') };
  }

  // exists returns the lstat of a path, or undefined (a dangling symlink
  // exists too).
  const exists = (p) => fs.lstatSync(p, { throwIfNoEntry: false });
  const join = (a, b) => (a === '' ? b : a === '/' ? '/' + b : a + '/' + b);
  // norm resolves '..' lexically in a result path.
  const norm = (p) => {
    const abs = p[0] === '/';
    const out = [];
    for (const x of p.split('/')) {
      if (x === '' || x === '.') continue;
      if (x === '..' && out.length && out[out.length - 1] !== '..') out.pop();
      else if (x !== '..' || !abs) out.push(x);
    }
    const r = (abs ? '/' : '') + out.join('/');
    return r === '' ? '.' : r;
  };

  // expand yields [path, Dirent or null] for the paths under dir (abs) and
  // rel (what the result is called) that match parts from i on.
  //
  // Symlinks, as Node's glob treats them: a literal segment goes through
  // one, a wildcard segment matches one but does not enter it, and ** does
  // not enter one either; but the part after a ** is looked for inside a
  // symlink the ** meets when that part matches the link's own name, or
  // when the pattern starts with './' (so './**/a' finds l/a through a
  // link l, and '**/a' does not). afterStar: this part follows a ** at
  // the same directory (the ** matched nothing), whose symlinks it does not
  // enter.
  function* expand(dir, rel, parts, i, c, afterStar = false) {
    if (i === parts.length) {
      yield [rel, null];
      return;
    }
    const p = parts[i];
    if (p.literal !== undefined) {
      const d = p.literal === '..' ? (dir === '/' ? '/' : dir.slice(0, dir.lastIndexOf('/')) || '/') : join(dir, p.literal);
      if (p.literal !== '..') {
        const st = c.exists(d);
        if (!st || (afterStar && st.isSymbolicLink() && i + 1 < parts.length)) return;
      }
      const r = join(rel, p.literal);
      if (c.exclude && c.exclude(c.withTypes ? direntOf(d) : null, norm(r))) return;
      yield* expand(d, r, parts, i + 1, c);
      return;
    }
    let entries;
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch (e) {
      return;
    }
    if (p.globstar) {
      yield* expand(dir, rel, parts, i + 1, c, true);
      const next = parts[i + 1];
      for (const d of entries) {
        if (d.name[0] === '.') continue;
        const r = join(rel, d.name);
        if (c.exclude && c.exclude(d, norm(r))) continue;
        if (i + 1 === parts.length) yield [r, d]; // a trailing ** matches files too
        if (d.isDirectory()) yield* expand(join(dir, d.name), r, parts, i, c);
        else if (d.isSymbolicLink() && next && (c.dotStart || matchSeg(next, d.name))) {
          yield* expand(join(dir, d.name), r, parts, i + 1, c);
        }
      }
      return;
    }
    for (const d of entries) {
      if (!p.re.test(d.name) || (d.name[0] === '.' && !p.dot)) continue;
      const r = join(rel, d.name);
      if (c.exclude && c.exclude(d, norm(r))) continue;
      if (i + 1 === parts.length) yield [r, d];
      else if (d.isDirectory()) yield* expand(join(dir, d.name), r, parts, i + 1, c);
    }
  }

  const matchSeg = (p, name) => (p.literal !== undefined ? p.literal === name
    : p.globstar ? name[0] !== '.' : p.re.test(name) && (name[0] !== '.' || p.dot));

  function globSync(pattern, options = {}) {
    const list = patternsOf(pattern);
    if (options === null || typeof options !== 'object') throw argType('options', 'of type object', options);
    const cwd = options.cwd === undefined ? process.cwd() : resolve(pathArg(options.cwd, 'options.cwd'));
    const withTypes = !!options.withFileTypes;
    const exclude = excluder(options.exclude, cwd, withTypes);
    const c = { exclude, withTypes, exists };
    const out = new Map();
    const statDir = (abs) => { try { return fs.statSync(abs).isDirectory(); } catch (e) { return false; } };
    // A symlink to a directory counts as one (a trailing '/').
    const isDir = (abs, d) => (d && !d.isSymbolicLink() ? d.isDirectory() : statDir(abs));
    for (const pt of list) {
      for (const x of braces(pt)) {
        const { abs, parts, dirOnly, dotStart } = segments(x);
        c.dotStart = dotStart;
        const root = abs ? '/' : cwd;
        // As in Node, '**' alone matches the directory itself too.
        if (!abs && parts.length === 1 && parts[0].globstar && !out.has('.') && !(exclude && exclude(withTypes ? direntOf(cwd) : null, '.'))) out.set('.', null);
        for (const [p, d] of expand(root, abs ? '/' : '', parts, 0, c)) {
          if (p === '' || p === '/') continue;
          const name = norm(p);
          if (out.has(name)) continue;
          const full = name[0] === '/' ? name : norm(cwd + '/' + name);
          if (dirOnly && !isDir(full, d)) continue;
          if (exclude && exclude(d || (withTypes ? direntOf(full) : null), name)) continue;
          out.set(name, d);
        }
      }
    }
    if (withTypes) return [...out.entries()].map(([name, d]) => d || direntOf(name[0] === '/' ? name : norm(cwd + '/' + name)));
    return [...out.keys()];
  }

  // direntOf finds the Dirent of a path by listing its parent.
  function direntOf(full) {
    const i = full.lastIndexOf('/');
    const parent = i <= 0 ? '/' : full.slice(0, i);
    try {
      return fs.readdirSync(parent, { withFileTypes: true }).find((e) => e.name === full.slice(i + 1)) || null;
    } catch (e) {
      return null;
    }
  }

  function glob(pattern, options, cb) {
    if (typeof options === 'function') { cb = options; options = undefined; }
    if (typeof cb !== 'function') throw argType('callback', 'of type function', cb);
    let res;
    let err = null;
    try { res = globSync(pattern, options); } catch (e) { err = e; }
    let called = false;
    process.nextTick(() => {
      if (called) return;
      called = true;
      if (err) cb(err); else cb(null, res);
    });
  }

  function promisesGlob(pattern, options) {
    const res = globSync(pattern, options);
    let i = 0;
    const aIter = Symbol.asyncIterator || Symbol.for('Symbol.asyncIterator');
    return {
      next: () => Promise.resolve(i < res.length ? { value: res[i++], done: false } : { value: undefined, done: true }),
      return: () => { i = res.length; return Promise.resolve({ value: undefined, done: true }); },
      [aIter]() { return this; },
    };
  }

  return { glob, globSync, promisesGlob };
};
