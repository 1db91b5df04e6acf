'use strict';
// node:child_process over nested runs. The sandbox starts no host process:
// a command line runs on the workspace's shell backend ("sh") and a node
// program on this backend ("js"), each as a run of its own that the
// runtime starts through one host call (kind "exec"; see
// runtime/js/childproc.go). The call is made with the child's whole stdin
// and answers with its exit code and both output streams, so output is not
// streamed: spawn() emits it as 'data' when the child has ended. Errors,
// results and events are shaped as Node shapes them.

const EventEmitter = require('node:events');
const { Readable, Writable } = require('node:stream');
const { Buffer } = require('node:buffer');
const path = require('node:path');
const { promisify } = require('node:util');

const SHELL = '/bin/sh';
const MAX_BUFFER = 1024 * 1024;
const ERRNO = { ENOENT: -2, EACCES: -13, EAGAIN: -11, EINVAL: -22, ETIMEDOUT: -110, ENOBUFS: -105, EPIPE: -32 };
const SIGNALS = ['SIGHUP', 'SIGINT', 'SIGQUIT', 'SIGILL', 'SIGTRAP', 'SIGABRT', 'SIGBUS', 'SIGFPE', 'SIGKILL',
  'SIGUSR1', 'SIGSEGV', 'SIGUSR2', 'SIGPIPE', 'SIGALRM', 'SIGTERM'];

// At most MAX_RUNNING asynchronous children run at once; the others wait
// their turn (in spawn order), as a busy machine would make them, instead
// of failing on the runtime's MaxConcurrent or MaxConcurrentCalls.
const MAX_RUNNING = 8;
let inFlight = 0;
const queued = [];

// Each child gets a stable fake pid: the same program gets the same pids
// on every run and every replay.
let lastPid = 1000;

function typeError(code, msg) {
  const e = new TypeError(msg);
  e.code = code;
  return e;
}

// received ends Node's ERR_INVALID_ARG_TYPE messages (nook:errors.js).
function received(v) {
  return 'Received ' + require('nook:errors.js').determineSpecificType(v);
}

function checkString(v, name) {
  if (typeof v !== 'string') throw typeError('ERR_INVALID_ARG_TYPE', `The "${name}" argument must be of type string. ${received(v)}`);
  if (v.length === 0) throw typeError('ERR_INVALID_ARG_VALUE', `The argument '${name}' cannot be empty. Received ''`);
}

function uvError(code, syscall, file, args, extra) {
  const e = new Error(`${syscall} ${code}`);
  e.errno = ERRNO[code] !== undefined ? ERRNO[code] : -22;
  e.code = code;
  e.syscall = syscall;
  e.path = file;
  e.spawnargs = args;
  if (extra) Object.assign(e, extra);
  return e;
}

// normalize reads the (file, args, options) of every function into one
// plan: what Node would run (file, args, shell), and the host call that
// runs it here (op and call arguments).
function normalize(file, args, options, sync) {
  checkString(file, 'file');
  if (args == null) args = [];
  else if (!Array.isArray(args)) {
    if (typeof args === 'object' && options === undefined) { options = args; args = []; }
    else throw typeError('ERR_INVALID_ARG_TYPE', `The "args" argument must be an instance of Array. ${received(args)}`);
  }
  args = args.map(String);
  if (options == null) options = {};
  else if (typeof options !== 'object') throw typeError('ERR_INVALID_ARG_TYPE', `The "options" argument must be of type object. ${received(options)}`);
  const plan = { file, args, options, command: [file].concat(args).join(' ') };
  if (options.shell) {
    const shell = typeof options.shell === 'string' ? options.shell : SHELL;
    plan.spawnfile = shell;
    plan.spawnargs = [shell, '-c', plan.command];
    plan.op = 'sh';
    plan.call = { source: plan.command };
  } else {
    plan.spawnfile = file;
    plan.spawnargs = [file].concat(args);
    const base = file.slice(file.lastIndexOf('/') + 1);
    if (file === process.execPath || base === 'node' || base === 'nodejs') {
      plan.op = 'js';
      plan.call = nodeCall(args);
    } else {
      plan.op = 'sh';
      plan.call = { source: [file].concat(args).map(shellQuote).join(' ') };
      plan.direct = true; // a missing program is ENOENT, not exit 127
    }
  }
  plan.call.env = envOf(options.env);
  plan.call.cwd = cwdOf(options.cwd);
  if (options.timeout != null) {
    if (typeof options.timeout !== 'number' || !(options.timeout >= 0)) {
      throw new RangeError(`The value of "timeout" is out of range. It must be an unsigned integer. Received ${options.timeout}`);
    }
    if (options.timeout > 0) plan.call.timeoutMs = options.timeout;
  }
  let max = options.maxBuffer;
  if (max === undefined) max = sync ? MAX_BUFFER : Infinity;
  if (typeof max !== 'number' || !(max >= 0)) throw new RangeError(`The value of "options.maxBuffer" is out of range. It must be a positive number. Received ${max}`);
  plan.maxBuffer = max;
  // Infinity: as much as the run may print (the runtime clamps it).
  plan.call.maxBuffer = max === Infinity ? 1 << 30 : Math.floor(max);
  plan.killSignal = signalName(options.killSignal === undefined ? 'SIGTERM' : options.killSignal);
  plan.stdio = stdioOf(options.stdio);
  return plan;
}

