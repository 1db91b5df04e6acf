// Seeded random paused-mode reads: push() answers, read(n), 'readable'
// events, setEncoding, and async iteration over small highWaterMarks.
import { Readable, Transform, Duplex } from 'node:stream';
let seed = 90210;
const rand = () => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };
const pick = (a) => a[Math.floor(rand() * a.length)];
for (let i = 0; i < 30; i++) {
  const log = [];
  const hwm = pick([1, 3, 8]);
  const chunks = Array.from({ length: 1 + Math.floor(rand() * 5) }, () => pick(['a', 'bc', 'def', '€', 'ghij']));
  let k = 0;
  const lazy = rand() < 0.5;
  const r = new Readable({ highWaterMark: hwm, read(n) { log.push('read(' + n + ')'); if (lazy) { if (k < chunks.length) log.push('push:' + this.push(chunks[k++])); else this.push(null); } } });
  if (!lazy) { for (const c of chunks) log.push('push:' + r.push(c)); r.push(null); }
  if (rand() < 0.3) r.setEncoding('utf8');
  const size = pick([undefined, 1, 2, 5]);
  await new Promise((res) => {
    r.on('readable', () => { let c; log.push('readable:' + r.readableLength); while ((c = r.read(size)) !== null) log.push('got:' + String(c)); });
    r.on('end', () => { log.push('end'); res(); });
  });
  console.log(i, hwm, lazy, size, log.join(' '));
}
for (let i = 0; i < 15; i++) {
  const hwm = pick([1, 2, 16]);
  const t = new Transform({ highWaterMark: hwm, transform(c, e, cb) { const s = String(c); if (s.length > 1) { this.push(s[0]); cb(null, s.slice(1)); } else cb(null, s + s); }, flush(cb) { cb(null, '!'); } });
  const out = [];
  const feed = Array.from({ length: 1 + Math.floor(rand() * 4) }, () => pick(['x', 'yz', 'uvw']));
  const w = feed.map((f) => t.write(f));
  t.end();
  for await (const c of t) out.push(String(c));
  console.log('t', i, hwm, JSON.stringify(feed), w.join(','), out.join('|'));
}
