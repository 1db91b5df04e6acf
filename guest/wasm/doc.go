// Package wasm holds programs that run inside nook's WebAssembly backend:
// the Go guest SDK (package nook) and the guest programs its tests build
// with GOOS=wasip1 GOARCH=wasm (probe).
package wasm
