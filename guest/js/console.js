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
  if (tag === '[object Map Iterator]') {
    // goja cannot preview an iterator as V8 does (Node's table does not
    // consume it): this reads it, and takes it for entries() when every
    // item is a [key, value] pair, else for keys() or values().
    const items = [...data];
    if (items.length > 0 && items.every((x) => Array.isArray(x) && x.length === 2)) {
      return render(['(iteration index)', 'Key', 'Values'], [indexes(items.length), items.map((x) => show(x[0])), items.map((x) => show(x[1]))]);
    }
    return render(['(iteration index)', 'Values'], [indexes(items.length), items.map(show)]);
  }
  if (tag === '[object Map]') {
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

// makeConsole builds the methods of a console over write(fd, text)
// (fd 1 stdout, 2 stderr): groupIndentation spaces per group level,
// inspectOptions for %o-less formatting of objects (or a Map from each
// stream to its options; streams maps fd to the stream).
function makeConsole(write, groupIndentation = 2, allOptions, streams) {
  let inspectOptions = allOptions;
  const optionsFor = (fd) => {
    inspectOptions = allOptions instanceof Map ? allOptions.get(streams[fd]) : allOptions;
  };
  const simple = (v) => typeof v === 'string' || (typeof v === 'number' && !Object.is(v, -0)) || typeof v === 'boolean' || v == null;
  const format = (args) => {
    if (args.length === 1 && typeof args[0] === 'string') return args[0];
    let all = true;
    for (const a of args) if (!simple(a) || (typeof a === 'string' && a.includes('%'))) { all = false; break; }
    if (all && !(inspectOptions && inspectOptions.colors)) return args.map((a) => (a === null ? 'null' : String(a))).join(' ');
    const u = util || (util = require('node:util'));
    return inspectOptions ? u.formatWithOptions(inspectOptions, ...args) : u.format(...args);
  };
  let indent = '';
  const out = (stream) => (...args) => {
    optionsFor(stream);
    let s = format(args);
    if (indent) s = indent + s.split('\n').join('\n' + indent);
    write(stream, s + '\n');
  };
  const warn = (msg) => {
    if (globalThis.process && typeof process.emitWarning === 'function') process.emitWarning(msg);
  };
  const counts = new Map(), times = new Map();
  const elapsed = (t) => {
    const ms = (host.hrnow() - t) / 1e6;
    if (ms >= 60000) {
      const m = Math.floor(ms / 60000), sec = (ms - m * 60000) / 1000;
      if (m >= 60) {
        const h = Math.floor(m / 60);
        return `${h}:${String(m - h * 60).padStart(2, '0')}:${sec.toFixed(3).padStart(6, '0')} (h:mm:ss.mmm)`;
      }
      return `${m}:${sec.toFixed(3).padStart(6, '0')} (m:ss.mmm)`;
    }
    if (ms >= 1000) return (ms / 1000).toFixed(3) + 's';
    return ms.toFixed(3) + 'ms';
  };
  const console = {
    log: out(1), info: out(1), debug: out(1), dirxml: out(1), warn: out(2), error: out(2),
    trace: (...args) => {
      optionsFor(2);
      const e = new Error(format(args));
      write(2, indent + 'Trace' + (args.length ? ': ' + format(args) : '') + host.userFrames(String(e.stack)) + '\n');
    },
    dir: (v, options) => {
      const u = util || (util = require('node:util'));
      optionsFor(1);
      out(1)(u.inspect(v, { customInspect: false, ...inspectOptions, ...options }));
    },
    table: (data, properties) => {
      if (properties !== undefined && !Array.isArray(properties)) {
        throw require('nook:errors.js').makeError('ERR_INVALID_ARG_TYPE', 'properties', 'Array', properties);
      }
      if (data === null || typeof data !== 'object') { out(1)(data); return; }
      out(1)(table(data, properties));
    },
    assert: (ok, ...args) => {
      if (ok) return;
      if (typeof args[0] === 'string') args[0] = 'Assertion failed: ' + args[0];
      else args.unshift('Assertion failed');
      out(2)(...args);
    },
    count: (label = 'default') => {
      label = `${label}`;
      const n = (counts.get(label) || 0) + 1;
      counts.set(label, n);
      out(1)(label + ': ' + n);
    },
    countReset: (label = 'default') => {
      label = `${label}`;
      if (!counts.has(label)) { warn(`Count for '${label}' does not exist`); return; }
      counts.delete(label);
    },
    time: (label = 'default') => {
      label = `${label}`;
      if (times.has(label)) { warn(`Label '${label}' already exists for console.time()`); return; }
      times.set(label, host.hrnow());
    },
    timeEnd: (label = 'default') => {
      label = `${label}`;
      const t = times.get(label);
      if (t === undefined) { warn(`No such label '${label}' for console.timeEnd()`); return; }
      times.delete(label);
      out(1)(label + ': ' + elapsed(t));
    },
    timeLog: (label = 'default', ...args) => {
      label = `${label}`;
      const t = times.get(label);
      if (t === undefined) { warn(`No such label '${label}' for console.timeLog()`); return; }
      out(1)(label + ': ' + elapsed(t), ...args);
    },
    group: (...args) => { if (args.length) out(1)(...args); indent += ' '.repeat(groupIndentation); },
    groupEnd: () => { indent = indent.slice(0, Math.max(0, indent.length - groupIndentation)); },
    clear: () => {
      const so = globalThis.process && process.stdout;
      if (so && so.isTTY && (!process.env || process.env.TERM !== 'dumb')) write(1, '\u001b[1;1H\u001b[0J');
    },
    profile: () => {}, profileEnd: () => {}, timeStamp: () => {},
    context: () => { throw new Error('console.context() is not supported in this sandbox'); },
  };
  for (const k of Object.keys(console)) Object.defineProperty(console[k], 'name', { value: k, configurable: true });
  console.groupCollapsed = console.group;
  return console;
}

function streamError(name) {
  const e = new TypeError(`The "${name}" argument must be an instance of Stream Writable.`);
  e.code = 'ERR_CONSOLE_WRITABLE_STREAM';
  return e;
}

// Console is node:console's class: the methods of a console writing to
// the stdout and stderr streams given (stderr defaults to stdout), as
// own bound properties. Write errors are ignored when ignoreErrors (the
// default).
function Console(options, stderr, ignoreErrors) {
  if (!new.target) return Reflect.construct(Console, arguments);
  if (!options || typeof options.write === 'function') {
    options = { stdout: options, stderr, ignoreErrors };
  }
  const { stdout, groupIndentation = 2, inspectOptions } = options;
  const errStream = options.stderr || stdout;
  const ignore = options.ignoreErrors === undefined ? true : !!options.ignoreErrors;
  if (!stdout || typeof stdout.write !== 'function') throw streamError('stdout');
  if (!errStream || typeof errStream.write !== 'function') throw streamError('stderr');
  require('nook:errors.js').validateInteger(groupIndentation, 'groupIndentation', 0, 1000);
  if (inspectOptions !== undefined) {
    require('nook:errors.js').validateObject(inspectOptions, 'options.inspectOptions');
    if (!(inspectOptions instanceof Map) && inspectOptions.colors !== undefined && options.colorMode !== undefined) {
      const e = new TypeError('Option "options.inspectOptions.color" cannot be used in combination with option "colorMode"');
      e.code = 'ERR_INCOMPATIBLE_OPTION_PAIR';
      throw e;
    }
  }
  const write = (fd, s) => {
    const st = fd === 1 ? stdout : errStream;
    if (!ignore) { st.write(s); return; }
    try { st.write(s); } catch { /* ignored, as ignoreErrors says */ }
  };
  Object.assign(this, makeConsole(write, groupIndentation, inspectOptions, { 1: stdout, 2: errStream }));
}

// The global console writes through process.stdout and process.stderr
// when a program has replaced their write, else straight to the run's
// output.
const hostWrite = Symbol.for('nook.hostWrite');
function globalWrite(fd, s) {
  const p = globalThis.process;
  const st = p && (fd === 1 ? p.stdout : p.stderr);
  if (st && typeof st.write === 'function' && !st.write[hostWrite]) { st.write(s); return; }
  host.write(fd, s);
}

const globalConsole = makeConsole(globalWrite);
Object.defineProperty(globalConsole, 'Console', { value: Console, writable: true, configurable: true, enumerable: false });
Object.defineProperty(globalConsole, Symbol.toStringTag, { value: 'console', writable: false, configurable: true, enumerable: false });
module.exports = globalConsole;
