const ab = new ArrayBuffer(8); const view = new Uint8Array(ab); view.set([1, 2, 3, 4, 5, 6, 7, 8]);
const b = Buffer.from(ab, 2, 4); console.log(b, b.byteOffset, b.buffer === ab);
view[2] = 99; console.log(b[0]);
const w = Buffer.alloc(10);
console.log(w.write('héllo'), w.write('ab', 7), w.write('ffff', 'hex'), w.write('zz', 8, 'latin1'), w);
console.log(Buffer.alloc(5).fill('é'), Buffer.alloc(4).fill(''), Buffer.alloc(4).fill(257), Buffer.alloc(3).fill('abc', 1));
const x = Buffer.from('abcdef'), y = Buffer.from('xxcdxx');
console.log(x.compare(y, 2, 4, 2, 4), x.compare(y), x.compare(y, 0, 2));
console.log(x.indexOf('c', -4), x.indexOf('', 2), x.indexOf('63', 0, 'hex'), x.lastIndexOf('a', -10), x.indexOf(Buffer.alloc(0)), x.includes(0x64));
console.log(Buffer.from('ab', 'ucs2'), Buffer.from([0x61, 0x00, 0x62]).toString('utf16le'), Buffer.from('aé', 'ascii'));
console.log(Buffer.from('zz==', 'base64'), Buffer.from('####', 'base64'), Buffer.from('YW Jj\nZA==', 'base64').toString());
console.log(Buffer.from([250, 251]).toString('base64url'), Buffer.from('+/+/', 'base64url'), Buffer.from('-_-_', 'base64'));
console.log(Buffer.concat([Buffer.from('a'), new Uint8Array([98])]), Buffer.byteLength(new Uint16Array(3)), Buffer.byteLength(new ArrayBuffer(5)));
try { Buffer.concat([1]); } catch (e) { console.log(e.code, e.message); }
// The maximum in the message is the version's (2^32 in Node 20, 2^53-1 from Node 22; nook is Node 25's).
try { Buffer.alloc(-1); } catch (e) { console.log(e.code, e.message.replace(/<= \d+\./, '<= kMaxLength.')); }
try { Buffer.from(5); } catch (e) { console.log(e.code, e.message); }
console.log(Buffer.from('x').equals(new Uint8Array([120])), Buffer.isBuffer(new Uint8Array(1)), Buffer.compare(new Uint8Array([1]), Buffer.from([1])));
console.log(Buffer.from(Buffer.from('abc').buffer.slice(0, 0)).length, typeof Buffer.copyBytesFrom, Buffer.of(1, 2, 3));
const big = Buffer.alloc(8); big.writeBigUInt64BE(2n ** 64n - 1n); console.log(big.readBigUInt64LE(), big.readBigInt64BE());
console.log(Buffer.from('hello').toString('hex', -1, 100), Buffer.from('hello').toString('utf8', 3, 1), Buffer.from('hello').slice(-3, -1).toString());
