package main

import (
	"bytes"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// nookBin is the nook binary built once by TestMain; the tests run it as a
// real subprocess.
var nookBin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "nook-cli-test")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	nookBin = filepath.Join(dir, "nook")
	build := exec.Command("go", "build", "-o", nookBin, ".")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "building nook:", err)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

type result struct {
	stdout, stderr string
	code           int
}

// ws is one workspace database used by a test.
type ws struct {
	t  *testing.T
	db string
}

func newWS(t *testing.T) *ws {
	t.Parallel()
	return &ws{t: t, db: filepath.Join(t.TempDir(), "ws", "workspace.db")}
}

// run runs nook --db <db> args... with stdin.
func (w *ws) runIn(stdin []byte, args ...string) result {
	w.t.Helper()
	cmd := exec.Command(nookBin, append([]string{"--db", w.db}, args...)...)
	cmd.Dir = w.t.TempDir()
	cmd.Env = append(os.Environ(), "NOOK_DB=")
	cmd.Stdin = bytes.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	r := result{stdout: out.String(), stderr: errb.String()}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		r.code = ee.ExitCode()
	} else if err != nil {
		w.t.Fatalf("nook %v: %v", args, err)
	}
	return r
}

func (w *ws) run(args ...string) result {
	w.t.Helper()
	return w.runIn(nil, args...)
}

// ok runs nook and fails the test unless it exits 0; it returns stdout.
func (w *ws) ok(args ...string) string {
	w.t.Helper()
	return w.okIn(nil, args...)
}

func (w *ws) okIn(stdin []byte, args ...string) string {
	w.t.Helper()
	r := w.runIn(stdin, args...)
	if r.code != 0 {
		w.t.Fatalf("nook %s: exit %d\nstderr: %s", strings.Join(args, " "), r.code, r.stderr)
	}
	return r.stdout
}

// fail runs nook and checks its exit status and exact stderr.
func (w *ws) fail(code int, stderr string, args ...string) {
	w.t.Helper()
	r := w.run(args...)
	if r.code != code {
		w.t.Errorf("nook %s: exit %d, want %d (stderr %q)", strings.Join(args, " "), r.code, code, r.stderr)
	}
	if stderr != "" && r.stderr != stderr {
		w.t.Errorf("nook %s: stderr\n%q\nwant\n%q", strings.Join(args, " "), r.stderr, stderr)
	}
	if r.stdout != "" {
		w.t.Errorf("nook %s: unexpected stdout %q", strings.Join(args, " "), r.stdout)
	}
}

func (w *ws) put(path, content string) {
	w.t.Helper()
	w.okIn([]byte(content), "put", "-p", path)
}

func equal(t *testing.T, what, got, want string) {
	t.Helper()
	if got != want {
		t.Errorf("%s:\n--- got\n%s--- want\n%s", what, got, want)
	}
}

func TestPutCatRoundTrip(t *testing.T) {
	w := newWS(t)
	data := make([]byte, 3<<20+17)
	rand.Read(data)
	if out := w.okIn(data, "put", "-p", "/bin/blob.dat"); out != "" {
		t.Errorf("put printed %q", out)
	}
	if got := w.ok("cat", "/bin/blob.dat"); got != string(data) {
		t.Fatalf("cat returned %d bytes, want the %d bytes put", len(got), len(data))
	}
	// Relative paths are taken from the root; put replaces content.
	w.okIn([]byte("short"), "put", "bin/blob.dat")
	equal(t, "cat after overwrite", w.ok("cat", "/bin/blob.dat"), "short")
	// Empty stdin makes an empty file.
	w.okIn(nil, "put", "/empty")
	equal(t, "cat empty", w.ok("cat", "/empty"), "")
	// --mode sets the permission bits.
	w.okIn([]byte("#!/bin/sh\n"), "put", "--mode", "0755", "/run.sh")
	if out := w.ok("stat", "/run.sh"); !strings.Contains(out, "mode:   0755 (-rwxr-xr-x)") {
		t.Errorf("stat after put --mode:\n%s", out)
	}
	// put without -p into a missing directory fails.
	r := w.runIn([]byte("x"), "put", "/no/such/dir/f")
	if r.code != 1 || !strings.HasSuffix(r.stderr, "(ENOENT)\n") {
		t.Errorf("put into missing dir: exit %d, stderr %q", r.code, r.stderr)
	}
}

