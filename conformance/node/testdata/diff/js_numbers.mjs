// Number formatting and Math results as printed (these reach every program's output).
const xs = [0.1 + 0.2, 1 / 3, 2 / 3, 1e21, 1e-7, 123456789012345680000, 5e-324, 1.7976931348623157e308, -1e-10, 100, 0.000001, 1.5e-6];
console.log(xs.map(String).join(' '));
console.log(xs.map((x) => x.toFixed(2)).join(' '), (1.005).toFixed(2), (1.45).toFixed(1), (0.5).toFixed(0), (1.5).toFixed(0), (2.5).toFixed(0), (-1.5).toFixed(0));
console.log(xs.map((x) => x.toPrecision(4)).join(' '), (123.456).toExponential(2), (0).toExponential(), (255).toString(16), (255).toString(2), (0.5).toString(3), (-255.5).toString(16));
// Only correctly rounded functions: V8's transcendental functions (fdlibm) and
// Go's math can differ in the last bit, a known difference left out here.
const fns = ['sqrt', 'abs', 'floor', 'ceil'];
for (const f of fns) console.log(f, [0.5, 1, 2, 10, 1e10, 0.1].map((x) => Math[f](x)).join(' '));
console.log(Math.pow(2, 0.5), 2 ** 0.5, Math.pow(2, 10), 3 ** 3, Math.hypot(3, 4, 5), Math.fround(1.1), Math.round(-2.5), Math.round(2.5), Math.sign(-0));
console.log(Math.max(), Math.min(), Math.trunc(-4.7), Math.clz32(1), Math.imul(3, -4), Number.parseFloat('1e1000'), Number('0x1f'), Number('  12  '), Number(''), parseInt('08'), parseInt('1e3'));
console.log(Object.keys({ b: 1, 2: 1, a: 1, 1: 1, [-1]: 1, 4294967295: 1, 4294967294: 1 }), [10, 9, 1, 100].sort(), [3, 1, 2].sort((a, b) => b - a));
console.log(new Date(Date.UTC(2020, 1, 29, 12, 30)).toISOString(), JSON.stringify(new Date(0)), new Date('2020-02-30T00:00:00Z').toISOString(), Date.UTC(1970, 0, 1), new Date(8.64e15 + 1).getTime());
console.log('ǅ'.toLowerCase(), 'ß'.toUpperCase(), 'İ'.toLowerCase().length, 'é'.normalize('NFD').length, 'a\u0301'.normalize(), 'ﬃ'.toUpperCase());
console.log([1, 2, 3].at(-1), 'abc'.at(-1), Object.hasOwn({ a: 1 }, 'a'), [1, [2, [3, [4]]]].flat(Infinity), 'a-b-c'.replaceAll('-', '+'), [3, 1, 2].toSorted?.() ?? 'no toSorted');
