package wasm_test

import goruntime "runtime"

func runGC() { goruntime.GC() }
