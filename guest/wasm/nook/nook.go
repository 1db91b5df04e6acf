//go:build wasip1

// Package nook is the guest side of nook's WebAssembly host functions, for
// Go programs built with GOOS=wasip1 GOARCH=wasm and run by nook's wasm
// backend. Call reaches the host modules of the workspace ("ws:<name>"):
// its arguments go out as JSON and its result comes back as JSON.
//
//	var order struct{ ID string }
//	err := nook.CallInto(&order, "ws:orders/get", 42)
package nook

import (
	"encoding/json"
	"errors"
	"fmt"
	"unsafe"
)

//go:wasmimport nook call
func call(name unsafe.Pointer, nameLen uint32, args unsafe.Pointer, argsLen uint32,
	res unsafe.Pointer, resCap uint32, resLen unsafe.Pointer) uint32

//go:wasmimport nook result
func result(res unsafe.Pointer, resCap uint32, resLen unsafe.Pointer) uint32

//go:wasmimport nook interrupt
func interrupt(req unsafe.Pointer, reqLen uint32, res unsafe.Pointer, resCap uint32, resLen unsafe.Pointer) uint32

// The statuses of the host functions.
const (
	statusOK       = 0
	statusFailed   = 1
	statusTooSmall = 2
	statusENOTSUP  = 58
)

// Error is a failed host-module call: the function threw, or does not
// exist (Code "ERR_HOST_MODULE"), or a limit stopped it.
type Error struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

func (e *Error) Error() string { return e.Message }

// ErrNotSupported is returned by Interrupt until the host supports it.
var ErrNotSupported = errors.New("nook: not supported by this host")

// Call calls the host-module function fn ("ws:orders/get", or
// "orders/get") with args, each marshalled to JSON, and returns its JSON
// result. A failed call returns an *Error.
func Call(fn string, args ...any) (json.RawMessage, error) {
	if args == nil {
		args = []any{}
	}
	in, err := json.Marshal(args)
	if err != nil {
		return nil, fmt.Errorf("nook: arguments of %s: %w", fn, err)
	}
	name := []byte(fn)
	buf := make([]byte, 4096)
	var n uint32
	st := call(ptr(name), uint32(len(name)), ptr(in), uint32(len(in)), ptr(buf), uint32(len(buf)), unsafe.Pointer(&n))
	if st == statusTooSmall {
		buf = make([]byte, n)
		st = result(ptr(buf), uint32(len(buf)), unsafe.Pointer(&n))
	}
	return decode(st, buf[:min(int(n), len(buf))], fn)
}

// CallInto calls fn as Call does and unmarshals its result into out.
func CallInto(out any, fn string, args ...any) error {
	res, err := Call(fn, args...)
	if err != nil {
		return err
	}
	return json.Unmarshal(res, out)
}

// Interrupt asks the host a question and waits for its answer (an
// approval). The host does not support it yet: it returns ErrNotSupported.
func Interrupt(request any) (json.RawMessage, error) {
	in, err := json.Marshal(request)
	if err != nil {
		return nil, err
	}
	buf := make([]byte, 4096)
	var n uint32
	st := interrupt(ptr(in), uint32(len(in)), ptr(buf), uint32(len(buf)), unsafe.Pointer(&n))
	if st == statusTooSmall {
		buf = make([]byte, n)
		st = result(ptr(buf), uint32(len(buf)), unsafe.Pointer(&n))
	}
	if st == statusENOTSUP {
		return nil, ErrNotSupported
	}
	return decode(st, buf[:min(int(n), len(buf))], "interrupt")
}

func decode(st uint32, out []byte, fn string) (json.RawMessage, error) {
	switch st {
	case statusOK:
		return json.RawMessage(out), nil
	case statusFailed:
		e := &Error{}
		if err := json.Unmarshal(out, e); err != nil {
			return nil, fmt.Errorf("nook: %s failed: %s", fn, out)
		}
		return nil, e
	}
	return nil, fmt.Errorf("nook: %s: host status %d", fn, st)
}

func ptr(b []byte) unsafe.Pointer {
	if len(b) == 0 {
		return nil
	}
	return unsafe.Pointer(&b[0])
}
