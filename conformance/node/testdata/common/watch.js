'use strict';
// fs.watch works on every platform the sandbox claims to be (Linux).

module.exports = { skipIfNoWatch() {}, skipIfNoWatchModeSignals() {} };
