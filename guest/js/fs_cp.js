'use strict';
// fs.cp, fs.cpSync and fs.promises.cp, written over the module's own
// operations (stat, mkdir, copyFile, symlink, ...) with Node's semantics:
// the filter option (a promise is awaited by cp and refused by cpSync),
// force/errorOnExist, dereference, verbatimSymlinks, preserveTimestamps,
// mode, and Node's ERR_FS_CP_* errors. Each operation is a generator that
// yields host requests, so one implementation serves the sync, callback
// and promise forms. node_fs.js loads this file on first use.

module.exports = function makeCp(impl, h) {
  const { argType, outOfRange, pathArg, resolve, kAwait } = h;

  function systemError(code, prefix, errcode, detail, path, dest) {
    let msg = `${prefix}: cp returned ${errcode} (${detail})`;
    if (path !== undefined) msg += ` ${path}`;
    if (dest !== undefined) msg += ` => ${dest}`;
    const e = new Error(msg);
    e.name = 'SystemError';
    e.code = code;
    e.errno = { EINVAL: 22, EEXIST: 17, EISDIR: 21, ENOTDIR: 20 }[errcode];
    e.syscall = 'cp';
    if (path !== undefined) e.path = path;
    if (dest !== undefined) e.dest = dest;
    e.info = { code: errcode, message: detail, path, syscall: 'cp', errno: e.errno };
    return e;
  }
  const einval = (detail, path) => systemError('ERR_FS_CP_EINVAL', 'Invalid src or dest', 'EINVAL', detail, path);

  function checkOptions(opts) {
    if (opts === undefined || opts === null) opts = {};
    if (typeof opts !== 'object') throw argType('options', 'of type object', opts);
    const o = Object.assign({ dereference: false, errorOnExist: false, force: true, preserveTimestamps: false,
      recursive: false, verbatimSymlinks: false, mode: 0 }, opts);
    for (const k of ['dereference', 'errorOnExist', 'force', 'preserveTimestamps', 'recursive', 'verbatimSymlinks']) {
      if (typeof o[k] !== 'boolean') throw argType('options.' + k, 'of type boolean', o[k]);
    }
    if (o.filter !== undefined && typeof o.filter !== 'function') throw argType('options.filter', 'of type function', o.filter);
    if (typeof o.mode !== 'number') throw argType('options.mode', 'of type number', o.mode);
    if (!Number.isInteger(o.mode) || o.mode < 0 || o.mode > 7) throw outOfRange('mode', 'an integer >= 0 && <= 7', o.mode);
    if (o.dereference && o.verbatimSymlinks) {
      const e = new TypeError('Option "dereference" cannot be used in combination with option "verbatimSymlinks"');
      e.code = 'ERR_INCOMPATIBLE_OPTION_PAIR';
      throw e;
    }
    return o;
  }

  // tryStat returns the stats of p, or null when it does not exist.
  function* tryStat(p, follow) {
    try {
      return yield* (follow ? impl.stat(p) : impl.lstat(p));
    } catch (e) {
      if (e && e.code === 'ENOENT') return null;
      throw e;
    }
  }
  const identical = (a, b) => b && a.ino === b.ino && a.dev === b.dev && a.ino !== 0;
  const segs = (p) => p.split('/').filter(Boolean);
  const isSubdir = (src, dest) => {
    const s = segs(src);
    const d = segs(dest);
    return s.every((x, i) => d[i] === x);
  };
  const dirname = (p) => { const i = p.lastIndexOf('/'); return i <= 0 ? '/' : p.slice(0, i); };
  const isAbs = (p) => p[0] === '/';

  function* filtered(o, src, dest) {
    if (!o.filter) return true;
    return !!(yield [kAwait, o.filter(src, dest)]);
  }

  function* checkPaths(src, dest, o) {
    const srcStat = yield* (o.dereference ? impl.stat(src) : impl.lstat(src));
    const destStat = yield* tryStat(dest, o.dereference);
    if (identical(srcStat, destStat)) throw einval('src and dest cannot be the same', dest);
    if (srcStat.isDirectory() && destStat && !destStat.isDirectory()) {
      throw systemError('ERR_FS_CP_DIR_TO_NON_DIR', 'Cannot overwrite non-directory with directory', 'EISDIR',
        `cannot overwrite non-directory ${dest} with directory ${src}`, dest);
    }
    if (!srcStat.isDirectory() && destStat && destStat.isDirectory()) {
      throw systemError('ERR_FS_CP_NON_DIR_TO_DIR', 'Cannot overwrite directory with non-directory', 'ENOTDIR',
        `cannot overwrite directory ${dest} with non-directory ${src}`, dest);
    }
    if (srcStat.isDirectory() && isSubdir(src, dest) && src !== dest) {
      throw einval(`cannot copy ${src} to a subdirectory of self ${dest}`, dest);
    }
    return { srcStat, destStat };
  }

  // checkParents refuses a dest below src through a symlinked parent.
  function* checkParents(src, srcStat, dest) {
    const root = dirname(src);
    let parent = dirname(dest);
    while (parent !== root && parent !== '/' && parent !== dirname(parent)) {
      const st = yield* tryStat(parent, true);
      if (st === null) return;
      if (identical(srcStat, st)) throw einval(`cannot copy ${src} to a subdirectory of self ${dest}`, dest);
      parent = dirname(parent);
    }
  }

  function* copyEntry(src, dest, o, top) {
    if (top && !(yield* filtered(o, src, dest))) return;
    const { srcStat, destStat } = yield* checkPaths(src, dest, o);
    if (top) {
      yield* checkParents(src, srcStat, dest);
      const parent = dirname(dest);
      if ((yield* tryStat(parent, true)) === null) yield* impl.mkdir(parent, { recursive: true });
    }
    if (srcStat.isDirectory()) {
      if (!o.recursive) {
        throw systemError('ERR_FS_EISDIR', 'Recursive option is required to copy a directory', 'EISDIR',
          `${src} is a directory (not copied)`, src);
      }
      return yield* copyDir(srcStat, destStat, src, dest, o);
    }
    if (srcStat.isFile() || srcStat.isCharacterDevice() || srcStat.isBlockDevice()) return yield* copyFile(srcStat, destStat, src, dest, o);
    if (srcStat.isSymbolicLink()) return yield* copyLink(destStat, src, dest, o);
    if (srcStat.isSocket()) throw systemError('ERR_FS_CP_SOCKET', 'Cannot copy a socket file', 'EINVAL', `cannot copy a socket file: ${dest}`, dest);
    if (srcStat.isFIFO()) throw systemError('ERR_FS_CP_FIFO_PIPE', 'Cannot copy a FIFO pipe', 'EINVAL', `cannot copy a FIFO pipe: ${dest}`, dest);
    throw systemError('ERR_FS_CP_UNKNOWN', 'Cannot copy an unknown file type', 'EINVAL', `cannot copy an unknown file type: ${dest}`, dest);
  }

  function* copyFile(srcStat, destStat, src, dest, o) {
    if (destStat) {
      if (o.force) yield* impl.unlink(dest);
      else if (o.errorOnExist) throw systemError('ERR_FS_CP_EEXIST', 'Target already exists', 'EEXIST', `${dest} already exists`, dest);
      else return;
    }
    yield* impl.copyFile(src, dest, o.mode);
    if (o.preserveTimestamps) {
      // The exact nanoseconds, which Stats' milliseconds would round.
      const raw = yield ['stat', { path: src }, [{ given: src, abs: src }]];
      yield ['utimes', { path: dest, atimeMs: raw.atimeMs, mtimeMs: raw.mtimeMs, atimeNs: raw.atimeNs, mtimeNs: raw.mtimeNs },
        [{ given: dest, abs: dest }]];
    }
    yield* impl.chmod(dest, srcStat.mode & 0o7777);
  }

  function* copyDir(srcStat, destStat, src, dest, o) {
    if (destStat && o.errorOnExist && !o.force) {
      throw systemError('ERR_FS_CP_EEXIST', 'Target already exists', 'EEXIST', `${dest} already exists`, dest);
    }
    if (!destStat) yield* impl.mkdir(dest, { mode: srcStat.mode & 0o7777 });
    const names = yield* impl.readdir(src);
    for (const name of names) {
      const s = src + '/' + name;
      const d = dest + '/' + name;
      if (!(yield* filtered(o, s, d))) continue;
      yield* copyEntry(s, d, o, false);
    }
    if (!destStat) yield* impl.chmod(dest, srcStat.mode & 0o7777);
  }

  function* copyLink(destStat, src, dest, o) {
    let target = yield* impl.readlink(src);
    if (!o.verbatimSymlinks && !isAbs(target)) target = resolve(dirname(src) + '/' + target);
    if (!destStat) { yield* impl.symlink(target, dest); return; }
    let destTarget;
    try {
      destTarget = yield* impl.readlink(dest);
    } catch (e) {
      if (e && (e.code === 'EINVAL' || e.code === 'UNKNOWN')) { yield* impl.symlink(target, dest); return; }
      throw e;
    }
    if (!isAbs(destTarget)) destTarget = resolve(dirname(dest) + '/' + destTarget);
    const srcTargetStat = yield* tryStat(src, true);
    if (srcTargetStat && srcTargetStat.isDirectory() && isSubdir(target, destTarget)) {
      throw einval(`cannot copy ${target} to a subdirectory of self ${destTarget}`, dest);
    }
    const destTargetStat = yield* tryStat(dest, true);
    if (destTargetStat && destTargetStat.isDirectory() && isSubdir(destTarget, target)) {
      throw systemError('ERR_FS_CP_SYMLINK_TO_SUBDIRECTORY', 'Cannot overwrite symlink in subdirectory of self', 'EINVAL',
        `cannot overwrite ${destTarget} with ${target}`, dest);
    }
    yield* impl.unlink(dest);
    yield* impl.symlink(target, dest);
  }

  return function* cp(src, dest, opts) {
    const o = checkOptions(opts);
    const s = resolve(pathArg(src, 'src'));
    const d = resolve(pathArg(dest, 'dest'));
    yield* copyEntry(s, d, o, true);
    return undefined;
  };
};