func TestLs(t *testing.T) {
	w := newWS(t)
	w.put("/d/b.txt", "hello")
	w.put("/d/a.txt", "")
	w.ok("mkdir", "/d/sub")
	w.ok("ln", "-s", "a.txt", "/d/link")

	equal(t, "ls", w.ok("ls", "/d"), "a.txt\nb.txt\nlink\nsub\n")
	equal(t, "ls /", w.ok("ls"), "d\n")

	long := w.ok("ls", "-l", "/d")
	lines := strings.Split(strings.TrimSuffix(long, "\n"), "\n")
	want := []string{
		`^-rw-r--r-- +0 \d{4}-\d\d-\d\d \d\d:\d\d a\.txt$`,
		`^-rw-r--r-- +5 \d{4}-\d\d-\d\d \d\d:\d\d b\.txt$`,
		`^lrwxrwxrwx +5 \d{4}-\d\d-\d\d \d\d:\d\d link -> a\.txt$`,
		`^drwxr-xr-x +0 \d{4}-\d\d-\d\d \d\d:\d\d sub$`,
	}
	if len(lines) != len(want) {
		t.Fatalf("ls -l:\n%s", long)
	}
	for i, re := range want {
		if !regexp.MustCompile(re).MatchString(lines[i]) {
			t.Errorf("ls -l line %d = %q, want match for %s", i, lines[i], re)
		}
	}
	// A file lists itself, as given.
	equal(t, "ls file", w.ok("ls", "/d/b.txt"), "/d/b.txt\n")
	if out := w.ok("ls", "-l", "/d/b.txt"); !regexp.MustCompile(`^-rw-r--r-- +5 .* /d/b\.txt\n$`).MatchString(out) {
		t.Errorf("ls -l file = %q", out)
	}
	w.fail(1, "nook: no such path: /nope (ENOENT)\n", "ls", "/nope")
}

func TestLsPaging(t *testing.T) {
	// More entries than one page (DefaultPage 200) must all be listed.
	w := newWS(t)
	dir := t.TempDir()
	var want []string
	for i := range 1234 {
		name := fmt.Sprintf("f%04d", i)
		want = append(want, name)
		os.WriteFile(filepath.Join(dir, name), []byte{byte(i)}, 0o644)
	}
	w.ok("import", dir, "/many")
	equal(t, "ls many", w.ok("ls", "/many"), strings.Join(want, "\n")+"\n")
	found := w.ok("find", "--path", "/many", "f1*")
	if n := strings.Count(found, "\n"); n != 234 {
		t.Errorf("find f1* found %d paths, want 234", n)
	}
}

func TestMkdir(t *testing.T) {
	w := newWS(t)
	w.ok("mkdir", "-p", "/a/b/c")
	if out := w.ok("stat", "/a/b/c"); !strings.Contains(out, "type:   dir\n") {
		t.Errorf("stat /a/b/c:\n%s", out)
	}
	w.ok("mkdir", "-p", "/a/b/c") // exists: fine with -p
	w.ok("mkdir", "--mode", "0700", "/a/private", "/a/other")
	if out := w.ok("stat", "/a/private"); !strings.Contains(out, "mode:   0700 (drwx------)") {
		t.Errorf("stat /a/private:\n%s", out)
	}
	equal(t, "ls /a", w.ok("ls", "/a"), "b\nother\nprivate\n")

	r := w.run("mkdir", "/a/b")
	if r.code != 1 || !strings.HasSuffix(r.stderr, "(EEXIST)\n") {
		t.Errorf("mkdir existing: exit %d, stderr %q", r.code, r.stderr)
	}
	r = w.run("mkdir", "/x/y")
	if r.code != 1 || !strings.HasSuffix(r.stderr, "(ENOENT)\n") {
		t.Errorf("mkdir without parent: exit %d, stderr %q", r.code, r.stderr)
	}
}

