'use strict';
// node:stream — the npm package readable-stream (Node's own streams,
// published for other runtimes; vendor_stream.js, bundled by
// npm/build.go). As in Node, the module is the legacy Stream class with
// the stream classes and helpers as properties.

const rs = require('nook:vendor_stream.js');
const Stream = rs.Stream;
for (const k of ['Readable', 'Writable', 'Duplex', 'Transform', 'PassThrough', 'pipeline', 'finished', 'compose',
  'addAbortSignal', 'destroy', 'isDisturbed', 'isErrored', 'isReadable', '_uint8ArrayToBuffer', '_isUint8Array']) {
  if (rs[k] !== undefined) Stream[k] = rs[k];
}
Stream.Stream = Stream;
if (Stream.promises !== rs.promises) Object.defineProperty(Stream, "promises", { value: rs.promises, configurable: true, enumerable: true });
let hwm = { object: 16, bytes: 65536 };
Stream.getDefaultHighWaterMark = (objectMode) => (objectMode ? hwm.object : hwm.bytes);
Stream.setDefaultHighWaterMark = (objectMode, n) => { if (objectMode) hwm.object = n; else hwm.bytes = n; };
Stream.isWritable = (s) => !!(s && s.writable && !s.destroyed && !s.writableEnded);
Stream.duplexPair = undefined;
module.exports = Stream;
