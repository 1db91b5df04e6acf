import fs from 'node:fs';
import fsp from 'node:fs/promises';
fs.mkdirSync('d/e', { recursive: true });
fs.writeFileSync('d/e/f.txt', 'data');
fs.appendFileSync('d/e/f.txt', '+more');
console.log(fs.readFileSync('d/e/f.txt', 'utf8'), fs.readdirSync('d'), fs.existsSync('d/nope'));
console.log(fs.statSync('d/e/f.txt').size, fs.statSync('d').isDirectory());
for (const [f, a] of [[() => fs.readFileSync('missing.txt'), 0], [() => fs.mkdirSync('d'), 0], [() => fs.rmdirSync('d'), 0],
  [() => fs.readFileSync(42), 0], [() => fs.openSync('d/e/f.txt', 'bogus'), 0], [() => fs.writeFileSync('x', 5), 0]]) {
  try { f(); } catch (e) { console.log(e.code, e.message); }
}
fs.renameSync('d/e/f.txt', 'd/g.txt');
console.log(fs.readdirSync('d', { withFileTypes: true }).map((d) => [d.name, d.isFile()]));
console.log(await fsp.readFile('d/g.txt', 'base64'));
fs.readFile('d/g.txt', 'utf8', function (err, s) { console.log('cb', err, s, this === undefined); });
