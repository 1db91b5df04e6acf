'use strict';
// node:path — path.posix and path.win32 with Node's semantics (the rules
// of Node's lib/path.js: one left-to-right scan per call, no regular
// expressions over the whole path); path itself is path.posix, and
// relative paths resolve from the run's cwd. Every function is linear in
// the length of its arguments, except matchesGlob (see there).

const { validateString, validateObject } = require('nook:errors.js');

const SLASH = 47, BACKSLASH = 92, DOT = 46, COLON = 58, QUESTION = 63;

const isPosixSep = (c) => c === SLASH;
const isSep = (c) => c === SLASH || c === BACKSLASH;
const isDeviceRoot = (c) => (c >= 65 && c <= 90) || (c >= 97 && c <= 122);

const cwd = () => (globalThis.process ? globalThis.process.cwd() : host.cwd);

// normalizeString resolves '.' and '..' segments of path, dropping empty
// ones; above the root ('..' with nothing to pop) is kept only when
// allowAboveRoot.
function normalizeString(path, allowAboveRoot, separator, isPathSeparator) {
  let res = '';
  let lastSegmentLength = 0;
  let lastSlash = -1;
  let dots = 0;
  let code = 0;
  for (let i = 0; i <= path.length; ++i) {
    if (i < path.length) code = path.charCodeAt(i);
    else if (isPathSeparator(code)) break;
    else code = SLASH;
    if (isPathSeparator(code)) {
      if (lastSlash === i - 1 || dots === 1) {
        // An empty or '.' segment.
      } else if (dots === 2) {
        if (res.length < 2 || lastSegmentLength !== 2 ||
            res.charCodeAt(res.length - 1) !== DOT || res.charCodeAt(res.length - 2) !== DOT) {
          if (res.length > 2) {
            const k = res.lastIndexOf(separator);
            if (k === -1) {
              res = '';
              lastSegmentLength = 0;
            } else {
              res = res.slice(0, k);
              lastSegmentLength = res.length - 1 - res.lastIndexOf(separator);
            }
            lastSlash = i;
            dots = 0;
            continue;
          } else if (res.length !== 0) {
            res = '';
            lastSegmentLength = 0;
            lastSlash = i;
            dots = 0;
            continue;
          }
        }
        if (allowAboveRoot) {
          res += res.length > 0 ? `${separator}..` : '..';
          lastSegmentLength = 2;
        }
      } else {
        if (res.length > 0) res += `${separator}${path.slice(lastSlash + 1, i)}`;
        else res = path.slice(lastSlash + 1, i);
        lastSegmentLength = i - lastSlash - 1;
      }
      lastSlash = i;
      dots = 0;
    } else if (code === DOT && dots !== -1) {
      ++dots;
    } else {
      dots = -1;
    }
  }
  return res;
}

function formatExt(ext) {
  return ext ? `${ext[0] === '.' ? '' : '.'}${ext}` : '';
}

function format(sep, pathObject) {
  validateObject(pathObject, 'pathObject');
  const dir = pathObject.dir || pathObject.root;
  const base = pathObject.base || `${pathObject.name || ''}${formatExt(pathObject.ext)}`;
  if (!dir) return base;
  return dir === pathObject.root ? `${dir}${base}` : `${dir}${sep}${base}`;
}

// extScan finds the extension of the last segment of path[from:], for
// extname and parse: [startDot, startPart, end, preDotState].
function extScan(path, from, isPathSeparator) {
  let startDot = -1, startPart = from, end = -1, matchedSlash = true, preDotState = 0;
  for (let i = path.length - 1; i >= from; --i) {
    const code = path.charCodeAt(i);
    if (isPathSeparator(code)) {
      if (!matchedSlash) { startPart = i + 1; break; }
      continue;
    }
    if (end === -1) { matchedSlash = false; end = i + 1; }
    if (code === DOT) {
      if (startDot === -1) startDot = i;
      else if (preDotState !== 1) preDotState = 1;
    } else if (startDot !== -1) {
      preDotState = -1;
    }
  }
  return [startDot, startPart, end, preDotState];
}

