import { Readable } from 'node:stream';
async function* gen() { yield 'x'; yield 'y'; yield 'z'; }
const r = Readable.from(gen());
const got = [];
for await (const c of r) { got.push(c); if (got.length === 2) break; }
console.log(got, r.destroyed);
const b = Readable.from(Buffer.from('buffer whole'));
for await (const c of b) console.log(Buffer.isBuffer(c), c.toString());
const s = Readable.from('a string');
for await (const c of s) console.log(typeof c, c);
const enc = new Readable({ read() {} });
enc.setEncoding('hex');
enc.push(Buffer.from('hi')); enc.push(null);
for await (const c of enc) console.log('hex', c);
const e = new Readable({ read() { this.destroy(new Error('boom')); } });
try { for await (const c of e) console.log(c); } catch (err) { console.log('iter error', err.message); }
console.log(await Readable.from([1, 2, 3]).reduce((a, b) => a + b, 0));
