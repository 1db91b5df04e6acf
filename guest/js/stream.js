'use strict';
// node:stream — the npm package readable-stream (Node's own streams,
// published for other runtimes; vendor_stream.js, bundled by
// npm/build.go). As in Node, the module is the legacy Stream class with
// the stream classes and helpers as properties.

// readable-stream keys disposables by Symbol.dispose, or a symbol of its
// own where the engine has none (goja): define the one the rest of the
// shims use (node:events' addAbortListener returns such a disposable)
// before it loads.
if (!Symbol.dispose) Object.defineProperty(Symbol, 'dispose', { value: Symbol.for('Symbol.dispose') });
if (!Symbol.asyncDispose) Object.defineProperty(Symbol, 'asyncDispose', { value: Symbol.for('Symbol.asyncDispose') });
const rs = require('nook:vendor_stream.js');
const Stream = rs.Stream;
for (const k of ['Readable', 'Writable', 'Duplex', 'Transform', 'PassThrough', 'pipeline', 'finished', 'compose',
  'addAbortSignal', 'destroy', 'isDisturbed', 'isErrored', 'isReadable', '_uint8ArrayToBuffer', '_isUint8Array']) {
  if (rs[k] !== undefined) Stream[k] = rs[k];
}
Stream.Stream = Stream;

// Node 20 decides write()'s answer after _write: a chunk the sink took
// synchronously leaves no backpressure (no false, no 'drain'), where
// readable-stream decides before it.
for (const P of [rs.Writable.prototype, rs.Duplex.prototype]) {
  const orig = P.write;
  P.write = function write(chunk, encoding, cb) {
    const st = this._writableState;
    const before = st ? st.needDrain : false;
    const r = orig.call(this, chunk, encoding, cb);
    if (r === false && st && !st.errored && !st.destroyed && !st.ending && (st.length < st.highWaterMark || st.length === 0)) {
      st.needDrain = before;
      return true;
    }
    return r;
  };
}
// Node 25's streams take any ArrayBufferView (a TypedArray, a DataView)
// where readable-stream 4.8 takes Uint8Arrays only: outside object mode
// it becomes a Buffer over the same bytes before the package sees it, and
// write() names the types Node names when a chunk is none of them.
const asBuffer = (chunk) => (ArrayBuffer.isView(chunk) && !(chunk instanceof Uint8Array)
  ? Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength) : chunk);
for (const P of [rs.Writable.prototype, rs.Duplex.prototype]) {
  const orig = P.write;
  P.write = function write(chunk, encoding, cb) {
    const st = this._writableState;
    if (st && !st.objectMode) {
      if (chunk !== null && typeof chunk !== 'string' && !ArrayBuffer.isView(chunk)) {
        throw require('nook:errors.js').makeError('ERR_INVALID_ARG_TYPE', 'chunk', ['string', 'Buffer', 'TypedArray', 'DataView'], chunk);
      }
      chunk = asBuffer(chunk);
    }
    return orig.call(this, chunk, encoding, cb);
  };
  const origEnd = P.end;
  P.end = function end(chunk, encoding, cb) {
    const st = this._writableState;
    return origEnd.call(this, st && !st.objectMode ? asBuffer(chunk) : chunk, encoding, cb);
  };
}
for (const P of [rs.Readable.prototype, rs.Duplex.prototype]) {
  for (const name of ['push', 'unshift']) {
    if (!Object.prototype.hasOwnProperty.call(P, name)) continue; // inherited: wrapped once
    const orig = P[name];
    P[name] = { [name](chunk, encoding) {
      const st = this._readableState;
      return orig.call(this, st && !st.objectMode ? asBuffer(chunk) : chunk, encoding);
    } }[name];
  }
}
if (Stream.promises !== rs.promises) Object.defineProperty(Stream, "promises", { value: rs.promises, configurable: true, enumerable: true });
// The package's own defaults (16 KiB, 16 objects, as Node 20), which the
// streams it builds read.
if (typeof Stream.getDefaultHighWaterMark !== 'function') {
  const hwm = { object: 16, bytes: 16384 };
  Stream.getDefaultHighWaterMark = (objectMode) => (objectMode ? hwm.object : hwm.bytes);
  Stream.setDefaultHighWaterMark = (objectMode, n) => { if (objectMode) hwm.object = n; else hwm.bytes = n; };
}
// Readable.toWeb and Readable.fromWeb, as Node's (readable-stream leaves
// them to Node's internals): a Readable as a WHATWG ReadableStream that
// pulls with backpressure, and a ReadableStream read as a Readable.
rs.Readable.toWeb = function toWeb(readable) {
  const { ReadableStream } = require('node:stream/web');
  const objectMode = readable.readableObjectMode;
  return new ReadableStream({
    start(c) {
      readable.on('data', (chunk) => {
        c.enqueue(!objectMode && typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
        if (c.desiredSize <= 0) readable.pause();
      });
      readable.once('end', () => c.close());
      readable.once('error', (e) => c.error(e));
      readable.pause();
    },
    pull() { readable.resume(); },
    cancel(reason) { readable.destroy(reason); },
  }, { highWaterMark: readable.readableHighWaterMark });
};
rs.Readable.fromWeb = function fromWeb(stream, options = {}) {
  const reader = stream.getReader();
  return new rs.Readable({
    objectMode: !!options.objectMode,
    highWaterMark: options.highWaterMark,
    encoding: options.encoding,
    signal: options.signal,
    read() {
      reader.read().then(({ value, done }) => (done ? this.push(null) : this.push(value)), (e) => this.destroy(e));
    },
    destroy(err, cb) { reader.cancel(err).then(() => cb(err), (e) => cb(e || err)); },
  });
};
Stream.isWritable = (s) => !!(s && s.writable && !s.destroyed && !s.writableEnded);
Stream.duplexPair = undefined;
module.exports = Stream;
