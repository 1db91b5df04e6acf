// Seeded random numeric reads and writes: values, offsets and the errors.
let seed = 6502;
const rand = () => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };
const pick = (a) => a[Math.floor(rand() * a.length)];
const methods = ['Int8', 'UInt8', 'Int16LE', 'Int16BE', 'UInt16LE', 'UInt16BE', 'Int32LE', 'Int32BE', 'UInt32LE', 'UInt32BE', 'FloatLE', 'FloatBE', 'DoubleLE', 'DoubleBE'];
const values = [0, 1, -1, 127, 128, 255, 256, -129, 32767, -32769, 65535, 2 ** 31, -(2 ** 31), 2 ** 32 - 1, 2 ** 32, 1.5, -0, NaN, 1e40, '12', null];
const offsets = [0, 1, 3, 7, 8, -1, 1.5, undefined, '1', 100];
for (let i = 0; i < 120; i++) {
  const b = Buffer.alloc(8, 0xaa);
  const m = pick(methods), v = pick(values), off = pick(offsets);
  let w, r;
  try { w = b['write' + m](v, off); } catch (e) { w = e.code + ': ' + e.message; }
  try { r = b['read' + m](off); } catch (e) { r = e.code; }
  console.log(m, JSON.stringify(v), JSON.stringify(off), '|', w, '|', r, '|', b.toString('hex'));
}
for (let i = 0; i < 40; i++) {
  const b = Buffer.alloc(8);
  const n = pick([1, 2, 3, 4, 5, 6, 7, 0]), v = Math.floor((rand() - 0.5) * 2 ** (8 * Math.min(n, 6))), off = pick([0, 1, 2, 3]);
  let out = [];
  for (const m of ['UIntLE', 'UIntBE', 'IntLE', 'IntBE']) {
    try { out.push(b['write' + m](v, off, n), b['read' + m](off, n)); } catch (e) { out.push(e.code); }
  }
  console.log(n, v, off, out.join(' '), b.toString('hex'));
}
