package editmatch

import (
	"bytes"
	"strings"
	"testing"
)

// mustApply applies edits and fails the test on error.
func mustApply(t *testing.T, content string, edits ...Edit) *Result {
	t.Helper()
	res, err := Apply("/w/f", []byte(content), edits)
	if err != nil {
		t.Fatalf("Apply: %v", err)
	}
	return res
}

// checkUntouched verifies that every byte outside the replaced ranges is
// unchanged: the output is original[:Start] + something + original[End:].
func checkUntouched(t *testing.T, original string, res *Result) {
	t.Helper()
	if len(res.Matches) != 1 || res.Matches[0].Count != 1 {
		t.Fatalf("checkUntouched wants one single replacement, got %+v", res.Matches)
	}
	m := res.Matches[0]
	out := string(res.Content)
	if !strings.HasPrefix(out, original[:m.Start]) {
		t.Errorf("bytes before the match changed:\n got %q\nwant prefix %q", out, original[:m.Start])
	}
	if !strings.HasSuffix(out, original[m.End:]) {
		t.Errorf("bytes after the match changed:\n got %q\nwant suffix %q", out, original[m.End:])
	}
}

func TestExactSingle(t *testing.T) {
	res := mustApply(t, "hello world\n", Edit{OldText: "world", NewText: "there"})
	if got := string(res.Content); got != "hello there\n" {
		t.Fatalf("got %q", got)
	}
	want := Match{Index: 0, Rule: RuleExact, Start: 6, End: 11, Count: 1}
	if res.Matches[0] != want {
		t.Fatalf("match = %+v, want %+v", res.Matches[0], want)
	}
}

func TestMultiEditAgainstOriginal(t *testing.T) {
	content := "a = 1\nb = 2\nc = 3\n"
	res := mustApply(t, content,
		Edit{OldText: "c = 3", NewText: "c = 30"},
		Edit{OldText: "a = 1", NewText: "b = 2"}, // produces text edit 2 would match
		Edit{OldText: "b = 2\n", NewText: ""},
	)
	if got := string(res.Content); got != "b = 2\nc = 30\n" {
		t.Fatalf("got %q", got)
	}
	for i, m := range res.Matches {
		if m.Index != i || m.Rule != RuleExact || m.Count != 1 {
			t.Errorf("match %d = %+v", i, m)
		}
	}
	// Adjacent ranges do not overlap.
	res = mustApply(t, "abcd", Edit{OldText: "ab", NewText: "1"}, Edit{OldText: "cd", NewText: "2"})
	if got := string(res.Content); got != "12" {
		t.Fatalf("adjacent: got %q", got)
	}
}

func TestFuzzyPreservesUntouchedBytes(t *testing.T) {
	// Smart quotes, dashes, NBSP and trailing spaces everywhere; the edit
	// is written with ASCII and without the trailing spaces.
	content := "// It’s a “test” — keep me   \n" +
		"const msg = “don’t panic”;   \n" +
		"const\u00a0dash = 1 – 2;\t \n" +
		"// trailer “quoted” with spaces   \n"
	old := "const msg = \"don't panic\";\nconst dash = 1 - 2;"
	res := mustApply(t, content, Edit{OldText: old, NewText: "const msg = \"relax\";\nconst dash = 3;"})
	checkUntouched(t, content, res)
	want := "// It’s a “test” — keep me   \n" +
		"const msg = \"relax\";\nconst dash = 3;\t \n" +
		"// trailer “quoted” with spaces   \n"
	if got := string(res.Content); got != want {
		t.Fatalf("got  %q\nwant %q", got, want)
	}
	m := res.Matches[0]
	if m.Rule != "trailing-whitespace+quotes+dashes+spaces" {
		t.Errorf("rule = %q", m.Rule)
	}
	if content[m.Start:m.End] != "const msg = “don’t panic”;   \nconst\u00a0dash = 1 – 2;" {
		t.Errorf("replaced range %q", content[m.Start:m.End])
	}
}