func TestMv(t *testing.T) {
	w := newWS(t)
	w.put("/a.txt", "A")
	w.ok("mv", "/a.txt", "/b.txt")
	equal(t, "cat moved", w.ok("cat", "/b.txt"), "A")
	w.fail(1, "nook: no such path: /a.txt (ENOENT)\n", "stat", "/a.txt")

	// Into an existing directory, as mv(1) does.
	w.ok("mkdir", "/dir")
	w.ok("mv", "/b.txt", "/dir")
	equal(t, "ls dir", w.ok("ls", "/dir"), "b.txt\n")

	// Directories move with their subtree.
	w.put("/dir/sub/deep.txt", "deep")
	w.ok("mv", "/dir", "/renamed")
	equal(t, "cat deep", w.ok("cat", "/renamed/sub/deep.txt"), "deep")
	equal(t, "ls /", w.ok("ls", "/"), "renamed\n")

	// -T replaces an empty directory instead of moving into it.
	w.ok("mkdir", "/empty")
	w.ok("mv", "-T", "/renamed", "/empty")
	equal(t, "ls / after -T", w.ok("ls", "/"), "empty\n")
	equal(t, "cat after -T", w.ok("cat", "/empty/b.txt"), "A")
}

func TestRm(t *testing.T) {
	w := newWS(t)
	w.put("/d/e/f.txt", "x")
	w.put("/g.txt", "g")
	r := w.run("rm", "/d")
	if r.code != 1 || !strings.HasSuffix(r.stderr, "(ENOTEMPTY)\n") {
		t.Errorf("rm non-empty dir: exit %d, stderr %q", r.code, r.stderr)
	}
	w.ok("rm", "-r", "/d")
	w.fail(1, "nook: no such path: /d (ENOENT)\n", "stat", "/d")
	w.ok("rm", "/g.txt")
	equal(t, "ls after rm", w.ok("ls", "/"), "")
	w.ok("rm", "-f", "/nope", "/nope/deeper")
	r = w.run("rm", "/nope")
	if r.code != 1 || !strings.HasSuffix(r.stderr, "(ENOENT)\n") {
		t.Errorf("rm missing: exit %d, stderr %q", r.code, r.stderr)
	}
	r = w.run("rm", "-r", "/")
	if r.code != 1 || !strings.HasSuffix(r.stderr, "(EPERM)\n") {
		t.Errorf("rm -r /: exit %d, stderr %q", r.code, r.stderr)
	}
}

func TestLnStat(t *testing.T) {
	w := newWS(t)
	w.put("/target.txt", "pointed at")
	w.ok("ln", "-s", "/target.txt", "/link")
	out := w.ok("stat", "/link")
	for _, want := range []string{"path:   /link\n", "type:   symlink\n", "target: /target.txt\n", "mode:   0777 (lrwxrwxrwx)\n", "size:   11\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("stat /link lacks %q:\n%s", want, out)
		}
	}
	out = w.ok("stat", "-L", "/link")
	if !strings.Contains(out, "type:   file\n") || !strings.Contains(out, "size:   10\n") {
		t.Errorf("stat -L /link:\n%s", out)
	}
	equal(t, "cat through link", w.ok("cat", "/link"), "pointed at")
	// Dangling links are allowed; following one is ENOENT.
	w.ok("ln", "-s", "missing", "/dangling")
	w.ok("stat", "/dangling")
	if r := w.run("cat", "/dangling"); r.code != 1 || !strings.HasSuffix(r.stderr, "(ENOENT)\n") {
		t.Errorf("cat dangling: exit %d, stderr %q", r.code, r.stderr)
	}
	if r := w.run("ln", "-s", "x", "/link"); r.code != 1 || !strings.HasSuffix(r.stderr, "(EEXIST)\n") {
		t.Errorf("ln over existing: exit %d, stderr %q", r.code, r.stderr)
	}
	r := w.run("ln", "/target.txt", "/hard")
	if r.code != 2 || !strings.Contains(r.stderr, "hard links are not supported") {
		t.Errorf("ln without -s: exit %d, stderr %q", r.code, r.stderr)
	}
}

func searchTree(w *ws) {
	w.put("/src/main.go", "package main\n\n// TODO: flags\nfunc main() {\n\trun()\n}\n")
	w.put("/src/run.go", "package main\n\nfunc run() {\n\t// todo: errors\n}\n")
	w.put("/src/vendor/lib/lib.go", "package lib // TODO vendored\n")
	w.put("/docs/notes.md", "# Notes\nTODO: write docs\n")
	w.put("/bin.dat", "TODO\x00\x01binary")
}

