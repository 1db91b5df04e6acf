package search

import (
	"slices"
	"testing"
)

func TestIndexQueryString(t *testing.T) {
	for _, tc := range []struct {
		pattern     string
		regex, fold bool
		want        string
	}{
		{"hello", false, false, `"hel" "ell" "llo"`},
		{"HeLLo", false, true, `"hel" "ell" "llo"`},
		{"ab", false, false, "+"},
		{`func \w+\(ctx context\.Context`, true, false, `"nc " "tx " "xt." "x c" "t.c" "unc" "nte" "con" "fun" " co" ".co" "(ct" "ont" "ext" "tex" "ctx"`},
		{`abc|def`, true, false, `"abc"|"def"`},
		{`a.*b`, true, false, "+"},
		{`(?i)Err`, true, false, `"err"`},
		{`[ab]cd`, true, false, `"acd"|"bcd"`},
		{`x{3,}`, true, false, `"xxx"`},
		{`(foo|bar)baz`, true, false, `("rba" "arb" "bar" "baz")|("oba" "oob" "foo" "baz")`},
		{`a[^x]c`, true, false, "+"},
		{`x
`, true, false, "+"},
	} {
		m, err := Compile(Options{Pattern: tc.pattern, Regex: tc.regex, IgnoreCase: tc.fold})
		if err != nil {
			t.Fatal(err)
		}
		if got := m.IndexQuery().String(); got != tc.want {
			t.Errorf("%q: IndexQuery = %s, want %s", tc.pattern, got, tc.want)
		}
	}
}

func TestTrigramsAndPostings(t *testing.T) {
	got := Trigrams([]byte("AbAbA"))
	want := []uint32{'a' | 'b'<<8 | 'a'<<16, 'b' | 'a'<<8 | 'b'<<16}
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("Trigrams = %x, want %x", got, want)
	}
	if got := Trigrams([]byte("abc\x00def")); got != nil {
		t.Errorf("Trigrams of binary data = %x, want none", got)
	}
	docs := []uint32{0, 1, 5, 200, 255}
	p := AppendPostings(nil, docs)
	back, err := DecodePostings(nil, p, 255)
	if err != nil || !slices.Equal(back, docs) {
		t.Errorf("round trip = %v, %v; want %v", back, err, docs)
	}
	if _, err := DecodePostings(nil, p, 254); err == nil {
		t.Errorf("a doc past max decoded without error")
	}
}
