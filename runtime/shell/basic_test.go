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

// A failed script still reports what it changed.
func TestChangesOfAFailedRun(t *testing.T) {
	ws := openWS(t, map[string]string{"old.txt": "x\n"})
	r := run(t, ws, `echo new > new.txt; rm old.txt; mkdir d; exit 3`)
	if r.ExitCode != 3 || r.Changes == nil {
		t.Fatalf("code %d changes %v", r.ExitCode, r.Changes)
	}
	c := r.Changes
	if strings.Join(c.Created, ",") != "/workspace/new.txt" || strings.Join(c.Deleted, ",") != "/workspace/old.txt" ||
		strings.Join(c.DirsCreated, ",") != "/workspace/d" {
		t.Errorf("changes %+v", c)
	}
}
