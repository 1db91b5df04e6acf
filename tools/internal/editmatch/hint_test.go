package editmatch

import (
	"strings"
	"testing"
)

func notFoundMessage(t *testing.T, content, old string) string {
	t.Helper()
	_, err := Apply("/f", []byte(content), []Edit{{OldText: old, NewText: "x"}})
	e, ok := err.(*Error)
	if !ok || e.Kind != KindNotFound {
		t.Fatalf("err = %v, want not-found", err)
	}
	return e.Message
}

const notFoundPrefix = "Could not find the exact text in /f. The old text must match exactly including all whitespace and newlines."

func TestHint(t *testing.T) {
	content := "package p\n\nfunc Add(a, b int) int {\n\treturn a + b\n}\n\nfunc Sub(a, b int) int {\n\treturn a - b\n}\n"
	tests := []struct {
		name, old, hint string
	}{
		{"unrelated text has no hint", "completely different words", ""},
		{"typo in a line", "func Sub(a, b int) float {", " The closest text is at line 7:\nfunc Sub(a, b int) int {\n\treturn a - b\n}"},
		{"divergence after matching lines", "func Add(a, b int) int {\n\treturn a * b\n}", " The closest text is at line 4:\n\treturn a + b\n}\n"},
		{"divergence before matching lines", "func Mul(a, b int) int {\n\treturn a - b\n}", " The closest text is at line 7:\nfunc Sub(a, b int) int {\n\treturn a - b\n}"},
	}
	for _, tc := range tests {
		if got := notFoundMessage(t, content, tc.old); got != notFoundPrefix+tc.hint {
			t.Errorf("%s:\n got %q\nwant %q", tc.name, got, notFoundPrefix+tc.hint)
		}
	}
}

func TestHintIsShort(t *testing.T) {
	long := strings.Repeat("é", 300)
	content := "x\n" + long + "1\n" + long + "2\n" + long + "3\n"
	msg := notFoundMessage(t, content, long+"4")
	hint := strings.TrimPrefix(msg, notFoundPrefix)
	if !strings.HasPrefix(hint, " The closest text is at line 2:\n") {
		t.Fatalf("hint %q", hint)
	}
	if len(hint) > hintMaxBytes {
		t.Fatalf("hint is %d bytes", len(hint))
	}
	for _, l := range strings.Split(hint, "\n")[1:] {
		if len(l) > hintLineMaxBytes {
			t.Fatalf("line of %d bytes", len(l))
		}
		if !strings.HasSuffix(l, "…") {
			t.Fatalf("long line not marked as cut: %q", l)
		}
	}
}
