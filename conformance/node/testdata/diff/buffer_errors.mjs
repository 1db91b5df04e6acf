const b = Buffer.alloc(8);
const tries = [
  () => b.readUInt8(8), () => b.readInt16LE(-1), () => b.readUInt32BE(1.5), () => b.readDoubleLE('0'),
  () => b.writeInt8(128), () => b.writeInt16BE(-40000), () => b.writeUInt32LE(2 ** 32), () => b.writeInt32BE(-(2 ** 31) - 1),
  () => b.writeUIntBE(2 ** 40, 0, 5), () => b.writeIntLE(2 ** 47, 0, 6), () => b.readUIntLE(0, 7), () => b.readIntBE(0),
  () => b.writeBigUInt64LE(-1n), () => b.writeBigInt64BE(2n ** 63n), () => b.writeBigInt64LE(5), () => Buffer.alloc(2).readUInt32LE(0),
  () => b.writeUInt16LE(1, 7), () => b.writeFloatLE(1e40, 6),
];
for (const f of tries) {
  try { console.log('ok', f()); } catch (e) { console.log(e.name, e.code, e.message); }
}
console.log(b.writeFloatLE(1e40, 0), b.readFloatLE(0), b.writeDoubleBE(-0), b.readDoubleBE(0), b.writeUInt8(255), b[0]);
try { b.writeUInt8(255.9); } catch (e) { console.log(e.code, e.message); }
const x = Buffer.from('ab'); x.extra = 1; console.log(x, Buffer.alloc(0));
