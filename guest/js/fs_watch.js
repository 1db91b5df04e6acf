'use strict';
// fs.watch, fs.promises.watch, fs.watchFile and fs.unwatchFile.
//
// fs.watch reads the workspace's change feed through the fs op "changes"
// (an ordinary journaled host call, so a replay sees the same events),
// polling on a timer: every 10 ms after an event, backing off to 250 ms
// while nothing happens. Events are worded as inotify words them on Linux:
// 'rename' when a name appears or goes, 'change' when content or metadata
// changes, with the name relative to the watched directory (or the file's
// own name). fs.watchFile polls stat at its interval, as Node does.

module.exports = function makeWatch(fs, h) {
  const EventEmitter = require('node:events');
  const { argType, argValue, pathArg, resolve, uvError, Stats, epoch } = h;
  const MIN = 10;
  const MAX = 250;

  // globRE compiles a glob (* within a segment, ** across, ?) to a RegExp.
  const globRE = (g) => {
    let s = '';
    for (let i = 0; i < g.length; i++) {
      const c = g[i];
      if (c === '*') {
        if (g[i + 1] === '*') { s += '.*'; i++; if (g[i + 1] === '/') i++; } else s += '[^/]*';
      } else if (c === '?') s += '[^/]';
      else s += /[.+^${}()|[\]\\]/.test(c) ? '\\' + c : c;
    }
    return new RegExp('^' + s + '$');
  };

  function ignorer(ignore) {
    if (ignore === undefined || ignore === null) return null;
    const one = (p, name) => {
      if (typeof p === 'string') {
        if (p === '') throw argValue(name, p, 'must be a non-empty string');
        const re = globRE(p);
        return (f) => re.test(f) || (!p.includes('/') && re.test(f.slice(f.lastIndexOf('/') + 1)));
      }
      if (p instanceof RegExp) return (f) => { p.lastIndex = 0; return p.test(f); };
      if (typeof p === 'function') return (f) => !!p(f);
      throw argType(name, 'of type string, RegExp, or function', p);
    };
    const list = Array.isArray(ignore) ? ignore.map((p) => one(p, 'options.ignore')) : [one(ignore, 'options.ignore')];
    return (f) => list.some((m) => m(f));
  }

  function options(o) {
    if (o === undefined || o === null) return {};
    if (typeof o === 'string') return { encoding: o };
    if (typeof o !== 'object') throw argType('options', 'one of type string or object', o);
    return o;
  }

  function FSWatcher() {
    EventEmitter.call(this);
    this._timer = null;
    this._closed = false;
  }
  Object.setPrototypeOf(FSWatcher.prototype, EventEmitter.prototype);
  FSWatcher.prototype.close = function close() {
    if (this._closed) return;
    this._closed = true;
    if (this._timer) clearTimeout(this._timer);
    this._timer = null;
    process.nextTick(() => this.emit('close'));
  };
  FSWatcher.prototype.ref = function ref() { this._ref = true; if (this._timer) this._timer.ref(); return this; };
  FSWatcher.prototype.unref = function unref() { this._ref = false; if (this._timer) this._timer.unref(); return this; };
  FSWatcher.prototype[Symbol.dispose || Symbol.for('Symbol.dispose')] = function () { this.close(); };

  // events turns a change of the feed into (eventType, filename) pairs
  // for a watcher of abs.
  function events(w, c) {
    const out = [];
    const rel = (p) => {
      if (!p) return null;
      if (!w.isDir) return p === w.abs ? w.base : null;
      if (!p.startsWith(w.abs + '/')) return null;
      const r = p.slice(w.abs.length + 1);
      if (!w.recursive && r.includes('/')) return null;
      return r;
    };
    const p = rel(c.path);
    const o = rel(c.oldPath);
    switch (c.op) {
      case 'create':
        // inotify reports a new file's name, then the write of its data.
        if (p !== null) out.push(['rename', p]);
        if (p !== null && c.kind === 'file') out.push(['change', p]);
        break;
      case 'remove': case 'link':
        if (p !== null) out.push(['rename', p]);
        break;
      case 'rename':
        if (o !== null) out.push(['rename', o]);
        if (p !== null) out.push(['rename', p]);
        break;
      default:
        if (p !== null) out.push(['change', p]);
    }
    if (!w.isDir && (c.op === 'remove' || c.op === 'rename') && (c.path === w.abs || c.oldPath === w.abs)) w.gone = true;
    return out;
  }

  function watch(filename, opts, listener) {
    if (typeof opts === 'function') { listener = opts; opts = undefined; }
    const o = options(opts);
    const given = pathArg(filename, 'filename');
    if (o.persistent !== undefined && typeof o.persistent !== 'boolean') throw argType('options.persistent', 'of type boolean', o.persistent);
    if (o.recursive !== undefined && typeof o.recursive !== 'boolean') throw argType('options.recursive', 'of type boolean', o.recursive);
    const ignored = ignorer(o.ignore);
    if (o.signal !== undefined && (o.signal === null || typeof o.signal !== 'object' || !('aborted' in o.signal))) {
      throw argType('options.signal', 'an instance of AbortSignal', o.signal);
    }
    const enc = o.encoding === undefined ? 'utf8' : o.encoding;
    if (enc !== 'buffer' && !Buffer.isEncoding(enc)) throw argValue('encoding', enc, 'is invalid encoding');
    const abs = resolve(given);
    let st;
    try { st = fs.statSync(abs); } catch (e) {
      const err = uvError(e.code || 'ENOENT', 'watch', given);
      err.filename = given;
      throw err;
    }
    const w = new FSWatcher();
    Object.assign(w, { abs, base: abs.slice(abs.lastIndexOf('/') + 1), isDir: st.isDirectory(), recursive: !!o.recursive });
    if (listener) w.on('change', listener);
    let since = host.callSync('fs', 'changes', { since: -1 }).rev;
    let delay = MIN;
    const persistent = o.persistent !== false;
    const name = (f) => (enc === 'buffer' ? Buffer.from(f) : enc === 'utf8' ? f : Buffer.from(f).toString(enc));
    const poll = () => {
      w._timer = null;
      if (w._closed) return;
      host.call('fs', 'changes', { since }).then((r) => {
        if (w._closed) return;
        since = r.rev;
        let n = 0;
        for (const c of r.changes) {
          for (const [type, f] of events(w, c)) {
            if (ignored && ignored(f)) continue;
            n++;
            w.emit('change', type, name(f));
            if (w._closed) return;
          }
        }
        delay = n > 0 || r.changes.length >= 1000 ? MIN : Math.min(MAX, Math.ceil(delay * 1.5));
        schedule();
      }, (e) => { if (!w._closed) { w.emit('error', e); w.close(); } });
    };
    const schedule = () => {
      w._timer = setTimeout(poll, delay);
      if (!persistent || w._ref === false) w._timer.unref();
    };
    schedule();
    if (o.signal) {
      if (o.signal.aborted) process.nextTick(() => w.close());
      else o.signal.addEventListener('abort', () => w.close(), { once: true });
    }
    return w;
  }

  // promiseWatch is fs.promises.watch: an async iterator of
  // {eventType, filename}, ended by options.signal (with an AbortError).
  function promiseWatch(filename, opts) {
    const o = options(opts);
    const signal = o.signal;
    const w = watch(filename, Object.assign({}, o, { signal: undefined }));
    const queue = [];
    const waiting = [];
    let error = null;
    let done = false;
    const abortError = () => {
      const e = new Error('The operation was aborted');
      e.name = 'AbortError';
      e.code = 'ABORT_ERR';
      if (signal && signal.reason !== undefined) e.cause = signal.reason;
      return e;
    };
    const finish = (e) => {
      if (done) return;
      done = true;
      error = e || null;
      if (error) queue.length = 0; // an abort drops what was not read yet
      w.close();
      for (const p of waiting.splice(0)) {
        if (error) p.reject(error); else p.resolve({ value: undefined, done: true });
      }
    };
    w.on('change', (eventType, f) => {
      const v = { eventType, filename: f };
      if (waiting.length) waiting.shift().resolve({ value: v, done: false });
      else queue.push(v);
    });
    w.on('error', (e) => finish(e));
    if (signal) {
      if (signal.aborted) finish(abortError());
      else signal.addEventListener('abort', () => finish(abortError()), { once: true });
    }
    const aIter = Symbol.asyncIterator || Symbol.for('Symbol.asyncIterator');
    return {
      next() {
        if (queue.length) return Promise.resolve({ value: queue.shift(), done: false });
        if (error) { const e = error; error = null; return Promise.reject(e); }
        if (done) return Promise.resolve({ value: undefined, done: true });
        return new Promise((resolve, reject) => waiting.push({ resolve, reject }));
      },
      return() { finish(); return Promise.resolve({ value: undefined, done: true }); },
      throw(e) { finish(); return Promise.reject(e); },
      [aIter]() { return this; },
    };
  }

  // ---- watchFile ----

  const statWatchers = new Map(); // abs path → StatWatcher

  function StatWatcher(bigint) {
    EventEmitter.call(this);
    this._bigint = bigint;
    this._timer = null;
  }
  Object.setPrototypeOf(StatWatcher.prototype, EventEmitter.prototype);
  StatWatcher.prototype.ref = function ref() { this._ref = true; if (this._timer) this._timer.ref(); return this; };
  StatWatcher.prototype.unref = function unref() { this._ref = false; if (this._timer) this._timer.unref(); return this; };
  StatWatcher.prototype.stop = function stop() {
    if (this._stopped) return; // stopping a stopped watcher is a no-op
    if (this._timer) clearTimeout(this._timer);
    this._timer = null;
    this._stopped = true;
    process.nextTick(() => this.emit('stop'));
  };

  const zeroStats = (bigint) => {
    const z = { dev: 0, mode: 0, nlink: 0, uid: 0, gid: 0, rdev: 0, blksize: 0, ino: 0, size: 0, blocks: 0,
      atimeMs: 0, mtimeMs: 0, ctimeMs: 0, birthtimeMs: 0 };
    const s = Stats(z);
    if (bigint) {
      for (const k of Object.keys(z)) s[k] = 0n;
      for (const k of ['atimeNs', 'mtimeNs', 'ctimeNs', 'birthtimeNs']) s[k] = 0n;
    }
    return s;
  };
  const same = (a, b) => ['dev', 'ino', 'mode', 'nlink', 'size', 'mtimeMs', 'ctimeMs', 'uid', 'gid']
    .every((k) => a[k] === b[k]);

  function watchFile(filename, opts, listener) {
    const given = pathArg(filename, 'filename');
    if (typeof opts === 'function') { listener = opts; opts = undefined; }
    const o = Object.assign({ interval: 5007, persistent: true, bigint: false }, opts);
    if (typeof listener !== 'function') throw argType('listener', 'of type function', listener);
    const abs = resolve(given);
    let sw = statWatchers.get(abs);
    if (!sw) {
      sw = new StatWatcher(o.bigint);
      statWatchers.set(abs, sw);
      // As libuv's fs_poll: the first stat only records the state (or, if
      // it fails, reports it); later ones report a change of the stats or
      // of the error. Node drops a report of "still missing".
      let prev = zeroStats(o.bigint);
      let status = null; // null before the first stat, then 0 or the error code
      let lastWasError = false;
      // A stat poll costs a host call (journaled). The program's own
      // changes are known (epoch), so while it changed nothing and the
      // last poll saw nothing, the timer still wakes at the interval but
      // stats only every `wait` ms, which doubles up to 250 ms (never
      // below the interval asked for); other writers are seen within that.
      const interval = Math.max(1, Number(o.interval) || 0);
      let wait = interval;
      let since = 0;
      let seen = epoch();
      const tick = () => {
        seen = epoch();
        fs.stat(abs, { bigint: o.bigint }, (err, cur) => {
          if (sw._stopped) return;
          let report = false;
          if (err) {
            cur = zeroStats(o.bigint);
            report = status !== err.code && !(lastWasError && (cur.nlink === prev.nlink));
            status = err.code;
          } else {
            report = status !== null && (status !== 0 || !same(cur, prev));
            status = 0;
          }
          const old = prev;
          prev = cur;
          if (report) {
            lastWasError = !!err;
            sw.emit('change', cur, old);
          }
          wait = report || epoch() !== seen ? interval : Math.min(Math.max(interval, MAX), wait * 2);
          since = 0;
          if (!sw._stopped) schedule(interval);
        });
      };
      const wake = () => {
        sw._timer = null;
        if (sw._stopped) return;
        since += interval;
        if (since >= wait || epoch() !== seen) tick();
        else schedule(interval);
      };
      const schedule = (ms) => {
        sw._timer = setTimeout(wake, ms);
        if (!o.persistent || sw._ref === false) sw._timer.unref();
      };
      since = wait;
      schedule(0);
    }
    sw.on('change', listener);
    return sw;
  }

  function unwatchFile(filename, listener) {
    const abs = resolve(pathArg(filename, 'filename'));
    const sw = statWatchers.get(abs);
    if (!sw) return;
    if (typeof listener === 'function') sw.removeListener('change', listener);
    else sw.removeAllListeners('change');
    if (sw.listenerCount('change') === 0) {
      sw.stop();
      statWatchers.delete(abs);
    }
  }

  return { watch, promiseWatch, watchFile, unwatchFile, FSWatcher, StatWatcher };
};
