import util from 'node:util';
const e = new Error('plain');
e.stack = undefined;
console.log(util.inspect(e));
const t = new TypeError('typed'); t.stack = 'TypeError: typed';
console.log(util.inspect(t));
const c = new RangeError('with code'); c.stack = 'RangeError: with code'; c.code = 'E_X';
console.log(util.inspect(c));
console.log(util.inspect({ err: t }));
class MyErr extends Error { constructor(m) { super(m); this.name = 'MyErr'; this.stack = 'MyErr: ' + m; } }
console.log(util.inspect(new MyErr('custom')));
const nostack = new Error('x'); nostack.stack = '';
console.log(util.inspect(nostack), String(nostack), Object.prototype.toString.call(nostack));
console.log(util.types.isNativeError(t), e instanceof Error);
