process.on('beforeExit', (code) => {
  console.log('beforeExit', code, process.exitCode);
  if (!globalThis.again) { globalThis.again = true; setTimeout(() => console.log('scheduled from beforeExit'), 1); }
});
process.on('exit', (code) => { console.log('exit', code); setTimeout(() => console.log('never'), 0); });
process.exitCode = 3;
console.log('main', typeof process.pid, process.argv.length >= 2, typeof process.version, process.platform);
console.log(typeof process.hrtime.bigint(), typeof process.memoryUsage().heapUsed, process.cwd() === process.env.PWD || true);
console.log(process.env.NONEXISTENT, typeof process.env, process.title === undefined ? 'no title' : typeof process.title);
