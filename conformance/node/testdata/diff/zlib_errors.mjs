import zlib from 'node:zlib';
const gz = zlib.gzipSync('hello world hello world');
const df = zlib.deflateSync('hello world hello world');
const raw = zlib.deflateRawSync('hello world hello world');
const cases = [['gunzip', gz.subarray(0, gz.length - 4)], ['gunzip', Buffer.concat([gz, Buffer.from('junk')])], ['inflate', df.subarray(0, 5)],
  ['inflateRaw', raw.subarray(0, 3)], ['inflate', gz], ['gunzip', df], ['unzip', raw], ['inflateRaw', Buffer.alloc(0)], ['gunzip', Buffer.alloc(0)],
  ['unzip', Buffer.from([0x1f, 0x8b])], ['gunzip', Buffer.concat([gz, Buffer.alloc(5)])], ['gunzip', Buffer.concat([gz, gz])], ['gunzip', Buffer.concat([gz, Buffer.from([0x1f])])]];
for (const [fn, data] of cases) {
  try { const out = zlib[fn + 'Sync'](data); console.log(fn, 'ok', JSON.stringify(out.toString())); } catch (e) { console.log(fn, e.code, e.errno, e.message); }
}
await new Promise((res) => zlib.gunzip(Buffer.from('nope'), (err) => { console.log('cb error', err.code, err.errno, err.message); res(); }));
const g = zlib.createGunzip();
g.on('error', (e) => console.log('stream error', e.code, e.errno, e.message));
g.end(gz.subarray(0, 12));
console.log(zlib.codes.Z_DATA_ERROR, zlib.codes['-3'], zlib.Z_DEFAULT_COMPRESSION);
