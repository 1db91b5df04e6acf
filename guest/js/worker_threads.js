'use strict';
// node:worker_threads — a run is one thread: this is the main thread, and
// starting a worker fails with ERR_WORKER_UNSUPPORTED_OPERATION... as in an
// embedder that has no workers.

const EventEmitter = require('node:events');

function unsupported(what) {
  const e = new Error(what + ' is not supported in this sandbox: a run is one JavaScript thread');
  e.code = 'ERR_WORKER_INIT_FAILED';
  return e;
}

class Worker extends EventEmitter {
  constructor() { super(); throw unsupported('new Worker()'); }
}

class MessageChannel {
  constructor() { throw unsupported('MessageChannel'); }
}

module.exports = {
  isMainThread: true,
  parentPort: null,
  workerData: null,
  threadId: 0,
  resourceLimits: {},
  SHARE_ENV: Symbol.for('nodejs.worker_threads.SHARE_ENV'),
  Worker,
  MessageChannel,
  MessagePort: class MessagePort extends EventEmitter {},
  BroadcastChannel: class BroadcastChannel { constructor() { throw unsupported('BroadcastChannel'); } },
  markAsUntransferable() {},
  isMarkedAsUntransferable: () => false,
  moveMessagePortToContext() { throw unsupported('moveMessagePortToContext'); },
  receiveMessageOnPort: () => undefined,
  getEnvironmentData: () => undefined,
  setEnvironmentData() {},
};
