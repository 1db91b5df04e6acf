import { Writable } from 'node:stream';
const chunks = [];
const w = new Writable({
  highWaterMark: 4,
  write(chunk, enc, cb) { chunks.push([String(chunk), enc]); setTimeout(cb, 1); },
  final(cb) { console.log('final'); cb(); },
});
console.log(w.write('ab'), w.writableLength, w.write('cdef'), w.writableNeedDrain);
w.on('drain', () => console.log('drain'));
w.on('finish', () => console.log('finish', chunks));
w.on('close', () => console.log('close', w.destroyed, w.writableFinished));
w.end('z', () => console.log('end cb'));
const dec = new Writable({ decodeStrings: false, write(c, e, cb) { console.log('nodecode', typeof c, e); cb(); } });
dec.write('str'); dec.end();
const ow = new Writable({ objectMode: true, write(o, e, cb) { console.log('obj', o); cb(); } });
ow.write({ k: 1 }); ow.end();
const bad = new Writable({ write(c, e, cb) { cb(new Error('write failed')); } });
bad.on('error', (e) => console.log('error', e.message, bad.destroyed));
bad.write('x');
