// Seeded random line endings split across chunks, read with readline.
import readline from 'node:readline';
import { Readable } from 'node:stream';
let seed = 555;
const rand = () => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };
const atoms = ['a', 'bc', '\n', '\r\n', '\r', '\n\n', 'é', '€', ' '];
for (let i = 0; i < 40; i++) {
  const text = Array.from({ length: Math.floor(rand() * 10) }, () => atoms[Math.floor(rand() * atoms.length)]).join('');
  const buf = Buffer.from(text);
  const chunks = [];
  let at = 0;
  while (at < buf.length) { const n = 1 + Math.floor(rand() * 4); chunks.push(buf.subarray(at, at + n)); at += n; }
  const crlfDelay = rand() < 0.5 ? Infinity : 100;
  const rl = readline.createInterface({ input: Readable.from(chunks), crlfDelay });
  const lines = [];
  for await (const l of rl) lines.push(l);
  console.log(JSON.stringify(text), chunks.length, crlfDelay, JSON.stringify(lines));
}
