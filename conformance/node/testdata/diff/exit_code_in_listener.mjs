process.on('exit', (c) => { console.log('exit', c); process.exitCode = 9; });
process.on('beforeExit', () => console.log('before'));
console.log('main');