func TestFind(t *testing.T) {
	w := newWS(t)
	searchTree(w)
	equal(t, "find *.go", w.ok("find", "**/*.go"),
		"/src/main.go\n/src/run.go\n/src/vendor/lib/lib.go\n")
	equal(t, "find --exclude", w.ok("find", "--exclude", "vendor", "--path", "/src", "*.go"),
		"/src/main.go\n/src/run.go\n")
	equal(t, "find --type d", w.ok("find", "--type", "d", "**"),
		"/docs\n/src\n/src/vendor\n/src/vendor/lib\n")
	equal(t, "find no match", w.ok("find", "*.rs"), "")
	w.fail(1, "nook: no such path: /nope (ENOENT)\n", "find", "--path", "/nope", "*")
	if r := w.run("find", "--type", "x", "*"); r.code != 2 {
		t.Errorf("find --type x: exit %d", r.code)
	}
}

func TestGrep(t *testing.T) {
	w := newWS(t)
	searchTree(w)
	equal(t, "grep", w.ok("grep", "TODO"),
		"/docs/notes.md:2:TODO: write docs\n/src/main.go:3:// TODO: flags\n/src/vendor/lib/lib.go:1:package lib // TODO vendored\n")
	equal(t, "grep -i path", w.ok("grep", "-i", "todo", "/src"),
		"/src/main.go:3:// TODO: flags\n/src/run.go:4:\t// todo: errors\n/src/vendor/lib/lib.go:1:package lib // TODO vendored\n")
	equal(t, "grep --exclude", w.ok("grep", "-i", "--exclude", "vendor", "todo", "/src"),
		"/src/main.go:3:// TODO: flags\n/src/run.go:4:\t// todo: errors\n")
	equal(t, "grep --include", w.ok("grep", "--include", "*.md", "TODO"),
		"/docs/notes.md:2:TODO: write docs\n")
	equal(t, "grep -l", w.ok("grep", "-l", "-i", "todo", "/src"),
		"/src/main.go\n/src/run.go\n/src/vendor/lib/lib.go\n")
	equal(t, "grep -c", w.ok("grep", "-c", "-E", `^func|^\t`, "/src"),
		"/src/main.go:2\n/src/run.go:2\n")
	equal(t, "grep -E", w.ok("grep", "-E", `func [a-z]+\(\)`, "/src/run.go"),
		"/src/run.go:3:func run() {\n")
	equal(t, "grep -C 1", w.ok("grep", "-C", "1", "run", "/src"),
		"/src/main.go-4-func main() {\n/src/main.go:5:\trun()\n/src/main.go-6-}\n--\n/src/run.go-2-\n/src/run.go:3:func run() {\n/src/run.go-4-\t// todo: errors\n")
	w.fail(1, "", "grep", "nothing-like-this") // as grep(1): no match is status 1
	if r := w.run("grep", "-l", "-c", "x"); r.code != 2 {
		t.Errorf("grep -l -c: exit %d", r.code)
	}
	w.fail(1, "nook: no such path: /nope (ENOENT)\n", "grep", "x", "/nope")
	if r := w.run("grep", "-E", "(", "/src"); r.code != 1 || !strings.HasSuffix(r.stderr, "(EINVAL)\n") {
		t.Errorf("grep bad regexp: exit %d, stderr %q", r.code, r.stderr)
	}
}

// hostTree builds a small host directory: nested files (text, binary, an
// executable), an empty directory, a relative and a dangling symlink.
func hostTree(t *testing.T) string {
	dir := t.TempDir()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	bin := make([]byte, 200_000)
	rand.Read(bin)
	must(os.MkdirAll(filepath.Join(dir, "src", "pkg"), 0o755))
	must(os.MkdirAll(filepath.Join(dir, "empty"), 0o750))
	must(os.WriteFile(filepath.Join(dir, "README.md"), []byte("# hello\n"), 0o644))
	must(os.WriteFile(filepath.Join(dir, "src", "pkg", "a.txt"), []byte("alpha\n"), 0o600))
	must(os.WriteFile(filepath.Join(dir, "src", "data.bin"), bin, 0o644))
	must(os.WriteFile(filepath.Join(dir, "run.sh"), []byte("#!/bin/sh\necho hi\n"), 0o755))
	must(os.Symlink("src/pkg/a.txt", filepath.Join(dir, "link")))
	must(os.Symlink("/does/not/exist", filepath.Join(dir, "dangling")))
	old := time.Date(2021, 3, 4, 5, 6, 7, 0, time.UTC)
	must(os.Chtimes(filepath.Join(dir, "README.md"), old, old))
	must(os.Chtimes(filepath.Join(dir, "src", "pkg"), old, old))
	return dir
}

