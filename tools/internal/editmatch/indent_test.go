package editmatch

import "testing"

func TestIndentMap(t *testing.T) {
	tests := []struct {
		pairs [][2]string
		ok    bool
	}{
		{nil, true},
		{[][2]string{{"    ", "\t"}}, true},
		{[][2]string{{"", "\t"}, {"    ", "\t\t"}, {"        ", "\t\t\t"}}, true},
		{[][2]string{{"  ", "    "}, {"    ", "        "}}, true},
		{[][2]string{{"    ", "\t"}, {"    ", "\t\t"}}, false},                 // one old indent, two file indents
		{[][2]string{{"    ", "\t"}, {"  ", "\t"}}, false},                     // two old indents, one file indent
		{[][2]string{{"", "\t\t"}, {"    ", "\t"}}, false},                     // order reversed
		{[][2]string{{"", ""}, {"    ", "\t"}, {"        ", "\t\t\t"}}, false}, // steps not proportional
		{[][2]string{{"\t", "  "}, {"    ", "    "}}, false},                   // "\t" vs "    " tie at tab width 4
	}
	for _, tc := range tests {
		if _, ok := indentMap(tc.pairs); ok != tc.ok {
			t.Errorf("indentMap(%q) ok = %v, want %v", tc.pairs, ok, tc.ok)
		}
	}
}

func TestReindent(t *testing.T) {
	tests := []struct {
		name      string
		imap      map[string]string
		skipFirst bool
		in, want  string
	}{
		{
			"identity", map[string]string{"\t": "\t"}, false,
			"\tx\n  y", "\tx\n  y",
		},
		{
			"known indents", map[string]string{"": "\t", "    ": "\t\t"}, false,
			"a\n    b\n\n  \nc", "\ta\n\t\tb\n\n  \n\tc",
		},
		{
			"deeper by units", map[string]string{"": "\t", "    ": "\t\t"}, false,
			"            d", "\t\t\t\td",
		},
		{
			"single pair unit", map[string]string{"        ": "\t\t"}, false,
			"        a\n            b\n    c\nd", "\t\ta\n\t\t\tb\n\tc\nd",
		},
		{
			"untranslatable kept", map[string]string{"": "\t", "    ": "\t\t"}, false,
			"  odd", "  odd",
		},
		{
			"first line skipped", map[string]string{"": "\t", "    ": "\t\t"}, true,
			"    first\n    second", "    first\n\t\tsecond",
		},
	}
	for _, tc := range tests {
		if got := reindent(tc.in, tc.imap, tc.skipFirst); got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.name, got, tc.want)
		}
	}
}