func TestFuzzyRules(t *testing.T) {
	tests := []struct {
		content, old, rule, want string
	}{
		{"say “hi”\n", `say "hi"`, RuleQuotes, "X\n"},
		{"a — b\n", "a - b", RuleDashes, "X\n"},
		{"a\u2009b\n", "a b", RuleSpaces, "X\n"},
		{"x\u00a0=\u00a01\n", "x = 1", RuleSpaces, "X\n"},
		{"ﬁnal\n", "final", RuleNFKC, "X\n"},
		{"ｆｕｌｌ\n", "full", RuleNFKC, "X\n"},
		{"cafe\u0301 ok\n", "café ok", RuleNFKC, "X\n"},
		{"one   \ntwo\n", "one\ntwo", RuleTrailingWhitespace, "X\n"},
		{"one\ntwo\n", "one \ntwo", RuleTrailingWhitespace, "X\n"},
		// Trailing whitespace in oldText's last line must reach a line end,
		// and then the file's own trailing whitespace is replaced too.
		{"one\t\ntwo\n", "one  ", RuleTrailingWhitespace, "X\ntwo\n"},
	}
	for _, tc := range tests {
		res, err := Apply("/w/f", []byte(tc.content), []Edit{{OldText: tc.old, NewText: "X"}})
		if err != nil {
			t.Errorf("%q in %q: %v", tc.old, tc.content, err)
			continue
		}
		if got := string(res.Content); got != tc.want {
			t.Errorf("%q in %q: got %q, want %q", tc.old, tc.content, got, tc.want)
		}
		if res.Matches[0].Rule != tc.rule {
			t.Errorf("%q in %q: rule %q, want %q", tc.old, tc.content, res.Matches[0].Rule, tc.rule)
		}
		checkUntouched(t, tc.content, res)
	}
}

func TestTrailingWhitespaceGuard(t *testing.T) {
	// "foo  " must not match the "foo" inside "foobar".
	_, err := Apply("/w/f", []byte("foobar\n"), []Edit{{OldText: "foo  ", NewText: "x"}})
	if e, ok := err.(*Error); !ok || e.Kind != KindNotFound {
		t.Fatalf("err = %v, want not-found", err)
	}
	// A start at a trimmed line end keeps the file's trailing whitespace.
	res := mustApply(t, "a   \nb\nc\n", Edit{OldText: "\nb\n", NewText: "\nB\n"})
	if got := string(res.Content); got != "a   \nB\nc\n" {
		t.Fatalf("got %q", got)
	}
}

func TestCRLF(t *testing.T) {
	content := "one\r\ntwo  \r\nthree\r\nfour\r\n"
	res := mustApply(t, content, Edit{OldText: "two\nthree\n", NewText: "2\n3\n3.5\n"})
	if got, want := string(res.Content), "one\r\n2\r\n3\r\n3.5\r\nfour\r\n"; got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
	checkUntouched(t, content, res)
	// Exact match with CRLF old text, LF new text.
	res = mustApply(t, content, Edit{OldText: "one\r\n", NewText: "uno\n"})
	if got, want := string(res.Content), "uno\r\ntwo  \r\nthree\r\nfour\r\n"; got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
	// A match ending just before a line break never splits the CRLF.
	res = mustApply(t, content, Edit{OldText: "three", NewText: "3"})
	if got, want := string(res.Content), "one\r\ntwo  \r\n3\r\nfour\r\n"; got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
	if m := res.Matches[0]; content[m.Start:m.End] != "three" {
		t.Fatalf("range %q", content[m.Start:m.End])
	}
}

func TestMixedLineEndingsStayUntouched(t *testing.T) {
	// Detected CRLF (first newline); the LF-only and lone-CR lines that
	// are not touched keep their bytes.
	content := "a\r\nb\nc\rd\r\ne\n"
	res := mustApply(t, content, Edit{OldText: "d", NewText: "D1\nD2"})
	if got, want := string(res.Content), "a\r\nb\nc\rD1\r\nD2\r\ne\n"; got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
	// Detected LF: inserted CRLF becomes LF, the CRLF elsewhere survives.
	content = "a\nb\r\nc\n"
	res = mustApply(t, content, Edit{OldText: "c", NewText: "x\r\ny"})
	if got, want := string(res.Content), "a\nb\r\nx\ny\n"; got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
}

func TestBOM(t *testing.T) {
	content := "\ufeffname = “x”\r\nother\r\n"
	res := mustApply(t, content, Edit{OldText: `name = "x"`, NewText: "name = \"y\"\nextra"})
	if got, want := string(res.Content), "\ufeffname = \"y\"\r\nextra\r\nother\r\n"; got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
	if m := res.Matches[0]; m.Start != 3 {
		t.Fatalf("start %d, want 3 (after the BOM)", m.Start)
	}
	// Replacing the first text keeps the BOM.
	res = mustApply(t, "\ufeffabc", Edit{OldText: "abc", NewText: "z"})
	if got := string(res.Content); got != "\ufeffz" {
		t.Fatalf("got %q", got)
	}
}

