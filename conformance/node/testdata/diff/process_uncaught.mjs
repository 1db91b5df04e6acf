process.on('uncaughtException', (err, origin) => { console.log('caught', err.message, origin); });
process.on('exit', (code) => console.log('exit', code));
setTimeout(() => { throw new Error('from timer'); }, 1);
setTimeout(() => console.log('still running'), 5);
