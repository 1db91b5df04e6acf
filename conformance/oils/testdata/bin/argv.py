#!/usr/bin/env node
// nook's stand-in for Oils' spec/bin/argv.py (Python 2): prints its
// arguments as Python 2 prints a list of byte strings, with repr's quoting.
function repr(arg) {
  const b = Buffer.from(arg, 'utf8');
  const s = b.toString('latin1');
  const q = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = q;
  for (const c of b) {
    const ch = String.fromCharCode(c);
    if (ch === q || c === 92) out += '\\' + ch;
    else if (c === 9) out += '\\t';
    else if (c === 10) out += '\\n';
    else if (c === 13) out += '\\r';
    else if (c < 32 || c >= 127) out += '\\x' + c.toString(16).padStart(2, '0');
    else out += ch;
  }
  return out + q;
}
process.stdout.write('[' + process.argv.slice(2).map(repr).join(', ') + ']\n');
