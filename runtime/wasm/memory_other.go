//go:build !(linux || darwin || freebsd)

package wasm

import "github.com/tetratelabs/wazero/experimental"

// memoryAllocator is wazero's own (a Go slice) where memory is not mapped
// by this package.
var memoryAllocator experimental.MemoryAllocator