type hostNode struct {
	mode   fs.FileMode
	data   string // file content or symlink target
	mtime  int64  // seconds; files and directories only
	isLink bool
}

func snapshot(t *testing.T, root string) map[string]hostNode {
	t.Helper()
	out := map[string]hostNode{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		if rel == "." {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		n := hostNode{mode: info.Mode()}
		switch {
		case info.Mode()&fs.ModeSymlink != 0:
			n.isLink = true
			n.data, err = os.Readlink(p)
		case info.Mode().IsRegular():
			var b []byte
			b, err = os.ReadFile(p)
			n.data = string(b)
			n.mtime = info.ModTime().Unix()
		default:
			n.mtime = info.ModTime().Unix()
		}
		out[filepath.ToSlash(rel)] = n
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestImportExportRoundTrip(t *testing.T) {
	w := newWS(t)
	src := hostTree(t)
	out := w.ok("import", src, "/proj")
	if !regexp.MustCompile(`^imported 4 files, 200032 bytes in \d+\.\d\ds \(\d+\.\d MB/s\)\n$`).MatchString(out) {
		t.Errorf("import summary = %q", out)
	}
	equal(t, "ls /proj", w.ok("ls", "/proj"), "README.md\ndangling\nempty\nlink\nrun.sh\nsrc\n")
	equal(t, "cat via link", w.ok("cat", "/proj/link"), "alpha\n")
	if st := w.ok("stat", "/proj/dangling"); !strings.Contains(st, "target: /does/not/exist\n") {
		t.Errorf("stat dangling:\n%s", st)
	}
	if st := w.ok("stat", "/proj/run.sh"); !strings.Contains(st, "mode:   0755") {
		t.Errorf("stat run.sh:\n%s", st)
	}

	dst := filepath.Join(t.TempDir(), "out", "tree") // created by export
	out = w.ok("export", "/proj", dst)
	if !regexp.MustCompile(`^exported 4 files, 200032 bytes in `).MatchString(out) {
		t.Errorf("export summary = %q", out)
	}
	a, b := snapshot(t, src), snapshot(t, dst)
	if len(a) != len(b) {
		t.Errorf("exported %d nodes, imported %d", len(b), len(a))
	}
	for p, na := range a {
		nb, ok := b[p]
		switch {
		case !ok:
			t.Errorf("%s: missing after export", p)
		case na.mode != nb.mode:
			t.Errorf("%s: mode %v, want %v", p, nb.mode, na.mode)
		case na.data != nb.data:
			t.Errorf("%s: content or target differs", p)
		case na.mtime != nb.mtime:
			t.Errorf("%s: mtime %d, want %d", p, nb.mtime, na.mtime)
		}
	}

	// Import again: idempotent, nothing new.
	w.ok("import", src, "/proj")
	equal(t, "ls after reimport", w.ok("ls", "/proj"), "README.md\ndangling\nempty\nlink\nrun.sh\nsrc\n")

	// A single file.
	w.ok("export", "/proj/README.md", filepath.Join(t.TempDir(), "one"))
	w.ok("import", filepath.Join(src, "README.md"), "/proj/src")
	equal(t, "cat single import", w.ok("cat", "/proj/src/README.md"), "# hello\n")
}

func TestExportStaysInside(t *testing.T) {
	w := newWS(t)
	w.put("/p/f.txt", "inside")
	w.put("/p/d/g.txt", "inside too")
	base := t.TempDir()
	outside := filepath.Join(base, "outside")
	os.MkdirAll(outside, 0o755)
	os.WriteFile(filepath.Join(outside, "victim.txt"), []byte("untouched"), 0o644)
	host := filepath.Join(base, "host")
	os.MkdirAll(host, 0o755)
	// Pre-existing host symlinks that would lead outside HOSTDIR.
	os.Symlink(filepath.Join(outside, "victim.txt"), filepath.Join(host, "f.txt"))
	os.Symlink(outside, filepath.Join(host, "d"))

	w.ok("export", "/p", host)
	b, _ := os.ReadFile(filepath.Join(outside, "victim.txt"))
	equal(t, "victim", string(b), "untouched")
	if _, err := os.Stat(filepath.Join(outside, "g.txt")); err == nil {
		t.Errorf("export wrote through a symlink outside HOSTDIR")
	}
	b, _ = os.ReadFile(filepath.Join(host, "f.txt"))
	equal(t, "exported f.txt", string(b), "inside")
	b, _ = os.ReadFile(filepath.Join(host, "d", "g.txt"))
	equal(t, "exported d/g.txt", string(b), "inside too")
}

func TestErrors(t *testing.T) {
	w := newWS(t)
	w.ok("mkdir", "/dir")
	w.fail(1, "nook: no such path: /nope (ENOENT)\n", "stat", "/nope")
	r := w.run("cat", "/nope")
	if r.code != 1 || !regexp.MustCompile(`^nook: no such [a-z]+: /nope \(ENOENT\)\n$`).MatchString(r.stderr) {
		t.Errorf("cat /nope: exit %d, stderr %q", r.code, r.stderr)
	}
	if r := w.run("cat", "/dir"); r.code != 1 || !strings.HasSuffix(r.stderr, "(EISDIR)\n") {
		t.Errorf("cat dir: exit %d, stderr %q", r.code, r.stderr)
	}
	if r := w.run("stat", "/a/../../x"); r.code != 1 || !strings.HasSuffix(r.stderr, "(EINVAL)\n") {
		t.Errorf("stat escaping path: exit %d, stderr %q", r.code, r.stderr)
	}
	// Host errors carry no vfs code.
	if r := w.run("import", "/definitely/not/here"); r.code != 1 || !strings.HasPrefix(r.stderr, "nook: ") {
		t.Errorf("import missing host dir: exit %d, stderr %q", r.code, r.stderr)
	}
}

func TestUsage(t *testing.T) {
	w := newWS(t)
	for _, args := range [][]string{
		{},
		{"frobnicate"},
		{"cat"},
		{"cat", "/a", "/b"},
		{"ls", "--bogus"},
		{"mv", "/a"},
		{"put", "--mode", "999", "/x"},
		{"--nosuchglobal", "ls"},
		{"help", "nosuch"},
	} {
		r := w.run(args...)
		if r.code != 2 {
			t.Errorf("nook %v: exit %d, want 2 (stderr %q)", args, r.code, r.stderr)
		}
		if r.stderr == "" || r.stdout != "" {
			t.Errorf("nook %v: stdout %q stderr %q", args, r.stdout, r.stderr)
		}
	}
	r := w.run("cat")
	equal(t, "cat usage", r.stderr, "nook: cat: missing argument\nusage: nook cat PATH\nRun 'nook help cat' for details.\n")

	out := w.ok("help")
	for _, c := range commands {
		if !strings.Contains(out, "\n  "+c.name+" ") {
			t.Errorf("help lacks %s", c.name)
		}
	}
	if out2 := w.ok("-h"); out2 != out {
		t.Errorf("nook -h differs from nook help")
	}
	for _, c := range commands {
		h := w.ok("help", c.name)
		if !strings.HasPrefix(h, "usage: nook "+c.name) {
			t.Errorf("help %s = %q", c.name, h)
		}
		if c.name != "help" {
			equal(t, c.name+" -h", w.ok(c.name, "-h"), h)
		}
	}
	if h := w.ok("help", "grep"); !strings.Contains(h, "--include GLOB") || !strings.Contains(h, "-C N") {
		t.Errorf("help grep lacks flags:\n%s", h)
	}
	if _, err := os.Stat(w.db); err == nil {
		t.Errorf("help and usage errors created the workspace")
	}
}

// jsonDoc checks that out is exactly one JSON document and decodes it.
func jsonDoc(t *testing.T, what, out string) map[string]any {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(out))
	var v map[string]any
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("%s: not JSON: %v\n%s", what, err, out)
	}
	if _, err := dec.Token(); err != io.EOF {
		t.Errorf("%s: more than one JSON document:\n%s", what, out)
	}
	return v
}

func TestJSON(t *testing.T) {
	w := newWS(t)
	v := jsonDoc(t, "put", w.okIn([]byte("hello\nworld\n"), "--json", "put", "-p", "/a/b.txt"))
	if v["path"] != "/a/b.txt" || v["bytes"] != 12.0 {
		t.Errorf("put --json = %v", v)
	}
	w.okIn([]byte{0xff, 0xfe, 0}, "put", "/bin")
	v = jsonDoc(t, "cat", w.ok("--json", "cat", "/a/b.txt"))
	if v["content"] != "hello\nworld\n" {
		t.Errorf("cat --json = %v", v)
	}
	v = jsonDoc(t, "cat bin", w.ok("--json", "cat", "/bin"))
	if v["contentBase64"] != "//4A" {
		t.Errorf("cat --json binary = %v", v)
	}
	v = jsonDoc(t, "ls", w.ok("--json", "ls", "/a"))
	if es, _ := v["entries"].([]any); len(es) != 1 || es[0].(map[string]any)["name"] != "b.txt" {
		t.Errorf("ls --json = %v", v)
	}
	v = jsonDoc(t, "stat", w.ok("--json", "stat", "/a/b.txt"))
	if v["type"] != "file" || v["size"] != 12.0 || v["mode"] != "0644" {
		t.Errorf("stat --json = %v", v)
	}
	v = jsonDoc(t, "grep", w.ok("--json", "grep", "world"))
	if ms, _ := v["matches"].([]any); len(ms) != 1 || ms[0].(map[string]any)["line"] != 2.0 {
		t.Errorf("grep --json = %v", v)
	}
	v = jsonDoc(t, "find", w.ok("--json", "find", "**/*.txt"))
	if es, _ := v["entries"].([]any); len(es) != 1 {
		t.Errorf("find --json = %v", v)
	}
	v = jsonDoc(t, "changes", w.ok("--json", "changes"))
	if cs, _ := v["changes"].([]any); len(cs) < 2 {
		t.Errorf("changes --json = %v", v)
	}
	for _, args := range [][]string{
		{"mkdir", "/m"}, {"mv", "/m", "/n"}, {"ln", "-s", "n", "/l"}, {"rm", "/l"},
		{"usage"}, {"gc"}, {"version"},
		{"import", t.TempDir(), "/imp"}, {"export", "/a", t.TempDir()},
	} {
		jsonDoc(t, args[0], w.ok(append([]string{"--json"}, args...)...))
	}
	// Errors are JSON too, on stderr, with the POSIX code.
	r := w.run("--json", "stat", "/nope")
	if r.code != 1 || r.stdout != "" {
		t.Fatalf("stat --json /nope: exit %d, stdout %q", r.code, r.stdout)
	}
	v = jsonDoc(t, "error", r.stderr)
	if v["error"] != "no such path: /nope" || v["code"] != "ENOENT" || v["op"] != "lstat" || v["path"] != "/nope" {
		t.Errorf("stat --json /nope: stderr %v", v)
	}
}

func TestChanges(t *testing.T) {
	w := newWS(t)
	w.put("/a.txt", "1")
	w.ok("mkdir", "/d")
	w.ok("mv", "/a.txt", "/d/a.txt")
	w.ok("rm", "/d/a.txt")
	out := w.ok("changes")
	want := regexp.MustCompile(`(?s)^\d+ create file /a\.txt\n.*\d+ create dir /d\n\d+ rename file /a\.txt -> /d/a\.txt\n\d+ remove file /d/a\.txt\n$`)
	if !want.MatchString(out) {
		t.Errorf("changes:\n%s", out)
	}
	v := jsonDoc(t, "usage", w.ok("--json", "usage"))
	rev := int64(v["rev"].(float64))
	equal(t, "changes since now", w.ok("changes", "--since", fmt.Sprint(rev)), "")
	w.put("/b.txt", "2")
	if out := w.ok("changes", "--since", fmt.Sprint(rev)); !strings.HasSuffix(out, " /b.txt\n") {
		t.Errorf("changes --since %d:\n%s", rev, out)
	}
}

func TestDemo(t *testing.T) {
	w := newWS(t)
	out := w.ok("demo")
	for _, want := range []string{
		"(created, revision ",
		"$ nook import <embedded sample> /workspace/demo\nimported 6 files,",
		"$ nook find --path /workspace/demo '**/*.js'\n/workspace/demo/src/cart.js\n/workspace/demo/src/server.js\n",
		"/workspace/demo/src/server.js:13:      // TODO: rate-limit checkout per user\n",
		"\n'\ncounted the words of 6 files\n" +
			`{"total":285,"words":{"README.md":75,"docs/design.md":36,"notes/todo.md":29,"src/cart.js":42,"src/server.js":63,"src/worker.py":40}}` + "\n",
		"$ nook exec --backend shell --cwd demo -e '\n", "./notes/todo.md\n./src/cart.js\n./src/server.js\n./src/worker.py\n 29 total\n3 files in /workspace/demo/src\nnode, run by the shell: cart.js server.js worker.py\n",
		"$ nook tool grep ", "/workspace/demo/notes/todo.md:4:- [ ] retry payments with exponential backoff\n",
		"\nstep 1\nstep 2\n(killed the process running demo-crash-",
		"$ nook runs recover\ndemo-crash-", "\tcompleted\texit 0\n",
		"--- stdout (35 B) ---\nstep 1\nstep 2\nstep 3\nstep 4\nstep 5\n",
		"$ nook cat /workspace/demo/crash.log\nstep 1\nstep 2\nstep 3\nstep 4\nstep 5\n",
		"$ nook changes --since ",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("demo output lacks %q:\n%s", want, out)
		}
	}
	out = w.ok("demo")
	for _, want := range []string{"(reused, revision ", "the sample is already in place (6 files unchanged)\n",
		"$ nook cat /workspace/demo/crash.log\nstep 1\nstep 2\nstep 3\nstep 4\nstep 5\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("second demo lacks %q:\n%s", want, out)
		}
	}
	// The default workspace is .nook/workspace.db in the current directory.
	dir := t.TempDir()
	cmd := exec.Command(nookBin, "demo")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "NOOK_DB=")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("demo in %s: %v\n%s", dir, err, b)
	}
	if _, err := os.Stat(filepath.Join(dir, ".nook", "workspace.db")); err != nil {
		t.Errorf("default workspace not created: %v", err)
	}
}

