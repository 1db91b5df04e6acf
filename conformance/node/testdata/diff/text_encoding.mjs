const enc = new TextEncoder();
console.log(enc.encoding, enc.encode('héllo'), enc.encode(''), enc.encode());
const dest = new Uint8Array(4);
console.log(enc.encodeInto('aé€', dest), dest);
const dec = new TextDecoder();
console.log(JSON.stringify(new TextDecoder("latin1").decode(new Uint8Array([0x80, 0x9f, 0xe9]))));
console.log(dec.encoding, dec.fatal, dec.ignoreBOM, dec.decode(new Uint8Array([0xef, 0xbb, 0xbf, 0x68, 0x69])), dec.decode());
console.log(new TextDecoder('utf-8', { ignoreBOM: true }).decode(new Uint8Array([0xef, 0xbb, 0xbf, 0x41])).length);
console.log(JSON.stringify(dec.decode(new Uint8Array([0xff, 0x41]))));
try { new TextDecoder('utf-8', { fatal: true }).decode(new Uint8Array([0xff])); } catch (e) { console.log(e.name, e.code); }
const s = new TextDecoder();
console.log(JSON.stringify(s.decode(new Uint8Array([0xe2, 0x82]), { stream: true })), JSON.stringify(s.decode(new Uint8Array([0xac]))));
console.log(new TextDecoder('utf-16le').decode(new Uint8Array([0x68, 0, 0x69, 0])), new TextDecoder('latin1').encoding);
console.log(dec.decode(Buffer.from('buf')), dec.decode(new Uint8Array([0x61, 0x62]).buffer), dec.decode(new DataView(new Uint8Array([0x63]).buffer)));
