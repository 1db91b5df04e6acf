import zlib from 'node:zlib';
console.log(zlib.crc32(''), zlib.crc32('hello world'), zlib.crc32(Buffer.from([1, 2, 3])), zlib.crc32('world', zlib.crc32('hello ')));
const data = Buffer.from('deterministic input '.repeat(5));
const raw = zlib.inflateRawSync(zlib.deflateRawSync(data));
console.log(zlib.crc32(raw) === zlib.crc32(data));
const gz = zlib.gzipSync(data);
console.log(gz.readUInt32LE(gz.length - 8) === zlib.crc32(data), gz.readUInt32LE(gz.length - 4) === data.length);
const z = zlib.deflateSync(data);
console.log(z[0].toString(16), (z.readUInt16BE(0) % 31) === 0);
try { zlib.inflateSync(Buffer.from([1, 2, 3, 4])); } catch (e) { console.log(e.code, e.errno); }
try { zlib.inflateRawSync(Buffer.from([0xff, 0xff])); } catch (e) { console.log(e.code); }
try { zlib.gunzipSync('not a buffer really'); } catch (e) { console.log(e.code); }
