package editmatch

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"
)

func FuzzApply(f *testing.F) {
	seeds := []struct {
		content, old, new string
		all               bool
	}{
		{"hello world\n", "world", "there", false},
		{"a\r\nb\r\n", "a\nb", "c", false},
		{"\ufeffx “y”  \n", `x "y"`, "z", false},
		{"ﬁle\nfile\n", "fi", "x", true},
		{"\tif x {\n\t\ty()\n\t}\n", "    if x {\n        y()\n    }", "  z", false},
		{"a  b\n", "a b", "c", false},
		{"e\u0301\u0301\u0323x", "ex", "", false},
		{"\u00a8\u0301 \u3000\n", " ", "q", true},
		{"aaa", "aa", "b", false},
	}
	for _, s := range seeds {
		f.Add(s.content, s.old, s.new, s.all)
	}
	f.Fuzz(func(t *testing.T, content, old, repl string, all bool) {
		res, err := Apply("/f", []byte(content), []Edit{{OldText: old, NewText: repl, ReplaceAll: all}})
		if err != nil {
			var e *Error
			if !errors.As(err, &e) || e.Message == "" || e.Kind == "" {
				t.Fatalf("bad error %#v", err)
			}
			if res != nil {
				t.Fatal("result with error")
			}
		} else {
			m := res.Matches[0]
			if m.Start < 0 || m.Start > m.End || m.End > len(content) || m.Count < 1 {
				t.Fatalf("bad match %+v for %d bytes", m, len(content))
			}
			out := string(res.Content)
			// Bytes outside the replaced span never change.
			if !strings.HasPrefix(out, content[:m.Start]) || !strings.HasSuffix(out, content[m.End:]) {
				t.Fatalf("untouched bytes changed: %q -> %q (%+v)", content, out, m)
			}
			if !utf8.ValidString(out) {
				t.Fatalf("output not UTF-8: %q", out)
			}
			if out == content {
				t.Fatal("no-change result returned")
			}
		}
		// The plain case must behave exactly like strings.Replace.
		plain := old != "" && old != repl && utf8.ValidString(content) && utf8.ValidString(old) && utf8.ValidString(repl) &&
			!strings.ContainsRune(content+old+repl, '\r') && !strings.HasPrefix(content, utf8BOM)
		if !plain {
			return
		}
		at := strings.Index(content, old)
		if at < 0 || strings.Contains(content[at+1:], old) {
			return
		}
		if err != nil {
			t.Fatalf("unique exact edit failed: %v", err)
		}
		if want := strings.Replace(content, old, repl, 1); string(res.Content) != want {
			t.Fatalf("got %q, want %q", res.Content, want)
		}
		if m := res.Matches[0]; m.Rule != RuleExact || m.Start != at || m.End != at+len(old) || m.Count != 1 {
			t.Fatalf("match %+v", m)
		}
	})
}

func FuzzIndexFast(f *testing.F) {
	f.Add(strings.Repeat("\tab\n", 400)+"\tQb\n", "\tQb")
	f.Add(strings.Repeat("x", 2000), "xx")
	f.Add(strings.Repeat("a*b ", 600), "*b a*c")
	f.Fuzz(func(t *testing.T, hay, needle string) {
		for _, h := range []string{hay, strings.Repeat(hay, 1+2048/(len(hay)+1))} {
			if got, want := indexFast([]byte(h), []byte(needle)), strings.Index(h, needle); got != want {
				t.Fatalf("indexFast(%q, %q) = %d, want %d", h, needle, got, want)
			}
		}
	})
}

// FuzzFuzzyNeedle takes a piece of the content, degrades it the way a
// model would (typographic characters folded, trailing whitespace
// dropped, indentation changed, interior runs collapsed) and applies it:
// whatever happens, untouched bytes never change.
func FuzzFuzzyNeedle(f *testing.F) {
	f.Add("a “b” c  \n\td — e\u00a0f\n", 2, 20, uint8(0))
	f.Add("ﬁx ‘q’ \r\n  y\r\n", 0, 9, uint8(1))
	f.Add("if x {\n\t\ty()   z\n\t}\n", 0, 18, uint8(3))
	f.Fuzz(func(t *testing.T, content string, s, e int, how uint8) {
		if !utf8.ValidString(content) || len(content) == 0 {
			return
		}
		s, e = int(uint(s)%uint(len(content))), int(uint(e)%uint(len(content)+1))
		if s > e {
			s, e = e, s
		}
		for s > 0 && !utf8.RuneStart(content[s]) {
			s--
		}
		for e < len(content) && !utf8.RuneStart(content[e]) {
			e++
		}
		old := toLF(content[s:e])
		if how&1 != 0 {
			old = normText(old, baseRules)
		}
		if how&2 != 0 {
			old = strings.ReplaceAll(old, "\t", "    ")
		}
		if how&4 != 0 {
			old = collapseText(old)
		}
		if old == "" {
			return
		}
		res, err := Apply("/f", []byte(content), []Edit{{OldText: old, NewText: "NEW\nTEXT"}})
		if err != nil {
			return
		}
		m := res.Matches[0]
		out := string(res.Content)
		if !strings.HasPrefix(out, content[:m.Start]) || !strings.HasSuffix(out, content[m.End:]) {
			t.Fatalf("untouched bytes changed: %q -> %q (%+v)", content, out, m)
		}
		if !utf8.ValidString(out) {
			t.Fatalf("invalid output %q", out)
		}
	})
}

// FuzzIndex checks the normalised index against normText and the
// soundness of its offset map.
func FuzzIndex(f *testing.F) {
	f.Add("a “b” \t\nﬁ\u0301x\u00a0 \n\n  ")
	f.Add("\uFDFA e\u0301\u0302\u0303 \u3000")
	f.Add(strings.Repeat("a\u0301", 40) + "\n" + strings.Repeat("\u0301", 40))
	f.Fuzz(func(t *testing.T, content string) {
		if !utf8.ValidString(content) {
			return
		}
		lf := toLF(content)
		x := buildBaseIndex([]byte(lf))
		if got, want := string(x.text), normText(lf, baseRules); got != want {
			t.Fatalf("index text %q, normText %q", got, want)
		}
		check := func(name string, x *normIndex) {
			if x.endAt(0) != 0 && len(x.text) > 0 {
				t.Fatalf("%s: start maps to %d", name, x.endAt(0))
			}
			if len(x.pos) != len(x.text)+1 || int(x.pos[len(x.text)]) != len(lf) {
				t.Fatalf("%s: bad ends: %d pos for %d bytes, %v", name, len(x.pos), len(x.text), x.pos)
			}
			last := int32(0)
			for i, p := range x.pos {
				if p < 0 {
					continue
				}
				if p < last || int(p) > len(lf) {
					t.Fatalf("%s: pos[%d] = %d after %d", name, i, p, last)
				}
				if i < len(x.text) && !utf8.RuneStart(x.text[i]) {
					t.Fatalf("%s: clean boundary inside a rune at %d", name, i)
				}
				if int(p) < len(lf) && !utf8.RuneStart(lf[p]) {
					t.Fatalf("%s: maps into a rune at %d", name, p)
				}
				last = p
			}
			for k, v := range x.trimEnd {
				if v > x.pos[k] {
					t.Fatalf("%s: trimEnd[%d] = %d after pos %d", name, k, v, x.pos[k])
				}
			}
		}
		check("base", x)
		y := x.collapsed()
		if got, want := string(y.text), collapseText(string(x.text)); got != want {
			t.Fatalf("collapsed %q, collapseText %q", got, want)
		}
		check("collapsed", y)
	})
}
