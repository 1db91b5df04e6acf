#!/usr/bin/env node
// nook's stand-in for Oils' spec/bin/printenv.py: each named variable's
// value, or None when it is not in the environment.
let out = '';
for (const name of process.argv.slice(2)) {
  out += (Object.prototype.hasOwnProperty.call(process.env, name) ? process.env[name] : 'None') + '\n';
}
process.stdout.write(out);
