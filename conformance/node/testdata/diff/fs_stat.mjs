import fs from 'node:fs';
import fsp from 'node:fs/promises';
fs.writeFileSync('s.txt', 'x'.repeat(10));
fs.mkdirSync('sd');
const st = fs.statSync('s.txt'), sd = fs.statSync('sd');
console.log(st.isFile(), st.isDirectory(), st.isFIFO(), st.isSocket(), st.isBlockDevice(), st.isCharacterDevice(), st.size, (st.mode & 0o170000).toString(8), sd.isDirectory(), (sd.mode & 0o170000).toString(8));
console.log(typeof st.ino, typeof st.dev, st.nlink >= 1, st.mtime instanceof Date, st.mtimeMs === st.mtime.getTime() || Math.abs(st.mtimeMs - st.mtime.getTime()) < 1, typeof st.blksize, typeof st.blocks);
console.log(fs.statSync('s.txt', { bigint: true }).size, typeof fs.statSync('s.txt', { bigint: true }).mtimeNs, fs.statSync('nope', { throwIfNoEntry: false }));
console.log(fs.constants.F_OK, fs.constants.R_OK, fs.constants.W_OK, fs.constants.X_OK, fs.constants.O_RDONLY, fs.constants.O_CREAT, fs.constants.S_IFMT, fs.constants.COPYFILE_EXCL);
fs.accessSync('s.txt', fs.constants.R_OK);
try { fs.accessSync('nope'); } catch (e) { console.log(e.code, e.syscall, e.errno, e.message); }
const dir = await fsp.opendir('.');
const names = [];
for await (const d of dir) names.push(d.name + (d.isDirectory() ? '/' : ''));
console.log(names.filter((n) => !n.endsWith('.mjs')).sort());
const fd = fs.openSync('s.txt', 'r+');
console.log(fs.fstatSync(fd).size, fs.writeSync(fd, 'AB', 2), fs.readFileSync('s.txt', 'utf8'));
fs.ftruncateSync(fd, 4); fs.closeSync(fd);
console.log(fs.readFileSync('s.txt', 'utf8'), fs.readdirSync('.', { withFileTypes: true }).filter((d) => !d.name.endsWith('.mjs')).map((d) => [d.name, d.isFile()]).sort());
fs.symlinkSync('s.txt', 'link');
console.log(fs.lstatSync('link').isSymbolicLink(), fs.readlinkSync('link'), fs.realpathSync('link').endsWith('s.txt'), fs.statSync('link').size);
try { fs.readdirSync('s.txt'); } catch (e) { console.log(e.code, e.syscall); }
try { fs.rmdirSync('sd/../s.txt'); } catch (e) { console.log(e.code, e.syscall); }
try { fs.unlinkSync('sd'); } catch (e) { console.log(e.code, e.syscall); }
try { fs.rmSync('sd'); } catch (e) { console.log(e.code, e.syscall, e.message); }
