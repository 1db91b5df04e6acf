package runtime

// The Host boundary moved to package runtime/host: the interface every
// backend and every worker speaks, its call codec, the live host, the
// sandbox's file operations, fetch under the outbound policy, and the types
// a backend implements or is given (Backend, Program, Request, Exit,
// Limits, ...). The names below keep runtime's API as it was; they are kept
// for one release, after which code should name runtime/host directly.

import (
	"github.com/nookdev/nook/runtime/host"
)

// Types of the Host boundary, now declared in runtime/host.
type (
	Access            = host.Access
	Backend           = host.Backend
	BackendInfo       = host.BackendInfo
	Call              = host.Call
	CallContext       = host.CallContext
	CallError         = host.CallError
	CallKind          = host.CallKind
	Changes           = host.Changes
	Exit              = host.Exit
	FSOps             = host.FSOps
	Func              = host.Func
	FuncDoc           = host.FuncDoc
	FuncInfo          = host.FuncInfo
	Host              = host.Host
	HostConfig        = host.HostConfig
	Isolator          = host.Isolator
	LimitError        = host.LimitError
	Limits            = host.Limits
	Module            = host.Module
	ModuleDoc         = host.ModuleDoc
	ModuleInfo        = host.ModuleInfo
	Outbound          = host.Outbound
	OwnClock          = host.OwnClock
	Program           = host.Program
	Request           = host.Request
	Restorer          = host.Restorer
	SandboxCrashError = host.SandboxCrashError
	StageAttr         = host.StageAttr
	Snapshotter       = host.Snapshotter
	Stream            = host.Stream
	TimerJournal      = host.TimerJournal
)

// Constants of the Host boundary, now declared in runtime/host.
const (
	DefaultMaxMemoryBytes       = host.DefaultMaxMemoryBytes
	DefaultMaxAllocBytes        = host.DefaultMaxAllocBytes
	DefaultMaxStackDepth        = host.DefaultMaxStackDepth
	DefaultMaxOutputBytes       = host.DefaultMaxOutputBytes
	DefaultMaxStoredOutputBytes = host.DefaultMaxStoredOutputBytes
	DefaultMaxInputBytes        = host.DefaultMaxInputBytes
	DefaultMaxResultBytes       = host.DefaultMaxResultBytes
	DefaultMaxStdinBytes        = host.DefaultMaxStdinBytes
	DefaultMaxEnvBytes          = host.DefaultMaxEnvBytes
	DefaultMaxSourceBytes       = host.DefaultMaxSourceBytes
	DefaultMaxModules           = host.DefaultMaxModules
	DefaultMaxModuleDepth       = host.DefaultMaxModuleDepth
	DefaultMaxCallBytes         = host.DefaultMaxCallBytes
	DefaultMaxCalls             = host.DefaultMaxCalls
	DefaultMaxConcurrentCalls   = host.DefaultMaxConcurrentCalls
	DefaultMaxDirEntries        = host.DefaultMaxDirEntries
	DefaultMaxJournalEntryBytes = host.DefaultMaxJournalEntryBytes
	DefaultMaxNestingDepth      = host.DefaultMaxNestingDepth
	DefaultMaxTableElements     = host.DefaultMaxTableElements
	DefaultMaxProcesses         = host.DefaultMaxProcesses
	DefaultMaxCPUTime           = host.DefaultMaxCPUTime
	DefaultMaxOpenFiles         = host.DefaultMaxOpenFiles
	DefaultMaxExecDepth         = host.DefaultMaxExecDepth
	DefaultTimeout              = host.DefaultTimeout
	DefaultMaxTimeout           = host.DefaultMaxTimeout
	DefaultMaxResponseBytes     = host.DefaultMaxResponseBytes
	UndocumentedSignature       = host.UndocumentedSignature
	ReadWrite                   = host.ReadWrite
	ReadOnly                    = host.ReadOnly
	KindFS                      = host.KindFS
	KindModule                  = host.KindModule
	KindFetch                   = host.KindFetch
	KindExec                    = host.KindExec
	Stdout                      = host.Stdout
	Stderr                      = host.Stderr
)

// NewHost returns a live host: every call is performed as it is made. See
// [host.NewHost].
func NewHost(cfg HostConfig) Host { return host.NewHost(cfg) }

// CallID is the id of call seq of run: "<run>/<seq>". See [host.CallID].
func CallID(run string, seq int64) string { return host.CallID(run, seq) }

// UnsafeToRepeat marks f as a function that must not run twice for one
// call. See [host.UnsafeToRepeat].
func UnsafeToRepeat(f Func) Func { return host.UnsafeToRepeat(f) }

// FSOpNames returns the names of the ops FSOps.Do serves, sorted. See
// [host.FSOpNames].
func FSOpNames() []string { return host.FSOpNames() }

// JSONNestingOffset returns the offset of the first bracket past max levels
// of nesting in data, or -1. See [host.JSONNestingOffset].
func JSONNestingOffset[T ~string | ~[]byte](data T, max int) int {
	return host.JSONNestingOffset(data, max)
}

// CheckJSONNesting fails with a *LimitError naming MaxNestingDepth when data
// nests deeper than max. See [host.CheckJSONNesting].
func CheckJSONNesting[T ~string | ~[]byte](what string, data T, max int) error {
	return host.CheckJSONNesting(what, data, max)
}

// encodeValue and decodeValue are the journal's call codec, host.EncodeValue
// and host.DecodeValue, under the names the runtime's code uses.
func encodeValue(v any) ([]byte, error) { return host.EncodeValue(v) }
func decodeValue(b []byte) (any, error) { return host.DecodeValue(b) }