const noExt = (startDot, startPart, end, preDotState) =>
  startDot === -1 || end === -1 || preDotState === 0 ||
  (preDotState === 1 && startDot === end - 1 && startDot === startPart + 1);

// basenameOf is basename over path[start:] with separators sep.
function basenameOf(path, suffix, start, isPathSeparator) {
  let end = -1;
  let matchedSlash = true;
  if (suffix !== undefined && suffix.length > 0 && suffix.length <= path.length) {
    if (suffix === path) return '';
    let extIdx = suffix.length - 1;
    let firstNonSlashEnd = -1;
    for (let i = path.length - 1; i >= start; --i) {
      const code = path.charCodeAt(i);
      if (isPathSeparator(code)) {
        if (!matchedSlash) { start = i + 1; break; }
      } else {
        if (firstNonSlashEnd === -1) { matchedSlash = false; firstNonSlashEnd = i + 1; }
        if (extIdx >= 0) {
          if (code === suffix.charCodeAt(extIdx)) {
            if (--extIdx === -1) end = i;
          } else {
            extIdx = -1;
            end = firstNonSlashEnd;
          }
        }
      }
    }
    if (start === end) end = firstNonSlashEnd;
    else if (end === -1) end = path.length;
    return path.slice(start, end);
  }
  for (let i = path.length - 1; i >= start; --i) {
    if (isPathSeparator(path.charCodeAt(i))) {
      if (!matchedSlash) { start = i + 1; break; }
    } else if (end === -1) {
      matchedSlash = false;
      end = i + 1;
    }
  }
  if (end === -1) return '';
  return path.slice(start, end);
}

// globMatch says whether path matches the glob pattern, segments split
// at the separators sep matches: '*' and '?' within a segment, [...]
// classes ([!...] negated), '**' any number of segments. Bounded by
// segments(path) × segments(pattern) segment matches.
function globMatch(path, pattern, isPathSeparator) {
  const split = (s) => {
    const out = [];
    let from = 0;
    for (let i = 0; i <= s.length; i++) {
      if (i === s.length || isPathSeparator(s.charCodeAt(i))) { out.push(s.slice(from, i)); from = i + 1; }
    }
    return out;
  };
  const segRE = (seg) => {
    let s = '^';
    for (let i = 0; i < seg.length; i++) {
      const c = seg[i];
      if (c === '*') s += '[^/\\\\]*';
      else if (c === '?') s += '[^/\\\\]';
      else if (c === '[') {
        const j = seg.indexOf(']', i + 2);
        if (j < 0) { s += '\\['; continue; }
        let cls = seg.slice(i + 1, j);
        if (cls[0] === '!' || cls[0] === '^') cls = '^' + cls.slice(1);
        s += '[' + cls.replace(/\\/g, '\\\\') + ']';
        i = j;
      } else s += c.replace(/[.+^${}()|\\\]]/g, '\\$&');
    }
    return new RegExp(s + '$');
  };
  const ps = split(path), gs = split(pattern).map((g) => (g === '**' ? g : segRE(g)));
  // memo[i][j]: ps[i:] matches gs[j:].
  const memo = new Map();
  const match = (i, j) => {
    const key = i * (gs.length + 1) + j;
    if (memo.has(key)) return memo.get(key);
    let r;
    if (j === gs.length) r = i === ps.length;
    else if (gs[j] === '**') r = match(i, j + 1) || (i < ps.length && ps[i][0] !== '.' && match(i + 1, j));
    else r = i < ps.length && (ps[i][0] !== '.' || gs[j].source.startsWith('^\\.')) && gs[j].test(ps[i]) && match(i + 1, j + 1);
    memo.set(key, r);
    return r;
  };
  return match(0, 0);
}

