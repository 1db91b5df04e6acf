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

// BenchmarkUnified10kLines1Percent diffs a 10,000-line file with every
// hundredth line changed.
func BenchmarkUnified10kLines1Percent(b *testing.B) {
	var x, y bytes.Buffer
	for i := range 10000 {
		fmt.Fprintf(&x, "line %d of the file\n", i)
		if i%100 == 50 {
			fmt.Fprintf(&y, "changed line %d\n", i)
		} else {
			fmt.Fprintf(&y, "line %d of the file\n", i)
		}
	}
	b.SetBytes(int64(x.Len()))
	b.ReportAllocs()
	for b.Loop() {
		if Unified("a/f", "b/f", x.Bytes(), y.Bytes(), 3) == "" {
			b.Fatal("no diff")
		}
	}
}
