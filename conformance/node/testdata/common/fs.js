'use strict';
// Helpers of the fs.cp tests: fresh directory names and tree comparison.

const { readdirSync } = require('fs');
const { join } = require('path');
const assert = require('assert');
const tmpdir = require('./tmpdir.js');

let n = 0;
const nextdir = (name) => tmpdir.resolve(name || `copy_%${++n}`);

function collectEntries(dir, out) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.isDirectory()) collectEntries(join(dir, e.name), out);
    out.push(e);
  }
}

function assertDirEquivalent(a, b) {
  const ea = [];
  const eb = [];
  collectEntries(a, ea);
  collectEntries(b, eb);
  assert.strictEqual(ea.length, eb.length);
  for (const x of ea) {
    const y = eb.find((e) => e.name === x.name);
    assert(y, `entry ${x.name} not copied`);
    if (x.isFile()) assert(y.isFile(), `${y.name} was not file`);
    else if (x.isDirectory()) assert(y.isDirectory(), `${y.name} was not directory`);
    else if (x.isSymbolicLink()) assert(y.isSymbolicLink(), `${y.name} was not symlink`);
  }
}

module.exports = { nextdir, assertDirEquivalent, collectEntries };
