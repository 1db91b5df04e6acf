import crypto from 'node:crypto';
console.log(crypto.pbkdf2Sync('password', 'salt', 1, 20, 'sha1').toString('hex'));
console.log(crypto.pbkdf2Sync('password', 'salt', 4096, 32, 'sha256').toString('hex'));
console.log(crypto.pbkdf2Sync(Buffer.from('pw'), Buffer.alloc(8), 10, 64, 'sha512').toString('base64'));
console.log(crypto.pbkdf2Sync('p', 's', 2, 0, 'sha256').length, crypto.pbkdf2Sync('p', 's', 3, 100, 'md5').toString('hex').slice(0, 40));
crypto.pbkdf2('pw', 'salt', 5, 16, 'sha256', (err, key) => console.log('async', err, key.toString('hex')));
const hk = crypto.hkdfSync('sha256', 'input key', 'salt', 'info', 42);
console.log(hk instanceof ArrayBuffer, Buffer.from(hk).toString('hex'));
for (const alg of ['sha224', 'sha512-256', 'sha3-256', 'sha3-512']) {
  console.log(alg, crypto.createHash(alg).update('abc').digest('hex'), crypto.createHmac(alg, 'key').update('msg').digest('hex').slice(0, 32));
}
for (const f of [() => crypto.pbkdf2Sync('p', 's', 0, 10, 'sha1'), () => crypto.pbkdf2Sync('p', 's', 1, 10, 'nope'), () => crypto.pbkdf2Sync('p', 's', 1, 10)]) {
  try { f(); } catch (e) { console.log(e.name, e.code, e.message); }
}
