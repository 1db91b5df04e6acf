'use strict';
// node:child_process — the sandbox starts no processes. Each function fails
// the way Node fails when the command cannot be started (an error with
// code ENOSYS and syscall spawn), so code that probes for a tool (git
// --version) takes its fallback path. Run shell commands with the
// workspace's shell backend instead.

const EventEmitter = require('node:events');

function spawnError(file, args) {
  const cmd = [file].concat(args || []).join(' ');
  const e = new Error(`spawn ${file} ENOSYS: child processes are not available in this sandbox (run shell commands with the workspace's shell backend)`);
  e.code = 'ENOSYS';
  e.errno = -38;
  e.syscall = 'spawn ' + file;
  e.path = file;
  e.spawnargs = args || [];
  e.cmd = cmd;
  return e;
}

const split = (command) => ['/bin/sh', ['-c', String(command)]];

class ChildProcess extends EventEmitter {
  constructor(file, args) {
    super();
    this.pid = undefined;
    this.exitCode = null;
    this.signalCode = null;
    this.killed = false;
    this.spawnfile = file;
    this.spawnargs = [file].concat(args || []);
    this.stdin = null;
    this.stdout = null;
    this.stderr = null;
    this.stdio = [null, null, null];
    const err = spawnError(file, args);
    process.nextTick(() => {
      this.emit('error', err);
      this.emit('close', -38, null);
    });
  }
  kill() { return false; }
  ref() {}
  unref() {}
  disconnect() {}
}

function spawn(file, args) {
  if (!Array.isArray(args)) args = [];
  return new ChildProcess(file, args);
}

function spawnSync(file, args) {
  if (!Array.isArray(args)) args = [];
  return { pid: 0, output: null, stdout: null, stderr: null, status: null, signal: null, error: spawnError(file, args) };
}

function execFile(file, args, opts, cb) {
  if (typeof args === 'function') { cb = args; args = []; } else if (typeof opts === 'function') { cb = opts; }
  if (!Array.isArray(args)) args = [];
  const child = new ChildProcess(file, args);
  if (typeof cb === 'function') {
    child.removeAllListeners('error');
    child.on('error', (e) => cb(e, '', ''));
  }
  return child;
}

function exec(command, opts, cb) {
  if (typeof opts === 'function') cb = opts;
  const [file, args] = split(command);
  return execFile(file, args, cb);
}

function execFileSync(file, args) {
  throw spawnError(file, Array.isArray(args) ? args : []);
}

function execSync(command) {
  const [file, args] = split(command);
  throw spawnError(file, args);
}

function fork(modulePath, args) {
  return new ChildProcess(process.execPath, [modulePath].concat(Array.isArray(args) ? args : []));
}

module.exports = { ChildProcess, spawn, spawnSync, exec, execSync, execFile, execFileSync, fork };