// nodeCall turns node's command line into a run on the js backend.
function nodeCall(args) {
  let i = 0;
  while (i < args.length) {
    const a = args[i];
    if (a === '-e' || a === '--eval') return { source: args[i + 1] || '', args: args.slice(i + 2) };
    if (a === '-p' || a === '--print') {
      return { source: 'console.log(eval(' + JSON.stringify(args[i + 1] || '') + '))', args: args.slice(i + 2) };
    }
    if (a === '--') { i++; break; }
    if (!a.startsWith('-')) break;
    i++; // other flags (--no-warnings, --input-type=module, ...) change nothing here
  }
  if (i >= args.length) return { source: null, args: [] }; // the program is read from stdin
  return { file: args[i], args: args.slice(i + 1) };
}

function shellQuote(s) {
  if (s !== '' && /^[A-Za-z0-9_\/.,:=+@%^-]+$/.test(s)) return s;
  return "'" + s.replace(/'/g, "'\\''") + "'";
}

function envOf(env) {
  const src = env == null ? process.env : env;
  const out = {};
  for (const k of Object.keys(src)) {
    const v = src[k];
    if (v !== undefined) out[k] = String(v);
  }
  return out;
}

function cwdOf(cwd) {
  if (cwd == null) return process.cwd();
  if (typeof cwd === 'object' && cwd.href) cwd = decodeURIComponent(String(cwd.pathname));
  if (typeof cwd !== 'string') throw typeError('ERR_INVALID_ARG_TYPE', `The "options.cwd" property must be of type string or an instance of URL. ${received(cwd)}`);
  return path.resolve(process.cwd(), cwd);
}

function signalName(s) {
  if (typeof s === 'number') {
    const n = { 1: 'SIGHUP', 2: 'SIGINT', 9: 'SIGKILL', 15: 'SIGTERM' }[s];
    if (n) return n;
  } else if (typeof s === 'string' && SIGNALS.includes(s)) return s;
  const e = typeError('ERR_UNKNOWN_SIGNAL', `Unknown signal: ${s}`);
  throw e;
}

// stdioOf reads the stdio option into three of 'pipe', 'inherit',
// 'ignore' (streams and fds count as 'pipe').
function stdioOf(stdio) {
  let s = stdio;
  if (s === undefined || s === null) s = ['pipe', 'pipe', 'pipe'];
  else if (typeof s === 'string') s = [s, s, s];
  else if (!Array.isArray(s)) throw typeError('ERR_INVALID_ARG_VALUE', `The argument 'stdio' is invalid. Received ${s}`);
  const one = (v, i) => {
    if (v === undefined || v === null || v === 'pipe' || v === 'overlapped') return 'pipe';
    if (v === 'inherit' || v === i || (i === 1 && v === process.stdout) || (i === 2 && v === process.stderr) || (i === 0 && v === process.stdin)) return 'inherit';
    if (v === 'ignore') return 'ignore';
    return 'pipe';
  };
  return [one(s[0], 0), one(s[1], 1), one(s[2], 2)];
}

function inputBytes(input) {
  if (input === undefined || input === null) return null;
  if (typeof input === 'string') return Buffer.from(input);
  if (ArrayBuffer.isView(input)) return Buffer.from(input.buffer, input.byteOffset, input.byteLength);
  throw typeError('ERR_INVALID_ARG_TYPE', `The "options.stdio[0]" property must be of type string or an instance of Buffer, TypedArray, or DataView. ${received(input)}`);
}

// The shell backend's id: "shell" (runtime/shell's), or another a
// workspace configured it under, learnt from the runtime's answer the first
// time a command runs.
let shellID = 'shell';
const opOf = (plan) => (plan.op === 'sh' ? shellID : plan.op);

// otherShell returns the id to retry a shell call with when the runtime
// answered that no backend has the id tried.
function otherShell(plan, op, e) {
  if (plan.op !== 'sh' || !e || e.code !== 'ENOENT') return null;
  const m = /no backend "([^"]+)" is configured in this workspace \(configured: ([^)]*)\)/.exec(String(e.message));
  if (!m || m[1] !== op) return null;
  const ids = m[2].split(',').map((x) => x.trim().replace(/"/g, ''));
  const alt = ['shell', 'sh', 'bash'].find((id) => id !== op && ids.includes(id));
  if (alt) shellID = alt;
  return alt || null;
}

function parentStdin() {
  return host.bufferFrom(host.stdin());
}

function isNodeMissing(plan, e) {
  return plan.op === 'js' && plan.call.file && e && e.code === 'ENOENT' && !/no backend/.test(String(e.message));
}

// outcome turns the host call's result (or failure) into what Node
// reports: {status, signal, stdout, stderr, overflow, error}. A program
// the shell cannot find is a spawn error (ENOENT) when the program was
// named without a shell, an exit with status 127 when a shell ran it.
function outcome(plan, res, err, killedWith) {
  if (err) {
    if (isNodeMissing(plan, err)) {
      const p = path.resolve(plan.call.cwd, plan.call.file);
      return { status: 1, signal: null, stdout: Buffer.alloc(0),
        stderr: Buffer.from(`node:internal/modules/cjs/loader\n  throw err;\n  ^\n\nError: Cannot find module '${p}'\n`) };
    }
    if (killedWith && (err.name === 'AbortError' || /cancel/i.test(String(err.message)))) {
      return { status: null, signal: killedWith, stdout: Buffer.alloc(0), stderr: Buffer.alloc(0) };
    }
    return { error: err };
  }
  const stdout = host.bufferFrom(res.stdout || new Uint8Array(0));
  let stderr = host.bufferFrom(res.stderr || new Uint8Array(0));
  let stderrBytes = res.stderrBytes;
  if ((res.status === 'timed_out' || res.status === 'cancelled') && res.error) {
    // The runtime says why the run stopped on its stderr; a killed
    // process says nothing.
    const why = Buffer.from(res.error + '\n');
    const at = stderr.length - why.length;
    if (at >= 0 && stderr.subarray(at).equals(why)) {
      stderr = stderr.subarray(0, at);
      stderrBytes -= why.length;
    }
  }
  const o = { status: res.code, signal: null, stdout, stderr };
  if (res.status === 'timed_out') { o.status = null; o.signal = plan.killSignal; o.timedOut = true; }
  else if (res.status === 'cancelled') { o.status = null; o.signal = killedWith || plan.killSignal; }
  if (plan.maxBuffer !== Infinity) {
    if (res.stdoutBytes > stdout.length || stdout.length > plan.maxBuffer) o.overflow = 'stdout';
    else if (stderrBytes > stderr.length || stderr.length > plan.maxBuffer) o.overflow = 'stderr';
  }
  if (plan.direct && o.status === 127 && notFound(plan.file, stderr.toString())) o.missing = true;
  return o;
}

function notFound(file, err) {
  return err.startsWith(file + ': command not found') || err.startsWith('bash: ' + file + ': No such file or directory') ||
    err.startsWith('sh: ' + file + ': not found');
}

function encode(buf, enc) {
  if (buf === null || buf === undefined) return buf;
  if (!enc || enc === 'buffer' || !Buffer.isEncoding(enc)) return buf;
  return buf.toString(enc);
}

function callArgs(plan, stdin) {
  const c = Object.assign({}, plan.call);
  if (c.source === null) { // node reading its program from stdin
    c.source = stdin ? stdin.toString() : '';
    stdin = null;
  }
  if (c.file === undefined) delete c.file;
  if (stdin && stdin.length) c.stdin = stdin;
  return c;
}

// ---- synchronous ----------------------------------------------------

function spawnSyncPlan(plan) {
  const o = plan.options;
  let stdin = inputBytes(o.input);
  if (stdin === null && plan.stdio[0] === 'inherit') stdin = parentStdin();
  const pid = ++lastPid;
  let res, err;
  const a = callArgs(plan, stdin);
  const tried = opOf(plan);
  try {
    res = host.execSync(tried, a);
  } catch (e) {
    err = e;
    const alt = otherShell(plan, tried, e);
    if (alt) {
      err = undefined;
      try { res = host.execSync(alt, a); } catch (e2) { err = e2; }
    }
  }
  const out = outcome(plan, res, err, null);
  const syscall = 'spawnSync ' + plan.spawnfile;
  const spawnargs = plan.spawnargs.slice(1);
  if (out.error || out.missing) {
    const code = out.missing ? 'ENOENT' : (out.error.code || 'EINVAL');
    const e = uvError(code, syscall, plan.spawnfile, spawnargs);
    if (out.error) e.message = `${syscall} ${code}: ${out.error.message}`;
    return { error: e, status: null, signal: null, output: null, pid: 0, stdout: null, stderr: null };
  }
  const enc = o.encoding;
  const ret = {};
  if (out.timedOut) ret.error = uvError('ETIMEDOUT', syscall, plan.spawnfile, spawnargs);
  else if (out.overflow) {
    ret.error = uvError('ENOBUFS', syscall, plan.spawnfile, spawnargs);
    out.status = null;
    out.signal = plan.killSignal;
  }
  const so = plan.stdio[1] === 'pipe' ? encode(out.stdout, enc) : null;
  const se = plan.stdio[2] === 'pipe' ? encode(out.stderr, enc) : null;
  if (plan.stdio[1] === 'inherit' && out.stdout.length) process.stdout.write(out.stdout);
  if (plan.stdio[2] === 'inherit' && out.stderr.length) process.stderr.write(out.stderr);
  ret.status = out.status;
  ret.signal = out.signal;
  ret.output = [null, so, se];
  ret.pid = pid;
  ret.stdout = so;
  ret.stderr = se;
  return ret;
}

function spawnSync(file, args, options) {
  return spawnSyncPlan(normalize(file, args, options, true));
}

// execSync-style failure: the spawn error with the result on it, or
// "Command failed" for a non-zero exit or a signal.
function checkSync(ret, cmd) {
  let err;
  if (ret.error) {
    err = ret.error;
    Object.assign(err, ret);
  } else if (ret.status !== 0) {
    let msg = 'Command failed: ' + cmd;
    if (ret.stderr && ret.stderr.length > 0) msg += '\n' + ret.stderr.toString();
    err = new Error(msg);
    Object.assign(err, ret);
  }
  return err;
}

function syncExec(plan, cmd) {
  const inheritStderr = plan.options.stdio === undefined;
  if (inheritStderr) plan.stdio = ['pipe', 'pipe', 'pipe'];
  const ret = spawnSyncPlan(plan);
  if (inheritStderr && ret.stderr && ret.stderr.length) process.stderr.write(ret.stderr);
  const err = checkSync(ret, cmd);
  if (err) throw err;
  return ret.stdout;
}

function execFileSync(file, args, options) {
  const plan = normalize(file, args, options, true);
  return syncExec(plan, plan.command);
}

function execSync(command, options) {
  checkString(command, 'command');
  const plan = normalize(command, [], Object.assign({}, options, { shell: (options && options.shell) || true }), true);
  return syncExec(plan, command);
}

// ---- asynchronous ---------------------------------------------------

// ChildProcess is a nested run. Its stdin is buffered: the run starts
// when stdin ends, or, if the program has not touched stdin by then,
// when the task that spawned it is over (so a child nobody writes to
// starts with an empty stdin).
class ChildProcess extends EventEmitter {
  constructor() {
    super();
    this.pid = undefined;
    this.exitCode = null;
    this.signalCode = null;
    this.killed = false;
    this.connected = false;
    this.spawnfile = undefined;
    this.spawnargs = [];
    this.stdin = null;
    this.stdout = null;
    this.stderr = null;
    this.stdio = [null, null, null];
    this._plan = null;
    this._state = 'new'; // new → waiting (for stdin) → running → done
    this._cancel = null;
    this._killedWith = null;
    this._chunks = [];
    this._touched = false;
  }

  spawn(plan) {
    this._plan = plan;
    this.spawnfile = plan.spawnfile;
    this.spawnargs = plan.spawnargs;
    const [i, o, e] = plan.stdio;
    if (o === 'pipe') this.stdout = new Readable({ read() {} });
    if (e === 'pipe') this.stderr = new Readable({ read() {} });
    if (i === 'pipe') {
      const self = this;
      this.stdin = new Writable({
        write(chunk, enc, cb) {
          self._touched = true;
          if (self._state !== 'waiting') {
            const err = new Error('write EPIPE: the child has already started, with the stdin it had then (a child starts once ' +
              'its stdin ends, or with an empty stdin when nothing wrote to it in the task that spawned it: write to ' +
              'child.stdin right after spawn(), or pass input to spawnSync/execSync)');
            Object.assign(err, { errno: -32, code: 'EPIPE', syscall: 'write' });
            return cb(err);
          }
          self._chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk, enc));
          cb();
        },
        final(cb) { self._touched = true; cb(); self._start(); },
      });
      this.stdin.on('pipe', () => { this._touched = true; });
      const end = this.stdin.end;
      this.stdin.end = function (...a) { self._touched = true; return end.apply(this, a); };
    }
    this.stdio = [this.stdin, this.stdout, this.stderr];
    this._state = 'waiting';
    if (i !== 'pipe') {
      if (i === 'inherit') this._chunks.push(parentStdin());
      process.nextTick(() => this._start());
    } else {
      setImmediate(() => { if (!this._touched) this._start(); });
    }
    const sig = plan.options.signal;
    if (sig !== undefined) {
      if (!sig || typeof sig !== 'object' || typeof sig.aborted !== 'boolean') {
        throw typeError('ERR_INVALID_ARG_TYPE', `The "options.signal" property must be an instance of AbortSignal. ${received(sig)}`);
      }
      const onAbort = () => this._abort(sig);
      if (sig.aborted) process.nextTick(onAbort);
      else {
        sig.addEventListener('abort', onAbort, { once: true });
        this.once('exit', () => sig.removeEventListener('abort', onAbort));
      }
    }
    // The pid is known at once: Node has it when spawn returns.
    this.pid = ++lastPid;
    process.nextTick(() => { if (this._state !== 'failed') this.emit('spawn'); });
    return this;
  }

  _start() {
    if (this._state !== 'waiting') return;
    this._state = 'running';
    const plan = this._plan;
    if (this._killedWith) return this._finish({ status: null, signal: this._killedWith, stdout: Buffer.alloc(0), stderr: Buffer.alloc(0) });
    const a = callArgs(plan, Buffer.concat(this._chunks));
    this._chunks = [];
    if (inFlight >= MAX_RUNNING) {
      this._queued = a;
      queued.push(this);
      return;
    }
    inFlight++;
    this._slot = true;
    this._issue(opOf(plan), a);
  }

  _issue(op, a) {
    const plan = this._plan;
    let h;
    try {
      h = host.execStart(op, a);
    } catch (e) {
      return this._finish({ error: e });
    }
    this._cancel = h.cancel;
    h.promise.then((res) => this._finish(outcome(plan, res, null, this._killedWith)), (err) => {
      const alt = !this._killedWith && otherShell(plan, op, err);
      if (alt) return this._issue(alt, a);
      this._finish(outcome(plan, null, err, this._killedWith));
    });
  }

  _finish(out) {
    this._state = 'done';
    this._cancel = null;
    if (this._slot) {
      this._slot = false;
      inFlight--;
      while (inFlight < MAX_RUNNING && queued.length) {
        const next = queued.shift();
        inFlight++;
        next._slot = true;
        next._issue(opOf(next._plan), next._queued);
        next._queued = null;
      }
    }
    const plan = this._plan;
    if (out.error || out.missing) {
      const code = out.missing ? 'ENOENT' : (out.error.code || 'EINVAL');
      const e = uvError(code, 'spawn ' + plan.spawnfile, plan.spawnfile, plan.spawnargs.slice(1));
      if (out.error) e.message = `spawn ${plan.spawnfile} ${code}: ${out.error.message}`;
      this.pid = undefined;
      this._failed = e;
      this.exitCode = ERRNO[code] !== undefined ? ERRNO[code] : -22;
      for (const s of [this.stdout, this.stderr]) if (s) s.push(null);
      if (this.stdin) this.stdin.destroy();
      this.emit('error', e);
      process.nextTick(() => this.emit('close', this.exitCode, null));
      return;
    }
    this._out = out;
    const pipeOut = (stream, buf, mode, dest) => {
      if (mode === 'inherit' && buf.length) dest.write(buf);
      if (!stream) return;
      if (buf.length) stream.push(buf);
      stream.push(null);
    };
    pipeOut(this.stdout, out.stdout, plan.stdio[1], process.stdout);
    pipeOut(this.stderr, out.stderr, plan.stdio[2], process.stderr);
    this.exitCode = out.status;
    this.signalCode = out.signal;
    const streams = [this.stdout, this.stderr].filter(Boolean);
    let open = streams.length;
    const close = () => this.emit('close', this.exitCode, this.signalCode);
    this.emit('exit', this.exitCode, this.signalCode);
    if (open === 0) return process.nextTick(close);
    for (const s of streams) {
      // 'close' follows the streams' own end, as in Node; a stream nobody
      // reads is drained so that it ends.
      s.once('close', () => { if (--open === 0) close(); });
      if (s.listenerCount('data') === 0 && s.listenerCount('readable') === 0 && !s._readableState.pipes.length) {
        setImmediate(() => { if (s.listenerCount('data') === 0 && s.listenerCount('readable') === 0 && !s._readableState.pipes.length) s.resume(); });
      }
    }
  }

  kill(sig) {
    if (sig === 0) return this._state === 'waiting' || this._state === 'running';
    const signal = sig === undefined ? 'SIGTERM' : signalName(sig);
    if (this._state === 'done' || this._state === 'new' || this._state === 'failed') return false;
    this.killed = true;
    this._killedWith = signal;
    if (this._state === 'waiting') {
      this._state = 'running';
      process.nextTick(() => this._finish({ status: null, signal, stdout: Buffer.alloc(0), stderr: Buffer.alloc(0) }));
    } else if (this._cancel) {
      this._cancel();
    } else if (queued.includes(this)) {
      queued.splice(queued.indexOf(this), 1);
      this._queued = null;
      process.nextTick(() => this._finish({ status: null, signal, stdout: Buffer.alloc(0), stderr: Buffer.alloc(0) }));
    }
    return true;
  }

  // _abort is options.signal's abort: the child is killed and an
  // AbortError emitted, as in Node.
  _abort(sig) {
    if (!this.kill(this._plan.killSignal)) return;
    const e = new Error('The operation was aborted');
    e.name = 'AbortError';
    e.code = 'ABORT_ERR';
    e.cause = sig.reason;
    this.emit('error', e);
  }

  ref() { return this; }
  unref() { return this; }
  disconnect() {}
  send() { throw Object.assign(new Error('Channel closed'), { code: 'ERR_IPC_CHANNEL_CLOSED' }); }
}

