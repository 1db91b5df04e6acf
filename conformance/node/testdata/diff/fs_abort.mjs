import fs from 'node:fs';
import fsp from 'node:fs/promises';
fs.writeFileSync('ab.txt', 'abort me');
const ac = new AbortController();
ac.abort();
try { await fsp.readFile('ab.txt', { signal: ac.signal }); } catch (e) { console.log(e.name, e.code); }
try { await fsp.writeFile('ab2.txt', 'x', { signal: ac.signal }); } catch (e) { console.log(e.name, e.code, fs.existsSync('ab2.txt')); }
const ac2 = new AbortController();
// Awaited before the next read: Node's thread pool may finish two reads in either order.
await new Promise((res) => {
  fs.readFile('ab.txt', { signal: ac2.signal, encoding: 'utf8' }, (err, s) => { console.log('cb', err && err.name, s); res(); });
  ac2.abort();
});
console.log(await fsp.readFile('ab.txt', { signal: new AbortController().signal, encoding: 'utf8' }));
