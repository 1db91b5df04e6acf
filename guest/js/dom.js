'use strict';
// DOMException, Blob and File, the globals (and node:buffer's Blob and
// File) as Node has them. A Blob holds its bytes in one Uint8Array, so
// its size is bounded by MaxAllocBytes like any typed array's.

const { makeError, validateObject } = require('nook:errors.js');

// The legacy codes of the DOMException names that have one.
const legacyCodes = [
  ['IndexSizeError', 'INDEX_SIZE_ERR'], ['DOMStringSizeError', 'DOMSTRING_SIZE_ERR'],
  ['HierarchyRequestError', 'HIERARCHY_REQUEST_ERR'], ['WrongDocumentError', 'WRONG_DOCUMENT_ERR'],
  ['InvalidCharacterError', 'INVALID_CHARACTER_ERR'], ['NoDataAllowedError', 'NO_DATA_ALLOWED_ERR'],
  ['NoModificationAllowedError', 'NO_MODIFICATION_ALLOWED_ERR'], ['NotFoundError', 'NOT_FOUND_ERR'],
  ['NotSupportedError', 'NOT_SUPPORTED_ERR'], ['InUseAttributeError', 'INUSE_ATTRIBUTE_ERR'],
  ['InvalidStateError', 'INVALID_STATE_ERR'], ['SyntaxError', 'SYNTAX_ERR'],
  ['InvalidModificationError', 'INVALID_MODIFICATION_ERR'], ['NamespaceError', 'NAMESPACE_ERR'],
  ['InvalidAccessError', 'INVALID_ACCESS_ERR'], ['ValidationError', 'VALIDATION_ERR'],
  ['TypeMismatchError', 'TYPE_MISMATCH_ERR'], ['SecurityError', 'SECURITY_ERR'],
  ['NetworkError', 'NETWORK_ERR'], ['AbortError', 'ABORT_ERR'], ['URLMismatchError', 'URL_MISMATCH_ERR'],
  ['QuotaExceededError', 'QUOTA_EXCEEDED_ERR'], ['TimeoutError', 'TIMEOUT_ERR'],
  ['InvalidNodeTypeError', 'INVALID_NODE_TYPE_ERR'], ['DataCloneError', 'DATA_CLONE_ERR'],
];
const codeOf = new Map(legacyCodes.map(([n], i) => [n, i + 1]));

const internals = new WeakMap(); // DOMException → { name, message }

function domInternals(self) {
  const i = internals.get(self);
  if (!i) throw makeError('ERR_INVALID_THIS', 'DOMException');
  return i;
}

class DOMException {
  constructor(message = '', options = 'Error') {
    const stack = new Error().stack;
    let name;
    if (options !== null && typeof options === 'object') {
      name = 'name' in options ? `${options.name}` : 'Error';
      if ('cause' in options) {
        Object.defineProperty(this, 'cause', { value: options.cause, writable: true, configurable: true, enumerable: false });
      }
    } else {
      name = `${options}`;
    }
    internals.set(this, { name, message: `${message}` });
    if (typeof stack === 'string') {
      const frames = stack.slice(stack.indexOf('\n'));
      Object.defineProperty(this, 'stack', {
        value: `${name}: ${message}${frames}`, writable: true, configurable: true, enumerable: false,
      });
    }
  }
  get name() { return domInternals(this).name; }
  get message() { return domInternals(this).message; }
  get code() { return codeOf.get(domInternals(this).name) || 0; }
}
Object.setPrototypeOf(DOMException.prototype, Error.prototype);
Object.defineProperty(DOMException.prototype, Symbol.toStringTag, { value: 'DOMException', configurable: true });
for (const k of ['name', 'message', 'code']) {
  const d = Object.getOwnPropertyDescriptor(DOMException.prototype, k);
  d.enumerable = true;
  Object.defineProperty(DOMException.prototype, k, d);
}
legacyCodes.forEach(([, c], i) => {
  const d = { value: i + 1, enumerable: true, writable: false, configurable: false };
  Object.defineProperty(DOMException, c, d);
  Object.defineProperty(DOMException.prototype, c, d);
});

// Blob.

const blobBytes = new WeakMap(); // Blob → { bytes: Uint8Array, type }
let encoder;
const utf8 = (s) => (encoder || (encoder = new TextEncoder())).encode(s);

