// Seeded random structures: util.inspect's layout rules on many shapes.
import util from 'node:util';
let seed = 12345;
const rand = () => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };
const pick = (a) => a[Math.floor(rand() * a.length)];
const words = ['a', 'bb', 'key', 'value', 'longer-key', 'x y', "it's", 'naïve', 'Ω', '12', '_u', 'camelCase', 'with\nnewline'];
function gen(depth) {
  const r = rand();
  if (depth > 4 || r < 0.3) {
    return pick([() => Math.floor(rand() * 1000) - 500, () => rand() * 100, () => pick(words), () => pick(words).repeat(Math.floor(rand() * 12)),
      () => null, () => undefined, () => rand() < 0.5, () => BigInt(Math.floor(rand() * 1e6)), () => -0])();
  }
  if (r < 0.55) return Array.from({ length: Math.floor(rand() * 12) }, () => gen(depth + 1));
  if (r < 0.65) return new Map(Array.from({ length: Math.floor(rand() * 4) }, () => [pick(words), gen(depth + 1)]));
  if (r < 0.7) return new Set(Array.from({ length: Math.floor(rand() * 5) }, () => gen(depth + 2)));
  const o = {};
  for (let i = Math.floor(rand() * 7); i > 0; i--) o[pick(words)] = gen(depth + 1);
  return o;
}
for (let i = 0; i < 150; i++) {
  const v = gen(0);
  const opts = pick([{}, {}, { depth: 1 }, { breakLength: 40 }, { compact: 1 }, { compact: false }, { depth: Infinity, breakLength: 120 }, { sorted: true }]);
  console.log('#' + i, JSON.stringify(opts));
  console.log(util.inspect(v, opts));
}
