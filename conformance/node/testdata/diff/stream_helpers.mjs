import { Readable, Writable, compose, PassThrough, isReadable, isErrored, isDisturbed, getDefaultHighWaterMark } from 'node:stream';
const nums = () => Readable.from([1, 2, 3, 4, 5, 6]);
console.log(await nums().take(2).toArray(), await nums().drop(4).toArray(), await nums().some((n) => n > 5), await nums().every((n) => n > 0));
console.log(await nums().find((n) => n % 4 === 0), await nums().flatMap((n) => [n, -n]).take(4).toArray());
const seen = []; await nums().forEach((n) => seen.push(n * 2)); console.log(seen);
console.log(await nums().map(async (n) => n * 10, { concurrency: 2 }).toArray(), await nums().filter(async (n) => n & 1).toArray());
console.log(await nums().reduce((a, b) => a + b), await Readable.from([]).reduce((a, b) => a + b, 'init'));
try { await Readable.from([]).reduce((a, b) => a + b); } catch (e) { console.log(e.name, e.code); }
const it = nums().iterator({ destroyOnReturn: false });
for await (const n of it) { console.log('first', n); break; }
const r = Readable.from(['x']);
console.log(isReadable(r), isDisturbed(r), isErrored(r), getDefaultHighWaterMark(false), getDefaultHighWaterMark(true));
for await (const _ of r) {}
console.log(isDisturbed(r), r.readableEnded, r.destroyed);
if (typeof compose === 'function') {
  const c = compose(async function* (src) { for await (const s of src) yield String(s).toUpperCase(); }, new PassThrough());
  const out = [];
  c.on('data', (d) => out.push(String(d)));
  c.end('composed');
  await new Promise((res) => c.on('end', res));
  console.log(out);
}
const ac = new AbortController();
const big = Readable.from((function* () { for (let i = 0; ; i++) yield i; })());
setTimeout(() => ac.abort(), 5);
try { await big.map((x) => new Promise((res) => setTimeout(() => res(x), 1)), { signal: ac.signal }).toArray(); } catch (e) { console.log(e.name); }
import stream from 'node:stream';
stream.setDefaultHighWaterMark(false, 1024);
console.log(new Readable().readableHighWaterMark, new Writable().writableHighWaterMark, stream.getDefaultHighWaterMark(false));
stream.setDefaultHighWaterMark(false, 16384);
