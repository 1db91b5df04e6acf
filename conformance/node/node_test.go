//go:build nodeconformance

package node

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nookdev/nook"
	"github.com/nookdev/nook/runtime"
	"github.com/nookdev/nook/runtime/js"
	"github.com/nookdev/nook/runtime/shell"
	"github.com/nookdev/nook/vfs"
)

// passFloor is the number of test files that passed when this floor was
// last raised; fewer fails the suite.
const passFloor = 252

// perTest bounds one test file's run.
const perTest = 30 * time.Second

//go:embed testdata/common
var common embed.FS

// archive finds node-fs-tests.tar.xz.
func archive(t *testing.T) string {
	return findArchive(t, "node-fs-tests.tar.xz", "NOOK_NODE_FS_TESTS")
}

// findArchive finds the archive name in a parent's shared/conformance/,
// or at the path the environment variable env names.
func findArchive(t *testing.T, name, env string) string {
	if p := os.Getenv(env); p != "" {
		return p
	}
	dir, _ := os.Getwd()
	for {
		p := filepath.Join(dir, "shared", "conformance", name)
		if _, err := os.Stat(p); err == nil {
			return p
		}
		up := filepath.Dir(dir)
		if up == dir {
			t.Fatalf("%s not found in any parent's shared/conformance/; set %s to its path", name, env)
		}
		dir = up
	}
}

// tree is a set of files to import into a workspace, by path under /workspace.
type tree map[string][]byte

func readTree(root, prefix string, out tree) error {
	return filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !d.Type().IsRegular() {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		out[path.Join(prefix, filepath.ToSlash(rel))] = b
		return nil
	})
}

type result struct {
	name   string
	status string // pass, skip, fail
	group  string // of a failure: why, in a few words (see classify)
	reason string
	stdout string
	stderr string
}

// unpack extracts a suite's archive (its top directory top) and returns
// its test directory and the files every test's workspace starts with: the
// fixtures, then, with nodeCommon, Node's own test/common, then nook's
// replacements for test/common over them.
func unpack(t *testing.T, archivePath, top string, nodeCommon bool) (string, tree) {
	t.Helper()
	dir := t.TempDir()
	if out, err := exec.Command("tar", "-xJf", archivePath, "-C", dir).CombinedOutput(); err != nil {
		t.Fatalf("tar -xJf: %v\n%s", err, out)
	}
	base := filepath.Join(dir, top, "test")
	files := tree{}
	if err := readTree(filepath.Join(base, "fixtures"), "/workspace/test/fixtures", files); err != nil {
		t.Fatal(err)
	}
	if nodeCommon {
		if err := readTree(filepath.Join(base, "common"), "/workspace/test/common", files); err != nil {
			t.Fatal(err)
		}
	}
	if err := fs.WalkDir(common, "testdata/common", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := common.ReadFile(p)
		files["/workspace/test/common/"+strings.TrimPrefix(p, "testdata/common/")] = b
		return err
	}); err != nil {
		t.Fatal(err)
	}
	return base, files
}

func TestNodeFS(t *testing.T) {
	base, files := unpack(t, archive(t), "node-fs-tests", false)
	names, err := filepath.Glob(filepath.Join(base, "parallel", "test-fs-*"))
	if err != nil {
		t.Fatal(err)
	}
	if len(names) == 0 {
		t.Fatal("the archive has no test/parallel/test-fs-* files")
	}
	// NOOK_NODE_FS_ONLY=pattern runs the matching files only, showing
	// their output, and writes no RESULTS.md (for working on one test).
	if only := os.Getenv("NOOK_NODE_FS_ONLY"); only != "" {
		re := regexp.MustCompile(only)
		for _, n := range names {
			if re.MatchString(filepath.Base(n)) {
				r := runOne(js.New(js.Options{}), files, n)
				t.Logf("%s: %s %s\n--- stdout\n%s--- stderr\n%s", r.name, r.status, r.reason, r.stdout, r.stderr)
			}
		}
		return
	}
	backend := js.New(js.Options{})
	results := make([]result, len(names))
	work := make(chan int)
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				results[i] = runOne(backend, files, names[i])
			}
		}()
	}
	for i := range names {
		work <- i
	}
	close(work)
	wg.Wait()

	var pass, skip int
	for _, r := range results {
		switch r.status {
		case "pass":
			pass++
		case "skip":
			skip++
		}
	}
	report := render(results, pass, skip)
	if err := writeSection("RESULTS.md", "fs", report); err != nil {
		t.Error(err)
	}
	t.Logf("Node fs tests: %d pass, %d skip, %d fail of %d (floor %d); per file in RESULTS.md",
		pass, skip, len(results)-pass-skip, len(results), passFloor)
	if pass < passFloor {
		t.Errorf("%d test files pass, fewer than the floor %d", pass, passFloor)
	}
}

