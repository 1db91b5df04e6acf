import os from 'node:os';
console.log(JSON.stringify(os.EOL), os.platform(), os.type(), os.endianness(), os.devNull);
console.log(typeof os.hostname(), typeof os.release(), typeof os.uptime(), Array.isArray(os.cpus()), os.loadavg().length);
console.log(typeof os.totalmem(), os.freemem() <= os.totalmem(), typeof os.homedir(), typeof os.tmpdir(), typeof os.arch());
console.log(typeof os.constants.signals, typeof os.userInfo().username, typeof os.networkInterfaces(), os.availableParallelism() >= 1);
