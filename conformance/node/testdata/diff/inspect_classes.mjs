import util from 'node:util';
class Point { constructor(x, y) { this.x = x; this.y = y; } }
class Point3 extends Point { constructor() { super(1, 2); this.z = 3; } }
console.log(new Point(1, 2), new Point3(), [new Point(0, 0)]);
class Empty {}
console.log(new Empty(), { e: new Empty() });
class Tagged { get [Symbol.toStringTag]() { return 'TG'; } }
console.log(new Tagged());
const o = { get g() { return 1; }, set s(v) {}, get gs() { return 2; }, set gs(v) {} };
console.log(o, util.inspect(o, { getters: true }));
class Custom { [util.inspect.custom](depth, opts) { return 'Custom<' + depth + '>'; } }
console.log(new Custom(), { nested: new Custom() }, [new Custom()]);
class Ret { [util.inspect.custom]() { return { replaced: true }; } }
console.log(new Ret());
const hidden = {}; Object.defineProperty(hidden, 'h', { value: 1, enumerable: false }); hidden.v = 2;
console.log(hidden, util.inspect(hidden, { showHidden: true }));
function Old() { this.a = 1; }
console.log(new Old());
console.log(util.inspect(new Point(1, 2), { sorted: true }), util.inspect({ b: 1, a: 2, c: 3 }, { sorted: true }));
