'use strict';
// There is no garbage collector to observe in the sandbox: onGC never fires.

module.exports = {
  onGC() {},
  gcUntil: async () => {},
  checkIfCollectable: async () => {},
};
