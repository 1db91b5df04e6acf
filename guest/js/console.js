'use strict';
// console: log/info/debug to stdout, warn/error/trace to stderr.

let util;
const inspectFn = (v) => (util || (util = require('node:util'))).inspect(v);

function makeConsole() {
  const simple = (v) => typeof v === 'string' || (typeof v === 'number' && !Object.is(v, -0)) || typeof v === 'boolean' || v == null;
  const format = (args) => {
    if (args.length === 1 && typeof args[0] === 'string') return args[0];
    let all = true;
    for (const a of args) if (!simple(a) || (typeof a === 'string' && a.includes('%'))) { all = false; break; }
    if (all) return args.map((a) => (a === null ? 'null' : String(a))).join(' ');
    return (util || (util = require('node:util'))).format(...args);
  };
  let indent = '';
  const out = (stream) => (...args) => {
    let s = format(args);
    if (indent) s = indent + s.split('\n').join('\n' + indent);
    host.write(stream, s + '\n');
  };
  const counts = new Map(), times = new Map();
  const console = {
    log: out(1), info: out(1), debug: out(1), warn: out(2), error: out(2),
    trace: (...args) => {
      const e = new Error(format(args));
      host.write(2, 'Trace: ' + format(args) + host.userFrames(String(e.stack)) + '\n');
    },
    dir: (v) => host.write(1, indent + inspectFn(v) + '\n'),
    table: (v) => out(1)(v),
    assert: (ok, ...args) => { if (!ok) out(2)('Assertion failed' + (args.length ? ': ' + format(args) : '')); },
    count: (label = 'default') => { const n = (counts.get(label) || 0) + 1; counts.set(label, n); out(1)(label + ': ' + n); },
    countReset: (label = 'default') => counts.delete(label),
    time: (label = 'default') => times.set(label, host.hrnow()),
    timeEnd: (label = 'default') => {
      const t = times.get(label);
      if (t !== undefined) { times.delete(label); out(1)(label + ': ' + ((host.hrnow() - t) / 1e6).toFixed(3) + 'ms'); }
    },
    timeLog: (label = 'default', ...args) => {
      const t = times.get(label);
      if (t !== undefined) out(1)(label + ': ' + ((host.hrnow() - t) / 1e6).toFixed(3) + 'ms', ...args);
    },
    group: (...args) => { if (args.length) out(1)(...args); indent += '  '; },
    groupCollapsed: (...args) => { if (args.length) out(1)(...args); indent += '  '; },
    groupEnd: () => { indent = indent.slice(2); },
  };
  return console;


}

module.exports = makeConsole();
