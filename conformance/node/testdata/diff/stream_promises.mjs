import { pipeline, finished } from 'node:stream/promises';
import { Readable, Writable, Transform, PassThrough } from 'node:stream';
const sink = [];
await pipeline(Readable.from(['1', '2', '3']), new Transform({ objectMode: true, transform(c, e, cb) { cb(null, Number(c) * 10); } }),
  new Writable({ objectMode: true, write(c, e, cb) { sink.push(c); cb(); } }));
console.log(sink);
await pipeline(Readable.from(['a', 'b']), async function* (src) { for await (const c of src) yield c + c; },
  new Writable({ write(c, e, cb) { sink.push(String(c)); cb(); } }));
console.log(sink);
const pt = new PassThrough();
const done = finished(pt);
pt.resume();
pt.end('x');
await done;
console.log('finished ok');
try {
  await pipeline(Readable.from(['a']), new Transform({ transform(c, e, cb) { cb(new Error('nope')); } }), new PassThrough());
} catch (e) { console.log('caught', e.message); }
const r = new Readable({ read() {} });
const f = finished(r);
r.destroy(new Error('destroyed'));
try { await f; } catch (e) { console.log('finished rejects', e.message); }
