import { EventEmitter, once, on } from 'node:events';
const e = new EventEmitter();
setTimeout(() => { e.emit('tick', 1); e.emit('tick', 2); e.emit('tick', 3); e.emit('stop'); }, 1);
const seen = [];
for await (const [v] of on(e, 'tick')) { seen.push(v); if (v === 3) break; }
console.log(seen, e.listenerCount('tick'), e.listenerCount('error'));
setTimeout(() => e.emit('error', new Error('bad once')), 1);
try { await once(e, 'never'); } catch (err) { console.log('once rejected', err.message); }
const ac = new AbortController();
setTimeout(() => ac.abort(), 1);
try { await once(e, 'never', { signal: ac.signal }); } catch (err) { console.log(err.name, err.code); }
const et = new EventTarget();
setTimeout(() => et.dispatchEvent(new Event('ping')), 1);
const [ev] = await once(et, 'ping');
console.log(ev.type, ev instanceof Event);