func TestReplaceAll(t *testing.T) {
	res := mustApply(t, "x=1; x=1; y=2; x=1\n", Edit{OldText: "x=1", NewText: "x=9", ReplaceAll: true})
	if got := string(res.Content); got != "x=9; x=9; y=2; x=9\n" {
		t.Fatalf("got %q", got)
	}
	if m := res.Matches[0]; m.Count != 3 || m.Start != 0 || m.End != 18 || m.Rule != RuleExact {
		t.Fatalf("match %+v", m)
	}
	// Non-overlapping, left to right, like strings.ReplaceAll.
	res = mustApply(t, "aaaaa", Edit{OldText: "aa", NewText: "b", ReplaceAll: true})
	if got := string(res.Content); got != strings.ReplaceAll("aaaaa", "aa", "b") {
		t.Fatalf("got %q", got)
	}
	// Fuzzy ReplaceAll.
	res = mustApply(t, "say “hi”\nsay “hi”  \n", Edit{OldText: `say "hi"`, NewText: "bye", ReplaceAll: true})
	if got := string(res.Content); got != "bye\nbye  \n" {
		t.Fatalf("got %q", got)
	}
	if m := res.Matches[0]; m.Count != 2 || m.Rule != RuleQuotes {
		t.Fatalf("match %+v", m)
	}
	// ReplaceAll ranges overlapping another edit.
	_, err := Apply("/w/f", []byte("ab ab"), []Edit{{OldText: "ab", NewText: "x", ReplaceAll: true}, {OldText: "b a", NewText: "y"}})
	if e, ok := err.(*Error); !ok || e.Kind != KindOverlap {
		t.Fatalf("err = %v, want overlap", err)
	}
}

func TestNFKCLigatureBoundary(t *testing.T) {
	content := "ﬁeld = 1\nﬁeld2 = 2\n"
	// "f" alone falls inside the ligature's expansion: refused.
	for _, old := range []string{"ﬁeld = 1\nf", "ield = 1", "i"} {
		_, err := Apply("/w/f", []byte(content), []Edit{{OldText: strings.ReplaceAll(old, "ﬁ", "fi"), NewText: "x"}})
		if e, ok := err.(*Error); !ok || e.Kind != KindFuzzyBoundary {
			t.Errorf("%q: err = %v, want fuzzy-boundary", old, err)
		}
	}
	// The whole ligature maps cleanly, at either end of the match.
	res := mustApply(t, content, Edit{OldText: "eld = 1\nfi", NewText: "x"})
	if got := string(res.Content); got != "ﬁxeld2 = 2\n" {
		t.Fatalf("got %q", got)
	}
	res = mustApply(t, content, Edit{OldText: "field2", NewText: "other"})
	if got := string(res.Content); got != "ﬁeld = 1\nother = 2\n" {
		t.Fatalf("got %q", got)
	}
	if res.Matches[0].Rule != RuleNFKC {
		t.Fatalf("rule %q", res.Matches[0].Rule)
	}
	// A later clean candidate is used when an earlier one is unmappable:
	// "ile" occurs inside the ligature of "ﬁle" and cleanly in "pile".
	res = mustApply(t, "ﬁle ‘pile’\n", Edit{OldText: "ile'", NewText: "ot'"})
	if got := string(res.Content); got != "ﬁle ‘pot'\n" {
		t.Fatalf("got %q", got)
	}
}

func TestMultiSegmentExpansion(t *testing.T) {
	// U+FDFA expands under NFKC to four words in several segments.
	content := "x \uFDFA y\n"
	res := mustApply(t, content, Edit{OldText: "x صلى الله عليه وسلم y", NewText: "z"})
	if got := string(res.Content); got != "z\n" {
		t.Fatalf("got %q", got)
	}
	for _, old := range []string{"الله", "x صلى", "وسلم y"} {
		_, err := Apply("/w/f", []byte(content), []Edit{{OldText: old, NewText: "z"}})
		if e, ok := err.(*Error); !ok || e.Kind != KindFuzzyBoundary {
			t.Errorf("%q: err = %v, want fuzzy-boundary", old, err)
		}
	}
}

func TestCombiningSequenceBoundary(t *testing.T) {
	// "e" + U+0301 composes to "é"; a match may not end between them.
	content := "cafe\u0301 “bar”\n"
	_, err := Apply("/w/f", []byte(content), []Edit{{OldText: "caf", NewText: "x"}})
	if err != nil {
		t.Fatalf("exact prefix: %v", err) // exact match, no normalisation involved
	}
	_, err = Apply("/w/f", []byte(content), []Edit{{OldText: "cafe \"bar\"", NewText: "x"}})
	if e, ok := err.(*Error); !ok || e.Kind != KindNotFound {
		t.Fatalf("err = %v, want not-found", err)
	}
	res := mustApply(t, content, Edit{OldText: "café \"bar\"", NewText: "x"})
	if got := string(res.Content); got != "x\n" {
		t.Fatalf("got %q", got)
	}
}

