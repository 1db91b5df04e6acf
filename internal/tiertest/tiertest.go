// Package tiertest flips the isolation tier of a test binary: a test
// package that imports it for its side effects (import _ ".../tiertest")
// runs every runtime in the process tier when NOOK_TEST_ISOLATION=process,
// with the test binary as its own worker (rebuilding the JavaScript, shell
// and WebAssembly backends of the tests' runtimes, with their options), and
// in process otherwise.
//
//	NOOK_TEST_ISOLATION=process go test -run Replay ./runtime/js/
package tiertest

import (
	"fmt"
	"os"

	"github.com/nookdev/nook/internal/tier"
	"github.com/nookdev/nook/runtime/js"
	"github.com/nookdev/nook/runtime/shell"
	"github.com/nookdev/nook/runtime/wasm"
	"github.com/nookdev/nook/runtime/worker"
)

// Env is the variable that selects the tier ("process" or "in-process").
const Env = "NOOK_TEST_ISOLATION"

// Pool is the test binary's worker pool in the process tier (nil in
// process).
var Pool *worker.Pool

func init() {
	if len(os.Args) > 1 && os.Args[1] == worker.Arg {
		os.Exit(worker.Serve(js.Builder, shell.Builder, wasm.Builder))
	}
	if os.Getenv(Env) == "process" {
		p, err := worker.New(worker.Options{})
		if err != nil {
			fmt.Fprintln(os.Stderr, "tiertest:", err)
			os.Exit(2)
		}
		Pool = p
		tier.Default = p
	}
}
