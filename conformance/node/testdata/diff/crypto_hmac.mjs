import crypto from 'node:crypto';
console.log(crypto.createHmac('sha256', 'secret').update('message').digest('hex'));
console.log(crypto.createHmac('sha1', Buffer.from('key')).update('data').digest('base64'));
console.log(crypto.createHmac('sha512', 'k'.repeat(200)).update('long key').digest('hex').slice(0, 32));
console.log(crypto.createHmac('md5', '').update('').digest('hex'));
console.log(crypto.timingSafeEqual(Buffer.from('abc'), Buffer.from('abc')), crypto.timingSafeEqual(Buffer.from('abc'), Buffer.from('abd')));
try { crypto.timingSafeEqual(Buffer.from('a'), Buffer.from('ab')); } catch (e) { console.log(e.code, e.name); }
const r = crypto.randomBytes(16); console.log(r.length, Buffer.isBuffer(r), crypto.randomBytes(0).length);
await new Promise((res) => crypto.randomBytes(8, (err, buf) => { console.log('async random', err, buf.length); res(); }));
console.log(typeof crypto.randomUUID(), crypto.randomUUID().length, /^[0-9a-f-]{36}$/.test(crypto.randomUUID()));
const n = crypto.randomInt(10); console.log(n >= 0 && n < 10, crypto.getRandomValues(new Uint8Array(4)).length);
console.log(Buffer.from(await crypto.subtle.digest('SHA-256', new TextEncoder().encode('abc'))).toString('hex'));
