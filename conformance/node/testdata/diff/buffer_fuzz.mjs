// Seeded random bytes and strings through every Buffer encoding.
let seed = 4242;
const rand = () => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };
const encs = ['utf8', 'hex', 'base64', 'base64url', 'latin1', 'ascii', 'utf16le'];
for (let i = 0; i < 60; i++) {
  const n = Math.floor(rand() * 20);
  const bytes = Buffer.from(Array.from({ length: n }, () => Math.floor(rand() * 256)));
  const out = encs.map((e) => bytes.toString(e));
  console.log(bytes.toString('hex'), JSON.stringify(out));
  console.log(' ', encs.map((e, k) => Buffer.from(out[k], e).toString('hex')).join(' '));
}
const chars = ['a', 'é', '€', '😀', '\u0000', 'ÿ', '\ud800', 'ß', ' ', '+', '/', '='];
for (let i = 0; i < 40; i++) {
  const s = Array.from({ length: Math.floor(rand() * 8) }, () => chars[Math.floor(rand() * chars.length)]).join('');
  console.log(JSON.stringify(s), encs.map((e) => Buffer.from(s, e).toString('hex')).join(' '), encs.map((e) => Buffer.byteLength(s, e)).join(','));
}