func runOne(b *js.Backend, files tree, file string) (res result) {
	name := filepath.Base(file)
	res = result{name: name, status: "fail"}
	// A panic in the host (the workspace's storage, say) fails this file,
	// not the whole suite.
	defer func() {
		if v := recover(); v != nil {
			res.status, res.group = "fail", groupOther
			res.reason = clip(fmt.Sprintf("the host panicked: %v", v))
		}
	}()
	src, err := os.ReadFile(file)
	if err != nil {
		res.reason = err.Error()
		return res
	}
	ctx, cancel := context.WithTimeout(context.Background(), perTest+10*time.Second)
	defer cancel()
	// The js backend under test, and the shell: child_process runs
	// commands (and process.execPath) as nested runs of the workspace.
	ws, err := nook.OpenMemory(ctx, nook.WithBackends(b, shell.New(shell.Options{})))
	if err != nil {
		res.reason = err.Error()
		return res
	}
	defer ws.Close()
	fsys := ws.FS()
	err = fsys.Batch(ctx, func(bt *vfs.Batch) error {
		for p, data := range files {
			if err := bt.WriteFile(p, data, &vfs.WriteOptions{MkdirAll: true}); err != nil {
				return err
			}
		}
		return bt.WriteFile("/workspace/test/parallel/"+name, src, &vfs.WriteOptions{MkdirAll: true})
	})
	if err != nil {
		res.reason = "import: " + err.Error()
		return res
	}
	// The test file is the run's entry, as it is node's: process.argv[1]
	// and require.main name it (tests spawn themselves through them).
	h, err := ws.Runtime().Exec(ctx, string(src), runtime.ExecOptions{
		ID: "node-" + name, Backend: b.Info().ID, Cwd: "/workspace", Timeout: perTest,
		Entry: "/workspace/test/parallel/" + name,
		Env:   map[string]string{"HOME": "/workspace", "TMPDIR": "/tmp"}})
	if err != nil {
		var re *runtime.Error
		msg := err.Error()
		if errors.As(err, &re) {
			msg = re.Text
		}
		res.reason = "prepare: " + firstLine(msg)
		res.group, res.reason = classify(name, src, "", res.reason)
		return res
	}
	out, err := h.Result(ctx)
	if err != nil {
		res.reason = "result: " + err.Error()
		return res
	}
	res.stdout, res.stderr = string(out.Stdout), string(out.Stderr)
	ex := runtime.Exit{Code: out.ExitCode}
	if out.Error != "" {
		ex.Err = errors.New(out.Error)
	}
	if m := skipLine.FindSubmatch([]byte(res.stdout)); m != nil && ex.Code == 0 {
		res.status, res.reason = "skip", string(m[1])
		return res
	}
	if ex.Code == 0 && ex.Err == nil {
		res.status = "pass"
		return res
	}
	res.reason = reason(res.stderr, ex)
	if nr := notOkReason(res.stdout); nr != "" {
		res.reason = nr
	}
	res.group, res.reason = classify(name, src, res.stderr, res.reason)
	return res
}

// notOk is a failed test of node:test's TAP output, and errorField the
// error line of its diagnostics.
var (
	notOk      = regexp.MustCompile(`(?m)^\s*not ok \d+ - .*$`)
	errorField = regexp.MustCompile(`(?m)^\s*error: (.*)$`)
)

