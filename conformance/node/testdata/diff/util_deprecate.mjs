import util from 'node:util';
const f = util.deprecate((a, b) => a + b, 'f is old', 'DEP_X');
console.log(f(1, 2), f(3, 4), typeof f);
process.on('warning', (w) => console.log('warning', w.name, w.message, w.code));
const g = util.deprecate(function named() { return this && this.v; }, 'g is old');
console.log(g.call({ v: 9 }));
function Base() { this.base = true; }
Base.prototype.hello = function () { return 'hello from ' + this.constructor.name; };
function Child() { Base.call(this); }
util.inherits(Child, Base);
console.log(new Child().hello(), Child.super_ === Base, new Child() instanceof Base);
const dbg = util.debuglog('nothing');
dbg('not printed');
console.log(dbg.enabled, util.toUSVString('a\ud800b'), util.stripVTControlCharacters('\u001b[31mred\u001b[39m'));
setTimeout(() => console.log('done'), 5);
