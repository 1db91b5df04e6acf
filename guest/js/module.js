'use strict';
// node:module — createRequire for code that loads built-ins by a computed
// name (workspace files are bundled before the run, so only built-ins and
// ws: modules load at run time), builtinModules and isBuiltin.

const builtinModules = host.builtinModules.slice();

function isBuiltin(name) {
  const n = String(name).replace(/^node:/, '');
  return builtinModules.includes(n);
}

function createRequire(filename) {
  if (filename && typeof filename === 'object' && typeof filename.href === 'string') filename = filename.href;
  if (typeof filename !== 'string') {
    const e = new TypeError('The argument \'filename\' must be a file URL object, file URL string, or absolute path string. Received ' + String(filename));
    e.code = 'ERR_INVALID_ARG_VALUE';
    throw e;
  }
  const req = function require(id) { return module_require(id); };
  req.resolve = (id) => {
    if (isBuiltin(id)) return String(id).startsWith('node:') ? String(id) : String(id);
    const e = new Error(`Cannot find module '${id}'`);
    e.code = 'MODULE_NOT_FOUND';
    throw e;
  };
  req.resolve.paths = () => null;
  req.cache = Object.create(null);
  req.main = undefined;
  return req;
}
const module_require = (id) => require(id);

function Module(id) { this.id = id; this.exports = {}; this.loaded = false; this.children = []; }
Module.createRequire = createRequire;
Module.builtinModules = builtinModules;
Module.isBuiltin = isBuiltin;
Module.Module = Module;
Module.register = () => {};
Module.syncBuiltinESMExports = () => {};
Module.findSourceMap = () => undefined;
Module.enableCompileCache = () => ({ status: 3 });
Module.constants = { compileCacheStatus: { FAILED: 0, ENABLED: 1, ALREADY_ENABLED: 2, DISABLED: 3 } };
module.exports = Module;
