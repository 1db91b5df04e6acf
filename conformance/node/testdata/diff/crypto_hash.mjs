import crypto from 'node:crypto';
for (const alg of ['md5', 'sha1', 'sha256', 'sha512', 'sha384']) {
  console.log(alg, crypto.createHash(alg).update('hello').update(' world').digest('hex'));
}
console.log(crypto.createHash('sha256').update('abc').digest('base64'), crypto.createHash('sha1').update(Buffer.from([1, 2, 3])).digest('base64url'));
const d = crypto.createHash('md5').update('x').digest(); console.log(Buffer.isBuffer(d), d.length);
console.log(crypto.createHash('sha256').update('café', 'utf8').digest('hex'), crypto.createHash('sha256').update('636166e9', 'hex').digest('hex'));
const h = crypto.createHash('sha1'); h.update('once'); h.digest();
try { h.digest(); } catch (e) { console.log(e.code); }
try { crypto.createHash('nope'); } catch (e) { console.log(e.message); }
console.log(crypto.getHashes().includes('sha256'), crypto.hash ? crypto.hash('sha1', 'abc') : 'n/a');