// notOkReason is the first failed node:test test of a run's stdout, with
// its error when the diagnostics give one, or "" when none failed.
func notOkReason(stdout string) string {
	loc := notOk.FindStringIndex(stdout)
	if loc == nil {
		return ""
	}
	why := strings.TrimSpace(stdout[loc[0]:loc[1]])
	if m := errorField.FindStringSubmatch(stdout[loc[1]:]); m != nil {
		why += " — error: " + strings.TrimSpace(m[1])
	}
	return clip(why)
}

// writeSection replaces the section name of the report file (between
// its begin and end markers) with text, keeping the other suite's
// section: the fs and the core suites each write their own.
func writeSection(file, name, text string) error {
	begin, end := "<!-- begin "+name+" -->\n", "<!-- end "+name+" -->\n"
	old, err := os.ReadFile(file)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	s := string(old)
	section := begin + text + end
	i, j := strings.Index(s, begin), strings.Index(s, end)
	switch {
	case i >= 0 && j > i:
		s = s[:i] + section + s[j+len(end):]
	case name == "fs":
		s = section + "\n" + s
	default:
		s += "\n" + section
	}
	return os.WriteFile(file, []byte(s), 0o644)
}

var skipLine = regexp.MustCompile(`(?m)^1\.\.0 # Skipped: (.*)$`)

var errorLine = regexp.MustCompile(`^(Uncaught |(\w*Error|Mismatched \w+ function calls)\b)`)

// The groups a failure falls in. Node internals and what the sandbox
// lacks by design are not bugs to fix here; the others are.
const (
	groupInternals = "Node internals"
	groupDesign    = "missing by design"
	groupLimit     = "a limit"
	groupChild     = "needs child_process"
	groupTodo      = "not implemented"
	groupOther     = "other"
)

// failureRules classify a failure by its reason or stderr, in order.
var failureRules = []struct {
	re    *regexp.Regexp
	group string
	label string // with $1 for the first submatch
}{
	{regexp.MustCompile(`cannot find module "(internal/[^"]+)"`), groupInternals, "requires $1"},
	{regexp.MustCompile(`cannot find module "node:net"`), groupDesign, "node:net (the sandbox has no sockets)"},
	{regexp.MustCompile(`cannot find module "(?:node:)?(net|dgram|http|https|http2|tls|dns|cluster)"`), groupDesign, "node:$1 (the sandbox has no sockets)"},
	{regexp.MustCompile(`cannot find module "(?:node:)?(worker_threads)"`), groupDesign, "node:worker_threads (no worker threads)"},
	{regexp.MustCompile(`cannot find module "(?:node:)?(v8|inspector|trace_events|wasi)"`), groupDesign, "node:$1 (V8-only or host-only API)"},
	{regexp.MustCompile(`has no member 'gc'`), groupInternals, "global.gc (--expose-gc)"},
	{regexp.MustCompile(`has no member '(_\w+)'`), groupInternals, "process.$1()"},
	{regexp.MustCompile(`spawn \S+ ENOSYS`), groupChild, "spawn fails with ENOSYS"},
	{regexp.MustCompile(`exceeds (?:the limit )?(Max\w+)`), groupLimit, "$1"},
	{regexp.MustCompile(`'EACCES' !== 'ENOENT'`), groupDesign, "a path outside the workspace fails with EACCES, not ENOENT"},
	{regexp.MustCompile(`sqlite3: out of memory`), groupOther, "the workspace's storage ran out of memory (many small writes to one file)"},
	{regexp.MustCompile(`EACCES: permission denied, \w+ '(/[^']*)'`), groupDesign, "$1 is outside the workspace (EACCES)"},
}

// knownFailures explain failures whose output does not say why.
var knownFailures = map[string][2]string{
	"test-fs-copyfile-respect-permissions.js": {groupTodo, "the workspace does not enforce permission bits"},
	"test-fs-mkdir-recursive-eaccess.js":      {groupTodo, "the workspace does not enforce permission bits"},
	"test-fs-mkdtempDisposableSync.js":        {groupTodo, "the workspace does not enforce permission bits"},
	"test-fs-readdir-ucs2.js":                 {groupDesign, "file names are UTF-8 text, not arbitrary bytes"},
	"test-fs-realpath.js":                     {groupDesign, "realpath('..') of /workspace is /, outside the workspace (EACCES)"},
	"test-fs-null-bytes.js":                   {groupTodo, "URL is goja_nodejs's, not WHATWG (refuses a NUL in a path)"},
	"test-fs-whatwg-url.js":                   {groupTodo, "URL is goja_nodejs's, not WHATWG (decodes %2F and cleans the path)"},
}

