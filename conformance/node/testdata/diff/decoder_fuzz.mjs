// Seeded random text split at random byte boundaries through StringDecoder
// (every encoding) and a streaming TextDecoder.
import { StringDecoder } from 'node:string_decoder';
let seed = 2024;
const rand = () => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };
const chars = ['a', 'é', '€', '😀', 'ß', '\u0000', '中', ' '];
for (let i = 0; i < 60; i++) {
  const s = Array.from({ length: 1 + Math.floor(rand() * 6) }, () => chars[Math.floor(rand() * chars.length)]).join('');
  let bytes = Buffer.from(s);
  if (rand() < 0.3) bytes = Buffer.concat([bytes, Buffer.from([0xe2, 0x82])]);
  if (rand() < 0.2) bytes = Buffer.concat([Buffer.from([0xff]), bytes]);
  const cuts = [];
  for (let k = 0; k < bytes.length; k++) if (rand() < 0.4) cuts.push(k);
  const pieces = [];
  let last = 0;
  for (const c of [...cuts, bytes.length]) { pieces.push(bytes.subarray(last, c)); last = c; }
  const row = [];
  for (const enc of ['utf8', 'utf16le', 'base64', 'hex', 'latin1']) {
    const d = new StringDecoder(enc);
    row.push(pieces.map((p) => d.write(p)).join('|') + '#' + d.end());
  }
  const td = new TextDecoder();
  row.push(pieces.map((p) => td.decode(p, { stream: true })).join('|') + '#' + td.decode());
  console.log(bytes.toString('hex'), pieces.length, JSON.stringify(row));
}
