process.on('exit', (code) => console.log('exit', code));
setTimeout(() => console.log('not reached'), 5);
console.log('start');
throw new Error('uncaught at top');
