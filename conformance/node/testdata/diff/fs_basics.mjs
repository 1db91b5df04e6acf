import fs from 'node:fs';
fs.writeFileSync('a.txt', 'hello');
fs.appendFileSync('a.txt', ' world');
const st = fs.statSync('a.txt');
console.log(fs.readFileSync('a.txt', 'utf8'), st.size, st.isFile(), st.isDirectory(), st.isSymbolicLink(), typeof st.mtimeMs, st.mtime instanceof Date);
fs.mkdirSync('dir/sub/deep', { recursive: true });
console.log(fs.mkdirSync('dir/sub/deep', { recursive: true }), fs.mkdirSync('dir2', { recursive: true }) !== undefined);
fs.writeFileSync('dir/f1.txt', '1'); fs.writeFileSync('dir/f2.txt', '22');
console.log(fs.readdirSync('dir').sort(), fs.readdirSync('dir', { withFileTypes: true }).sort((x, y) => x.name < y.name ? -1 : 1).map((d) => d.name + ':' + (d.isDirectory() ? 'd' : 'f')));
fs.renameSync('dir/f1.txt', 'dir/renamed.txt');
console.log(fs.existsSync('dir/f1.txt'), fs.existsSync('dir/renamed.txt'));
fs.rmSync('dir', { recursive: true });
console.log(fs.existsSync('dir'));
try { fs.rmSync('nothing'); } catch (e) { console.log(e.code, e.errno); }
fs.rmSync('nothing', { force: true });
fs.copyFileSync('a.txt', 'b.txt'); console.log(fs.readFileSync('b.txt').length);
fs.unlinkSync('b.txt'); console.log(fs.existsSync('b.txt'));
fs.writeFileSync('c.bin', Buffer.from([1, 2, 3])); console.log(fs.readFileSync('c.bin'));
console.log(fs.readdirSync('.').filter((n) => !n.endsWith('.mjs')).sort());
