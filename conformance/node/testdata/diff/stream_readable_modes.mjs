import { Readable, Writable } from 'node:stream';
const r = new Readable({ read() {} });
console.log(r.readableFlowing, r.isPaused());
r.on('data', () => {});
console.log(r.readableFlowing, r.isPaused());
r.pause(); console.log(r.readableFlowing, r.isPaused());
r.resume(); console.log(r.readableFlowing);
const s = new Readable({ read() {} });
s.push('hello world');
console.log(String(s.read(5)), s.readableLength, String(s.read(100)), String(s.read()));
s.unshift(Buffer.from('again'));
console.log(String(s.read()), s.readableEnded);
const e = new Readable({ read() {} });
e.setEncoding('utf8');
const euro = Buffer.from('€€');
e.push(euro.subarray(0, 2)); e.push(euro.subarray(2, 5)); e.push(euro.subarray(5)); e.push(null);
const parts = [];
e.on('data', (d) => parts.push(d));
e.on('end', () => console.log('utf8 parts', parts, e.readableEncoding));
const w = new Writable({
  writev(chunks, cb) { console.log('writev', chunks.map((c) => String(c.chunk))); cb(); },
  write(c, enc, cb) { console.log('write', String(c)); cb(); },
});
w.cork(); w.write('a'); w.write('b'); w.write('c');
process.nextTick(() => { w.uncork(); w.end(); });
w.on('finish', () => console.log('corked finish', w.writableCorked));
const ended = Readable.from([]);
ended.on('end', () => console.log('empty end', ended.readableEnded));
ended.resume();
