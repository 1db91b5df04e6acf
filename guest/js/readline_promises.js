'use strict';
// node:readline/promises — the same Interface, with question() returning
// a promise.

const readline = require('node:readline');

class Interface extends readline.Interface {
  question(query, opts) {
    return new Promise((resolve, reject) => {
      const signal = opts && opts.signal;
      if (signal && signal.aborted) {
        const e = new Error('The operation was aborted');
        e.name = 'AbortError';
        e.code = 'ABORT_ERR';
        reject(e);
        return;
      }
      let answer = resolve;
      if (signal) {
        const onAbort = () => {
          const i = this._questions.indexOf(answer);
          if (i !== -1) this._questions.splice(i, 1);
          const e = new Error('The operation was aborted');
          e.name = 'AbortError';
          e.code = 'ABORT_ERR';
          e.cause = signal.reason;
          reject(e);
        };
        signal.addEventListener('abort', onAbort, { once: true });
        answer = (a) => { signal.removeEventListener('abort', onAbort); resolve(a); };
      }
      try { readline.Interface.prototype.question.call(this, query, answer); } catch (e) { reject(e); }
    });
  }
}

module.exports = {
  Interface,
  createInterface: (input, output, completer, terminal) => new Interface(input, output, completer, terminal),
  Readline: class Readline {
    constructor(stream) { this.stream = stream; }
    clearLine() { return this; } clearScreenDown() { return this; } cursorTo() { return this; } moveCursor() { return this; }
    commit() { return Promise.resolve(); } rollback() { return this; }
  },
};
