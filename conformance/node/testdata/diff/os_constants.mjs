import os from 'node:os';
const s = os.constants.signals;
console.log(s.SIGHUP, s.SIGINT, s.SIGKILL, s.SIGTERM, s.SIGUSR1, s.SIGCHLD, s.SIGPIPE, s.SIGSTOP);
const e = os.constants.errno;
console.log(e.ENOENT, e.EEXIST, e.EACCES, e.EISDIR, e.ENOTDIR, e.ENOTEMPTY, e.EPERM, e.EINVAL, e.EMFILE);
console.log(os.constants.priority.PRIORITY_LOW, os.constants.priority.PRIORITY_HIGHEST, typeof os.constants.UV_UDP_REUSEADDR);
console.log(os.EOL === '\n', os.devNull, os.endianness(), typeof os.getPriority, typeof os.setPriority);
