// Seeded random paths through every node:path function.
import path from 'node:path';
let seed = 777;
const rand = () => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };
const pick = (a) => a[Math.floor(rand() * a.length)];
const parts = ['', '.', '..', 'a', 'b.txt', '.hidden', 'c.tar.gz', '...', 'x.', 'd/', '/', '//', 'e//f', './g', '../h'];
const p = () => Array.from({ length: Math.floor(rand() * 5) }, () => pick(parts)).join(pick(['/', '', '//']));
for (let i = 0; i < 120; i++) {
  const a = (rand() < 0.3 ? '/' : '') + p(), b = p();
  const ext = pick([undefined, '.txt', '.gz', 'z', '']);
  console.log(JSON.stringify([a, b]), JSON.stringify([path.normalize(a), path.join(a, b), path.dirname(a), path.basename(a), path.basename(a, ext), path.extname(a), path.isAbsolute(a)]));
  console.log(' ', JSON.stringify(path.parse(a)), path.format(path.parse(a)) === a || path.format(path.parse(a)));
  console.log(' ', path.relative('/r/' + a, '/r/' + b), path.resolve('/base', a, b));
}