const posix = {
  resolve(...args) {
    let resolvedPath = '';
    let resolvedAbsolute = false;
    for (let i = args.length - 1; i >= -1 && !resolvedAbsolute; i--) {
      const path = i >= 0 ? args[i] : cwd();
      validateString(path, `paths[${i}]`);
      if (path.length === 0) continue;
      resolvedPath = `${path}/${resolvedPath}`;
      resolvedAbsolute = path.charCodeAt(0) === SLASH;
    }
    resolvedPath = normalizeString(resolvedPath, !resolvedAbsolute, '/', isPosixSep);
    if (resolvedAbsolute) return `/${resolvedPath}`;
    return resolvedPath.length > 0 ? resolvedPath : '.';
  },

  normalize(path) {
    validateString(path, 'path');
    if (path.length === 0) return '.';
    const isAbsolute = path.charCodeAt(0) === SLASH;
    const trailingSeparator = path.charCodeAt(path.length - 1) === SLASH;
    path = normalizeString(path, !isAbsolute, '/', isPosixSep);
    if (path.length === 0) {
      if (isAbsolute) return '/';
      return trailingSeparator ? './' : '.';
    }
    if (trailingSeparator) path += '/';
    return isAbsolute ? `/${path}` : path;
  },

  isAbsolute(path) {
    validateString(path, 'path');
    return path.length > 0 && path.charCodeAt(0) === SLASH;
  },

  join(...args) {
    if (args.length === 0) return '.';
    let joined;
    for (const arg of args) {
      validateString(arg, 'path');
      if (arg.length > 0) joined = joined === undefined ? arg : `${joined}/${arg}`;
    }
    if (joined === undefined) return '.';
    return posix.normalize(joined);
  },

  relative(from, to) {
    validateString(from, 'from');
    validateString(to, 'to');
    if (from === to) return '';
    from = posix.resolve(from);
    to = posix.resolve(to);
    if (from === to) return '';
    const fromStart = 1, fromEnd = from.length, fromLen = fromEnd - fromStart;
    const toStart = 1, toLen = to.length - toStart;
    const length = fromLen < toLen ? fromLen : toLen;
    let lastCommonSep = -1;
    let i = 0;
    for (; i < length; i++) {
      const fromCode = from.charCodeAt(fromStart + i);
      if (fromCode !== to.charCodeAt(toStart + i)) break;
      else if (fromCode === SLASH) lastCommonSep = i;
    }
    if (i === length) {
      if (toLen > length) {
        if (to.charCodeAt(toStart + i) === SLASH) return to.slice(toStart + i + 1);
        if (i === 0) return to.slice(toStart + i);
      } else if (fromLen > length) {
        if (from.charCodeAt(fromStart + i) === SLASH) lastCommonSep = i;
        else if (i === 0) lastCommonSep = 0;
      }
    }
    let out = '';
    for (i = fromStart + lastCommonSep + 1; i <= fromEnd; ++i) {
      if (i === fromEnd || from.charCodeAt(i) === SLASH) out += out.length === 0 ? '..' : '/..';
    }
    return `${out}${to.slice(toStart + lastCommonSep)}`;
  },

  toNamespacedPath(path) {
    return path;
  },

  dirname(path) {
    validateString(path, 'path');
    if (path.length === 0) return '.';
    const hasRoot = path.charCodeAt(0) === SLASH;
    let end = -1;
    let matchedSlash = true;
    for (let i = path.length - 1; i >= 1; --i) {
      if (path.charCodeAt(i) === SLASH) {
        if (!matchedSlash) { end = i; break; }
      } else {
        matchedSlash = false;
      }
    }
    if (end === -1) return hasRoot ? '/' : '.';
    if (hasRoot && end === 1) return '//';
    return path.slice(0, end);
  },

  basename(path, suffix) {
    if (suffix !== undefined) validateString(suffix, 'suffix');
    validateString(path, 'path');
    return basenameOf(path, suffix, 0, isPosixSep);
  },

  extname(path) {
    validateString(path, 'path');
    const s = extScan(path, 0, isPosixSep);
    if (noExt(...s)) return '';
    return path.slice(s[0], s[2]);
  },

  format: (o) => format('/', o),

  parse(path) {
    validateString(path, 'path');
    const ret = { root: '', dir: '', base: '', ext: '', name: '' };
    if (path.length === 0) return ret;
    const isAbsolute = path.charCodeAt(0) === SLASH;
    if (isAbsolute) ret.root = '/';
    const [startDot, scanned, end, preDotState] = extScan(path, isAbsolute ? 1 : 0, isPosixSep);
    // No separator after the root: the last segment starts at 0, as in
    // Node (so "/" and "/a" have dir "/", not "").
    const startPart = isAbsolute && scanned === 1 ? 0 : scanned;
    if (end !== -1) {
      const start = startPart === 0 && isAbsolute ? 1 : startPart;
      if (noExt(startDot, startPart, end, preDotState)) {
        ret.base = ret.name = path.slice(start, end);
      } else {
        ret.name = path.slice(start, startDot);
        ret.base = path.slice(start, end);
        ret.ext = path.slice(startDot, end);
      }
    }
    if (startPart > 0) ret.dir = path.slice(0, startPart - 1);
    else if (isAbsolute) ret.dir = '/';
    return ret;
  },

  matchesGlob(path, pattern) {
    validateString(path, 'path');
    validateString(pattern, 'pattern');
    return globMatch(path, pattern, isPosixSep);
  },

  sep: '/',
  delimiter: ':',
  win32: null,
  posix: null,
};

