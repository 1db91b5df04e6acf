//go:build linux || darwin || freebsd

package wasm

import (
	"github.com/tetratelabs/wazero/experimental"
	"golang.org/x/sys/unix"
)

// A guest's linear memory is mapped outside the Go heap: the memory's
// maximum (its page limit) is reserved at once, without committing it,
// and memory.grow only lengthens the slice over it. wazero's own memory
// is a Go slice that every memory.grow reallocates and copies, so a guest
// growing to its 256 MiB cap briefly held 128 MiB of old memory beside
// 256 MiB of new, and the process tier killed the worker for it; here the
// guest costs what it touches, a grow costs nothing, and closing the
// module unmaps the memory at once (no collection, no scavenging). See
// RATIONALE.md, "Linear memory".
var memoryAllocator experimental.MemoryAllocator = experimental.MemoryAllocatorFunc(allocate)

func allocate(_, max uint64) experimental.LinearMemory { return &mappedMemory{max: max} }

// mappedMemory is one linear memory: a reservation of max bytes, made at
// the first Reallocate.
type mappedMemory struct {
	max uint64
	buf []byte
}

// Reallocate returns the first size bytes of the reservation, or nil
// (memory.grow then returns -1) when size is past it or it cannot be
// made.
func (m *mappedMemory) Reallocate(size uint64) []byte {
	if m.buf == nil {
		if m.max == 0 {
			return []byte{}
		}
		b, err := unix.Mmap(-1, 0, int(m.max), unix.PROT_READ|unix.PROT_WRITE,
			unix.MAP_PRIVATE|unix.MAP_ANON|mapNoReserve)
		if err != nil {
			return nil
		}
		m.buf = b
	}
	if size > uint64(len(m.buf)) {
		return nil
	}
	return m.buf[:size:size]
}

// Free unmaps the memory.
func (m *mappedMemory) Free() {
	if m.buf != nil {
		unix.Munmap(m.buf)
		m.buf = nil
	}
}
