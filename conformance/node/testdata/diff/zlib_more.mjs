import zlib from 'node:zlib';
const input = 'abc'.repeat(1000);
const d = zlib.deflateSync(input, { level: 1 });
console.log(zlib.inflateSync(d).length, zlib.inflateSync(d, { finishFlush: zlib.constants.Z_SYNC_FLUSH }).length);
const gz = zlib.gzipSync(input);
console.log(zlib.gunzipSync(Buffer.concat([gz, zlib.gzipSync('tail')])).toString().endsWith('tail'));
const g = zlib.createGzip();
const chunks = [];
g.on('data', (c) => chunks.push(c));
g.on('end', () => console.log('gzip stream end', zlib.gunzipSync(Buffer.concat(chunks)).toString(), g.bytesWritten));
g.write('stream '); g.end('data');
try { zlib.gunzipSync(gz.subarray(0, 10)); } catch (e) { console.log(e.code, e.errno, e.message); }
try { zlib.inflateSync(zlib.deflateRawSync('x')); } catch (e) { console.log(e.code, e.message); }
console.log(zlib.deflateSync(Buffer.alloc(0)).length > 0, zlib.inflateSync(zlib.deflateSync(new Uint8Array([1, 2, 3]))));
console.log(zlib.gunzipSync(zlib.gzipSync('x'), { maxOutputLength: 1 }).toString());
try { zlib.gunzipSync(zlib.gzipSync('xy'), { maxOutputLength: 1 }); } catch (e) { console.log(e.code, e.name, e.message); }
