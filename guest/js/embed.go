// Package guestjs holds the JavaScript that runs inside the JavaScript
// backend's sandbox: the prelude that builds the globals (console,
// process, timers, fetch, TextEncoder, crypto, polyfills and allocation
// guards) and the shims of the node: built-in modules.
//
// Each file is the body of a CommonJS-like function
//
//	(function (module, exports, require, host) { ... })
//
// where host is the backend's internal bridge (host calls, output, clock,
// randomness); it is handed to these files only, never to user code.
package guestjs

import "embed"

// FS holds the shim sources, by file name ("prelude.js", "path.js", ...).
//
//go:embed *.js
var FS embed.FS
