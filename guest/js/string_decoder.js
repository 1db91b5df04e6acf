'use strict';
// node:string_decoder — the npm package string_decoder (bundled with the
// streams in vendor_stream.js).

// readable-stream keys disposables by Symbol.dispose, or a symbol of its
// own where the engine has none (goja): define the one the rest of the
// shims use (node:events' addAbortListener returns such a disposable)
// before it loads.
if (!Symbol.dispose) Object.defineProperty(Symbol, 'dispose', { value: Symbol.for('Symbol.dispose') });
if (!Symbol.asyncDispose) Object.defineProperty(Symbol, 'asyncDispose', { value: Symbol.for('Symbol.asyncDispose') });
module.exports = { StringDecoder: require('nook:vendor_stream.js').StringDecoder };
