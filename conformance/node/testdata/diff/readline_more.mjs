import readline from 'node:readline';
import { createInterface } from 'node:readline/promises';
import { Readable, PassThrough } from 'node:stream';
const input = new PassThrough();
const rl = readline.createInterface({ input });
const ev = [];
for (const e of ['pause', 'resume', 'close']) rl.on(e, () => ev.push(e));
rl.on('line', (l) => { ev.push('line:' + l); if (l === 'stop') rl.close(); });
input.write('one\ntw'); input.write('o\r\nthree\n');
rl.pause(); input.write('during pause\n'); rl.resume();
input.write('stop\nafter close\n');
await new Promise((r) => setImmediate(r));
console.log(ev, rl.closed);
try { rl.question('q?', () => {}); } catch (e) { console.log(e.code, e.message); }
const rl2 = createInterface({ input: Readable.from(['alpha\nbeta\n']), output: new PassThrough() });
console.log(await rl2.question('first? '));
try { await rl2.question('second? '); } catch (e) { console.log('second', e.code); }
rl2.close();
const ac = new AbortController();
const rl3 = createInterface({ input: new PassThrough() });
const q = rl3.question('never answered', { signal: ac.signal });
ac.abort();
try { await q; } catch (e) { console.log(e.name, e.code); }
rl3.close();
const rl4 = readline.createInterface({ input: Readable.from(['x\n', 'y']) });
const lines = [];
rl4.on('line', (l) => lines.push(l));
await new Promise((r) => rl4.on('close', r));
console.log(lines, typeof readline.clearLine, typeof readline.cursorTo, typeof readline.emitKeypressEvents);
