package console

import "testing"

// pretty indents JSON and shows <, > and & as the characters (the page
// escapes them), leaving an escaped backslash before "u003c" alone.
func TestPretty(t *testing.T) {
	for in, want := range map[string]string{
		`{"a":"\u003cb\u003e \u0026"}`: "{\n  \"a\": \"<b> &\"\n}",
		`["\\u003c"]`:                  "[\n  \"\\\\u003c\"\n]",
		`"\u00e9\n"`:                   `"\u00e9\n"`,
		`not json`:                     `not json`,
	} {
		if got := pretty([]byte(in)); got != want {
			t.Errorf("pretty(%s) = %q, want %q", in, got, want)
		}
	}
}
