'use strict';
// nook:errors.js — Node's coded errors and the argument validators the
// built-in modules share, with Node's exact messages (the behaviour of
// Node's lib/internal/errors.js and lib/internal/validators.js). An
// error has its code as an own property, its name from its class
// (TypeError, RangeError, ...), and a stack and toString that read
// "TypeError [ERR_X]: message", as Node's do. Internal: shims load it
// with require('nook:errors.js'); programs cannot.
//
// Every helper here does a bounded amount of work: messages clip the
// values they show (28 characters of a string, 128 of an inspected value).

const classRegExp = /^[A-Z][a-zA-Z0-9]*$/;
const kTypes = ['string', 'function', 'number', 'object', 'Function', 'Object', 'boolean', 'bigint', 'symbol'];

// inspect is util.inspect, loaded on first use (util loads this file).
let utilInspect;
function inspect(v, opts) {
  if (!utilInspect) utilInspect = require('node:util').inspect;
  return utilInspect(v, opts);
}

// determineSpecificType says what a value is, as Node's messages end
// ("Received type number (1)", "Received an instance of Foo").
function determineSpecificType(value) {
  if (value === null) return 'null';
  if (value === undefined) return 'undefined';
  const type = typeof value;
  switch (type) {
    case 'bigint': return `type bigint (${value}n)`;
    case 'number':
      if (value === 0) return 1 / value === -Infinity ? 'type number (-0)' : 'type number (0)';
      return `type number (${value})`;
    case 'boolean': return `type boolean (${value})`;
    case 'symbol': return `type symbol (${String(value)})`;
    case 'function': return value.name ? `function ${value.name}` : 'function ';
    case 'object':
      if (value.constructor && typeof value.constructor.name === 'string' && value.constructor.name !== '') {
        return `an instance of ${value.constructor.name}`;
      }
      return inspect(value, { depth: -1 });
    case 'string': {
      let s = value;
      if (s.length > 28) s = `${s.slice(0, 25)}...`;
      if (s.indexOf("'") === -1) return `type string ('${s}')`;
      return `type string (${JSON.stringify(s)})`;
    }
    default: {
      let s = inspect(value, { colors: false });
      if (s.length > 28) s = `${s.slice(0, 25)}...`;
      return `type ${type} (${s})`;
    }
  }
}

function listOf(items, word) {
  if (items.length > 2) return `${word}${items.slice(0, -1).join(', ')}, or ${items[items.length - 1]}`;
  if (items.length === 2) return `${word}${items[0]} or ${items[1]}`;
  return `${word}${items[0]}`;
}

// invalidArgTypeMessage is ERR_INVALID_ARG_TYPE's message: name is the
// argument ("path"), a property ("options.mode") or a phrase ending in
// " argument"; expected is a type, a class name or a description, or a
// list of them.
function invalidArgTypeMessage(name, expected, actual) {
  if (!Array.isArray(expected)) expected = [expected];
  let msg = 'The ';
  if (name.endsWith(' argument')) msg += `${name} `;
  else msg += `"${name}" ${name.includes('.') ? 'property' : 'argument'} `;
  msg += 'must be ';
  const types = [], instances = [], other = [];
  for (const v of expected) {
    if (kTypes.includes(v)) types.push(v.toLowerCase());
    else if (classRegExp.test(v)) instances.push(v);
    else other.push(v);
  }
  if (instances.length > 0) {
    const pos = types.indexOf('object');
    if (pos !== -1) { types.splice(pos, 1); instances.push('Object'); }
  }
  if (types.length > 0) {
    if (types.length > 2) msg += `one of type ${types.slice(0, -1).join(', ')}, or ${types[types.length - 1]}`;
    else if (types.length === 2) msg += `one of type ${types[0]} or ${types[1]}`;
    else msg += `of type ${types[0]}`;
    if (instances.length > 0 || other.length > 0) msg += ' or ';
  }
  if (instances.length > 0) {
    if (instances.length > 2) msg += `an instance of ${instances.slice(0, -1).join(', ')}, or ${instances[instances.length - 1]}`;
    else msg += `an instance of ${instances[0]}${instances.length === 2 ? ` or ${instances[1]}` : ''}`;
    if (other.length > 0) msg += ' or ';
  }
  if (other.length > 0) {
    if (other.length > 1) msg += listOf(other, 'one of ');
    else msg += (other[0].toLowerCase() !== other[0] ? 'an ' : '') + other[0];
  }
  return `${msg}. Received ${determineSpecificType(actual)}`;
}

// addNumericalSeparator writes 1_000_000 for 1000000.
function addNumericalSeparator(val) {
  let res = '';
  let i = val.length;
  const start = val[0] === '-' ? 1 : 0;
  for (; i >= start + 4; i -= 3) res = `_${val.slice(i - 3, i)}${res}`;
  return `${val.slice(0, i)}${res}`;
}

