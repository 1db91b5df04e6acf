// Seeded random format strings and arguments through util.format.
import util from 'node:util';
let seed = 8080;
const rand = () => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };
const pick = (a) => a[Math.floor(rand() * a.length)];
const specs = ['%s', '%d', '%i', '%f', '%j', '%o', '%O', '%c', '%%', '%x', '%', ' text ', 'a', '%s%s'];
const args = [() => 'str', () => 42, () => -1.5, () => 0, () => -0, () => 10n, () => null, () => undefined, () => true, () => ({ a: 1 }), () => [1, [2]],
  () => Symbol('s'), () => '12abc', () => NaN, () => new Date(0), () => ({ toString() { return 'custom'; } }), () => Infinity, () => '', () => [undefined]];
for (let i = 0; i < 120; i++) {
  const fmt = Array.from({ length: Math.floor(rand() * 5) }, () => pick(specs)).join('');
  const a = Array.from({ length: Math.floor(rand() * 4) }, () => pick(args)());
  const first = rand() < 0.85 ? [fmt] : [];
  console.log(JSON.stringify(util.format(...first, ...a)));
}
