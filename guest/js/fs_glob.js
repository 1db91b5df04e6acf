'use strict';
// fs.glob, fs.globSync and fs.promises.glob: patterns with *, ?, [...],
// {a,b} and ** (any number of directories), matched segment by segment
// while walking the tree from options.cwd; exclude is a function or a list
// of patterns; withFileTypes yields Dirents. A '*' does not match a name
// starting with '.' unless the pattern segment does. node_fs.js loads this
// file on first use.

module.exports = function makeGlob(fs, h) {
  const { argType, resolve } = h;

  const segRE = (seg) => {
    let s = '';
    for (let i = 0; i < seg.length; i++) {
      const c = seg[i];
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
  const compile = (pattern) => pattern.split('/').filter((x, i) => x !== '' || i === 0).map((seg) => {
    if (seg === '**') return { globstar: true };
    if (!/[*?[{]/.test(seg)) return { literal: seg };
    return { re: segRE(seg), dot: seg[0] === '.' };
  });

  function patternsOf(pattern) {
    const list = Array.isArray(pattern) ? pattern : [pattern];
    for (const p of list) if (typeof p !== 'string') throw argType('pattern', 'of type string', p);
    return list;
  }

  function excluder(ex) {
    if (ex === undefined || ex === null) return null;
    if (typeof ex === 'function') return ex;
    if (Array.isArray(ex)) {
      const res = ex.map((p) => ({ parts: compile(p) }));
      return (name) => res.some((r) => matchPath(r.parts, String(name.name !== undefined && typeof name !== 'string' ? name.name : name).split('/')));
    }
    throw argType('options.exclude', 'of type function or an instance of Array', ex);
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

  // walk lists every path under root (relative, with its Dirent), depth
  // first, stopping below excluded directories.
  function* walk(root, rel, exclude, withTypes) {
    let entries;
    try {
      entries = fs.readdirSync(rel ? root + '/' + rel : root, { withFileTypes: true });
    } catch (e) {
      return;
    }
    for (const d of entries) {
      const p = rel ? rel + '/' + d.name : d.name;
      if (exclude && exclude(withTypes ? d : p)) continue;
      yield [p, d];
      if (d.isDirectory()) yield* walk(root, p, exclude, withTypes);
    }
  }

  function globSync(pattern, options = {}) {
    const list = patternsOf(pattern);
    if (options === null || typeof options !== 'object') throw argType('options', 'of type object', options);
    const cwd = options.cwd === undefined ? process.cwd() : resolve(String(options.cwd));
    const exclude = excluder(options.exclude);
    const compiled = list.map((pt) => ({ abs: pt[0] === '/', parts: compile(pt[0] === '/' ? pt.slice(1) : pt) }));
    const out = new Map();
    for (const c of compiled) {
      const root = c.abs ? '/' : cwd;
      // A pattern without wildcards names one path.
      if (c.parts.every((p) => p.literal !== undefined)) {
        const rel = c.parts.map((p) => p.literal).join('/');
        const full = (root === '/' ? '' : root) + '/' + rel;
        if (fs.existsSync(full) && !out.has(c.abs ? full : rel)) {
          const name = c.abs ? full : rel;
          if (!exclude || !exclude(name)) out.set(name, null);
        }
        continue;
      }
      for (const [p, d] of walk(root, '', exclude, !!options.withFileTypes)) {
        if (matchPath(c.parts, p.split('/'))) {
          const name = c.abs ? '/' + p : p;
          if (!out.has(name)) out.set(name, d);
        }
      }
    }
    if (options.withFileTypes) {
      return [...out.entries()].map(([name, d]) => d || fs.readdirSync(resolve((options.cwd || '.') + '/' + name + '/..'), { withFileTypes: true })
        .find((e) => e.name === name.slice(name.lastIndexOf('/') + 1)));
    }
    return [...out.keys()];
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
