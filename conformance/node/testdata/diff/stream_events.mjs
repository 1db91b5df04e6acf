import { Readable, Writable, Duplex, finished } from 'node:stream';
const r = Readable.from(['a']);
for (const ev of ['data', 'end', 'close', 'pause', 'resume']) r.on(ev, () => console.log('r', ev));
r.pause();
setImmediate(() => r.resume());
const d = new Duplex({
  read() { this.push('from duplex'); this.push(null); },
  write(c, e, cb) { console.log('duplex got', String(c)); cb(); },
});
d.on('data', (c) => console.log('duplex data', String(c)));
d.end('to duplex');
finished(d, (err) => console.log('duplex finished', err));
const w = new Writable({ write(c, e, cb) { cb(); } });
w.on('close', () => console.log('w close', w.destroyed));
w.destroy();
const r2 = new Readable({ read() {} });
r2.on('error', (e) => console.log('r2 error', e.message));
r2.on('close', () => console.log('r2 close', r2.destroyed, r2.readableAborted));
r2.destroy(new Error('gone'));
console.log(r.readable, r2.destroyed, typeof Readable.prototype.unpipe);