// uncRoot reads the \\server\share root of a path that starts with two
// separators: [firstPart, last, j] where path[last:j] is the share, or
// null when the path has no server and share.
function uncRoot(path) {
  const len = path.length;
  let j = 2;
  let last = j;
  while (j < len && !isSep(path.charCodeAt(j))) j++;
  if (j < len && j !== last) {
    const firstPart = path.slice(last, j);
    last = j;
    while (j < len && isSep(path.charCodeAt(j))) j++;
    if (j < len && j !== last) {
      last = j;
      while (j < len && !isSep(path.charCodeAt(j))) j++;
      if (j === len || j !== last) return [firstPart, last, j];
    }
  }
  return null;
}

const win32 = {
  resolve(...args) {
    let resolvedDevice = '';
    let resolvedTail = '';
    let resolvedAbsolute = false;
    for (let i = args.length - 1; i >= -1; i--) {
      let path;
      if (i >= 0) {
        path = args[i];
        validateString(path, `paths[${i}]`);
        if (path.length === 0) continue;
      } else if (resolvedDevice.length === 0) {
        path = cwd();
      } else {
        const env = globalThis.process ? globalThis.process.env : {};
        path = env[`=${resolvedDevice}`] || cwd();
        if (path === undefined ||
            (path.slice(0, 2).toLowerCase() !== resolvedDevice.toLowerCase() && path.charCodeAt(2) === BACKSLASH)) {
          path = `${resolvedDevice}\\`;
        }
      }
      const len = path.length;
      let rootEnd = 0;
      let device = '';
      let isAbsolute = false;
      const code = path.charCodeAt(0);
      if (len === 1) {
        if (isSep(code)) { rootEnd = 1; isAbsolute = true; }
      } else if (isSep(code)) {
        isAbsolute = true;
        if (isSep(path.charCodeAt(1))) {
          const unc = uncRoot(path);
          if (unc) {
            const [firstPart, last, j] = unc;
            if (firstPart === '.' || firstPart === '?') {
              device = `\\\\${firstPart}`;
              rootEnd = 4;
            } else {
              device = `\\\\${firstPart}\\${path.slice(last, j)}`;
              rootEnd = j;
            }
          }
        } else {
          rootEnd = 1;
        }
      } else if (isDeviceRoot(code) && path.charCodeAt(1) === COLON) {
        device = path.slice(0, 2);
        rootEnd = 2;
        if (len > 2 && isSep(path.charCodeAt(2))) { isAbsolute = true; rootEnd = 3; }
      }
      if (device.length > 0) {
        if (resolvedDevice.length > 0) {
          if (device.toLowerCase() !== resolvedDevice.toLowerCase()) continue;
        } else {
          resolvedDevice = device;
        }
      }
      if (resolvedAbsolute) {
        if (resolvedDevice.length > 0) break;
      } else {
        resolvedTail = `${path.slice(rootEnd)}\\${resolvedTail}`;
        resolvedAbsolute = isAbsolute;
        if (isAbsolute && resolvedDevice.length > 0) break;
      }
    }
    resolvedTail = normalizeString(resolvedTail, !resolvedAbsolute, '\\', isSep);
    return resolvedAbsolute ? `${resolvedDevice}\\${resolvedTail}` : `${resolvedDevice}${resolvedTail}` || '.';
  },

  normalize(path) {
    validateString(path, 'path');
    const len = path.length;
    if (len === 0) return '.';
    let rootEnd = 0;
    let device;
    let isAbsolute = false;
    const code = path.charCodeAt(0);
    if (len === 1) return code === SLASH ? '\\' : path;
    if (isSep(code)) {
      isAbsolute = true;
      if (isSep(path.charCodeAt(1))) {
        const unc = uncRoot(path);
        if (unc) {
          const [firstPart, last, j] = unc;
          if (firstPart === '.' || firstPart === '?') {
            device = `\\\\${firstPart}`;
            rootEnd = 4;
          } else if (j === len) {
            // A UNC root alone: \\server\share\.
            return `\\\\${firstPart}\\${path.slice(last)}\\`;
          } else {
            device = `\\\\${firstPart}\\${path.slice(last, j)}`;
            rootEnd = j;
          }
        }
      } else {
        rootEnd = 1;
      }
    } else if (isDeviceRoot(code) && path.charCodeAt(1) === COLON) {
      device = path.slice(0, 2);
      rootEnd = 2;
      if (len > 2 && isSep(path.charCodeAt(2))) { isAbsolute = true; rootEnd = 3; }
    }
    let tail = rootEnd < len ? normalizeString(path.slice(rootEnd), !isAbsolute, '\\', isSep) : '';
    if (tail.length === 0 && !isAbsolute) tail = '.';
    if (tail.length > 0 && isSep(path.charCodeAt(len - 1))) tail += '\\';
    if (!isAbsolute && device === undefined && path.includes(':')) {
      // A relative path must not become one Windows reads as having a
      // drive ('a/../C:x' is '.\C:x', not 'C:x').
      if (tail.length >= 2 && isDeviceRoot(tail.charCodeAt(0)) && tail.charCodeAt(1) === COLON) return `.\\${tail}`;
      let index = path.indexOf(':');
      do {
        if (index === len - 1 || isSep(path.charCodeAt(index + 1))) return `.\\${tail}`;
      } while ((index = path.indexOf(':', index + 1)) !== -1);
    }
    if (device === undefined) return isAbsolute ? `\\${tail}` : tail;
    return isAbsolute ? `${device}\\${tail}` : `${device}${tail}`;
  },

  isAbsolute(path) {
    validateString(path, 'path');
    const len = path.length;
    if (len === 0) return false;
    const code = path.charCodeAt(0);
    return isSep(code) ||
      (len > 2 && isDeviceRoot(code) && path.charCodeAt(1) === COLON && isSep(path.charCodeAt(2)));
  },

  join(...args) {
    if (args.length === 0) return '.';
    let joined;
    let firstPart;
    for (const arg of args) {
      validateString(arg, 'path');
      if (arg.length > 0) {
        if (joined === undefined) joined = firstPart = arg;
        else joined += `\\${arg}`;
      }
    }
    if (joined === undefined) return '.';
    // Keep a UNC root only when the first part starts with exactly two
    // separators and a name ('//server'); squash any other run of leading
    // separators to one.
    let needsReplace = true;
    let slashCount = 0;
    if (isSep(firstPart.charCodeAt(0))) {
      ++slashCount;
      const firstLen = firstPart.length;
      if (firstLen > 1 && isSep(firstPart.charCodeAt(1))) {
        ++slashCount;
        if (firstLen > 2) {
          if (isSep(firstPart.charCodeAt(2))) ++slashCount;
          else needsReplace = false;
        }
      }
    }
    if (needsReplace) {
      while (slashCount < joined.length && isSep(joined.charCodeAt(slashCount))) slashCount++;
      if (slashCount >= 2) joined = `\\${joined.slice(slashCount)}`;
    }
    return win32.normalize(joined);
  },

  relative(from, to) {
    validateString(from, 'from');
    validateString(to, 'to');
    if (from === to) return '';
    const fromOrig = win32.resolve(from);
    const toOrig = win32.resolve(to);
    if (fromOrig === toOrig) return '';
    from = fromOrig.toLowerCase();
    to = toOrig.toLowerCase();
    if (from === to) return '';
    if (from.length !== fromOrig.length || to.length !== toOrig.length) {
      // Lower case changed a length: compare segment by segment.
      const fs = fromOrig.split('\\'), ts = toOrig.split('\\');
      if (fs[fs.length - 1] === '') fs.pop();
      if (ts[ts.length - 1] === '') ts.pop();
      const n = Math.min(fs.length, ts.length);
      let i = 0;
      while (i < n && fs[i].toLowerCase() === ts[i].toLowerCase()) i++;
      if (i === 0) return toOrig;
      return [...Array(fs.length - i).fill('..'), ...ts.slice(i)].join('\\');
    }
    let fromStart = 0;
    while (fromStart < from.length && from.charCodeAt(fromStart) === BACKSLASH) fromStart++;
    let fromEnd = from.length;
    while (fromEnd - 1 > fromStart && from.charCodeAt(fromEnd - 1) === BACKSLASH) fromEnd--;
    const fromLen = fromEnd - fromStart;
    let toStart = 0;
    while (toStart < to.length && to.charCodeAt(toStart) === BACKSLASH) toStart++;
    let toEnd = to.length;
    while (toEnd - 1 > toStart && to.charCodeAt(toEnd - 1) === BACKSLASH) toEnd--;
    const toLen = toEnd - toStart;
    const length = fromLen < toLen ? fromLen : toLen;
    let lastCommonSep = -1;
    let i = 0;
    for (; i < length; i++) {
      const fromCode = from.charCodeAt(fromStart + i);
      if (fromCode !== to.charCodeAt(toStart + i)) break;
      else if (fromCode === BACKSLASH) lastCommonSep = i;
    }
    if (i !== length) {
      if (lastCommonSep === -1) return toOrig;
    } else {
      if (toLen > length) {
        if (to.charCodeAt(toStart + i) === BACKSLASH) return toOrig.slice(toStart + i + 1);
        if (i === 2) return toOrig.slice(toStart + i);
      }
      if (fromLen > length) {
        if (from.charCodeAt(fromStart + i) === BACKSLASH) lastCommonSep = i;
        else if (i === 2) lastCommonSep = 3;
      }
      if (lastCommonSep === -1) lastCommonSep = 0;
    }
    let out = '';
    for (i = fromStart + lastCommonSep + 1; i <= fromEnd; ++i) {
      if (i === fromEnd || from.charCodeAt(i) === BACKSLASH) out += out.length === 0 ? '..' : '\\..';
    }
    toStart += lastCommonSep;
    if (out.length > 0) return `${out}${toOrig.slice(toStart, toEnd)}`;
    if (toOrig.charCodeAt(toStart) === BACKSLASH) ++toStart;
    return toOrig.slice(toStart, toEnd);
  },

  toNamespacedPath(path) {
    if (typeof path !== 'string' || path.length === 0) return path;
    const resolved = win32.resolve(path);
    if (resolved.length <= 2) return path;
    if (resolved.charCodeAt(0) === BACKSLASH) {
      if (resolved.charCodeAt(1) === BACKSLASH) {
        const code = resolved.charCodeAt(2);
        if (code !== QUESTION && code !== DOT) return `\\\\?\\UNC\\${resolved.slice(2)}`;
      }
    } else if (isDeviceRoot(resolved.charCodeAt(0)) && resolved.charCodeAt(1) === COLON &&
               resolved.charCodeAt(2) === BACKSLASH) {
      return `\\\\?\\${resolved}`;
    }
    return resolved;
  },

  dirname(path) {
    validateString(path, 'path');
    const len = path.length;
    if (len === 0) return '.';
    let rootEnd = -1;
    let offset = 0;
    const code = path.charCodeAt(0);
    if (len === 1) return isSep(code) ? path : '.';
    if (isSep(code)) {
      rootEnd = offset = 1;
      if (isSep(path.charCodeAt(1))) {
        const unc = uncRoot(path);
        if (unc) {
          const [, last, j] = unc;
          if (j === len) return path;
          if (j !== last) rootEnd = offset = j + 1;
        }
      }
    } else if (isDeviceRoot(code) && path.charCodeAt(1) === COLON) {
      rootEnd = len > 2 && isSep(path.charCodeAt(2)) ? 3 : 2;
      offset = rootEnd;
    }
    let end = -1;
    let matchedSlash = true;
    for (let i = len - 1; i >= offset; --i) {
      if (isSep(path.charCodeAt(i))) {
        if (!matchedSlash) { end = i; break; }
      } else {
        matchedSlash = false;
      }
    }
    if (end === -1) {
      if (rootEnd === -1) return '.';
      end = rootEnd;
    }
    return path.slice(0, end);
  },

  basename(path, suffix) {
    if (suffix !== undefined) validateString(suffix, 'suffix');
    validateString(path, 'path');
    const start = path.length >= 2 && isDeviceRoot(path.charCodeAt(0)) && path.charCodeAt(1) === COLON ? 2 : 0;
    return basenameOf(path, suffix, start, isSep);
  },

  extname(path) {
    validateString(path, 'path');
    const start = path.length >= 2 && path.charCodeAt(1) === COLON && isDeviceRoot(path.charCodeAt(0)) ? 2 : 0;
    const s = extScan(path, start, isSep);
    if (noExt(...s)) return '';
    return path.slice(s[0], s[2]);
  },

  format: (o) => format('\\', o),

  parse(path) {
    validateString(path, 'path');
    const ret = { root: '', dir: '', base: '', ext: '', name: '' };
    if (path.length === 0) return ret;
    const len = path.length;
    let rootEnd = 0;
    const code = path.charCodeAt(0);
    if (len === 1) {
      if (isSep(code)) { ret.root = ret.dir = path; return ret; }
      ret.base = ret.name = path;
      return ret;
    }
    if (isSep(code)) {
      rootEnd = 1;
      if (isSep(path.charCodeAt(1))) {
        const unc = uncRoot(path);
        if (unc) {
          const [, last, j] = unc;
          if (j === len) rootEnd = j;
          else if (j !== last) rootEnd = j + 1;
        }
      }
    } else if (isDeviceRoot(code) && path.charCodeAt(1) === COLON) {
      if (len <= 2) { ret.root = ret.dir = path; return ret; }
      rootEnd = 2;
      if (isSep(path.charCodeAt(2))) {
        if (len === 3) { ret.root = ret.dir = path; return ret; }
        rootEnd = 3;
      }
    }
    if (rootEnd > 0) ret.root = path.slice(0, rootEnd);
    const [startDot, startPart, end, preDotState] = extScan(path, rootEnd, isSep);
    if (end !== -1) {
      if (noExt(startDot, startPart, end, preDotState)) {
        ret.base = ret.name = path.slice(startPart, end);
      } else {
        ret.name = path.slice(startPart, startDot);
        ret.base = path.slice(startPart, end);
        ret.ext = path.slice(startDot, end);
      }
    }
    if (startPart > 0 && startPart !== rootEnd) ret.dir = path.slice(0, startPart - 1);
    else ret.dir = ret.root;
    return ret;
  },

  matchesGlob(path, pattern) {
    validateString(path, 'path');
    validateString(pattern, 'pattern');
    return globMatch(path, pattern, isSep);
  },

  sep: '\\',
  delimiter: ';',
  win32: null,
  posix: null,
};

posix.win32 = win32.win32 = win32;
posix.posix = win32.posix = posix;
posix._makeLong = posix.toNamespacedPath;
win32._makeLong = win32.toNamespacedPath;
module.exports = posix;