function blobPart(src, endings) {
  if (typeof src === 'string') return utf8(endings === 'native' ? src.replace(/\r?\n/g, '\n') : src);
  if (src instanceof ArrayBuffer) return new Uint8Array(src.slice(0));
  if (ArrayBuffer.isView(src)) return new Uint8Array(src.buffer.slice(src.byteOffset, src.byteOffset + src.byteLength));
  const b = blobBytes.get(src);
  if (b) return b.bytes;
  return utf8(`${src}`);
}

// blobType is a type as Blob keeps it: lower case, or '' when it has a
// character outside U+0020..U+007E.
function blobType(type) {
  type = `${type}`;
  return /[^\u0020-\u007e]/.test(type) ? '' : type.toLowerCase();
}

class Blob {
  constructor(sources = [], options) {
    if (sources === null || typeof sources !== 'object' || typeof sources[Symbol.iterator] !== 'function') {
      throw makeError('ERR_INVALID_ARG_TYPE', 'sources', 'a sequence', sources);
    }
    if (options !== undefined && options !== null) validateObject(options, 'options', { allowFunction: true });
    const { type = '', endings = 'transparent' } = options || {};
    if (endings !== 'transparent' && endings !== 'native') {
      throw makeError('ERR_INVALID_ARG_VALUE', 'options.endings', endings);
    }
    const parts = [];
    let total = 0;
    for (const s of sources) {
      const p = blobPart(s, `${endings}`);
      parts.push(p);
      total += p.byteLength;
    }
    const bytes = new Uint8Array(total);
    let at = 0;
    for (const p of parts) { bytes.set(p, at); at += p.byteLength; }
    blobBytes.set(this, { bytes, type: blobType(type) });
  }
  get size() { return own(this).bytes.byteLength; }
  get type() { return own(this).type; }
  slice(start = 0, end, contentType = '') {
    const { bytes } = own(this);
    const n = bytes.byteLength;
    const rel = (v, d) => {
      if (v === undefined) return d;
      v = Math.trunc(Number(v)) || 0;
      return v < 0 ? Math.max(n + v, 0) : Math.min(v, n);
    };
    const s = rel(start, 0), e = rel(end, n);
    const out = new Blob([]);
    blobBytes.set(out, { bytes: bytes.slice(s, Math.max(s, e)), type: blobType(contentType) });
    return out;
  }
  arrayBuffer() {
    try {
      const { bytes } = own(this);
      return Promise.resolve(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
    } catch (e) { return Promise.reject(e); }
  }
  bytes() {
    try { return Promise.resolve(own(this).bytes.slice()); } catch (e) { return Promise.reject(e); }
  }
  text() {
    try { return Promise.resolve(new TextDecoder().decode(own(this).bytes)); } catch (e) { return Promise.reject(e); }
  }
  stream() {
    const { bytes } = own(this);
    const { ReadableStream } = require('node:stream/web');
    const chunk = 65536;
    let at = 0;
    return new ReadableStream({
      type: 'bytes',
      pull(c) {
        if (at >= bytes.byteLength) { c.close(); return; }
        c.enqueue(bytes.slice(at, at + chunk));
        at += chunk;
      },
    });
  }
}
Object.defineProperty(Blob.prototype, Symbol.toStringTag, { value: 'Blob', configurable: true });

function own(self) {
  const b = blobBytes.get(self);
  if (!b) throw makeError('ERR_INVALID_THIS', 'Blob');
  return b;
}

const fileMeta = new WeakMap(); // File → { name, lastModified }

class File extends Blob {
  constructor(fileBits, fileName, options = {}) {
    if (arguments.length < 2) throw makeError('ERR_MISSING_ARGS', 'fileBits', 'fileName');
    super(fileBits, options);
    const { lastModified } = options !== null && typeof options === 'object' ? options : {};
    let lm = Date.now();
    if (lastModified !== undefined) {
      lm = Number(lastModified);
      lm = Number.isFinite(lm) ? Math.trunc(lm) : 0;
    }
    fileMeta.set(this, { name: `${fileName}`, lastModified: lm });
  }
  get name() {
    const m = fileMeta.get(this);
    if (!m) throw makeError('ERR_INVALID_THIS', 'File');
    return m.name;
  }
  get lastModified() {
    const m = fileMeta.get(this);
    if (!m) throw makeError('ERR_INVALID_THIS', 'File');
    return m.lastModified;
  }
}
Object.defineProperty(File.prototype, Symbol.toStringTag, { value: 'File', configurable: true });

// isBlob says whether v is a Blob made here.
const isBlob = (v) => blobBytes.has(v);
// isDOMException says whether v is a DOMException made here.
const isDOMException = (v) => internals.has(v);

module.exports = { DOMException, Blob, File, isBlob, isDOMException };
