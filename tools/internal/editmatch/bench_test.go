package editmatch

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// sourceFile makes roughly size bytes of Go-like source with unique lines.
func sourceFile(size int) string {
	var b strings.Builder
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(&b, "func f%d(x int) int {\n\t// compute “value” %d — see notes   \n\treturn x*%d + 1\n}\n\n", i, i, i)
	}
	return b.String()
}

func fiveEdits(content string) []Edit {
	var edits []Edit
	n := strings.Count(content, "func f")
	for k := range 5 {
		i := (k*2 + 1) * n / 10
		edits = append(edits, Edit{
			OldText: fmt.Sprintf("\treturn x*%d + 1\n", i),
			NewText: fmt.Sprintf("\treturn x*%d + 2\n", i),
		})
	}
	return edits
}

func BenchmarkApplyExact100KB5Edits(b *testing.B) {
	content := []byte(sourceFile(100 << 10))
	edits := fiveEdits(string(content))
	b.SetBytes(int64(len(content)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Apply("/f", content, edits); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkApplyFuzzy1MB(b *testing.B) {
	content := []byte(sourceFile(1 << 20))
	n := strings.Count(string(content), "func f")
	edit := Edit{OldText: fmt.Sprintf("\t// compute \"value\" %d - see notes\n", n-3), NewText: "\t// gone\n"}
	b.SetBytes(int64(len(content)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Apply("/f", content, []Edit{edit}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkApplyNotFound1MB(b *testing.B) {
	content := []byte(sourceFile(1 << 20))
	edit := Edit{OldText: "func nothere(x int) int {\n\treturn 0\n}", NewText: "x"}
	b.SetBytes(int64(len(content)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Apply("/f", content, []Edit{edit}); err == nil {
			b.Fatal("found")
		}
	}
}

func TestExact100KBUnderOneMillisecond(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("timing")
	}
	content := []byte(sourceFile(100 << 10))
	edits := fiveEdits(string(content))
	r := testing.Benchmark(func(b *testing.B) {
		for b.Loop() {
			if _, err := Apply("/f", content, edits); err != nil {
				b.Fatal(err)
			}
		}
	})
	// Generous for slow or shared machines; typically 50-200 µs.
	per := time.Duration(r.NsPerOp())
	t.Logf("%v per Apply", per)
	if per > 5*time.Millisecond {
		t.Fatalf("%v per Apply", per)
	}
}

// TestFuzzyScalesLinearly runs the fuzzy paths on adversarial 1 MB inputs
// and checks that each finishes in bounded time.
func TestFuzzyScalesLinearly(t *testing.T) {
	if testing.Short() {
		t.Skip("large inputs")
	}
	const mb = 1 << 20
	cases := []struct {
		name    string
		content string
		edit    Edit
	}{
		{"one long line of a", strings.Repeat("a", mb), Edit{OldText: strings.Repeat("a", 1000) + "’", NewText: "x"}},
		{"many equal lines", strings.Repeat("x\n", mb/2), Edit{OldText: strings.Repeat("  x\n", 500) + "  y", NewText: "z"}},
		{"many ligatures", strings.Repeat("ﬁ", mb/3), Edit{OldText: "i", NewText: "z"}},
		{"many trailing spaces", strings.Repeat("ab  \n", mb/5), Edit{OldText: "ab  ", NewText: "z", ReplaceAll: true}},
		{"many blank lines", strings.Repeat("\n", mb), Edit{OldText: "\n\n  \n\nq", NewText: "z"}},
		{"interior runs", strings.Repeat("a   b\t\tc ", mb/10), Edit{OldText: "c a b c d", NewText: "z"}},
		{"smart source", sourceFile(mb), Edit{OldText: "func f1(x int) int {\n    // compute \"value\" 1 - see notes\n    return x*1 + 2\n}", NewText: "z"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			start := time.Now()
			_, err := Apply("/f", []byte(tc.content), []Edit{tc.edit})
			el := time.Since(start)
			t.Logf("%v: %v", el, err)
			if el > 5*time.Second {
				t.Fatalf("took %v", el)
			}
		})
	}
}