func TestIndentationFallback(t *testing.T) {
	content := "func f() {\n\tif x {\n\t\ty()\n\t}\n\treturn\n}\n"
	old := "    if x {\n        y()\n    }\n"
	res := mustApply(t, content, Edit{OldText: old, NewText: "    if z {\n        w()\n            deeper()\n    }\n    done()\n"})
	want := "func f() {\n\tif z {\n\t\tw()\n\t\t\tdeeper()\n\t}\n\tdone()\n\treturn\n}\n"
	if got := string(res.Content); got != want {
		t.Fatalf("got  %q\nwant %q", got, want)
	}
	if res.Matches[0].Rule != RuleIndentation {
		t.Fatalf("rule %q", res.Matches[0].Rule)
	}
	checkUntouched(t, content, res)

	// First line without indentation: the match starts after the file's
	// indentation, as an exact match would.
	res = mustApply(t, content, Edit{OldText: "if x {\n    y()\n}", NewText: "if x {\n    y(1)\n}"})
	want = "func f() {\n\tif x {\n\t\ty(1)\n\t}\n\treturn\n}\n"
	if got := string(res.Content); got != want {
		t.Fatalf("got  %q\nwant %q", got, want)
	}

	// Two-space model indentation against four-space file indentation.
	content = "def f():\n    if x:\n        y()\n    return 1\n"
	res = mustApply(t, content, Edit{OldText: "  if x:\n    y()\n  return 1", NewText: "  if x:\n    y()\n    z()\n  return 2"})
	want = "def f():\n    if x:\n        y()\n        z()\n    return 2\n"
	if got := string(res.Content); got != want {
		t.Fatalf("got  %q\nwant %q", got, want)
	}
}

func TestIndentationFallbackRefusesInconsistentStructure(t *testing.T) {
	content := "if a:\n    b()\n        c()\n"
	// Same stripped lines, but the old text nests c() less than b().
	for _, old := range []string{
		"if a:\n        b()\n    c()",   // order reversed
		"if a:\n  b()\n  c()",           // two file indents from one old indent
		"\tif a:\n\t\tb()\n\t\t\t\tc()", // steps not proportional (4,4 vs 1,2)
	} {
		_, err := Apply("/w/f", []byte(content), []Edit{{OldText: old, NewText: "x"}})
		if e, ok := err.(*Error); !ok || e.Kind != KindNotFound {
			t.Errorf("%q: err = %v, want not-found", old, err)
		}
	}
}

func TestInteriorWhitespaceFallback(t *testing.T) {
	content := "x  :=   compute(a,  b)   // note\ny := 2\n"
	res := mustApply(t, content, Edit{OldText: "x := compute(a, b) // note", NewText: "x := other()"})
	if got := string(res.Content); got != "x := other()\ny := 2\n" {
		t.Fatalf("got %q", got)
	}
	if res.Matches[0].Rule != RuleInteriorWhitespace {
		t.Fatalf("rule %q", res.Matches[0].Rule)
	}
	// Interior plus indentation, plus a quote fold.
	content = "func g() {\n\tvar  s = “a”\n\treturn   s\n}\n"
	res = mustApply(t, content, Edit{OldText: "    var s = \"a\"\n    return s\n", NewText: "    return \"a\"\n"})
	if got := string(res.Content); got != "func g() {\n\treturn \"a\"\n}\n" {
		t.Fatalf("got %q", got)
	}
	if r := res.Matches[0].Rule; r != "quotes+indentation+interior-whitespace" {
		t.Fatalf("rule %q", r)
	}
	// Collapsing never removes whitespace entirely.
	_, err := Apply("/w/f", []byte("f(a, b)\n"), []Edit{{OldText: "f(a,b)", NewText: "x"}})
	if e, ok := err.(*Error); !ok || e.Kind != KindNotFound {
		t.Fatalf("err = %v, want not-found", err)
	}
}

func TestExactWinsOverFuzzy(t *testing.T) {
	// The exact occurrence is used even though a fuzzy one also exists.
	res := mustApply(t, "it’s\nit's\n", Edit{OldText: "it's", NewText: "x"})
	if got := string(res.Content); got != "it’s\nx\n" {
		t.Fatalf("got %q", got)
	}
}

func TestInputNotMutated(t *testing.T) {
	orig := []byte("a\r\nb “c”\r\n")
	cp := bytes.Clone(orig)
	if _, err := Apply("/w/f", orig, []Edit{{OldText: `b "c"`, NewText: "z"}}); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(orig, cp) {
		t.Fatal("original mutated")
	}
}

func TestInvalidUTF8InEdits(t *testing.T) {
	// Edits are Go strings and may hold invalid bytes; they are read as
	// U+FFFD, so they can never match half a rune or corrupt the output.
	_, err := Apply("/w/f", []byte("⒜ “d”\n"), []Edit{{OldText: "\xe2", NewText: "0"}})
	if e, ok := err.(*Error); !ok || e.Kind != KindNotFound {
		t.Fatalf("err = %v", err)
	}
	res := mustApply(t, "a\uFFFDb\n", Edit{OldText: "a\xffb", NewText: "c\xfe"})
	if got := string(res.Content); got != "c\uFFFD\n" {
		t.Fatalf("got %q", got)
	}
}
