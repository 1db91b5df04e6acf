package js

import (
	"io/fs"
	"testing"

	"github.com/dop251/goja"

	guestjs "github.com/nookdev/nook/guest/js"
)

// BenchmarkCompileArrowArguments is the cost of the arrow-arguments
// workaround on the largest source that needs the check (the vendored
// streams bundle mentions both "arguments" and "=>"): goja.Compile alone
// against compileFixed (parse, walk, insert, compile the AST).
func BenchmarkCompileArrowArguments(b *testing.B) {
	src, err := fs.ReadFile(guestjs.FS, "vendor_stream.js")
	if err != nil {
		b.Fatal(err)
	}
	text := "(function (module, exports, require, host) {" + string(src) + "\n})"
	b.Run("goja.Compile", func(b *testing.B) {
		for b.Loop() {
			if _, err := goja.Compile("x", text, true); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("compileFixed", func(b *testing.B) {
		for b.Loop() {
			if _, err := compileFixed("x", text, true); err != nil {
				b.Fatal(err)
			}
		}
	})
}
