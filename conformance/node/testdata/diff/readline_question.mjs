import readline from 'node:readline';
import { Readable, Writable } from 'node:stream';
let written = '';
const output = new Writable({ write(c, e, cb) { written += c; cb(); } });
const rl = readline.createInterface({ input: Readable.from(['Ada\n', 'blue\n', 'extra line\n']), output, terminal: false });
rl.question('name? ', (name) => {
  rl.question('color? ', (color) => {
    console.log('answers', name, color);
    rl.on('line', (l) => console.log('line after', l));
  });
});
rl.on('close', () => console.log('closed', JSON.stringify(written)));
rl.setPrompt('>> ');
console.log(rl.getPrompt(), rl.terminal, typeof rl.line);