function outOfRangeMessage(str, range, input, replaceDefaultBoolean) {
  let msg = replaceDefaultBoolean ? str : `The value of "${str}" is out of range.`;
  let received;
  if (Number.isInteger(input) && Math.abs(input) > 2 ** 32) {
    received = addNumericalSeparator(String(input));
  } else if (typeof input === 'bigint') {
    received = String(input);
    if (input > 2n ** 32n || input < -(2n ** 32n)) received = addNumericalSeparator(received);
    received += 'n';
  } else {
    received = inspect(input);
  }
  return `${msg} It must be ${range}. Received ${received}`;
}

function invalidArgValueMessage(name, value, reason = 'is invalid') {
  let inspected = inspect(value);
  if (inspected.length > 128) inspected = `${inspected.slice(0, 128)}...`;
  return `The ${name.includes('.') ? 'property' : 'argument'} '${name}' ${reason}. Received ${inspected}`;
}

// codedError makes an error of class Base with Node's code: code is an
// own enumerable property, and the stack and toString name the code.
function codedError(Base, code, message) {
  const e = new Base(message);
  Object.defineProperty(e, 'code', { value: code, enumerable: true, writable: true, configurable: true });
  Object.defineProperty(e, 'toString', {
    value() { return `${this.name} [${code}]: ${this.message}`; },
    enumerable: false, writable: true, configurable: true,
  });
  try {
    const st = e.stack;
    if (typeof st === 'string') {
      const head = `${e.name}: ${message}`;
      if (st.startsWith(head)) {
        Object.defineProperty(e, 'stack', { value: `${e.name} [${code}]: ${message}` + st.slice(head.length), enumerable: false, writable: true, configurable: true });
      }
    }
  } catch { /* a stack that cannot be read stays as it is */ }
  return e;
}

// The messages of the codes the built-ins throw, by code: [class, message
// or function of the arguments].
const codes = {
  ERR_INVALID_ARG_TYPE: [TypeError, invalidArgTypeMessage],
  ERR_INVALID_ARG_VALUE: [TypeError, invalidArgValueMessage],
  ERR_OUT_OF_RANGE: [RangeError, outOfRangeMessage],
  ERR_CONSTRUCT_CALL_REQUIRED: [TypeError, (name) => `Class constructor ${name} cannot be invoked without 'new'`],
  ERR_MISSING_ARGS: [TypeError, (...args) => {
    let msg = 'The ';
    const wrap = (a) => Array.isArray(a) ? a.map((x) => `"${x}"`).join(' or ') : `"${a}"`;
    const names = args.map(wrap);
    if (names.length === 1) msg += `${names[0]} argument`;
    else if (names.length === 2) msg += `${names[0]} and ${names[1]} arguments`;
    else msg += `${names.slice(0, -1).join(', ')}, and ${names[names.length - 1]} arguments`;
    return `${msg} must be specified`;
  }],
  ERR_INVALID_THIS: [TypeError, (type) => `Value of "this" must be of type ${type}`],
  ERR_INVALID_RETURN_VALUE: [TypeError, (input, name, value) =>
    `Expected ${input} to be returned from the "${name}" function but got ${determineSpecificType(value)}.`],
  ERR_UNKNOWN_ENCODING: [TypeError, (enc) => `Unknown encoding: ${enc}`],
  ERR_BUFFER_OUT_OF_BOUNDS: [RangeError, (name) => name ? `"${name}" is outside of buffer bounds` : 'Attempt to access memory outside buffer bounds'],
  ERR_INVALID_BUFFER_SIZE: [RangeError, (s) => `Buffer size must be a multiple of ${s}`],
  ERR_ILLEGAL_CONSTRUCTOR: [TypeError, () => 'Illegal constructor'],
  ERR_METHOD_NOT_IMPLEMENTED: [Error, (m) => `The ${m} method is not implemented`],
  ERR_INVALID_STATE: [Error, (m) => `Invalid state: ${m}`],
  ERR_INVALID_URI: [URIError, () => 'URI malformed'],
  ERR_INVALID_URL: [TypeError, () => 'Invalid URL'],
  ERR_INVALID_FILE_URL_PATH: [TypeError, (m) => `File URL path ${m}`],
  ERR_INVALID_FILE_URL_HOST: [TypeError, (p) => `File URL host must be "localhost" or empty on ${p}`],
  ERR_INVALID_TUPLE: [TypeError, (name, tuple) => `${name} must be an iterable ${tuple} tuple`],
  ERR_ARG_NOT_ITERABLE: [TypeError, (name) => `${name} must be iterable`],
  ERR_INVALID_URL_SCHEME: [TypeError, (s) => `The URL must be of scheme ${s}`],
  ERR_UNHANDLED_ERROR: [Error, (err) => err === undefined ? 'Unhandled error.' : `Unhandled error. (${inspect(err)})`],
  ERR_ASSERTION: [Error, (m) => m],
  ERR_FALSY_VALUE_REJECTION: [Error, () => 'Promise was rejected with falsy value'],
  ERR_STRING_TOO_LONG: [Error, () => 'Cannot create a string longer than 0x1fffffe8 characters'],
};

