'use strict';
// node:vm — code evaluated at run time, in the program's own realm. The
// sandbox has one JavaScript realm per run: a "context" is an object
// whose properties the code sees as globals (a with-scope over the
// global one, see host.vmRun), not a fresh realm, so the values it makes
// are the program's own kinds (instanceof Array holds) and the variables
// it declares land on the real global object. Modules
// (SourceTextModule), cached data and measureMemory are refused by name.

const { makeError, validateString, validateObject, validateArray } = require('nook:errors.js');

const contexts = new WeakSet();

function refuse(what) {
  const e = new Error(`vm: ${what} is not supported in this sandbox (one realm per run)`);
  e.code = 'ERR_FEATURE_UNAVAILABLE_ON_PLATFORM';
  return e;
}

function createContext(contextObject = {}, options) {
  if (contextObject === vm.constants.DONT_CONTEXTIFY) contextObject = {};
  validateObject(contextObject, 'contextObject', { allowArray: true, allowFunction: true });
  if (options !== undefined) validateObject(options, 'options');
  contexts.add(contextObject);
  return contextObject;
}

function isContext(object) {
  validateObject(object, 'object', { allowArray: true, allowFunction: true });
  return contexts.has(object);
}

function runIn(code, context, filename = 'evalmachine.<anonymous>') {
  return host.vmRun(code, context, filename);
}

class Script {
  constructor(code, options) {
    code = `${code}`;
    if (typeof options === 'string') options = { filename: options };
    if (options !== undefined && options !== null) validateObject(options, 'options');
    if (options && options.cachedData !== undefined) throw refuse('Script cachedData');
    this.code = code;
    this.filename = (options && options.filename) || 'evalmachine.<anonymous>';
    host.vmCheck(code, this.filename);
    this.cachedDataRejected = undefined;
    this.sourceMapURL = undefined;
  }
  runInThisContext() { return runIn(this.code, undefined, this.filename); }
  runInContext(contextifiedObject) {
    if (!contexts.has(contextifiedObject)) {
      throw makeError('ERR_INVALID_ARG_TYPE', 'contextifiedObject', 'vm.Context', contextifiedObject);
    }
    return runIn(this.code, contextifiedObject, this.filename);
  }
  runInNewContext(contextObject) {
    return runIn(this.code, createContext(contextObject), this.filename);
  }
  createCachedData() { throw refuse('createCachedData'); }
}

const vm = {
  Script,
  createContext,
  isContext,
  runInThisContext(code, options) { return new Script(code, options).runInThisContext(); },
  runInContext(code, contextifiedObject, options) { return new Script(code, options).runInContext(contextifiedObject); },
  runInNewContext(code, contextObject, options) {
    return new Script(code, typeof options === 'string' ? options : undefined).runInNewContext(contextObject);
  },
  compileFunction(code, params = [], options = {}) {
    validateString(code, 'code');
    validateArray(params, 'params');
    for (let i = 0; i < params.length; i++) validateString(params[i], `params[${i}]`);
    validateObject(options, 'options');
    if (options.parsingContext !== undefined && !contexts.has(options.parsingContext)) {
      throw makeError('ERR_INVALID_ARG_TYPE', 'options.parsingContext', 'Context', options.parsingContext);
    }
    // eslint-disable-next-line no-new-func
    return new Function(...params, code);
  },
  measureMemory() { return Promise.reject(refuse('measureMemory')); },
  constants: Object.freeze({
    USE_MAIN_CONTEXT_DEFAULT_LOADER: Symbol('vm_dynamic_import_main_context_default'),
    DONT_CONTEXTIFY: Symbol('vm_context_no_contextify'),
  }),
};
module.exports = vm;
