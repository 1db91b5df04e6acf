const b = Buffer.alloc(16);
b.writeInt8(-5, 0); b.writeUInt8(250, 1); b.writeInt16BE(-1234, 2); b.writeUInt16LE(65000, 4);
b.writeInt32LE(-123456, 6); b.writeFloatBE(3.5, 10); b.writeUInt16BE(0xabcd, 14);
console.log(b);
console.log(b.readInt8(0), b.readUInt8(1), b.readInt16BE(2), b.readUInt16LE(4), b.readInt32LE(6), b.readFloatBE(10), b.readUInt16BE(14).toString(16));
const d = Buffer.alloc(8);
d.writeDoubleBE(Math.PI); console.log(d.toString('hex'), d.readDoubleBE(0));
d.writeBigInt64LE(-(2n ** 62n)); console.log(d.readBigInt64LE(0), d.readBigUInt64BE(0));
const v = Buffer.alloc(6);
v.writeUIntBE(0x123456789a, 0, 5); console.log(v, v.readUIntBE(0, 5).toString(16), v.readIntLE(0, 3));
v.writeIntLE(-100000, 0, 3); console.log(v.readIntLE(0, 3), v.readUInt32BE(1));
console.log(b.writeUInt32BE(1, 0), b.writeDoubleLE(1, 8));
try { b.readUInt32LE(14); } catch (e) { console.log(e.code, e.name, e.message); }
try { b.writeUInt8(300, 0); } catch (e) { console.log(e.code, e.message); }
console.log(b.readUint16LE === b.readUInt16LE, Buffer.from([1, 2, 3, 4]).readUInt32LE(), Buffer.from([0x80]).readInt8());
