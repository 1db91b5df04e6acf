process.exitCode = 6;
process.on('exit', (c) => console.log('exit', c));
Promise.reject(new Error('rej'));
setTimeout(() => console.log('not reached'), 10);
