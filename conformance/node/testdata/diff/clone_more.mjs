const show = (v) => { try { const c = structuredClone(v); return c; } catch (e) { return e.name + ': ' + e.message; } };
const key = { k: 1 };
const m = new Map([[key, 'v']]);
const cm = structuredClone(m);
console.log([...cm.keys()][0] === key, [...cm.keys()][0], cm.get([...cm.keys()][0]));
console.log(show(new WeakMap()), show(Promise.resolve()), show(new WeakSet()));
console.log(show(new TypeError('t')) instanceof TypeError, show(new (class X extends RangeError {})('r')).constructor.name, show(Object.assign(new Error('e'), { extra: 1 })).extra);
console.log(show([1, , 3]), show(new Number(3)), show(new String('s')), show(Object(2n)), show(new Boolean(false)));
const withGetter = { get g() { return 42; } }; console.log(show(withGetter), Object.getOwnPropertyDescriptor(show(withGetter), 'g').value);
console.log(show({ [Symbol('s')]: 1, a: 1 }), show(Object.create({ inherited: 1 })), show(new Date(NaN)).getTime());
const ab = new ArrayBuffer(4); const views = { a: new Uint8Array(ab), b: new Uint16Array(ab, 2) };
const cv = structuredClone(views); console.log(cv.a.buffer === cv.b.buffer, cv.b.byteOffset, cv.b.length);
const dv = structuredClone(new DataView(new ArrayBuffer(3), 1)); console.log(dv.byteLength, dv.byteOffset, dv.buffer.byteLength);
console.log(show(/x/gy).lastIndex, show(Object.assign(/y/g, { lastIndex: 3 })).lastIndex, show(new Set([{ a: 1 }])));
try { structuredClone(); } catch (e) { console.log(e.name, e.message); }
console.log(structuredClone(undefined), structuredClone(null), structuredClone(-0), structuredClone(10n));
class Tagged { constructor() { this.v = 1; } get [Symbol.toStringTag]() { return 'Custom'; } }
console.log(structuredClone(new Tagged()), structuredClone(Buffer.from('ab')), structuredClone({ nested: { deep: [new Map([[1, new Set([2])]])] } }));
