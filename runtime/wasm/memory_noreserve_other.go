//go:build darwin || freebsd

package wasm

const mapNoReserve = 0
