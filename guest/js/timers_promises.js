'use strict';
// node:timers/promises

const abortError = (signal) => {
  const e = new Error('The operation was aborted');
  e.name = 'AbortError';
  e.code = 'ABORT_ERR';
  e.cause = signal.reason;
  return e;
};
function delay(make) {
  return (ms, value, opts = {}) => new Promise((resolve, reject) => {
    const signal = opts && opts.signal;
    if (signal && signal.aborted) return reject(abortError(signal));
    const t = make(() => resolve(value), ms);
    if (opts && opts.ref === false) t.unref();
    if (signal) signal.addEventListener('abort', () => { clearTimeout(t); reject(abortError(signal)); }, { once: true });
  });
}
module.exports = {
  setTimeout: delay((fn, ms) => setTimeout(fn, ms)),
  setImmediate: (value, opts) => delay((fn) => setImmediate(fn))(0, value, opts),
  scheduler: { wait: (ms, opts) => delay((fn, t) => setTimeout(fn, t))(ms, undefined, opts), yield: () => new Promise((r) => setImmediate(r)) },
};
