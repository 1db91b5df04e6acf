import util from 'node:util';
const Anon = class {};
console.log(new (class {})(), new Anon(), Anon, class {}, [class {}]);
class Base { constructor() { this.b = 1; } }
class Derived extends Base { constructor() { super(); this.d = 2; } }
const d = new Derived();
console.log(d, Object.getPrototypeOf(d) === Derived.prototype, Derived, Object.getPrototypeOf(Derived) === Base);
class Renamed {} Object.defineProperty(Renamed, 'name', { value: 'Other' });
console.log(new Renamed(), Renamed);
function F() { this.x = 1; } F.prototype.method = function () {};
console.log(new F(), F, Object.create(F.prototype));
const nullProtoClass = Object.setPrototypeOf({ b: 1 }, null);
console.log(nullProtoClass, Object.setPrototypeOf([1, 2], null), Object.setPrototypeOf(new Map([[1, 2]]), null));
class WithToJSON { toJSON() { return 'J'; } }
console.log(new WithToJSON(), JSON.stringify(new WithToJSON()), util.format('%s', new WithToJSON()), util.format('%s', new Derived()));
class ErrLike extends Error { constructor() { super('msg'); this.name = 'ErrLikeError'; this.stack = 'ErrLikeError: msg'; this.info = { a: 1 }; } }
console.log(new ErrLike(), [new ErrLike()]);
const sym = Symbol('tag');
class SymKeys { constructor() { this[sym] = 1; this[Symbol.for('g')] = 2; } }
console.log(new SymKeys(), { [Symbol()]: 'anon' });
console.log(Object.defineProperty({}, 'hidden', { value: 1, enumerable: false }), Object.defineProperty([], 'len2', { value: 2, enumerable: false }));
console.log(util.inspect(new Derived(), { showHidden: true }), util.inspect(Object.create(null, { x: { value: 1, enumerable: true } })));
