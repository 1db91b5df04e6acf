package js

import (
	"testing"

	"github.com/dop251/goja"

	"github.com/nookdev/nook/runtime"
)

// BenchmarkGuardSetup is what the parser and built-in guards add to every
// run (compare BenchmarkGojaNew, the runtime they are installed in).
func BenchmarkGuardSetup(b *testing.B) {
	p := &program{req: &runtime.Request{Limits: runtime.Limits{}.WithDefaults()}}
	b.ReportAllocs()
	for b.Loop() {
		r := &run{p: p, req: p.req, wake: make(chan struct{}, 1)}
		r.rt = goja.New()
		r.builtins = map[string]goja.Value{}
		r.guardParsers()
	}
}

func BenchmarkGojaNew(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		r := &run{wake: make(chan struct{}, 1)}
		r.rt = goja.New()
		r.builtins = map[string]goja.Value{}
	}
}