func TestModeString(t *testing.T) {
	for _, c := range []struct {
		perm uint32
		want string
	}{
		{0o644, "-rw-r--r--"}, {0o4755, "-rwsr-xr-x"}, {0o2644, "-rw-r-Sr--"}, {0o1777, "-rwxrwxrwt"}, {0o1776, "-rwxrwxrwT"},
	} {
		if got := modeString(1, c.perm); got != c.want {
			t.Errorf("modeString(%o) = %s, want %s", c.perm, got, c.want)
		}
	}
}

// A command that only reads fails on a --db where there is no workspace
// (a mistyped path) and creates nothing there; a command that writes
// creates the workspace.
func TestReadingNeedsAWorkspace(t *testing.T) {
	w := newWS(t)
	w.db = filepath.Join(filepath.Dir(w.db), "typo", "ws.db")
	want := "nook: no such workspace: " + w.db + " (ENOENT)\n"
	for _, args := range [][]string{
		{"ls", "/"}, {"cat", "/a"}, {"stat", "/"}, {"find", "*"}, {"grep", "x"},
		{"changes"}, {"usage"}, {"gc"}, {"runs", "ls"}, {"approvals", "ls"},
		{"tool", "ls", `{"path":"/"}`}, {"tool", "--read-only", "write", `{"path":"/a","content":"x"}`},
	} {
		w.fail(1, want, args...)
	}
	r := w.run("--json", "ls", "/")
	equal(t, "--json ls", r.stderr, `{"code":"ENOENT","error":"no such workspace: `+w.db+`","op":"open","path":"`+w.db+`"}`+"\n")
	w.ok("runs", "backends") // describes any workspace; creates none
	if _, err := os.Stat(filepath.Dir(w.db)); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("a reading command created %s: %v", filepath.Dir(w.db), err)
	}
	w.okIn([]byte("x"), "put", "/a")
	equal(t, "ls after put created the workspace", w.ok("ls", "/"), "a\n")
}