function spawn(file, args, options) {
  return new ChildProcess().spawn(normalize(file, args, options, false));
}

function execFilePlan(plan, cb) {
  const child = new ChildProcess();
  const o = plan.options;
  const enc = o.encoding === undefined ? 'utf8' : o.encoding;
  const cmd = plan.command;
  let called = false;
  const done = (err, so, se) => {
    if (called) return;
    called = true;
    if (typeof cb === 'function') cb(err, so, se);
  };
  child.on('error', (e) => {
    if (child._failed !== e && e.name !== 'AbortError') return;
    e.cmd = cmd;
    done(e, encode(Buffer.alloc(0), enc), encode(Buffer.alloc(0), enc));
  });
  child.on('close', (code, signal) => {
    if (child._failed) return;
    const out = child._out;
    let so = out.stdout;
    let se = out.stderr;
    const overflowed = out.overflow;
    if (overflowed) {
      so = so.subarray(0, plan.maxBuffer);
      se = se.subarray(0, plan.maxBuffer);
      const e = new RangeError(`${overflowed} maxBuffer length exceeded`);
      e.code = 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER';
      e.cmd = cmd;
      child.killed = true;
      return done(e, encode(so, enc), encode(se, enc));
    }
    so = encode(so, enc);
    se = encode(se, enc);
    if (code === 0 && signal === null) return done(null, so, se);
    const e = new Error('Command failed: ' + cmd + '\n' + se.toString());
    e.code = code < 0 ? undefined : code;
    e.killed = child.killed || !!out.timedOut;
    e.signal = signal;
    e.cmd = cmd;
    done(e, so, se);
  });
  child.spawn(plan);
  // exec's streams are read by exec itself.
  if (child.stdout) child.stdout.resume();
  if (child.stderr) child.stderr.resume();
  return child;
}

