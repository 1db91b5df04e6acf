import fs from 'node:fs';
fs.writeFileSync('r.txt', '0123456789abcdefghij');
const read = (opts) => new Promise((res) => { const c = []; fs.createReadStream('r.txt', opts).on('data', (d) => c.push(String(d))).on('end', () => res(c)); });
console.log(await read({ start: 5, end: 9 }), await read({ start: 15 }), await read({ highWaterMark: 8 }), await read({ start: 2, end: 2 }));
const w = fs.createWriteStream('r.txt', { flags: 'r+', start: 3 });
w.end('XYZ');
await new Promise((r) => w.on('close', r));
console.log(fs.readFileSync('r.txt', 'utf8'));
const a = fs.createWriteStream('r.txt', { flags: 'a' });
a.write('++'); a.end('--');
await new Promise((r) => a.on('finish', r));
console.log(fs.readFileSync('r.txt', 'utf8'), a.bytesWritten);
// One stream at a time: Node opens files on its thread pool, so two
// streams opening at once may report in either order.
const rs = fs.createReadStream('missing.txt');
await new Promise((res) => rs.on('error', (e) => { console.log('error', e.code); res(); }));
const rs2 = fs.createReadStream('r.txt', { encoding: 'utf8', start: 0, end: 3 });
rs2.on('open', () => console.log('open'));
rs2.on('ready', () => console.log('ready'));
rs2.on('data', (d) => console.log('data', d));
rs2.on('close', () => console.log('close', rs2.bytesRead));
