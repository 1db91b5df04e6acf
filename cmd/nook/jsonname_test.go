package main

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestBytesTextJSON(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"plain.txt", `"plain.txt"`},
		{"é<&>\"\\\n", `"é<&>\"\\\n"`},
		{"a\xffb", `"a\udcffb"`},
		{"\xc3", `"\udcc3"`},                 // a sequence cut short
		{"é\xe2\x82x€", `"é\udce2\udc82x€"`}, // valid runes around invalid bytes
		{"\x80\x80", `"\udc80\udc80"`},
	} {
		var out strings.Builder
		a := &app{stdout: &out}
		if err := a.writeJSON(struct {
			P bytesText `json:"p"`
		}{bytesText(c.in)}); err != nil {
			t.Fatal(err)
		}
		b := []byte(strings.TrimSuffix(out.String(), "\n"))
		if got := strings.TrimSuffix(strings.TrimPrefix(string(b), `{"p":`), "}"); got != c.want {
			t.Errorf("%q: got %s, want %s", c.in, got, c.want)
		}
		if !json.Valid(b) {
			t.Errorf("%q: invalid JSON %s", c.in, b)
		}
	}
}

// Names that are not UTF-8 keep their bytes in --json output, where
// encoding/json alone would print U+FFFD for every one of them.
func TestJSONKeepsNameBytes(t *testing.T) {
	w := newWS(t)
	w.okIn([]byte("one\n"), "put", "-p", "/d/a\xffb")
	w.okIn([]byte("two\n"), "put", "/d/a\xfeb")
	out := w.ok("--json", "ls", "/d")
	for _, want := range []string{`"name":"a\udcffb"`, `"path":"/d/a\udcfeb"`} {
		if !strings.Contains(out, want) {
			t.Errorf("ls --json: no %s in %s", want, out)
		}
	}
	if out := w.ok("--json", "find", "--path", "/d", "a*"); !strings.Contains(out, `"path":"/d/a\udcffb"`) {
		t.Errorf("find --json: %s", out)
	}
	if out := w.ok("--json", "grep", "two", "/d"); !strings.Contains(out, `"path":"/d/a\udcfeb"`) {
		t.Errorf("grep --json: %s", out)
	}
}
