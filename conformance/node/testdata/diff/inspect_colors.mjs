import util from 'node:util';
console.log(JSON.stringify(util.inspect({ a: 1, b: 'x', c: null, d: undefined, e: true, f: Symbol('s'), g: 2n }, { colors: true })));
console.log(JSON.stringify(util.inspect([new Date(0), /x/, function f() {}], { colors: true })));
console.log(util.inspect({ a: 1 }, { colors: false }));
console.log(util.stripVTControlCharacters(util.inspect({ z: [1] }, { colors: true })));
console.log(Object.keys(util.inspect.colors).includes('red'), util.inspect.styles.number, util.inspect.styles.string);
