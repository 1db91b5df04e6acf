'use strict';
// node:stream/promises — pipeline and finished returning promises.

module.exports = require('node:stream').promises;
