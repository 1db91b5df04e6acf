import zlib from 'node:zlib';
const text = 'the quick brown fox '.repeat(20);
const gz = zlib.gzipSync(text);
console.log(gz[0], gz[1], zlib.gunzipSync(gz).toString() === text);
console.log(zlib.inflateSync(zlib.deflateSync(text)).toString().length, zlib.inflateRawSync(zlib.deflateRawSync(text)).length);
console.log(zlib.unzipSync(zlib.deflateSync('x')).toString(), zlib.crc32('hello'));
try { zlib.gunzipSync(Buffer.from('not gzip data')); } catch (e) { console.log(e.code, e.errno, e.message); }
zlib.gzip('cb', (err, out) => console.log('cb', err, zlib.gunzipSync(out).toString()));
