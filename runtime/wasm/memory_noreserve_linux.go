package wasm

import "golang.org/x/sys/unix"

// mapNoReserve: a reservation commits no swap until it is touched.
const mapNoReserve = unix.MAP_NORESERVE
