'use strict';
// node:string_decoder — the npm package string_decoder (bundled with the
// streams in vendor_stream.js).

module.exports = { StringDecoder: require('nook:vendor_stream.js').StringDecoder };
