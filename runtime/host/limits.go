package host

import (
	"fmt"
	"time"
)

// Limits bound one run. Zero fields take the Default* values below; every
// limit stops a run with a *LimitError naming the field.
type Limits struct {
	// MaxMemoryBytes bounds the memory a run and the runs nested in it
	// (Request.Tree) may allocate together. In process a watchdog stops
	// the tree when the heap growth charged to its runs passes it; in the
	// process tier the parent stops it when its workers' resident memory
	// (each past worker.RuntimeMargin) does. A WebAssembly guest's linear
	// memory is bounded by its page limit (by default this many bytes).
	MaxMemoryBytes int64
	// MaxAllocBytes bounds one string, array or buffer a built-in creates
	// ('x'.repeat(n), new Array(n).fill(0), new Uint8Array(n)).
	MaxAllocBytes int64
	// MaxStackDepth bounds nested calls.
	MaxStackDepth int
	// MaxOutputBytes bounds stdout and stderr together; a run that prints
	// more is stopped.
	MaxOutputBytes int64
	// MaxStoredOutputBytes is how much output the run's record keeps;
	// past it, all output is also written to a file in the workspace whose
	// path the result names.
	MaxStoredOutputBytes int64
	// MaxInputBytes, MaxResultBytes, MaxStdinBytes and MaxEnvBytes bound
	// the JSON input, the JSON result, stdin and the environment (keys plus
	// values).
	MaxInputBytes  int64
	MaxResultBytes int64
	MaxStdinBytes  int64
	MaxEnvBytes    int64
	// MaxSourceBytes bounds the program's source, with every module it
	// imports; MaxModules and MaxModuleDepth bound the module graph.
	MaxSourceBytes int64
	MaxModules     int
	MaxModuleDepth int
	// MaxCallBytes bounds one host call's request and its response (a file
	// read, a module result); MaxCalls bounds the calls of one run, and
	// MaxConcurrentCalls those in flight at once.
	MaxCallBytes       int64
	MaxCalls           int
	MaxConcurrentCalls int
	// MaxDirEntries bounds one directory listing.
	MaxDirEntries int
	// MaxJournalEntryBytes bounds the request or the result of one call
	// journaled for a replay-policy run: a bigger one fails, telling the
	// code to pass big data through files.
	MaxJournalEntryBytes int64
	// MaxNestingDepth bounds how deeply nested a value or a source may be
	// where a parser or a serialiser recurses on the host's stack:
	// JSON.parse, eval, Function, structured clone, util.inspect, a
	// module's source before it is bundled, and JSON crossing the Host.
	// A deeper input is a catchable error, never a fatal one.
	MaxNestingDepth int
	// MaxTableElements bounds a WebAssembly table, at instantiation and
	// on every table.grow.
	MaxTableElements int
	// MaxProcesses bounds the shell's concurrently running pipeline
	// stages, subshells and background jobs of one run (a fork bomb stops
	// with an error naming it).
	MaxProcesses int
	// MaxCPUTime bounds the CPU time (user plus system) of a run and the
	// runs nested in it, measured on their worker processes in the process
	// isolation tier.
	MaxCPUTime time.Duration
	// MaxOpenFiles bounds the open file descriptors of a run's worker
	// process in the process isolation tier.
	MaxOpenFiles int
	// MaxExecDepth bounds how deeply runs start runs (KindExec: a shell's
	// node, a program's child_process): a run started by the top run is at
	// depth 1. Deeper, the call fails with EAGAIN naming the limit.
	MaxExecDepth int
}