// makeError returns a new error of a code in codes, built from args.
function makeError(code, ...args) {
  const c = codes[code];
  if (!c) throw new Error(`nook:errors.js: unknown code ${code}`);
  const msg = typeof c[1] === 'function' ? c[1](...args) : c[1];
  return codedError(c[0], code, msg);
}

// makeErrorAs is makeError with another class, for the codes Node
// throws as more than one (ERR_INVALID_ARG_VALUE.RangeError).
function makeErrorAs(Base, code, ...args) {
  const c = codes[code];
  if (!c) throw new Error(`nook:errors.js: unknown code ${code}`);
  return codedError(Base, code, typeof c[1] === 'function' ? c[1](...args) : c[1]);
}

// The validators, by Node's names and with Node's errors.
function validateString(value, name) {
  if (typeof value !== 'string') throw makeError('ERR_INVALID_ARG_TYPE', name, 'string', value);
}
function validateBoolean(value, name) {
  if (typeof value !== 'boolean') throw makeError('ERR_INVALID_ARG_TYPE', name, 'boolean', value);
}
function validateFunction(value, name) {
  if (typeof value !== 'function') throw makeError('ERR_INVALID_ARG_TYPE', name, 'Function', value);
}
function validateNumber(value, name, min = undefined, max) {
  if (typeof value !== 'number') throw makeError('ERR_INVALID_ARG_TYPE', name, 'number', value);
  if ((min != null && value < min) || (max != null && value > max) || ((min != null || max != null) && Number.isNaN(value))) {
    throw makeError('ERR_OUT_OF_RANGE', name,
      `${min != null ? `>= ${min}` : ''}${min != null && max != null ? ' && ' : ''}${max != null ? `<= ${max}` : ''}`, value);
  }
}
function validateInteger(value, name, min = Number.MIN_SAFE_INTEGER, max = Number.MAX_SAFE_INTEGER) {
  if (typeof value !== 'number') throw makeError('ERR_INVALID_ARG_TYPE', name, 'number', value);
  if (!Number.isInteger(value)) throw makeError('ERR_OUT_OF_RANGE', name, 'an integer', value);
  if (value < min || value > max) throw makeError('ERR_OUT_OF_RANGE', name, `>= ${min} && <= ${max}`, value);
}
function validateInt32(value, name, min = -2147483648, max = 2147483647) {
  validateInteger(value, name, min, max);
}
function validateUint32(value, name, positive = false) {
  validateInteger(value, name, positive ? 1 : 0, 4294967295);
}
// validateObject's options: allowNullable, allowArray, allowFunction.
function validateObject(value, name, options) {
  const o = options || {};
  if ((!o.allowNullable && value === null) ||
      (!o.allowArray && Array.isArray(value)) ||
      (typeof value !== 'object' && (!o.allowFunction || typeof value !== 'function'))) {
    throw makeError('ERR_INVALID_ARG_TYPE', name, 'Object', value);
  }
}
function validateArray(value, name, minLength = 0) {
  if (!Array.isArray(value)) throw makeError('ERR_INVALID_ARG_TYPE', name, 'Array', value);
  if (value.length < minLength) throw makeError('ERR_INVALID_ARG_VALUE', name, value, `must be longer than ${minLength}`);
}
function validateOneOf(value, name, oneOf) {
  if (!oneOf.includes(value)) {
    const allowed = oneOf.map((v) => typeof v === 'string' ? `'${v}'` : String(v)).join(', ');
    throw makeError('ERR_INVALID_ARG_VALUE', name, value, 'must be one of: ' + allowed);
  }
}
function validateAbortSignal(signal, name) {
  if (signal !== undefined && (signal === null || typeof signal !== 'object' || !('aborted' in signal))) {
    throw makeError('ERR_INVALID_ARG_TYPE', name, 'AbortSignal', signal);
  }
}
function validateBuffer(buffer, name = 'buffer') {
  if (!ArrayBuffer.isView(buffer)) throw makeError('ERR_INVALID_ARG_TYPE', name, ['Buffer', 'TypedArray', 'DataView'], buffer);
}

module.exports = {
  makeError, makeErrorAs, codedError, determineSpecificType, addNumericalSeparator,
  invalidArgTypeMessage, outOfRangeMessage, invalidArgValueMessage,
  validateString, validateBoolean, validateFunction, validateNumber, validateInteger,
  validateInt32, validateUint32, validateObject, validateArray, validateOneOf,
  validateAbortSignal, validateBuffer,
};
