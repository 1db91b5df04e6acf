'use strict';
// console: log/info/debug to stdout, warn/error/trace to stderr.

let util;
const inspectFn = (v) => (util || (util = require('node:util'))).inspect(v);

// table lays data out as Node's console.table does: a box-drawn table
// with an index column, one column per key (or the given properties), a
// Values column for primitive rows; Maps and Sets by iteration index.
function table(data, properties) {
  const u = util || (util = require('node:util'));
  const width = u._stringWidth;
  const show = (v) => {
    const depth = v !== null && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length > 2 ? -1 : 0;
    return u.inspect(v, { depth, maxArrayLength: 3, breakLength: Infinity });
  };
  const indexes = (n) => Array.from({ length: n }, (_, i) => show(i));
  const render = (head, columns) => {
    const widths = head.map((h) => width(h));
    const longest = Math.max(...columns.map((c) => c.length));
    const rows = [];
    for (let i = 0; i < head.length; i++) {
      for (let j = 0; j < longest; j++) {
        if (rows[j] === undefined) rows[j] = [];
        const v = rows[j][i] = Object.prototype.hasOwnProperty.call(columns[i], j) ? columns[i][j] : '';
        widths[i] = Math.max(widths[i] || 0, width(v));
      }
    }
    const row = (cells) => '│ ' + cells.map((c, i) => c + ' '.repeat(widths[i] - width(c))).join(' │ ') + ' │';
    const line = (l, m, r) => l + widths.map((w) => '─'.repeat(w + 2)).join(m) + r;
    let s = line('┌', '┬', '┐') + '\n' + row(head) + '\n' + line('├', '┼', '┤') + '\n';
    for (const r of rows) s += row(r) + '\n';
    return s + line('└', '┴', '┘');
  };
  const tag = Object.prototype.toString.call(data);
  if (tag === '[object Map]' || tag === '[object Map Iterator]') {
    const keys = [], values = [];
    for (const [k, v] of data) { keys.push(show(k)); values.push(show(v)); }
    return render(['(iteration index)', 'Key', 'Values'], [indexes(keys.length), keys, values]);
  }
  if (tag === '[object Set]' || tag === '[object Set Iterator]') {
    const values = [];
    for (const v of data) values.push(show(v));
    return render(['(iteration index)', 'Values'], [indexes(values.length), values]);
  }
  const map = Object.create(null);
  let hasPrimitives = false;
  const valuesColumn = [];
  const index = Object.keys(data);
  for (let i = 0; i < index.length; i++) {
    const item = data[index[i]];
    const primitive = item === null || (typeof item !== 'function' && typeof item !== 'object');
    if (properties === undefined && primitive) {
      hasPrimitives = true;
      valuesColumn[i] = show(item);
    } else {
      for (const key of properties || Object.keys(item)) {
        if (map[key] === undefined) map[key] = [];
        map[key][i] = (primitive && properties) || !Object.prototype.hasOwnProperty.call(item, key) ? '' : show(item[key]);
      }
    }
  }
  const head = Object.keys(map), columns = Object.values(map);
  if (hasPrimitives) { head.push('Values'); columns.push(valuesColumn); }
  head.unshift('(index)');
  columns.unshift(index);
  return render(head, columns);
}

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
    dir: (v, options) => {
      const u = util || (util = require('node:util'));
      out(1)(u.inspect(v, { customInspect: false, ...options }));
    },
    table: (data, properties) => {
      if (data === null || typeof data !== 'object') { out(1)(data); return; }
      out(1)(table(data, properties));
    },
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
