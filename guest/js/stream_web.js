'use strict';
// node:stream/web — the WHATWG streams, from the npm package
// web-streams-polyfill (vendor_webstreams.js, bundled by npm/build.go; goja
// has none of its own). The same classes are the globals ReadableStream,
// WritableStream, TransformStream, ... (built on first use).

const ws = require('nook:vendor_webstreams.js');
const names = ['ReadableStream', 'ReadableStreamDefaultReader', 'ReadableStreamBYOBReader', 'ReadableStreamBYOBRequest',
  'ReadableByteStreamController', 'ReadableStreamDefaultController', 'TransformStream', 'TransformStreamDefaultController',
  'WritableStream', 'WritableStreamDefaultWriter', 'WritableStreamDefaultController', 'ByteLengthQueuingStrategy',
  'CountQueuingStrategy'];
const out = {};
for (const n of names) if (ws[n] !== undefined) out[n] = ws[n];

// TextEncoderStream and TextDecoderStream, over the global TextEncoder and
// TextDecoder, as Node has them.
class TextEncoderStream {
  constructor() {
    const enc = new TextEncoder();
    const t = new out.TransformStream({
      transform(chunk, c) { const b = enc.encode(String(chunk)); if (b.length) c.enqueue(b); },
    });
    this.readable = t.readable;
    this.writable = t.writable;
  }
  get encoding() { return 'utf-8'; }
}
class TextDecoderStream {
  constructor(label = 'utf-8', options = {}) {
    const dec = new TextDecoder(label, options);
    const t = new out.TransformStream({
      transform(chunk, c) { const s = dec.decode(chunk, { stream: true }); if (s) c.enqueue(s); },
      flush(c) { const s = dec.decode(); if (s) c.enqueue(s); },
    });
    this.readable = t.readable;
    this.writable = t.writable;
    this.encoding = dec.encoding;
  }
}
out.TextEncoderStream = TextEncoderStream;
out.TextDecoderStream = TextDecoderStream;
module.exports = out;
