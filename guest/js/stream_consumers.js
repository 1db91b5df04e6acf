'use strict';
// node:stream/consumers — read a whole stream (Node stream, web stream or
// async iterable) as text, JSON, bytes, a Buffer or an ArrayBuffer.

const { Buffer } = require('node:buffer');

async function chunks(stream) {
  const out = [];
  const it = stream && stream[Symbol.asyncIterator || Symbol.for('Symbol.asyncIterator')];
  if (typeof it === 'function') {
    // (the shims are not lowered: no for await here)
    const iter = it.call(stream);
    for (;;) {
      const { value, done } = await iter.next();
      if (done) return out;
      out.push(value);
    }
  }
  if (stream && typeof stream.getReader === 'function') {
    const reader = stream.getReader();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return out;
      out.push(value);
    }
  }
  const e = new TypeError('The "stream" argument must be an instance of ReadableStream, Stream, or an async iterable.');
  e.code = 'ERR_INVALID_ARG_TYPE';
  throw e;
}
const toBytes = (c) => (typeof c === 'string' ? Buffer.from(c) : ArrayBuffer.isView(c) ? Buffer.from(c.buffer, c.byteOffset, c.byteLength) : Buffer.from(c));

async function buffer(stream) { return Buffer.concat((await chunks(stream)).map(toBytes)); }
async function text(stream) {
  const dec = new TextDecoder();
  let s = '';
  for (const c of await chunks(stream)) s += typeof c === 'string' ? c : dec.decode(toBytes(c), { stream: true });
  return s + dec.decode();
}
async function json(stream) { return JSON.parse(await text(stream)); }
async function arrayBuffer(stream) { const b = await buffer(stream); return b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength); }
async function blob(stream) {
  if (typeof Blob !== 'function') throw new Error('Blob is not available');
  return new Blob([await buffer(stream)]);
}

module.exports = { arrayBuffer, blob, buffer, json, text };
