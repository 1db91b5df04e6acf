package shell_test

import (
	"archive/tar"
	"bytes"
	"context"
	"os"
	"strings"
	"testing"

	"github.com/nookdev/nook/runtime"
	"github.com/nookdev/nook/runtime/shell"
)

// Escapes: nothing a script does reaches the host.
func TestEscapesRefused(t *testing.T) {
	host := t.TempDir()
	os.WriteFile(host+"/secret", []byte("host secret\n"), 0o644)
	t.Setenv("NOOK_HOST_SECRET", "leaked")
	ws := openWS(t, map[string]string{"a.txt": "a\n"})
	cases := []struct {
		name, script string
	}{
		{"absolute host path", "cat " + host + "/secret"},
		{"etc passwd", "cat /etc/passwd"},
		{"dotdot", "cat ../../../../etc/passwd"},
		{"redirect out", "echo x > " + host + "/written"},
		{"redirect in", "read l < " + host + "/secret; echo $l"},
		{"glob host", "echo " + host + "/*"},
		{"cd out", "cd " + host + " && cat secret"},
		{"cd dotdot", "cd /; cd ..; cd ..; ls"},
		{"host binary", "/bin/cat " + host + "/secret"},
		{"exec host", "exec /usr/bin/env"},
		{"symlink out", "ln -s " + host + "/secret s; cat s"},
		{"symlink dotdot", "ln -s ../../.. up; cat up/etc/passwd"},
		{"source host", "source " + host + "/secret"},
		{"eval procsubst", "eval 'cat <(echo x)'"},
		{"env leak", "env; echo $NOOK_HOST_SECRET"},
		{"test owner", "[ -O a.txt ] && echo owned"},
		{"type host path", "type -p /bin/cat; command -v /bin/cat"},
		{"pwd -P", "pwd -P"},
		{"bash -c procsubst", "bash -c 'cat <(ls)'"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := run(t, ws, c.script)
			out := string(r.Stdout) + string(r.Stderr)
			if strings.Contains(out, "host secret") || strings.Contains(out, "leaked") || strings.Contains(out, "root:x:0") {
				t.Fatalf("host data reached the script:\n%s", out)
			}
			if strings.Contains(out, "owned") || strings.Contains(out, "/bin/cat\n") && c.name == "type host path" {
				t.Fatalf("host lookup:\n%s", out)
			}
		})
	}
	if _, err := os.Stat(host + "/written"); err == nil {
		t.Fatal("a script wrote a host file")
	}
}

func TestProcessSubstitutionRefusedBeforeRun(t *testing.T) {
	ws := openWS(t, nil)
	for _, src := range []string{"diff <(ls) <(ls)", "tee >(cat)", "coproc cat", "[[ -O x ]]", "echo 'unterminated"} {
		_, err := ws.Runtime().Exec(context.Background(), src, runtime.ExecOptions{Backend: "shell"})
		if err == nil {
			t.Errorf("%q: no error", src)
		}
	}
}

func TestLimits(t *testing.T) {
	ws := openWS(t, nil, shell.Options{MaxLoopIterations: 1000, MaxFunctionDepth: 50})
	cases := []struct{ script, limit string }{
		{"while true; do :; done", "MaxLoopIterations"},
		{"for ((;;)); do x=1; done", "MaxLoopIterations"},
		{"f() { f; }; f", "MaxFunctionDepth"},
		{"x=ab; for i in $(seq 40); do x=$x$x; done", "MaxAllocBytes"},
		{"yes", "MaxOutputBytes"},
		{"awk 'BEGIN { while (1) n++ }'", "MaxLoopIterations"},
		{"awk 'BEGIN { for (;;) n++ }'", "MaxLoopIterations"},
		{"awk 'function f(n) { return f(n + 1) } BEGIN { f(1) }'", "MaxFunctionDepth"},
		{"awk 'BEGIN { s = \"ab\"; for (i = 0; i < 40; i++) s = s s }'", "MaxAllocBytes"},
	}
	for _, c := range cases {
		r := run(t, ws, c.script)
		if r.Status == runtime.StatusCompleted || !strings.Contains(r.Error+string(r.Stderr), c.limit) {
			t.Errorf("%q: status %s error %q stderr %q; want the limit %s", c.script, r.Status, r.Error, r.Stderr, c.limit)
		}
	}
}