function execFile(file, args, options, cb) {
  if (typeof args === 'function') { cb = args; args = []; options = undefined; }
  else if (typeof options === 'function') { cb = options; options = undefined; }
  if (args && !Array.isArray(args) && typeof args === 'object') { options = args; args = []; }
  const plan = normalize(file, args, options, false);
  plan.exec = true;
  if (!options || options.maxBuffer === undefined) { plan.maxBuffer = MAX_BUFFER; plan.call.maxBuffer = MAX_BUFFER; }
  return execFilePlan(plan, cb);
}

function exec(command, options, cb) {
  if (typeof options === 'function') { cb = options; options = undefined; }
  checkString(command, 'command');
  const plan = normalize(command, [], Object.assign({}, options, { shell: (options && options.shell) || true }), false);
  plan.command = command;
  if (!options || options.maxBuffer === undefined) { plan.maxBuffer = MAX_BUFFER; plan.call.maxBuffer = MAX_BUFFER; }
  return execFilePlan(plan, cb);
}

// util.promisify(exec) and util.promisify(execFile) resolve with
// {stdout, stderr}, and reject with the error carrying both.
const custom = promisify.custom;
function promised(fn) {
  return (...a) => {
    let child;
    const p = new Promise((resolve, reject) => {
      child = fn(...a, (err, stdout, stderr) => {
        if (err) { err.stdout = stdout; err.stderr = stderr; reject(err); } else resolve({ stdout, stderr });
      });
    });
    p.child = child;
    return p;
  };
}
Object.defineProperty(exec, custom, { value: promised(exec), enumerable: false });
Object.defineProperty(execFile, custom, { value: promised(execFile), enumerable: false });

function fork(modulePath) {
  const e = new Error(`fork(${JSON.stringify(String(modulePath))}) is not supported in this sandbox: a child process has no IPC channel here; ` +
    'run the module with spawn(process.execPath, [modulePath]) or execFile and exchange data through its stdin, stdout and files');
  e.code = 'ERR_FEATURE_UNAVAILABLE_ON_PLATFORM';
  e.errno = -38;
  e.syscall = 'fork';
  throw e;
}

module.exports = { ChildProcess, spawn, spawnSync, exec, execSync, execFile, execFileSync, fork, _forkChild() {} };
