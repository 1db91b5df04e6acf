// Seeded random pairs of values through util.isDeepStrictEqual and structuredClone.
import util from 'node:util';
let seed = 1;
const rand = () => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };
const pick = (a) => a[Math.floor(rand() * a.length)];
function gen(d) {
  const r = rand();
  if (d > 2 || r < 0.35) return pick([0, -0, 1, '1', NaN, null, undefined, true, 'a', 2n]);
  if (r < 0.55) return Array.from({ length: Math.floor(rand() * 3) }, () => gen(d + 1));
  if (r < 0.65) return new Set(Array.from({ length: Math.floor(rand() * 3) }, () => gen(d + 1)));
  if (r < 0.75) return new Map(Array.from({ length: Math.floor(rand() * 3) }, () => [pick(['k', 1]), gen(d + 1)]));
  if (r < 0.8) return new Date(pick([0, 1]));
  const o = {};
  for (let i = Math.floor(rand() * 3); i > 0; i--) o[pick(['x', 'y'])] = gen(d + 1);
  return o;
}
for (let i = 0; i < 150; i++) {
  const a = gen(0);
  const b = rand() < 0.4 ? structuredClone(a) : gen(0);
  console.log(i, util.isDeepStrictEqual(a, b), util.isDeepStrictEqual(a, structuredClone(a)), util.inspect(a, { breakLength: Infinity }));
}
