package wasm_test

import (
	"testing"

	"github.com/nookdev/nook/runtime"
)

// wasiModule is a WASI command importing the named preview1 functions
// (each with its type index into types) whose _start runs code.
func wasiModule(types [][]byte, imports []string, importTypes []byte, code []byte) []byte {
	m := []byte("\x00asm\x01\x00\x00\x00")
	ts := uleb(nil, uint64(len(types)+1))
	for _, t := range types {
		ts = append(ts, t...)
	}
	ts = append(ts, 0x60, 0, 0)
	m = section(m, 1, ts)
	imp := uleb(nil, uint64(len(imports)))
	for i, name := range imports {
		imp = append(uleb(append(uleb(imp, 22), "wasi_snapshot_preview1"...), uint64(len(name))), name...)
		imp = append(imp, 0, importTypes[i])
	}
	m = section(m, 2, imp)
	m = section(m, 3, []byte{1, byte(len(types))})
	m = section(m, 5, []byte{1, 0, 1})
	m = section(m, 7, append([]byte("\x01\x06_start\x00"), byte(len(imports))))
	b := body(code)
	return section(m, 10, append(uleb([]byte{1}, uint64(len(b))), b...))
}

// call calls function f with i32 arguments.
func call(f byte, args ...int64) []byte {
	var b []byte
	for _, a := range args {
		b = append(b, i32(a)...)
	}
	return append(b, 0x10, f)
}

// The preview1 functions nook implements in front of wazero's: fd_renumber
// over stdio, fd_prestat_* only for the preopen, sock_shutdown on a
// descriptor that is not a socket, poll_oneoff with a clock.
func TestPreview1Descriptors(t *testing.T) {
	i4 := []byte{0x60, 4, 0x7f, 0x7f, 0x7f, 0x7f, 1, 0x7f}
	i2 := []byte{0x60, 2, 0x7f, 0x7f, 1, 0x7f}
	i3 := []byte{0x60, 3, 0x7f, 0x7f, 0x7f, 1, 0x7f}
	const (
		fdWrite = iota
		fdRenumber
		sockShutdown
		fdPrestatGet
		fdPrestatDirName
		pollOneoff
	)
	is := func(v int64) []byte { return cat(i32(v), unlessEq) }
	code := cat(
		store(0, 100), store(4, 2), store(100, 0x6968), // an iovec of "hi"
		call(fdRenumber, 1, 2), is(0), // stdout over stderr
		call(fdWrite, 2, 0, 1, 8), is(0), expect(8, 2),
		call(fdWrite, 1, 0, 1, 8), is(8), // EBADF: 1 was renumbered
		call(fdRenumber, 5, 2), is(8), // EBADF: from is not open
		call(fdRenumber, 2, 9), is(8), // EBADF: to is not open
		call(fdPrestatDirName, 3, 200, 0), is(37), // ENAMETOOLONG: "/workspace" needs 10 bytes
		call(fdPrestatDirName, 3, 200, 10), is(0), expect8(200, '/'), expect8(209, 'e'),
		call(fdPrestatGet, 0, 200), is(8), // EBADF: stdin is no preopen
		call(sockShutdown, 0, 1), is(57), // ENOTSOCK
		call(sockShutdown, 99, 1), is(8), // EBADF
		// One monotonic clock of 1 ms: one event, its userdata 7.
		store(300, 7), store(316, 1), store(324, 1_000_000),
		call(pollOneoff, 300, 400, 1, 500), is(0), expect(500, 1), expect(400, 7),
		call(pollOneoff, 300, 400, 0, 500), is(28), // EINVAL: no subscriptions
		call(pollOneoff, 300, 400, 0x7fffffff, 500), is(21), // EFAULT: more than memory holds
	)
	bin := wasiModule([][]byte{i4, i2, i3}, []string{"fd_write", "fd_renumber", "sock_shutdown", "fd_prestat_get",
		"fd_prestat_dir_name", "poll_oneoff"}, []byte{0, 1, 1, 1, 2, 0}, code)
	ws := openWS(t)
	res := runSource(t, ws, string(bin), runtime.ExecOptions{})
	ok(t, res)
	if string(res.Stdout) != "hi" || len(res.Stderr) != 0 {
		t.Fatalf("stdout %q stderr %q", res.Stdout, res.Stderr)
	}
}
