import util from 'node:util';
function cbStyle(a, b, cb) { setTimeout(() => (a < 0 ? cb(new Error('neg')) : cb(null, a + b)), 1); }
const p = util.promisify(cbStyle);
console.log(await p(1, 2));
try { await p(-1, 2); } catch (e) { console.log('rejected', e.message); }
function custom() {}
custom[util.promisify.custom] = () => Promise.resolve('custom!');
console.log(await util.promisify(custom)(), util.promisify(custom) === custom[util.promisify.custom]);
const cbf = util.callbackify(async (x) => { if (x) throw new Error('bad ' + x); return 'fine'; });
await new Promise((r) => cbf(0, (err, v) => { console.log('cb1', err, v); r(); }));
await new Promise((r) => cbf(1, (err) => { console.log('cb2', err.message); r(); }));
const cbNull = util.callbackify(() => Promise.reject(null));
await new Promise((r) => cbNull((err) => { console.log('cb3', err.code, err.reason); r(); }));
const sleep = util.promisify(setTimeout);
console.log(await sleep(1, 'slept'));
try { util.promisify(5); } catch (e) { console.log(e.code, e.name); }
