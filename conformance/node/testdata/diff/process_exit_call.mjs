process.on('exit', (code) => console.log('exit handler', code));
console.log('before');
setTimeout(() => console.log('timer never runs'), 5);
Promise.resolve().then(() => { console.log('microtask'); process.exit(4); console.log('after exit'); });
