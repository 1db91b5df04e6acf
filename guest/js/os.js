'use strict';
// node:os — a fixed, minimal machine description (nothing of the real host).

module.exports = {
  platform: () => 'linux',
  type: () => 'Linux',
  arch: () => 'x64',
  release: () => '6.0.0-nook',
  version: () => '#1 nook',
  machine: () => 'x86_64',
  hostname: () => 'nook',
  homedir: () => host.root,
  tmpdir: () => host.root + '/.tmp',
  endianness: () => 'LE',
  uptime: () => 0,
  loadavg: () => [0, 0, 0],
  totalmem: () => 1024 * 1024 * 1024,
  freemem: () => 512 * 1024 * 1024,
  availableParallelism: () => 1,
  cpus: () => [{ model: 'nook', speed: 0, times: { user: 0, nice: 0, sys: 0, idle: 0, irq: 0 } }],
  networkInterfaces: () => ({}),
  userInfo: () => ({ uid: 1000, gid: 1000, username: 'nook', homedir: host.root, shell: null }),
  // Linux's numbers, as Node reports them.
  constants: Object.freeze({
    UV_UDP_REUSEADDR: 4,
    dlopen: Object.freeze({ RTLD_LAZY: 1, RTLD_NOW: 2, RTLD_GLOBAL: 256, RTLD_LOCAL: 0, RTLD_DEEPBIND: 8 }),
    errno: Object.freeze({ E2BIG: 7, EACCES: 13, EADDRINUSE: 98, EADDRNOTAVAIL: 99, EAFNOSUPPORT: 97, EAGAIN: 11, EALREADY: 114, EBADF: 9, EBADMSG: 74, EBUSY: 16, ECANCELED: 125, ECHILD: 10, ECONNABORTED: 103, ECONNREFUSED: 111, ECONNRESET: 104, EDEADLK: 35, EDESTADDRREQ: 89, EDOM: 33, EDQUOT: 122, EEXIST: 17, EFAULT: 14, EFBIG: 27, EHOSTUNREACH: 113, EIDRM: 43, EILSEQ: 84, EINPROGRESS: 115, EINTR: 4, EINVAL: 22, EIO: 5, EISCONN: 106, EISDIR: 21, ELOOP: 40, EMFILE: 24, EMLINK: 31, EMSGSIZE: 90, EMULTIHOP: 72, ENAMETOOLONG: 36, ENETDOWN: 100, ENETRESET: 102, ENETUNREACH: 101, ENFILE: 23, ENOBUFS: 105, ENODATA: 61, ENODEV: 19, ENOENT: 2, ENOEXEC: 8, ENOLCK: 37, ENOLINK: 67, ENOMEM: 12, ENOMSG: 42, ENOPROTOOPT: 92, ENOSPC: 28, ENOSR: 63, ENOSTR: 60, ENOSYS: 38, ENOTCONN: 107, ENOTDIR: 20, ENOTEMPTY: 39, ENOTSOCK: 88, ENOTSUP: 95, ENOTTY: 25, ENXIO: 6, EOPNOTSUPP: 95, EOVERFLOW: 75, EPERM: 1, EPIPE: 32, EPROTO: 71, EPROTONOSUPPORT: 93, EPROTOTYPE: 91, ERANGE: 34, EROFS: 30, ESPIPE: 29, ESRCH: 3, ESTALE: 116, ETIME: 62, ETIMEDOUT: 110, ETXTBSY: 26, EWOULDBLOCK: 11, EXDEV: 18 }),
    signals: Object.freeze({ SIGHUP: 1, SIGINT: 2, SIGQUIT: 3, SIGILL: 4, SIGTRAP: 5, SIGABRT: 6, SIGIOT: 6, SIGBUS: 7, SIGFPE: 8, SIGKILL: 9, SIGUSR1: 10, SIGSEGV: 11, SIGUSR2: 12, SIGPIPE: 13, SIGALRM: 14, SIGTERM: 15, SIGCHLD: 17, SIGSTKFLT: 16, SIGCONT: 18, SIGSTOP: 19, SIGTSTP: 20, SIGTTIN: 21, SIGTTOU: 22, SIGURG: 23, SIGXCPU: 24, SIGXFSZ: 25, SIGVTALRM: 26, SIGPROF: 27, SIGWINCH: 28, SIGIO: 29, SIGPOLL: 29, SIGPWR: 30, SIGSYS: 31 }),
    priority: Object.freeze({ PRIORITY_LOW: 19, PRIORITY_BELOW_NORMAL: 10, PRIORITY_NORMAL: 0, PRIORITY_ABOVE_NORMAL: -7, PRIORITY_HIGH: -14, PRIORITY_HIGHEST: -20 }),
  }),
  devNull: '/dev/null',
};
// EOL is read-only (but configurable), as Node's is.
Object.defineProperty(module.exports, 'EOL', { value: '\n', writable: false, enumerable: true, configurable: true });

// The priority of the run's own process (pid 0, undefined or
// process.pid): kept in the run, nothing of the host's. Any other pid is
// not in the sandbox (ESRCH), as Node reports a missing process.
let priority = 0;
function priorityPid(pid) {
  const { validateInt32 } = require('nook:errors.js');
  if (pid === undefined) return 0;
  validateInt32(pid, 'pid');
  return pid === 0 || (globalThis.process && pid === process.pid) ? 0 : pid;
}
function noSuchProcess(syscall) {
  const e = new Error(`A system error occurred: ${syscall} returned ESRCH (no such process)`);
  e.name = 'SystemError';
  e.code = 'ERR_SYSTEM_ERROR';
  e.info = { errno: -3, code: 'ESRCH', message: 'no such process', syscall };
  e.errno = -3;
  e.syscall = syscall;
  return e;
}
module.exports.getPriority = function getPriority(pid) {
  if (priorityPid(pid) !== 0) throw noSuchProcess('uv_os_getpriority');
  return priority;
};
module.exports.setPriority = function setPriority(pid, prio) {
  if (prio === undefined) { prio = pid; pid = 0; }
  const p = priorityPid(pid);
  require('nook:errors.js').validateInt32(prio, 'priority', -20, 19);
  if (p !== 0) throw noSuchProcess('uv_os_setpriority');
  priority = prio;
};
