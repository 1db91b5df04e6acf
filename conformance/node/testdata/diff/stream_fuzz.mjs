// Seeded random stream scenarios: the order of events and data.
import { Readable, Writable, Transform, PassThrough, pipeline } from 'node:stream';
let seed = 4711;
const rand = () => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };
const pick = (a) => a[Math.floor(rand() * a.length)];
async function scenario(i) {
  const log = [];
  const n = 1 + Math.floor(rand() * 5);
  const hwm = pick([1, 2, 4, 16]);
  const objectMode = rand() < 0.3;
  let k = 0;
  const asyncRead = rand() < 0.5;
  const src = new Readable({
    objectMode, highWaterMark: hwm,
    read() {
      const push = () => { if (k < n) this.push(objectMode ? { k: k++ } : 'c' + k++); else this.push(null); };
      if (asyncRead) setImmediate(push); else push();
    },
  });
  const slowWrite = rand() < 0.5;
  const sink = new Writable({
    objectMode, highWaterMark: pick([1, 3]),
    write(c, e, cb) { log.push('w:' + (objectMode ? c.k : String(c))); if (slowWrite) setImmediate(cb); else cb(); },
  });
  const mid = rand() < 0.5 ? new PassThrough({ objectMode, highWaterMark: hwm }) : new Transform({ objectMode, transform(c, e, cb) { log.push('t'); cb(null, c); } });
  for (const [name, s] of [['src', src], ['mid', mid], ['sink', sink]]) {
    for (const ev of ['end', 'finish', 'close', 'pause', 'resume', 'drain']) s.on(ev, () => log.push(name + ':' + ev));
  }
  await new Promise((res) => pipeline(src, mid, sink, (err) => { log.push('done:' + (err ? err.message : 'ok')); res(); }));
  await new Promise((res) => setImmediate(res));
  console.log(i, n, hwm, objectMode, asyncRead, slowWrite, log.join(' '));
}
for (let i = 0; i < 40; i++) await scenario(i);