func TestTimeoutStopsScript(t *testing.T) {
	ws := openWS(t, nil)
	r := run(t, ws, "sleep 100", runtime.ExecOptions{Timeout: 200e6})
	if r.Status != runtime.StatusTimedOut {
		t.Fatalf("status %s", r.Status)
	}
}

func TestChangesReport(t *testing.T) {
	ws := openWS(t, map[string]string{"keep.txt": "k", "edit.txt": "e", "old/x.txt": "x", "gone.txt": "g"})
	r := run(t, ws, `echo more >> edit.txt; rm gone.txt; rm -r old; mkdir -p new/deep; echo n > new/deep/n.txt; echo t > tmp; rm tmp`)
	c := changesOf(t, r).Changes
	check := func(name string, got []string, want ...string) {
		if strings.Join(got, ",") != strings.Join(want, ",") {
			t.Errorf("%s: %v, want %v", name, got, want)
		}
	}
	check("created", c.Created, "/workspace/new/deep/n.txt")
	check("updated", c.Updated, "/workspace/edit.txt")
	check("deleted", c.Deleted, "/workspace/gone.txt", "/workspace/old/x.txt")
	check("dirsCreated", c.DirsCreated, "/workspace/new", "/workspace/new/deep")
	check("dirsDeleted", c.DirsDeleted, "/workspace/old")
}

func TestReadOnly(t *testing.T) {
	ws := openWS(t, map[string]string{"a.txt": "a\n"}, shell.Options{ReadOnly: true})
	r := run(t, ws, "cat a.txt; echo x > b.txt; echo rc=$?")
	if !strings.Contains(string(r.Stdout), "a\nrc=1") {
		t.Fatalf("stdout %q stderr %q", r.Stdout, r.Stderr)
	}
}

func TestHelpAndUnknown(t *testing.T) {
	ws := openWS(t, nil)
	r := run(t, ws, "grep --help | head -1; nosuch; echo $?")
	if !strings.HasPrefix(string(r.Stdout), "Usage: grep") || !strings.HasSuffix(string(r.Stdout), "127\n") {
		t.Fatalf("%q", r.Stdout)
	}
}

// tar extracts only inside the target directory: absolute and ".."
// member names and links leaving it are refused.
func TestTarExtractStaysInside(t *testing.T) {
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	add := func(h *tar.Header, body string) {
		h.Size = int64(len(body))
		if h.Typeflag == 0 {
			h.Typeflag = tar.TypeReg
		}
		h.Mode = 0o644
		tw.WriteHeader(h)
		tw.Write([]byte(body))
	}
	add(&tar.Header{Name: "ok.txt"}, "fine\n")
	add(&tar.Header{Name: "../escape.txt"}, "up\n")
	add(&tar.Header{Name: "a/../../escape2.txt"}, "up\n")
	add(&tar.Header{Name: "/abs.txt"}, "abs\n")
	add(&tar.Header{Name: "uplink", Typeflag: tar.TypeSymlink, Linkname: "../.."}, "")
	add(&tar.Header{Name: "abslink", Typeflag: tar.TypeSymlink, Linkname: "/etc/passwd"}, "")
	add(&tar.Header{Name: "inlink", Typeflag: tar.TypeSymlink, Linkname: "ok.txt"}, "")
	tw.Close()
	ws := openWS(t, map[string]string{"evil.tar": buf.String()})
	ctx := context.Background()
	ws.FS().MkdirAll(ctx, "/workspace/x", 0o755)
	r := run(t, ws, "tar xvf evil.tar -C x; echo status=$?; find x | sort; cat x/inlink")
	out := string(r.Stdout)
	want := "status=2\nx\nx/abs.txt\nx/inlink\nx/ok.txt\nfine\n"
	if !strings.HasSuffix(out, want) {
		t.Errorf("stdout %q, want suffix %q; stderr %s", out, want, r.Stderr)
	}
	for _, p := range []string{"/workspace/escape.txt", "/escape.txt", "/escape2.txt", "/workspace/escape2.txt", "/abs.txt", "/workspace/uplink"} {
		if _, err := ws.FS().Lstat(ctx, p); err == nil {
			t.Errorf("%s was created", p)
		}
	}
	if !strings.Contains(string(r.Stderr), "Member name contains '..'") {
		t.Errorf("stderr %q", r.Stderr)
	}
}
