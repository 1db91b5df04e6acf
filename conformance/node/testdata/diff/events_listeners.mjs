import EventEmitter, { errorMonitor, getEventListeners } from 'node:events';
const e = new EventEmitter();
const order = [];
e.on('newListener', (name) => order.push('new:' + String(name)));
const a = () => order.push('a'), b = () => order.push('b');
e.on('x', a); e.prependListener('x', b); e.prependOnceListener('x', () => order.push('once-first'));
e.emit('x'); e.emit('x');
console.log(order);
console.log(e.listenerCount('x'), e.listeners('x').length, e.rawListeners('x').length, getEventListeners(e, 'x').length);
e.off('x', a); console.log(e.listenerCount('x'), e.eventNames());
e.removeAllListeners('x'); console.log(e.eventNames());
e.on(errorMonitor, (err) => console.log('monitor saw', err.message));
e.on('error', (err) => console.log('handler saw', err.message));
e.emit('error', new Error('E1'));
console.log(e.getMaxListeners(), EventEmitter.defaultMaxListeners);
e.setMaxListeners(1);
e.on('warn', () => {}); e.on('warn', () => {});
process.on('warning', (w) => console.log('warning', w.name));
const s = Symbol('sym'); e.on(s, () => console.log('symbol event')); e.emit(s);
console.log(e.emit('nobody'), EventEmitter.listenerCount(e, 'warn'));
class My extends EventEmitter {}
const m = new My(); m.once('hi', function () { console.log('this ok', this === m, arguments.length); }); m.emit('hi', 1, 2);
try { new EventEmitter().emit('error', 'str'); } catch (err) { console.log(err.code, err.message); }
