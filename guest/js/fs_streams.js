'use strict';
// fs.ReadStream and fs.WriteStream as node:stream streams: opened in
// _construct, read and written through the public callback API of fs (or
// of options.fs, or of a FileHandle given as options.fd), closed in
// _destroy, as Node's are. node_fs.js loads this file the first time a
// program uses a stream, so a run that never does pays nothing for the
// stream machinery.

module.exports = function makeStreams(fs, h) {
  const { Readable, Writable, finished } = require('node:stream');
  const { Buffer } = require('node:buffer');
  const { argType, outOfRange, pathArg, nodeError, FileHandle } = h;
  const kIoDone = Symbol('kIoDone');
  const kOwn = Symbol('kOwn'); // set by the constructors: what autoClose checks
  const destroyedError = (op) => nodeError(Error, 'ERR_STREAM_DESTROYED', 'Cannot call ' + op + ' after a stream was destroyed');
  const systemError = (what) => nodeError(Error, 'ERR_SYSTEM_ERROR', 'A system error occurred: ' + what);

  const isInt = (v) => typeof v === 'number' && Number.isInteger(v);
  const checkInt = (v, name, min) => {
    if (typeof v !== 'number') throw argType(name, 'of type number', v);
    if (!Number.isInteger(v)) throw outOfRange(name, 'an integer', v);
    if (v < min || v > Number.MAX_SAFE_INTEGER) throw outOfRange(name, `>= ${min} && <= ${Number.MAX_SAFE_INTEGER}`, v);
  };

  function copyOptions(options) {
    if (options === undefined || options === null) return {};
    if (typeof options === 'string') {
      if (!Buffer.isEncoding(options) && options !== 'buffer') {
        const e = new TypeError(`The argument 'encoding' is invalid encoding. Received '${options}'`);
        e.code = 'ERR_INVALID_ARG_VALUE';
        throw e;
      }
      return { encoding: options };
    }
    if (typeof options !== 'object') throw argType('options', 'one of type string or object', options);
    if (options.signal !== undefined && (options.signal === null || typeof options.signal !== 'object' || !('aborted' in options.signal))) {
      throw argType('options.signal', 'an instance of AbortSignal', options.signal);
    }
    const o = {};
    for (const k in options) o[k] = options[k]; // inherited options count, as in Node
    return o;
  }

  // handleOps are the operations a stream over a FileHandle uses.
  const handleOps = (fh) => ({
    open: (p, f, m, cb) => cb(null, fh.fd),
    read: (fd, buf, off, len, pos, cb) => fh.read(buf, off, len, pos).then((r) => cb(null, r.bytesRead, r.buffer), (e) => cb(e, 0, buf)),
    write: (fd, buf, off, len, pos, cb) => fh.write(buf, off, len, pos).then((r) => cb(null, r.bytesWritten, r.buffer), (e) => cb(e, 0, buf)),
    writev: (fd, bufs, pos, cb) => fh.writev(bufs, pos).then((r) => cb(null, r.bytesWritten, r.buffers), (e) => cb(e, 0, bufs)),
    close: (fd, cb) => { if (fh._unref) fh._unref(); fh.close().then(() => cb(), cb); },
    fsync: (fd, cb) => fh.sync().then(() => cb(), cb),
  });

  // setup is the part of both constructors that reads the options.
  function setup(stream, path, options, flags, needed) {
    stream[kOwn] = true;
    if (options.fd !== undefined && options.fd !== null && typeof options.fd === 'object' &&
      (options.fd instanceof FileHandle || typeof options.fd.fd === 'number')) {
      if (options.fs) throw nodeError(Error, 'ERR_METHOD_NOT_IMPLEMENTED', 'The FileHandle with fs method is not implemented');
      stream._handle = options.fd;
      stream._ops = handleOps(options.fd);
      stream.fd = options.fd.fd;
      if (options.fd._ref) options.fd._ref();
      // The handle closed elsewhere: the stream closes too.
      if (options.fd.on) options.fd.on('close', () => stream.close());
    } else {
      const ops = options.fs || fs;
      if (options.fs) {
        for (const n of needed) {
          if (typeof ops[n] !== 'function') throw argType('options.fs.' + n, 'of type function', ops[n]);
        }
        if (needed.includes('write') && ops.writev !== undefined && ops.writev !== null && typeof ops.writev !== 'function') {
          throw argType('options.fs.writev', 'of type function', ops.writev);
        }
      }
      stream._ops = ops;
      stream.fd = options.fd === undefined ? null : options.fd;
      if (stream.fd !== null) checkInt(stream.fd, 'fd', 0);
    }
    stream.flags = options.flags === undefined ? flags : options.flags;
    stream.mode = options.mode === undefined ? 0o666 : options.mode;
    if (stream.fd === null) {
      stream.path = typeof path === 'string' ? path : path instanceof Uint8Array ? path : pathArg(path, 'path');
      if (typeof stream.path === 'string' || stream.path instanceof Uint8Array) pathArg(stream.path, 'path');
    } else {
      stream.path = path === undefined || path === null ? undefined : path;
    }
    stream.start = options.start;
    stream.pos = undefined;
    if (stream.start !== undefined) {
      checkInt(stream.start, 'start', 0);
      stream.pos = stream.start;
    }
    options.autoDestroy = options.autoClose === undefined ? true : options.autoClose;
    if (options.emitClose === undefined) options.emitClose = true;
  }

  function construct(stream, patched, cb) {
    if (typeof stream.fd === 'number') { cb(); return; }
    if (patched) {
      // A program that replaced stream.open (or fs.open before Node 15's
      // streams) gets the old protocol: open() emits 'open' or 'error'.
      const emit = stream.emit;
      stream.emit = function (ev, ...args) {
        if (ev === 'open') { this.emit = emit; cb(); return emit.call(this, ev, ...args); }
        if (ev === 'error') { this.emit = emit; cb(args[0]); return false; }
        return emit.call(this, ev, ...args);
      };
      stream.open();
      return;
    }
    stream._ops.open(stream.path, stream.flags, stream.mode, (err, fd) => {
      if (err) { cb(err); return; }
      stream.fd = fd;
      cb();
      // After the stream counts as constructed (a tick later), so that
      // a write made in an 'open' listener is not queued behind later ones.
      process.nextTick(() => {
        stream.emit('open', fd);
        stream.emit('ready');
      });
    });
  }

  // destroyStream closes the descriptor once no read or write is in
  // flight, after flushing it if asked to; fd becomes null as close is
  // issued (a replaced fs.close still sees it).
  function destroyStream(stream, err, cb) {
    const closeFd = (e) => {
      stream._ops.close(stream.fd, (er) => cb(er || e));
      stream.fd = null;
    };
    const close = (e) => {
      if (!stream.fd && stream.fd !== 0) cb(e);
      else if (stream.flush) stream._ops.fsync(stream.fd, (fe) => closeFd(e || fe));
      else closeFd(e);
    };
    if (stream._io) stream.once(kIoDone, (er) => close(err || er));
    else close(err);
  }

  // errorOrDestroy is the streams' own: a stream that does not close
  // itself (autoClose: false) reports the error and stays open.
  function errorOrDestroy(stream, err) {
    const r = stream._readableState;
    const w = stream._writableState;
    if ((r && r.destroyed) || (w && w.destroyed)) return;
    if ((r && r.autoDestroy) || (w && w.autoDestroy)) { stream.destroy(err); return; }
    if (r && !r.errored) r.errored = err;
    if (w && !w.errored) w.errored = err;
    if ((r && r.errorEmitted) || (w && w.errorEmitted)) return;
    if (r) r.errorEmitted = true;
    if (w) w.errorEmitted = true;
    stream.emit('error', err);
  }

  function ReadStream(path, options) {
    if (!(this instanceof ReadStream)) return new ReadStream(path, options);
    options = copyOptions(options);
    if (options.highWaterMark === undefined) options.highWaterMark = 64 * 1024;
    setup(this, path, options, 'r', ['open', 'read', 'close']);
    this.end = options.end === undefined ? Infinity : options.end;
    if (this.end !== Infinity) {
      checkInt(this.end, 'end', 0);
      if (this.start !== undefined && this.start > this.end) {
        throw outOfRange('start', `<= "end" (here: ${this.end})`, this.start);
      }
    }
    this.bytesRead = 0;
    this._io = false;
    Readable.call(this, options);
  }
  Object.setPrototypeOf(ReadStream.prototype, Readable.prototype);
  Object.setPrototypeOf(ReadStream, Readable);
  Object.defineProperty(ReadStream.prototype, 'pending', { get() { return this.fd === null; }, configurable: true });
  ReadStream.prototype.open = function open() {
    this._ops.open(this.path, this.flags, this.mode, (err, fd) => {
      if (err) { this.emit('error', err); return; }
      this.fd = fd;
      this.emit('open', fd);
      this.emit('ready');
    });
  };
  const readOpen = ReadStream.prototype.open;
  ReadStream.prototype._construct = function (cb) { construct(this, this.open !== readOpen, cb); };
  ReadStream.prototype._read = function (n) {
    n = this.pos !== undefined ? Math.min(this.end - this.pos + 1, n) : Math.min(this.end - this.bytesRead + 1, n);
    if (n <= 0) { this.push(null); return; }
    const buf = Buffer.allocUnsafeSlow(n);
    this._io = true;
    this._ops.read(this.fd, buf, 0, n, this.pos === undefined ? null : this.pos, (err, bytesRead) => {
      this._io = false;
      if (this.destroyed) { this.emit(kIoDone, err); return; }
      if (err) { errorOrDestroy(this, err); return; }
      if (bytesRead > 0) {
        if (this.pos !== undefined) this.pos += bytesRead;
        this.bytesRead += bytesRead;
        this.push(bytesRead === buf.length ? buf : Buffer.from(buf.subarray(0, bytesRead)));
      } else {
        this.push(null);
      }
    });
  };
  ReadStream.prototype._destroy = function (err, cb) { destroyStream(this, err, cb); };
  ReadStream.prototype.close = function close(cb) {
    if (typeof cb === 'function') finished(this, cb);
    this.destroy();
  };

  function WriteStream(path, options) {
    if (!(this instanceof WriteStream)) return new WriteStream(path, options);
    options = copyOptions(options);
    options.decodeStrings = true;
    setup(this, path, options, 'w', ['open', 'write', 'close']);
    const ops = this._ops;
    this._writev = typeof ops.writev === 'function' ? writevImpl : null;
    this.flush = options.flush;
    if (this.flush === undefined || this.flush === null) this.flush = false;
    else {
      if (typeof this.flush !== 'boolean') throw argType('options.flush', 'of type boolean', this.flush);
      if (typeof ops.fsync !== 'function') throw argType('options.fs.fsync', 'of type function', ops.fsync);
    }
    this.bytesWritten = 0;
    this._io = false;
    Writable.call(this, options);
    if (options.encoding) this.setDefaultEncoding(options.encoding);
  }
  Object.setPrototypeOf(WriteStream.prototype, Writable.prototype);
  Object.setPrototypeOf(WriteStream, Writable);
  Object.defineProperty(WriteStream.prototype, 'pending', { get() { return this.fd === null; }, configurable: true });
  WriteStream.prototype.open = function open() {
    this._ops.open(this.path, this.flags, this.mode, (err, fd) => {
      if (err) { this.emit('error', err); return; }
      this.fd = fd;
      this.emit('open', fd);
      this.emit('ready');
    });
  };
  const writeOpen = WriteStream.prototype.open;
  WriteStream.prototype._construct = function (cb) { construct(this, this.open !== writeOpen, cb); };
  // _write writes all of data, again after a short write or EAGAIN (a
  // non-blocking descriptor that was not ready, counted as nothing
  // written), as Node does; six writes in a row that write nothing fail.
  WriteStream.prototype._write = function (data, enc, cb) {
    this._io = true;
    writeAll(this, 'write', data, data.length, this.pos, (er) => {
      this._io = false;
      cb(er);
      if (this.destroyed) this.emit(kIoDone, er);
    });
    if (this.pos !== undefined) this.pos += data.length;
  };
  function writeAll(stream, op, data, size, pos, cb, retries = 0) {
    const done = (er, bytes, buffer) => {
      if (er && er.code === 'EAGAIN') { er = null; bytes = 0; }
      if (stream.destroyed || er) { cb(er || destroyedError(op)); return; }
      stream.bytesWritten += bytes;
      retries = bytes ? 0 : retries + 1;
      size -= bytes;
      if (pos !== undefined) pos += bytes;
      if (retries > 5) cb(systemError(op + ' failed'));
      else if (!size) cb();
      else if (op === 'write') writeAll(stream, op, (buffer || data).subarray(bytes), size, pos, cb, retries);
      else writeAll(stream, op, [Buffer.concat(buffer || data).subarray(bytes)], size, pos, cb, retries);
    };
    if (op === 'write') stream._ops.write(stream.fd, data, 0, size, pos === undefined ? null : pos, done);
    else stream._ops.writev(stream.fd, data, pos === undefined ? null : pos, done);
  }
  function writevImpl(chunks, cb) {
    const bufs = chunks.map((c) => c.chunk);
    let size = 0;
    for (const b of bufs) size += b.length;
    this._io = true;
    writeAll(this, 'writev', bufs, size, this.pos, (er) => {
      this._io = false;
      cb(er);
      if (this.destroyed) this.emit(kIoDone, er);
    });
    if (this.pos !== undefined) this.pos += size;
  }
  WriteStream.prototype._destroy = function (err, cb) { destroyStream(this, err, cb); };
  WriteStream.prototype.close = function close(cb) {
    if (cb) {
      if (this.closed) { process.nextTick(cb); return; }
      this.on('close', cb);
    }
    if (!this.autoClose) this.on('finish', this.destroy);
    this.end();
  };
  WriteStream.prototype.destroySoon = WriteStream.prototype.end;
  const own = (stream, type) => {
    if (!stream || !stream[kOwn]) throw nodeError(TypeError, 'ERR_INVALID_THIS', 'Value of "this" must be of type ' + type);
  };
  Object.defineProperty(WriteStream.prototype, 'autoClose', {
    get() { own(this, 'WriteStream'); return this._writableState.autoDestroy; },
    set(v) { own(this, 'WriteStream'); this._writableState.autoDestroy = v; },
    configurable: true,
  });
  Object.defineProperty(ReadStream.prototype, 'autoClose', {
    get() { own(this, 'ReadStream'); return this._readableState.autoDestroy; },
    set(v) { own(this, 'ReadStream'); this._readableState.autoDestroy = v; },
    configurable: true,
  });

  return { ReadStream, WriteStream };
};
