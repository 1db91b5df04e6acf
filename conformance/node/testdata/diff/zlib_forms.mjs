import zlib from 'node:zlib';
import { promisify } from 'node:util';
const input = Buffer.from('hello hello hello zlib world '.repeat(10));
for (const [c, d] of [['gzip', 'gunzip'], ['deflate', 'inflate'], ['deflateRaw', 'inflateRaw']]) {
  const packed = zlib[c + 'Sync'](input);
  console.log(c, zlib[d + 'Sync'](packed).equals(input), packed.length < input.length);
}
const gz = await promisify(zlib.gzip)(input);
console.log('promise', (await promisify(zlib.gunzip)(gz)).toString().slice(0, 11));
zlib.deflate('callback form', (err, out) => {
  zlib.inflate(out, (err2, back) => console.log('callback', err, err2, back.toString()));
});
console.log(zlib.unzipSync(zlib.gzipSync('via unzip')).toString(), zlib.unzipSync(zlib.deflateSync('via unzip 2')).toString());
console.log(zlib.gunzipSync(zlib.gzipSync('lvl', { level: 9 })).toString(), zlib.inflateSync(zlib.deflateSync('', { level: 0 })).length);
console.log(zlib.constants.Z_BEST_COMPRESSION, zlib.constants.Z_SYNC_FLUSH, typeof zlib.createGzip);
