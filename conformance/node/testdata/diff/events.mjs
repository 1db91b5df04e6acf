import { EventEmitter, once } from 'node:events';
const e = new EventEmitter();
e.on('x', (a, b) => console.log('on', a, b));
e.prependListener('x', () => console.log('first'));
e.once('x', () => console.log('once'));
console.log(e.emit('x', 1, 2), e.emit('x', 3, 4), e.listenerCount('x'), e.eventNames());
try { e.emit('error', new Error('boom')); } catch (err) { console.log('threw', err.message); }
setTimeout(() => e.emit('later', 42), 1);
const [v] = await once(e, 'later');
console.log('once resolved', v);
process.on('exit', (code) => console.log('exit', code));
process.on('beforeExit', () => console.log('beforeExit'));
process.nextTick(() => console.log('tick'));
console.log('sync end');