// The default limits.
const (
	DefaultMaxMemoryBytes       = 256 << 20
	DefaultMaxAllocBytes        = 64 << 20
	DefaultMaxStackDepth        = 10_000
	DefaultMaxOutputBytes       = 16 << 20
	DefaultMaxStoredOutputBytes = 1 << 20
	DefaultMaxInputBytes        = 1 << 20
	DefaultMaxResultBytes       = 1 << 20
	DefaultMaxStdinBytes        = 1 << 20
	DefaultMaxEnvBytes          = 256 << 10
	DefaultMaxSourceBytes       = 1 << 20
	DefaultMaxModules           = 128
	DefaultMaxModuleDepth       = 32
	DefaultMaxCallBytes         = 16 << 20
	DefaultMaxCalls             = 100_000
	DefaultMaxConcurrentCalls   = 64
	DefaultMaxDirEntries        = 10_000
	DefaultMaxJournalEntryBytes = 4 << 20
	DefaultMaxNestingDepth      = 1_000
	DefaultMaxTableElements     = 1_000_000
	DefaultMaxProcesses         = 128
	DefaultMaxCPUTime           = 10 * time.Minute
	DefaultMaxOpenFiles         = 1024
	DefaultMaxExecDepth         = 8

	// DefaultTimeout and DefaultMaxTimeout apply to backends that set no
	// timeouts of their own.
	DefaultTimeout    = 60 * time.Second
	DefaultMaxTimeout = 30 * time.Minute
)

// WithDefaults returns l with every zero field set to its default.
func (l Limits) WithDefaults() Limits {
	def := func(v *int64, d int64) {
		if *v <= 0 {
			*v = d
		}
	}
	defi := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	def(&l.MaxMemoryBytes, DefaultMaxMemoryBytes)
	def(&l.MaxAllocBytes, DefaultMaxAllocBytes)
	defi(&l.MaxStackDepth, DefaultMaxStackDepth)
	def(&l.MaxOutputBytes, DefaultMaxOutputBytes)
	def(&l.MaxStoredOutputBytes, DefaultMaxStoredOutputBytes)
	def(&l.MaxInputBytes, DefaultMaxInputBytes)
	def(&l.MaxResultBytes, DefaultMaxResultBytes)
	def(&l.MaxStdinBytes, DefaultMaxStdinBytes)
	def(&l.MaxEnvBytes, DefaultMaxEnvBytes)
	def(&l.MaxSourceBytes, DefaultMaxSourceBytes)
	defi(&l.MaxModules, DefaultMaxModules)
	defi(&l.MaxModuleDepth, DefaultMaxModuleDepth)
	def(&l.MaxCallBytes, DefaultMaxCallBytes)
	defi(&l.MaxCalls, DefaultMaxCalls)
	defi(&l.MaxConcurrentCalls, DefaultMaxConcurrentCalls)
	defi(&l.MaxDirEntries, DefaultMaxDirEntries)
	def(&l.MaxJournalEntryBytes, DefaultMaxJournalEntryBytes)
	defi(&l.MaxNestingDepth, DefaultMaxNestingDepth)
	defi(&l.MaxTableElements, DefaultMaxTableElements)
	defi(&l.MaxProcesses, DefaultMaxProcesses)
	defi(&l.MaxOpenFiles, DefaultMaxOpenFiles)
	defi(&l.MaxExecDepth, DefaultMaxExecDepth)
	if l.MaxCPUTime <= 0 {
		l.MaxCPUTime = DefaultMaxCPUTime
	}
	if l.MaxStoredOutputBytes > l.MaxOutputBytes {
		l.MaxStoredOutputBytes = l.MaxOutputBytes
	}
	return l
}

// LimitError reports that a run hit one of its limits. Its message names
// the limit, so a model (or a person) knows which knob stopped the run:
//
//	string of 1073741824 bytes exceeds the limit MaxAllocBytes (67108864)
type LimitError struct {
	Limit string // the Limits field (or "Timeout")
	Max   int64  // the limit's value
	What  string // what exceeded it, e.g. "output of 16777217 bytes"
}

func (e *LimitError) Error() string {
	return fmt.Sprintf("%s exceeds the limit %s (%d)", e.What, e.Limit, e.Max)
}
