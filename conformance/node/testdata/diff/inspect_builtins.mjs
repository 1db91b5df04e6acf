import util from 'node:util';
function* g() { yield 1; }
console.log(g(), [1, 2][Symbol.iterator](), 'abc'[Symbol.iterator]());
console.log(Symbol('with \'quote\''), { [Symbol('a b')]: 1, ['__proto__']: 2 });
console.log(Math, JSON, Reflect.ownKeys(Reflect).length > 5, Object.keys(JSON), Object.keys(JSON.parse));
console.log(util.inspect(new Proxy({ a: 1 }, {})), util.inspect(new Proxy([1, 2], {})));
console.log(Object.create(Array.prototype), Object.create(Map.prototype) instanceof Map);
class Accessor { #priv = 1; get x() { return 1; } static y = 2; }
console.log(new Accessor(), Accessor);
const fnWithProps = function named() {}; fnWithProps.a = 1; fnWithProps.b = { c: 2 };
console.log(fnWithProps, [fnWithProps], { fnWithProps });
console.log(new (class extends Map {})([[1, 2]]), new (class Foo extends Set {})([1]), new (class Bar extends Array {})(1, 2));
console.log(new (class E2 extends Error { constructor() { super('m'); this.stack = 'E2: m'; } })());
console.log(Object.assign(() => {}, { displayName: 'x' }), async () => {}, [Math.max, JSON.parse, Array.prototype.map]);
console.log(new Date('2020-01-02T03:04:05.678Z'), Object.assign(new Date(0), { extra: 1 }), [new Date(86400000)]);
console.log(/a\/b[c]/gimsuy, Object.assign(/x/, { p: 1 }), new RegExp(''), { re: /^$/ });
console.log(-0, [0, -0, +0], 0.1, 1e300 * 10, -1e-7, 2 ** 53, 123456789.123456789);
console.log(util.inspect(new Float32Array([0.1, 1.5])), util.inspect(new BigUint64Array([1n, 2n])), new Uint8ClampedArray(2));
console.log(new DataView(new ArrayBuffer(4), 1, 2));
console.log(util.inspect('a\u0085b\u00a0c\u200bd\ufeffe'), util.inspect('\ud83d'), util.inspect('\udc00x'));
const seen = []; for (const k in function f() {}) seen.push(k); for (const k in new Uint8Array(1)) seen.push(k); for (const k in 'ab') seen.push(k);
console.log(seen, Object.keys(Array.prototype), Object.keys(Function.prototype), Object.keys(globalThis).includes('Function'));
