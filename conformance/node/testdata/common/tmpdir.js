'use strict';
// The test's scratch directory, test/.tmp.0, emptied by refresh().

const fs = require('fs');
const path = require('path');
const { pathToFileURL } = require('url');

const tmpPath = path.join(path.resolve(__dirname, '..'), '.tmp.0');

function refresh() {
  fs.rmSync(tmpPath, { recursive: true, force: true });
  fs.mkdirSync(tmpPath, { recursive: true });
}

module.exports = {
  path: tmpPath,
  refresh,
  resolve: (...parts) => path.resolve(tmpPath, ...parts),
  fileURL: (...parts) => pathToFileURL(path.resolve(tmpPath, ...parts)),
  hasEnoughSpace: () => true,
};
