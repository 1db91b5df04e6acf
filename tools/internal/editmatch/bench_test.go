package editmatch

import (
	"errors"
	"fmt"
	"strings"
	"testing"
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

// The exact path of BenchmarkApplyExact100KB5Edits gives the result a
// plain replacement would: its speed is the benchmark's, compared with
// BenchmarkBaselineReplace100KB5Edits in the same run.
func TestExact100KB5Edits(t *testing.T) {
	content := sourceFile(100 << 10)
	edits := fiveEdits(content)
	res, err := Apply("/f", []byte(content), edits)
	if err != nil {
		t.Fatal(err)
	}
	want := content
	for _, e := range edits {
		want = strings.Replace(want, e.OldText, e.NewText, 1)
	}
	if string(res.Content) != want {
		t.Errorf("Apply of five exact edits differs from strings.Replace")
	}
	for i, m := range res.Matches {
		if m.Index != i || m.Rule != RuleExact || m.Count != 1 || content[m.Start:m.End] != edits[i].OldText {
			t.Errorf("match %d = %+v", i, m)
		}
	}
}

// BenchmarkBaselineReplace100KB5Edits is the baseline of
// BenchmarkApplyExact100KB5Edits: five strings.Replace calls, which check
// neither uniqueness nor overlap.
func BenchmarkBaselineReplace100KB5Edits(b *testing.B) {
	content := sourceFile(100 << 10)
	edits := fiveEdits(content)
	b.SetBytes(int64(len(content)))
	b.ReportAllocs()
	for b.Loop() {
		out := content
		for _, e := range edits {
			out = strings.Replace(out, e.OldText, e.NewText, 1)
		}
	}
}

// adversarial are 1 MB inputs that make the fuzzy paths work hardest.
func adversarial() []struct {
	name    string
	content string
	edit    Edit
} {
	const mb = 1 << 20
	return []struct {
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
}

// TestFuzzyAdversarial runs the fuzzy paths on the adversarial inputs:
// each ends with a result or a model-facing error (their time is
// BenchmarkFuzzyAdversarial's).
func TestFuzzyAdversarial(t *testing.T) {
	if testing.Short() {
		t.Skip("large inputs")
	}
	for _, tc := range adversarial() {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Apply("/f", []byte(tc.content), []Edit{tc.edit})
			var me *Error
			if err != nil && !errors.As(err, &me) {
				t.Fatalf("error %v is not a model-facing *Error", err)
			}
		})
	}
}

func BenchmarkFuzzyAdversarial(b *testing.B) {
	for _, tc := range adversarial() {
		b.Run(tc.name, func(b *testing.B) {
			content := []byte(tc.content)
			b.SetBytes(int64(len(content)))
			for b.Loop() {
				Apply("/f", content, []Edit{tc.edit})
			}
		})
	}
}
