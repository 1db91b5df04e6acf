package wasm

import (
	"context"
	"encoding/json"
	"errors"
	"strings"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"

	"github.com/nookdev/nook/runtime/host"
)

// The import module "nook" gives guests the workspace's host modules.
//
// ABI (all parameters and results i32; pointers and lengths into the
// guest's memory 0):
//
//	call(name_ptr, name_len, args_ptr, args_len, res_ptr, res_cap, res_len_ptr) -> status
//	result(res_ptr, res_cap, res_len_ptr) -> status
//	interrupt(req_ptr, req_len, res_ptr, res_cap, res_len_ptr) -> status
//
// call invokes the host-module function name ("ws:orders/get", or
// "orders/get") with args, a JSON array of its arguments (an empty args is
// []). The result is JSON: the function's value when status is 0, or an
// error object {"code": "...", "message": "..."} when status is 1. Its
// length is stored at res_len_ptr (a little-endian u32); when it is larger
// than res_cap nothing is written to res_ptr, status is 2, and the result
// is kept so that result fetches it into a buffer large enough (the call is
// not made again). Other statuses are WASI errno values: 21 (EFAULT) for a
// pointer outside memory, 28 (EINVAL) for arguments that are not a JSON
// array, 58 (ENOTSUP).
//
// interrupt, which will wait for an answer from outside the run (an
// approval), belongs to the journal and returns 58 (ENOTSUP) for now.
const nookModule = "nook"

// The statuses of the nook functions.
const (
	statusOK       = 0
	statusFailed   = 1
	statusTooSmall = 2
	statusEFAULT   = 21
	statusEINVAL   = 28
	statusENOTSUP  = 58
)

var nookFuncs = map[string]bool{"call": true, "result": true, "interrupt": true}

func instantiateNook(ctx context.Context, rt wazero.Runtime) (api.Module, error) {
	i32 := api.ValueTypeI32
	b := rt.NewHostModuleBuilder(nookModule)
	b.NewFunctionBuilder().WithGoModuleFunction(api.GoModuleFunc(nookCall),
		[]api.ValueType{i32, i32, i32, i32, i32, i32, i32}, []api.ValueType{i32}).
		WithParameterNames("name", "name_len", "args", "args_len", "res", "res_cap", "res_len_ptr").
		Export("call")
	b.NewFunctionBuilder().WithGoModuleFunction(api.GoModuleFunc(nookResult),
		[]api.ValueType{i32, i32, i32}, []api.ValueType{i32}).
		WithParameterNames("res", "res_cap", "res_len_ptr").
		Export("result")
	b.NewFunctionBuilder().WithGoModuleFunction(api.GoModuleFunc(nookInterrupt),
		[]api.ValueType{i32, i32, i32, i32, i32}, []api.ValueType{i32}).
		WithParameterNames("req", "req_len", "res", "res_cap", "res_len_ptr").
		Export("interrupt")
	return b.Instantiate(ctx)
}

func nookCall(ctx context.Context, m api.Module, stack []uint64) {
	st := stateOf(ctx)
	mem := m.Memory()
	name, ok1 := mem.Read(uint32(stack[0]), uint32(stack[1]))
	args, ok2 := mem.Read(uint32(stack[2]), uint32(stack[3]))
	if st == nil || mem == nil || !ok1 || !ok2 {
		stack[0] = statusEFAULT
		return
	}
	op := string(name)
	if !strings.HasPrefix(op, "ws:") {
		op = "ws:" + op
	}
	var argv []any
	if len(args) > 0 {
		if err := json.Unmarshal(args, &argv); err != nil {
			stack[0] = statusEINVAL
			return
		}
	}
	if argv == nil {
		argv = []any{}
	}
	status := uint64(statusOK)
	res, err := st.host.Call(ctx, &host.Call{Kind: host.KindModule, Op: op, Args: argv})
	var out []byte
	if err == nil {
		out, err = json.Marshal(res)
	}
	if err != nil {
		var le *host.LimitError
		if errors.As(err, &le) {
			st.stop(le)
		}
		status = statusFailed
		code := "ERR_HOST_MODULE"
		var ce *host.CallError
		if errors.As(err, &ce) && ce.Code != "" {
			code = ce.Code
		}
		out, _ = json.Marshal(map[string]string{"code": code, "message": err.Error()})
	}
	stack[0] = st.deliver(mem, out, status, uint32(stack[4]), uint32(stack[5]), uint32(stack[6]))
}

func nookResult(ctx context.Context, m api.Module, stack []uint64) {
	st := stateOf(ctx)
	mem := m.Memory()
	if st == nil || mem == nil {
		stack[0] = statusEFAULT
		return
	}
	if st.pending == nil {
		stack[0] = statusEINVAL
		return
	}
	stack[0] = st.deliver(mem, st.pending, st.pendingStatus, uint32(stack[0]), uint32(stack[1]), uint32(stack[2]))
}

func nookInterrupt(ctx context.Context, m api.Module, stack []uint64) {
	stack[0] = statusENOTSUP
}

// deliver writes a result to the guest's buffer, or keeps it for result
// when the buffer is too small.
func (st *runState) deliver(mem api.Memory, out []byte, status uint64, ptr, capacity, lenPtr uint32) uint64 {
	if !mem.WriteUint32Le(lenPtr, uint32(len(out))) {
		return statusEFAULT
	}
	if uint32(len(out)) > capacity {
		st.pending, st.pendingStatus = out, status
		return statusTooSmall
	}
	if !mem.Write(ptr, out) {
		return statusEFAULT
	}
	st.pending = nil
	return status
}