var flagsLine = regexp.MustCompile(`(?m)^// Flags: (.*)$`)

var childProcess = regexp.MustCompile(`require\('(?:node:)?child_process'\)|from '(?:node:)?child_process'`)

// classify says why a test failed: a group and a reason that starts with
// what the group is about, followed by what the run printed.
func classify(name string, src []byte, stderr, observed string) (group, why string) {
	with := func(label string) string { return clip(label + " — " + observed) }
	if k, ok := knownFailures[name]; ok {
		return k[0], with(k[1])
	}
	for _, r := range failureRules {
		text := observed
		m := r.re.FindStringSubmatchIndex(text)
		if m == nil {
			text = stderr
			m = r.re.FindStringSubmatchIndex(text)
		}
		if m == nil {
			continue
		}
		if r.group == groupDesign && strings.HasPrefix(r.label, "$1 is outside") {
			if p := text[m[2]:m[3]]; p == "/workspace" || strings.HasPrefix(p, "/workspace/") {
				continue
			}
		}
		return r.group, with(string(r.re.ExpandString(nil, r.label, text, m)))
	}
	if m := flagsLine.FindSubmatch(src); m != nil && regexp.MustCompile(`--expose[-_]`).Match(m[1]) {
		return groupInternals, with("runs with " + string(m[1]))
	}
	if childProcess.Match(src) {
		return groupChild, with("the test runs a child process")
	}
	return groupOther, observed
}

// reason is the line of a failed run's stderr that says most about why:
// the first error line (a test may log progress on stderr first), else
// the first line.
func reason(stderr string, ex runtime.Exit) string {
	for _, l := range strings.Split(stderr, "\n") {
		l = strings.TrimSpace(l)
		if errorLine.MatchString(l) {
			return clip(l)
		}
	}
	for _, l := range strings.Split(stderr, "\n") {
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, "at ") || strings.HasPrefix(l, "^") || strings.HasPrefix(l, "(node:") {
			continue
		}
		return clip(l)
	}
	if ex.Err != nil {
		return clip(firstLine(ex.Err.Error()))
	}
	return fmt.Sprintf("exit status %d", ex.Code)
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return clip(l)
}

func clip(s string) string {
	if r := []rune(s); len(r) > 160 {
		return string(r[:157]) + "..."
	}
	return s
}

func render(results []result, pass, skip int) string {
	sort.Slice(results, func(i, j int) bool { return results[i].name < results[j].name })
	var b strings.Builder
	fmt.Fprintf(&b, "# Node.js fs tests in nook's JavaScript backend\n\n")
	fmt.Fprintf(&b, "Written by `go test -tags nodeconformance ./conformance/node/` (Node %s, test/parallel/test-fs-*).\n\n", "25.8.1")
	fmt.Fprintf(&b, "%d pass, %d skip (the test itself skipped), %d fail, of %d files.\n\n", pass, skip, len(results)-pass-skip, len(results))
	groups := map[string]int{}
	for _, r := range results {
		if r.status == "fail" {
			groups[r.group]++
		}
	}
	if len(groups) > 0 {
		b.WriteString("| failures by reason | files |\n| --- | --- |\n")
		for _, g := range []string{groupInternals, groupDesign, groupLimit, groupChild, groupTodo, groupOther} {
			if groups[g] > 0 {
				fmt.Fprintf(&b, "| %s | %d |\n", g, groups[g])
			}
		}
		b.WriteString("\n")
	}
	b.WriteString("| file | result | reason |\n| --- | --- | --- |\n")
	for _, r := range results {
		why := r.reason
		if r.status == "fail" {
			why = r.group + ": " + why
		}
		fmt.Fprintf(&b, "| %s | %s | %s |\n", r.name, r.status, strings.ReplaceAll(why, "|", `\|`))
	}
	return b.String()
}
