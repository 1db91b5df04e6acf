const src = { d: new Date(0), m: new Map([[1, { a: 1 }]]), s: new Set([1, 2]), r: /x/g, arr: [1, [2]], n: null, u: undefined, big: 1n, ta: new Uint8Array([1, 2]) };
src.self = src;
const c = structuredClone(src);
console.log(c.self === c, c.d instanceof Date, c.d.getTime(), c.m.get(1), [...c.s], c.r.flags, c.arr, c.big, c.ta, 'u' in c);
try { structuredClone({ f() {} }); } catch (e) { console.log(e.name, e.code, e instanceof Error); }
try { structuredClone(Symbol('x')); } catch (e) { console.log(e.name, e.message); }
const err = structuredClone(new RangeError('cloned')); console.log(err instanceof RangeError, err.message);
class K { constructor() { this.v = 1; } }
const k = structuredClone(new K()); console.log(k.constructor === Object, k.v);
console.log(JSON.stringify({ a: [1, { b: 2 }], c: 'x' }, null, 2));
console.log(JSON.stringify({ a: 1, b: [1, 2], d: new Date(0), u: undefined, f() {}, n: NaN, i: -Infinity }), JSON.stringify([undefined, () => {}]));
console.log(JSON.stringify({ a: 1, b: 2, c: 3 }, ['a', 'c']), JSON.stringify({ a: 5 }, (k, v) => (typeof v === 'number' ? v * 2 : v)), JSON.stringify('é\u2028\ud800'));
console.log(JSON.parse('{"a":[1,2,{"b":null}]}', (k, v) => (v === null ? 'null!' : v)), JSON.stringify({ toJSON() { return 'custom'; } }));
try { JSON.parse('{bad'); } catch (e) { console.log(e.name); }
try { JSON.stringify(10n); } catch (e) { console.log(e.name, e.message); }
