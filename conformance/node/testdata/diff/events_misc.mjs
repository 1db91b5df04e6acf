import EventEmitter, { once, on, setMaxListeners, getMaxListeners, addAbortListener } from 'node:events';
const e = new EventEmitter();
const log = [];
e.on('removeListener', (n) => log.push('removed:' + n));
const f = () => {};
e.on('a', f); e.once('a', f); e.off('a', f); e.off('a', f);
console.log(log, e.listenerCount('a'));
e.on('b', function one() {}); e.on('b', function two() {});
console.log(e.listeners('b').map((x) => x.name), e.rawListeners('b').length);
e.removeAllListeners();
console.log(e.eventNames(), e.listenerCount('removeListener'));
const et = new EventTarget();
setMaxListeners(5, et);
console.log(getMaxListeners(et), getMaxListeners(new EventEmitter()));
const ac = new AbortController();
if (addAbortListener) { const d = addAbortListener(ac.signal, () => console.log('abort listener ran')); console.log(typeof d[Symbol.dispose] === 'function' || typeof d); }
ac.abort();
const em = new EventEmitter();
process.nextTick(() => { em.emit('v', 1); em.emit('v', 2); em.emit('close'); });
const vals = [];
for await (const [v] of on(em, 'v', { close: ['close'] })) vals.push(v);
console.log('on with close', vals);
const [a, b] = await Promise.all([once(em, 'x'), (async () => { em.emit('x', 'p', 'q'); })()]);
console.log(a, b);
try { e.on('x', 'not a function'); } catch (err) { console.log(err.code, err.message); }
try { e.setMaxListeners(-1); } catch (err) { console.log(err.code, err.message); }
try { new EventEmitter().emit('error', { message: 'obj' }); } catch (err) { console.log(err.code, err.message); }
