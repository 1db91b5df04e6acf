package shell_test

import (
	"strings"
	"testing"
)

func TestBasics(t *testing.T) {
	ws := openWS(t, map[string]string{"a.txt": "hello\nworld\n", "src/x.go": "package x\n"})
	r := run(t, ws, `cat a.txt | wc -l; echo $HOME $PWD; ls; for f in src/*; do echo "f=$f"; done; echo hi > out.txt; cat out.txt; nosuch; echo $?`)
	t.Logf("stdout=%q stderr=%q code=%d status=%s value=%s err=%s", r.Stdout, r.Stderr, r.ExitCode, r.Status, r.Value, r.Error)
	want := "2\n/workspace /workspace\na.txt\nsrc\nf=src/x.go\nhi\n127\n"
	if string(r.Stdout) != want {
		t.Fatalf("stdout %q, want %q", r.Stdout, want)
	}
	if !strings.Contains(string(r.Stderr), "nosuch: command not found") {
		t.Fatalf("stderr %q", r.Stderr)
	}
	c := changesOf(t, r)
	if len(c.Changes.Created) != 1 || c.Changes.Created[0] != "/workspace/out.txt" {
		t.Fatalf("changes %+v", c)
	}
}
