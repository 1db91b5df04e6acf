process.exitCode = 5;
process.on('exit', (c) => console.log('exit', c, process.exitCode));
setTimeout(() => { throw 'a string'; }, 1);
