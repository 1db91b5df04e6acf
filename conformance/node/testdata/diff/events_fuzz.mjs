// Seeded random EventEmitter operations, some made by listeners while an
// event is being emitted: the calls, their results and the listener lists.
import { EventEmitter } from 'node:events';
let seed = 13;
const rand = () => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };
const pick = (a) => a[Math.floor(rand() * a.length)];
for (let round = 0; round < 25; round++) {
  const e = new EventEmitter();
  const log = [];
  const fns = Array.from({ length: 4 }, (_, i) => {
    const f = function () {
      log.push('f' + i);
      if (rand() < 0.2) { const op = pick(['off', 'on', 'once', 'removeAll']); log.push('  in f' + i + ':' + op); if (op === 'off') e.off('x', pick(fns)); else if (op === 'removeAll') e.removeAllListeners('x'); else e[op]('x', pick(fns)); }
    };
    return f;
  });
  if (rand() < 0.5) e.on('newListener', (n, l) => log.push('new:' + String(n) + ':' + fns.indexOf(l)));
  if (rand() < 0.5) e.on('removeListener', (n, l) => log.push('rm:' + String(n) + ':' + fns.indexOf(l)));
  for (let k = 0; k < 12; k++) {
    const op = pick(['on', 'once', 'prependListener', 'prependOnceListener', 'off', 'emit', 'emit', 'removeAllListeners']);
    const f = pick(fns);
    let r;
    if (op === 'emit') r = e.emit('x', k);
    else if (op === 'removeAllListeners') { e.removeAllListeners(rand() < 0.5 ? 'x' : undefined); r = '-'; }
    else { e[op]('x', f); r = fns.indexOf(f); }
    log.push(op + ' ' + r + ' -> [' + e.listeners('x').map((l) => fns.indexOf(l)).join(',') + '] raw ' + e.rawListeners('x').length + ' count ' + e.listenerCount('x') + ' names ' + e.eventNames().map(String).join('/'));
  }
  console.log('round', round);
  console.log(log.join('\n'));
}
