import { setInterval as every, setTimeout as wait, scheduler } from 'node:timers/promises';
import timers from 'node:timers';
let n = 0;
for await (const v of every(2, 'tick')) { console.log(v, ++n); if (n === 3) break; }
await scheduler.wait(2);
console.log('waited', typeof scheduler.yield);
const t = setTimeout(() => console.log('refreshed timer fired'), 5);
t.refresh();
console.log(typeof t.refresh(), t === t.refresh());
const id = setTimeout(() => console.log('never'), 1);
clearTimeout(+id);
console.log(timers.setTimeout === setTimeout, typeof timers.promises, typeof timers.promises?.setTimeout);
const ac = new AbortController();
const it = every(1, null, { signal: ac.signal });
setTimeout(() => ac.abort(), 5);
try { for await (const _ of it) {} } catch (e) { console.log(e.name, e.code); }
await wait(10);
console.log('end');
