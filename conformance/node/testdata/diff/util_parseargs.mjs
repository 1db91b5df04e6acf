import { parseArgs, getSystemErrorName } from 'node:util';
const options = { foo: { type: 'boolean', short: 'f' }, bar: { type: 'string', short: 'b' }, n: { type: 'string', multiple: true },
  a: { type: 'boolean', short: 'a' }, c: { type: 'boolean', short: 'c' }, color: { type: 'boolean' }, def: { type: 'string', default: 'dv' } };
const r = parseArgs({ args: ['-f', '--bar', 'b1', 'pos', '--n=1', '--n', '2', '-ac', '-bINLINE', '--', '--notopt'], options, allowPositionals: true, tokens: true });
console.log(r.values, r.positionals);
console.log(r.tokens);
console.log(parseArgs({ args: ['--no-color'], options, allowNegative: true }).values);
for (const args of [['--unknown'], ['-z'], ['pos'], ['--bar'], ['--foo=1'], ['--bar', '-f']]) {
  try { parseArgs({ args, options }); } catch (e) { console.log(e.code, JSON.stringify(e.message)); }
}
console.log(parseArgs({ args: ['--x', 'y', '-q'], strict: false }));
console.log(getSystemErrorName(-2), getSystemErrorName(-13), getSystemErrorName(-17));
