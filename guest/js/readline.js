'use strict';
// node:readline — createInterface over any readable (a node:stream
// Readable, fs.createReadStream, process.stdin): 'line' events, 'close' at
// the end of input, question(), and async iteration over the lines.

const EventEmitter = require('node:events');
const { StringDecoder } = require('node:string_decoder');

function Interface(input, output, completer, terminal) {
  if (!(this instanceof Interface)) return new Interface(input, output, completer, terminal);
  let opts = input;
  if (!(input && typeof input === 'object' && (input.input !== undefined || input.output !== undefined) && typeof input.on !== 'function')) {
    opts = { input, output, completer, terminal };
  }
  EventEmitter.call(this);
  this.input = opts.input;
  this.output = opts.output;
  this.terminal = !!opts.terminal;
  this.line = '';
  this.cursor = 0;
  this.history = [];
  this.closed = false;
  this._prompt = opts.prompt === undefined ? '> ' : String(opts.prompt);
  this._questions = [];
  this._paused = false;
  this._buf = '';
  this._cr = false;
  // A terminal interface decodes through a decoder kept on the input, as
  // Node's emitKeypressEvents does, so a character split between two
  // interfaces over one stream survives the first one's close.
  const kDecoder = Symbol.for('nook.readline.decoder');
  if (this.terminal && opts.input && typeof opts.input === 'object') {
    if (!opts.input[kDecoder]) Object.defineProperty(opts.input, kDecoder, { value: new StringDecoder('utf8'), configurable: true });
    this._decoder = opts.input[kDecoder];
  } else {
    this._decoder = new StringDecoder('utf8');
  }
  const input_ = this.input;
  if (input_ && typeof input_.on === 'function') {
    this._onData = (chunk) => this._feed(typeof chunk === 'string' ? chunk : this._decoder.write(chunk));
    this._onEnd = () => {
      const rest = this._decoder.end();
      if (rest) this._feed(rest);
      if (this._buf.length > 0) { const l = this._buf; this._buf = ''; this._line(l); }
      this.close();
    };
    // An error of the input is the interface's (and ends its iterator).
    this._onError = (err) => this.emit('error', err);
    input_.on('data', this._onData);
    input_.on('end', this._onEnd);
    input_.on('error', this._onError);
    if (typeof input_.resume === 'function') input_.resume();
  }
  if (opts.signal) {
    if (opts.signal.aborted) process.nextTick(() => this.close());
    else opts.signal.addEventListener('abort', () => this.close(), { once: true });
  }
}
Object.setPrototypeOf(Interface.prototype, EventEmitter.prototype);

Interface.prototype._feed = function (s) {
  if (this.closed) return;
  let buf = this._buf + s;
  let start = 0;
  for (let i = 0; i < buf.length; i++) {
    const c = buf[i];
    if (c === '\n' && this._cr && i === start) { this._cr = false; start = i + 1; continue; }
    this._cr = false;
    if (c === '\n' || c === '\r' || c === '\u2028' || c === '\u2029') {
      // As in Node, the rest of a chunk is still emitted after close().
      this._line(buf.slice(start, i));
      if (c === '\r') this._cr = true;
      start = i + 1;
    }
  }
  this._buf = buf.slice(start);
};

Interface.prototype._line = function (l) {
  if (this._questions.length) {
    const q = this._questions.shift();
    q(l);
    return;
  }
  this.emit('line', l);
};

Interface.prototype.setPrompt = function (p) { this._prompt = String(p); };
Interface.prototype.getPrompt = function () { return this._prompt; };
Interface.prototype.prompt = function () { if (this.output && this.output.write) this.output.write(this._prompt); };
Interface.prototype.write = function (d) { if (this.closed) return; if (typeof d === 'string') this._feed(d); };
Interface.prototype.question = function (query, opts, cb) {
  if (typeof opts === 'function') { cb = opts; opts = undefined; }
  if (this.closed) {
    const e = new Error('readline was closed');
    e.code = 'ERR_USE_AFTER_CLOSE';
    throw e;
  }
  if (this.output && this.output.write) this.output.write(String(query));
  if (typeof cb === 'function') this._questions.push(cb);
};
Interface.prototype.pause = function () { if (!this._paused) { this._paused = true; if (this.input && this.input.pause) this.input.pause(); this.emit('pause'); } return this; };
Interface.prototype.resume = function () { if (this._paused) { this._paused = false; if (this.input && this.input.resume) this.input.resume(); this.emit('resume'); } return this; };
Interface.prototype.close = function () {
  if (this.closed) return;
  this.pause();
  this.closed = true;
  if (this.input && typeof this.input.removeListener === 'function') {
    this.input.removeListener('data', this._onData);
    this.input.removeListener('end', this._onEnd);
    this.input.removeListener('error', this._onError);
  }
  this.emit('close');
};
Interface.prototype.getCursorPos = function () { return { rows: 0, cols: this.cursor }; };
Interface.prototype[Symbol.asyncIterator || Symbol.for('Symbol.asyncIterator')] = function () {
  // One iterator per interface, as Node's: a loop nested in another over
  // the same interface continues where the outer one is.
  if (this._iterator) return this._iterator;
  const lines = [];
  const waiting = [];
  let done = this.closed;
  let failed = null;
  this.on('line', (l) => { if (waiting.length) waiting.shift().resolve({ value: l, done: false }); else lines.push(l); });
  this.on('close', () => { done = true; for (const w of waiting.splice(0)) w.resolve({ value: undefined, done: true }); });
  this.on('error', (err) => {
    if (done) return;
    done = true;
    if (waiting.length) { for (const w of waiting.splice(0)) w.reject(err); } else failed = err;
  });
  const rl = this;
  const aIter = Symbol.asyncIterator || Symbol.for('Symbol.asyncIterator');
  return (this._iterator = {
    next() {
      if (lines.length) return Promise.resolve({ value: lines.shift(), done: false });
      if (failed) { const e = failed; failed = null; return Promise.reject(e); }
      if (done) return Promise.resolve({ value: undefined, done: true });
      return new Promise((resolve, reject) => waiting.push({ resolve, reject }));
    },
    return() { rl.close(); return Promise.resolve({ value: undefined, done: true }); },
    [aIter]() { return this; },
  });
};
Interface.prototype[Symbol.dispose || Symbol.for('Symbol.dispose')] = function () { this.close(); };

const yes = (s, a, b, cb) => { const f = [a, b, cb].find((x) => typeof x === 'function'); if (f) process.nextTick(f); return true; };

module.exports = {
  Interface,
  createInterface: (input, output, completer, terminal) => new Interface(input, output, completer, terminal),
  clearLine: yes, clearScreenDown: yes, cursorTo: yes, moveCursor: yes,
  emitKeypressEvents() {},
};
