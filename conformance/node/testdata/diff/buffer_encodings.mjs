const s = 'Grüße, 世界! 🎉';
for (const enc of ['utf8', 'hex', 'base64', 'base64url', 'latin1', 'binary', 'ascii', 'utf16le', 'ucs2']) {
  const b = Buffer.from(s, enc === 'hex' || enc.startsWith('base64') ? 'utf8' : enc);
  console.log(enc, b.length, b.toString(enc));
}
console.log(Buffer.from('ff00zz', 'hex'), Buffer.from('abc', 'hex'), Buffer.from('YQ', 'base64'), Buffer.from('Y Q = =', 'base64'));
console.log(Buffer.from('_-8', 'base64url'), Buffer.from('/+8=', 'base64'), Buffer.from('ÿ€', 'latin1'), Buffer.from('é', 'ascii'));
console.log(Buffer.byteLength('€', 'utf8'), Buffer.byteLength('€', 'utf16le'), Buffer.byteLength('aGk=', 'base64'), Buffer.byteLength('abcd', 'hex'));
console.log(Buffer.isEncoding('UTF-8'), Buffer.isEncoding('binary'), Buffer.isEncoding('nope'), Buffer.isEncoding(''));
try { Buffer.from('x', 'bogus'); } catch (e) { console.log(e.code, e.message); }
console.log(Buffer.from([0xc3, 0x28]).toString(), Buffer.from([0xed, 0xa0, 0x80]).toString('utf8').length);
console.log(Buffer.from('hello').toString('utf8', 1, 3), Buffer.from('hello').toString('hex', 2));
