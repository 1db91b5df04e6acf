import { setTimeout as sleep } from 'node:timers/promises';
const ac = new AbortController();
const p = sleep(1000, 'x', { signal: ac.signal });
ac.abort();
try { await p; } catch (e) { console.log(e.name, e.code, e.message); }
try { await sleep(1, 'y', { signal: AbortSignal.abort('why') }); } catch (e) { console.log(e.name, e.cause); }
const ac2 = new AbortController();
ac2.signal.addEventListener('abort', (ev) => console.log('abort event', ev.type, ac2.signal.aborted));
ac2.signal.onabort = () => console.log('onabort');
ac2.abort(new Error('reason'));
console.log(ac2.signal.reason.message);
try { ac2.signal.throwIfAborted(); } catch (e) { console.log('thrown', e.message); }
const ts = AbortSignal.timeout(5);
const keep = setTimeout(() => {}, 1000);
await new Promise((r) => ts.addEventListener('abort', r));
console.log(ts.aborted, ts.reason.name);
clearTimeout(keep);
console.log(AbortSignal.any ? AbortSignal.any([AbortSignal.abort(1)]).aborted : true);
