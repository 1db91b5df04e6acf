import fs from 'node:fs';
import { Readable, Transform, Writable, PassThrough } from 'node:stream';
import { pipeline } from 'node:stream/promises';
fs.writeFileSync('in.txt', 'one\ntwo\nthree\n');
const upper = new Transform({ transform(chunk, enc, cb) { cb(null, String(chunk).toUpperCase()); } });
await pipeline(fs.createReadStream('in.txt'), upper, fs.createWriteStream('out.txt'));
console.log(JSON.stringify(fs.readFileSync('out.txt', 'utf8')));
const seen = [];
await pipeline(Readable.from(['a', 'b', 'c']), new PassThrough({ objectMode: true }),
  new Writable({ objectMode: true, write(o, e, cb) { seen.push(o); cb(); } }));
console.log(seen);
const chunks = [];
for await (const c of fs.createReadStream('in.txt', { start: 4, end: 6, encoding: 'utf8' })) chunks.push(c);
console.log(chunks);
const w = fs.createWriteStream('w.txt');
w.on('finish', () => console.log('finish', w.bytesWritten));
w.on('close', () => console.log('close', fs.readFileSync('w.txt', 'utf8')));
w.write('a'); w.write(Buffer.from('b')); w.end('c');
