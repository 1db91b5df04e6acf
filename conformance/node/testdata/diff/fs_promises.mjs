import fsp from 'node:fs/promises';
import { promises as fsp2 } from 'node:fs';
console.log(fsp === fsp2);
await fsp.writeFile('p.txt', 'line1\n');
await fsp.appendFile('p.txt', 'line2\n');
console.log(JSON.stringify(await fsp.readFile('p.txt', 'utf8')), (await fsp.stat('p.txt')).size);
await fsp.mkdir('pd/x', { recursive: true });
await fsp.writeFile('pd/x/y.txt', 'y');
console.log((await fsp.readdir('pd', { withFileTypes: true })).map((d) => [d.name, d.isDirectory()]));
await fsp.rename('pd/x/y.txt', 'pd/z.txt');
console.log((await fsp.readdir('pd')).sort());
await fsp.rm('pd', { recursive: true, force: true });
try { await fsp.readFile('pd/z.txt'); } catch (e) { console.log(e.code, e.errno, e.syscall); }
try { await fsp.access('missing'); } catch (e) { console.log('access', e.code); }
const fh = await fsp.open('p.txt', 'r');
const buf = Buffer.alloc(5);
const { bytesRead } = await fh.read(buf, 0, 5, 6);
console.log(bytesRead, buf.toString());
await fh.close();
await fsp.unlink('p.txt');
console.log(await fsp.readdir('.').then((l) => l.filter((n) => !n.endsWith('.mjs'))));
