//go:build linux && !amd64 && !arm64

package worker

const (
	auditArch  = 0
	syscallBit = 0
)

var deniedSyscalls []uintptr
