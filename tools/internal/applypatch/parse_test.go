package applypatch

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
)

func TestParseErrors(t *testing.T) {
	const hunkLine = `"@@" or a hunk line starting with " " (context), "-" (removed) or "+" (added)`
	const header = `"*** Update File:", "*** Add File:", "*** Delete File:" or "*** End Patch"`
	tests := []struct {
		name, patch, want string
	}{
		{"empty", "", `patch line 1: the patch is empty; it must start with "*** Begin Patch"`},
		{"blank", "\n  \n", `patch line 1: the patch is empty; it must start with "*** Begin Patch"`},
		{"no begin", "hello\n*** End Patch", `patch line 1: expected "*** Begin Patch", got "hello"`},
		{"no begin after blank lines", "\n\nhello", `patch line 3: expected "*** Begin Patch", got "hello"`},
		{"no end", "*** Begin Patch\n*** Add File: a\n+x\n", `patch line 4: the patch ends without "*** End Patch"`},
		{"no end in heredoc", "<<'EOF'\n*** Begin Patch\n*** Add File: a\n+x\nEOF", `patch line 5: the patch ends without "*** End Patch"`},
		{"no sections", "*** Begin Patch\n*** End Patch", `patch line 2: the patch has no file sections; expected "*** Add File:", "*** Delete File:" or "*** Update File:" before "*** End Patch"`},
		{"line after delete", "*** Begin Patch\n*** Update File: b.txt\n@@\n-x\n+y\n*** Delete File: c.txt\n+foo\n*** End Patch",
			`patch line 7: expected ` + header + `, got "+foo"`},
		{"bad header", "*** Begin Patch\n*** Frobnicate File: x\n*** End Patch",
			`patch line 2: expected ` + header + `, got "*** Frobnicate File: x"`},
		{"add line without plus", "*** Begin Patch\n*** Add File: a\n+x\ny\n*** End Patch",
			`patch line 4: expected ` + header + `, got "y" (every line of an added file must start with "+")`},
		{"empty add path", "*** Begin Patch\n*** Add File:\n+x\n*** End Patch", `patch line 2: "*** Add File:" needs a path`},
		{"empty update path", "*** Begin Patch\n*** Update File:   \n*** End Patch", `patch line 2: "*** Update File:" needs a path`},
		{"empty move path", "*** Begin Patch\n*** Update File: a\n*** Move to:\n@@\n-x\n*** End Patch", `patch line 3: "*** Move to:" needs a path`},
		{"update without hunks", "*** Begin Patch\n*** Update File: b.txt\n*** End Patch",
			`patch line 2: "*** Update File: b.txt" has no hunks; expected ` + hunkLine},
		{"update with junk", "*** Begin Patch\n*** Update File: b.txt\nfoo\n*** End Patch",
			`patch line 3: expected ` + hunkLine + `, got "foo"`},
		{"junk after hunk lines", "*** Begin Patch\n*** Update File: b.txt\n@@\n a\n-b\nfoo\n*** End Patch",
			`patch line 6: expected ` + hunkLine + `, got "foo"`},
		{"empty hunk", "*** Begin Patch\n*** Update File: b.txt\n@@ def f():\n*** End Patch",
			`patch line 4: expected a hunk line starting with " " (context), "-" (removed) or "+" (added) after "@@", got "*** End Patch"`},
		{"empty hunk at end of input", "*** Begin Patch\n*** Update File: b.txt\n@@",
			`patch line 4: expected a hunk line starting with " " (context), "-" (removed) or "+" (added) after "@@", got end of patch`},
		{"eof marker without lines", "*** Begin Patch\n*** Update File: b.txt\n@@\n*** End of File\n*** End Patch",
			`patch line 4: "*** End of File" must come right after a hunk's lines`},
		{"eof marker after add", "*** Begin Patch\n*** Add File: a\n+x\n*** End of File\n*** End Patch",
			`patch line 4: "*** End of File" must come right after a hunk's lines`},
		{"move out of place", "*** Begin Patch\n*** Update File: a\n@@\n-x\n+y\n*** Move to: b\n*** End Patch",
			`patch line 6: "*** Move to:" must come right after an "*** Update File:" line`},
		{"text after end", "*** Begin Patch\n*** Delete File: a\n*** End Patch\nthanks!",
			`patch line 4: unexpected text after "*** End Patch": "thanks!"`},
		{"second envelope", "*** Begin Patch\n*** Delete File: a\n*** Begin Patch\n*** End Patch",
			`patch line 3: expected ` + header + `, got "*** Begin Patch"`},
		{"heredoc line numbers", "<<'EOF'\n*** Begin Patch\nbogus\n*** End Patch\nEOF\n",
			`patch line 3: expected ` + header + `, got "bogus"`},
		{"crlf line numbers", "*** Begin Patch\r\n*** Delete File: a\r\n+x\r\n*** End Patch\r\n",
			`patch line 3: expected ` + header + `, got "+x"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := Parse(tt.patch)
			if err == nil {
				t.Fatalf("Parse succeeded with %d sections, want error %q", p.Len(), tt.want)
			}
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %T is not *ParseError", err)
			}
			if err.Error() != tt.want {
				t.Errorf("error:\n got %s\nwant %s", err, tt.want)
			}
		})
	}
}

// TestParseStructure checks the parsed form of accepted patches,
// including the lenient forms.
func TestParseStructure(t *testing.T) {
	tests := []struct {
		name, patch, want string
	}{
		{"all kinds", patch(
			"*** Add File: path/add.py",
			"+abc",
			"+",
			"+def",
			"*** Delete File: path/delete.py",
			"*** Update File: path/update.py",
			"*** Move to: path/update2.py",
			"@@ def f():",
			"-    pass",
			"+    return 123",
		), `Add path/add.py ["abc" "" "def"]
Delete path/delete.py
Update path/update.py -> path/update2.py
  hunk@9 ctx["def f():"] body[-"    pass" +"    return 123"]
`},
		{"heredoc, quoted", "<<'EOF'\n*** Begin Patch\n*** Delete File: a\n*** End Patch\nEOF\n", "Delete a\n"},
		{"heredoc, double quoted", "<<\"EOF\"\n*** Begin Patch\n*** Delete File: a\n*** End Patch\nEOF", "Delete a\n"},
		{"heredoc, bare, with command", "apply_patch <<PATCH\n*** Begin Patch\n*** Delete File: a\n*** End Patch\nPATCH\n", "Delete a\n"},
		{"heredoc without closing line", "<<'EOF'\n*** Begin Patch\n*** Delete File: a\n*** End Patch\n", "Delete a\n"},
		{"code fence", "```diff\n*** Begin Patch\n*** Delete File: a\n*** End Patch\n```\n", "Delete a\n"},
		{"crlf, bom, padding, case", "\ufeff\r\n  *** begin patch  \r\n *** DELETE FILE:   a b.txt  \r\n\r\n*** end patch\r\n", "Delete a b.txt\n"},
		{"blank lines between sections", patch("", "*** Delete File: a", "", "", "*** Delete File: b", ""), "Delete a\nDelete b\n"},
		{"add with blank line inside", patch("*** Add File: a", "+x", "", "+y", "", "*** Delete File: b"), "Add a [\"x\" \"\" \"y\"]\nDelete b\n"},
		{"empty add", patch("*** Add File: a", "*** Delete File: b"), "Add a []\nDelete b\n"},
		{"first hunk without @@", patch("*** Update File: a", " import foo", "+bar"), `Update a
  hunk@3 body[ "import foo" +"bar"]
`},
		{"blank line before first hunk", patch("*** Update File: a", "", "@@", "-x"), `Update a
  hunk@4 body[-"x"]
`},
		{"empty context lines without space", patch("*** Update File: a", "@@", " a", "", "\t", "-b"), `Update a
  hunk@3 body[ "a"  ""  "" -"b"]
`},
		{"several contexts and unified headers", patch(
			"*** Update File: a",
			"@@ class A",
			"@@ \tdef f():",
			" x",
			"@@ -10,3 +10,4 @@ def g():",
			"+y",
			"@@ -1 +1 @@",
			"-z",
			"@@",
			"-w",
			"*** End of File",
		), `Update a
  hunk@3 ctx["class A" "\tdef f():"] body[ "x"]
  hunk@6 ctx["def g():"] body[+"y"]
  hunk@8 body[-"z"]
  hunk@10 body[-"w"] eof
`},
		{"pure rename", patch("*** Update File: a", "*** Move to: b"), "Update a -> b\n"},
		{"blank line before move", patch("*** Update File: a", "", "*** Move to: b", "-x"), "Update a -> b\n  hunk@5 body[-\"x\"]\n"},
		{"closing fence only", "*** Begin Patch\n*** Delete File: a\n*** End Patch\n```", "Delete a\n"},
		{"markers in content", patch(
			"*** Add File: a",
			"+*** End Patch",
			"*** Update File: b",
			"@@",
			" *** End Patch",
			"-@@",
			"+*** Update File: c",
		), `Add a ["*** End Patch"]
Update b
  hunk@5 body[ "*** End Patch" -"@@" +"*** Update File: c"]
`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := Parse(tt.patch)
			if err != nil {
				t.Fatal(err)
			}
			if got := dump(p); got != tt.want {
				t.Errorf("got\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

// dump renders a parsed patch for comparison.
func dump(p *Patch) string {
	var b strings.Builder
	for _, f := range p.files {
		fmt.Fprintf(&b, "%s %s", f.kind, f.path)
		if f.moveTo != "" {
			fmt.Fprintf(&b, " -> %s", f.moveTo)
		}
		if f.kind == Add {
			b.WriteString(" [")
			for i, l := range f.lines {
				if i > 0 {
					b.WriteString(" ")
				}
				fmt.Fprintf(&b, "%q", l)
			}
			b.WriteString("]")
		}
		b.WriteString("\n")
		for _, c := range f.chunks {
			fmt.Fprintf(&b, "  hunk@%d", c.line)
			if len(c.contexts) > 0 {
				b.WriteString(" ctx[")
				for i, s := range c.contexts {
					if i > 0 {
						b.WriteString(" ")
					}
					fmt.Fprintf(&b, "%q", s)
				}
				b.WriteString("]")
			}
			b.WriteString(" body[")
			for i, h := range c.body {
				if i > 0 {
					b.WriteString(" ")
				}
				fmt.Fprintf(&b, "%c%q", " -+"[h.kind], h.text)
			}
			b.WriteString("]")
			if c.eof {
				b.WriteString(" eof")
			}
			b.WriteString("\n")
		}
	}
	return b.String()
}

func TestPaths(t *testing.T) {
	p, err := Parse(patch(
		"*** Update File: src/a.go",
		"*** Move to: /lib/a.go",
		"*** Delete File: ../../etc/x",
		"*** Add File: ./src/a.go",
		"*** Delete File: ../../../up",
	))
	if err != nil {
		t.Fatal(err)
	}
	got := p.Paths("/work/repo")
	want := []string{"/work/repo/src/a.go", "/lib/a.go", "/etc/x"}
	if !slices.Equal(got, want) {
		t.Errorf("Paths = %q, want %q", got, want)
	}
	if p.Len() != 4 {
		t.Errorf("Len = %d, want 4", p.Len())
	}
}

// FuzzParse checks that Parse never panics, and that a well-formed patch
// generated from the input parses with the generated number of sections
// and plans without panicking.
func FuzzParse(f *testing.F) {
	f.Add([]byte("*** Begin Patch\n*** Add File: a\n+x\n*** End Patch\n"))
	f.Add([]byte("<<'EOF'\n*** Begin Patch\n*** Update File: a\n@@ f\n x\n-y\n+z\n*** End of File\n*** End Patch\nEOF"))
	f.Add([]byte("*** Begin Patch\r\n*** Update File: a\r\n*** Move to: b\r\n@@\r\n\r\n-q\r\n*** Delete File: c\r\n*** End Patch"))
	f.Add([]byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 200, 255, '\n', '@', '@'})
	f.Fuzz(func(t *testing.T, data []byte) {
		if p, err := Parse(string(data)); err == nil {
			_, _ = p.Plan(memFS{"/a": "x\ny\n", "/b": "q\r\n"}, "/")
			if p.Len() == 0 {
				t.Fatal("Parse accepted a patch with no sections")
			}
		}
		text, n := generate(data)
		p, err := Parse(text)
		if err != nil {
			t.Fatalf("generated patch does not parse: %v\n%s", err, text)
		}
		if p.Len() != n {
			t.Fatalf("Len = %d, want %d\n%s", p.Len(), n, text)
		}
		_, _ = p.Plan(memFS{"/f0": "x\ny\n", "/f1": ""}, "/")
	})
}

// generate builds a well-formed patch from data, returning it and its
// number of sections.
func generate(data []byte) (string, int) {
	next := func() byte {
		if len(data) == 0 {
			return 0
		}
		b := data[0]
		data = data[1:]
		return b
	}
	// text returns a line of arbitrary bytes without line breaks.
	text := func() string {
		n := int(next() % 8)
		var b strings.Builder
		for range n {
			c := next()
			if c == '\n' || c == '\r' {
				c = ' '
			}
			b.WriteByte(c)
		}
		return b.String()
	}
	name := func() string {
		const chars = "abc/._-"
		var b strings.Builder
		b.WriteByte('f')
		for range int(next() % 5) {
			b.WriteByte(chars[int(next())%len(chars)])
		}
		return b.String()
	}
	var lines []string
	lines = append(lines, "*** Begin Patch")
	n := 1 + int(next()%5)
	for range n {
		switch next() % 3 {
		case 0:
			lines = append(lines, "*** Add File: "+name())
			for range int(next() % 4) {
				lines = append(lines, "+"+text())
			}
		case 1:
			lines = append(lines, "*** Delete File: "+name())
		default:
			lines = append(lines, "*** Update File: "+name())
			if next()%4 == 0 {
				lines = append(lines, "*** Move to: "+name())
			}
			for range 1 + int(next()%3) {
				if ctx := text(); next()%2 == 0 {
					lines = append(lines, "@@ "+ctx)
				} else {
					lines = append(lines, "@@")
				}
				for range 1 + int(next()%4) {
					lines = append(lines, string(" -+"[next()%3])+text())
				}
				if next()%8 == 0 {
					lines = append(lines, "*** End of File")
				}
			}
		}
	}
	lines = append(lines, "*** End Patch")
	return strings.Join(lines, "\n") + "\n", n
}
