import { text, json, buffer, arrayBuffer } from 'node:stream/consumers';
import { Readable } from 'node:stream';
import types from 'node:util/types';
import { types as utypes } from 'node:util';
console.log(await text(Readable.from(['he', 'llo'])));
console.log(await json(Readable.from([Buffer.from('{"a":'), Buffer.from('[1,2]}')])));
const euro = Buffer.from('€');
console.log(await text(Readable.from([euro.subarray(0, 1), euro.subarray(1)])));
console.log(await buffer(Readable.from(['x', 'y'])), (await arrayBuffer(Readable.from([Buffer.from([1, 2, 3])]))).byteLength);
async function* gen() { yield 'from '; yield 'generator'; }
console.log(await text(gen()));
try { await json(Readable.from(['not json'])); } catch (e) { console.log(e.name); }
console.log(types === utypes, types.isDate(new Date()), typeof types.isUint8Array);
