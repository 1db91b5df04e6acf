import { EventEmitter, captureRejectionSymbol } from 'node:events';
const e = new EventEmitter({ captureRejections: true });
e.on('work', async () => { throw new Error('async fail'); });
e.on('error', (err) => console.log('captured', err.message));
e.emit('work');
class C extends EventEmitter {
  constructor() { super({ captureRejections: true }); }
  [captureRejectionSymbol](err, event, ...args) { console.log('custom capture', err.message, event, args); }
}
const c = new C();
c.on('job', async (n) => { throw new Error('job ' + n); });
c.emit('job', 7);
const plain = new EventEmitter();
plain.on('x', () => 'sync return');
console.log(plain.emit('x'));
setTimeout(() => console.log('end'), 5);
