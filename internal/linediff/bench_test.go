package linediff

import (
	"bytes"
	"fmt"
	"testing"
)

func BenchmarkUnified100KB5Edits(b *testing.B) {
	var a bytes.Buffer
	for i := 0; a.Len() < 100<<10; i++ {
		fmt.Fprintf(&a, "func f%d(x int) int {\n\treturn x*%d + 1\n}\n\n", i, i)
	}
	after := a.Bytes()
	for k := 1; k <= 5; k++ {
		old := fmt.Sprintf("\treturn x*%d + 1\n", k*400)
		after = bytes.Replace(after, []byte(old), []byte("\treturn 0\n\t// changed\n"), 1)
	}
	b.SetBytes(int64(a.Len()))
	b.ReportAllocs()
	for b.Loop() {
		if Unified("a/f", "b/f", a.Bytes(), after, 4) == "" {
			b.Fatal("no diff")
		}
	}
}
