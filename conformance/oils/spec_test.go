//go:build oilsconformance

package oils

import (
	"archive/tar"
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ulikunitz/xz"

	"github.com/nookdev/nook"
	_ "github.com/nookdev/nook/internal/tiertest"
	nookrt "github.com/nookdev/nook/runtime"
	"github.com/nookdev/nook/runtime/js"
	"github.com/nookdev/nook/runtime/shell"
	"github.com/nookdev/nook/vfs"
)

// passFloor is the number of cases that passed when this floor was last
// raised, less about 1% for cases sensitive to a loaded machine; fewer
// fails the suite.
const passFloor = 1444

// perCase bounds one case's run.
const perCase = 10 * time.Second

// repoRoot is where the suite's spec/ directory is in each workspace
// ($REPO_ROOT of the cases).
const repoRoot = "/workspace/oils"

//go:embed testdata/bin
var helpers embed.FS

// findArchive finds name in a parent's shared/conformance/, or at the
// path the environment variable env names.
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

// readArchive returns the regular files of the .tar.xz at p, by path.
func readArchive(p string) (map[string][]byte, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	zr, err := xz.NewReader(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p, err)
	}
	tr := tar.NewReader(zr)
	files := map[string][]byte{}
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return files, nil
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", p, err)
		}
		if h.Typeflag != tar.TypeReg {
			continue
		}
		b, err := io.ReadAll(tr)
		if err != nil {
			return nil, fmt.Errorf("%s: %s: %w", p, h.Name, err)
		}
		files[h.Name] = b
	}
}

// A testCase is one "#### NAME" case of a spec file, with what bash is
// expected to do.
type testCase struct {
	name   string
	line   int
	code   string
	stdout *string // nil: not compared
	status int
	// legacyTmp: the file's metadata says its cases expect a _tmp
	// directory in their cwd.
	legacyTmp bool
}

var (
	keyValue  = regexp.MustCompile(`^##\s+(?:(OK(?:-\d)?|BUG(?:-\d)?|N-I)\s+([\w+/]+)\s+)?([\w\-]+):\s*(.*)$`)
	endMulti  = regexp.MustCompile(`^##\s+END`)
	blankLine = regexp.MustCompile(`^\s*$`)
)

// parseSpec reads a spec file as test/sh_spec.py does: comment lines are
// dropped everywhere, blank lines only between cases; each case's
// expectations for bash are its bash-qualified ones, else its defaults.
func parseSpec(src string) ([]testCase, error) {
	lines := strings.SplitAfter(src, "\n")
	if n := len(lines); n > 0 && lines[n-1] == "" {
		lines = lines[:n-1]
	}
	var cases []testCase
	type meta map[string]string
	var cur *testCase
	var def, bash meta
	var code strings.Builder
	inCode := false
	finish := func() error {
		if cur == nil {
			return nil
		}
		cur.code = code.String()
		pick := func(key string) (string, bool) {
			if v, ok := bash[key]; ok {
				return v, true
			}
			v, ok := def[key]
			return v, ok
		}
		_, bOut := bash["stdout"]
		_, bJSON := bash["stdout-json"]
		src := def
		if bOut || bJSON {
			src = bash
		}
		if v, ok := src["stdout"]; ok {
			cur.stdout = &v
		} else if v, ok := src["stdout-json"]; ok {
			var s string
			if err := json.Unmarshal([]byte(v), &s); err != nil {
				return fmt.Errorf("line %d: stdout-json %s: %w", cur.line, v, err)
			}
			cur.stdout = &s
		}
		if v, ok := pick("status"); ok {
			n, err := strconv.Atoi(strings.TrimSpace(v))
			if err != nil {
				return fmt.Errorf("line %d: status %q: %w", cur.line, v, err)
			}
			cur.status = n
		}
		cases = append(cases, *cur)
		cur = nil
		return nil
	}
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		text := strings.TrimRight(line, "\n")
		if strings.HasPrefix(line, "####") {
			if err := finish(); err != nil {
				return nil, err
			}
			cur = &testCase{name: strings.TrimSpace(line[4:]), line: i + 1}
			def, bash = meta{}, meta{}
			code.Reset()
			inCode = false
			continue
		}
		if m := keyValue.FindStringSubmatch(text); m != nil {
			if cur == nil {
				continue // file metadata
			}
			qual, shells, key, value := m[1], m[2], m[3], m[4]
			if key == "STDOUT" || key == "STDERR" {
				var b strings.Builder
				for i+1 < len(lines) {
					next := lines[i+1]
					t := strings.TrimRight(next, "\n")
					if endMulti.MatchString(t) {
						i++
						break
					}
					if keyValue.MatchString(t) || strings.HasPrefix(next, "####") {
						break
					}
					i++
					if strings.HasPrefix(strings.TrimLeft(next, " \t"), "#") {
						continue
					}
					b.WriteString(next)
				}
				key, value = strings.ToLower(key), b.String()
			} else if key == "stdout" || key == "stderr" {
				value += "\n"
			}
			target := def
			if qual != "" {
				target = nil
				for _, sh := range strings.Split(shells, "/") {
					if sh == "bash" {
						target = bash
					}
				}
			}
			if target != nil {
				target[key] = value
			}
			inCode = false
			continue
		}
		if cur == nil {
			continue
		}
		if strings.HasPrefix(strings.TrimLeft(line, " \t"), "#") {
			continue
		}
		if !inCode && blankLine.MatchString(line) {
			continue
		}
		if blankLine.MatchString(line) && code.Len() == 0 {
			continue
		}
		inCode = true
		code.WriteString(line)
	}
	if err := finish(); err != nil {
		return nil, err
	}
	legacy := regexp.MustCompile(`(?m)^## legacy_tmp_dir: *(yes|true)`).MatchString(src)
	// Blank lines after a case's code (before the next case) are not code.
	for i := range cases {
		cases[i].legacyTmp = legacy
		cases[i].code = strings.TrimRight(cases[i].code, "\n") + "\n"
	}
	return cases, nil
}

// skipRules are the cases that cannot apply to a sandbox, by what their
// code uses.
var skipRules = []struct {
	re     *regexp.Regexp
	reason string
}{
	{regexp.MustCompile(`show_fd_table\.py|/proc/`), "reads the host's /proc (the file descriptor table of a host process)"},
	{regexp.MustCompile(`/dev/(tty|pts)`), "needs a terminal"},
	{regexp.MustCompile(`\bpython2\b`), "runs python2 itself to make its input (the sandbox has no Python, by design)"},
}

type result struct {
	file, name string
	line       int
	status     string // pass, fail, skip
	reason     string
	cause      string // of a failure: the first line of stderr, in a few words
	detail     string // of a failure: the code, full stdout, stderr and what was wanted
}

func TestOilsSpec(t *testing.T) {
	start := time.Now()
	all, err := readArchive(findArchive(t, "oils-spec-tests.tar.xz", "NOOK_OILS_SPEC_TESTS"))
	if err != nil {
		t.Fatal(err)
	}
	list, ok := all["oils-spec/FILES.txt"]
	if !ok {
		t.Fatal("the archive has no oils-spec/FILES.txt")
	}
	// The files every workspace starts with: spec/testdata and spec/bin,
	// with nook's stand-ins over the Python helpers.
	base := tree{}
	for p, b := range all {
		if rest, ok := strings.CutPrefix(p, "oils-spec/spec/"); ok && (strings.HasPrefix(rest, "testdata/") || strings.HasPrefix(rest, "bin/")) {
			base[repoRoot+"/spec/"+rest] = b
		}
	}
	if err := fs.WalkDir(helpers, "testdata/bin", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := helpers.ReadFile(p)
		base[repoRoot+"/spec/bin/"+path.Base(p)] = b
		return err
	}); err != nil {
		t.Fatal(err)
	}
	// NOOK_OILS_ONLY runs the cases whose "file:case number" matches
	// the pattern, and logs the failures instead of writing RESULTS.md;
	// NOOK_OILS_DETAIL=1 logs each failure's code, stdout and stderr too.
	only := os.Getenv("NOOK_OILS_ONLY")
	type unit struct {
		file  string
		cases []testCase
	}
	var units []unit
	total := 0
	for _, name := range strings.Fields(string(list)) {
		src, ok := all["oils-spec/spec/"+name+".test.sh"]
		if !ok {
			t.Fatalf("FILES.txt lists %s, which the archive lacks", name)
		}
		cs, err := parseSpec(string(src))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		total += len(cs)
		units = append(units, unit{name, cs})
	}
	var onlyRe *regexp.Regexp
	if only != "" {
		onlyRe = regexp.MustCompile(only)
	}
	sh := shell.New(shell.Options{})
	jsb := js.New(js.Options{})
	results := make([][]result, len(units))
	work := make(chan int)
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				results[i] = runFile(t, sh, jsb, base, units[i].file, units[i].cases, onlyRe)
			}
		}()
	}
	for i := range units {
		work <- i
	}
	close(work)
	wg.Wait()
	var flat []result
	for _, rs := range results {
		flat = append(flat, rs...)
	}
	pass, skip, panics := 0, 0, 0
	for _, r := range flat {
		switch r.status {
		case "pass":
			pass++
		case "skip":
			skip++
		}
		if strings.Contains(r.reason, "panicked") {
			panics++
			t.Errorf("%s #%d %s: %s", r.file, r.line, r.name, r.reason)
		}
	}
	elapsed := time.Since(start).Round(time.Second)
	if onlyRe != nil {
		for _, r := range flat {
			if r.status != "pass" {
				t.Logf("%s:%d %s: %s %s", r.file, r.line, r.name, r.status, r.reason)
				if os.Getenv("NOOK_OILS_DETAIL") != "" {
					t.Log(r.detail)
				}
			}
		}
		t.Logf("%d pass of %d run", pass, len(flat))
		return
	}
	if err := os.WriteFile("RESULTS.md", []byte(render(flat, elapsed)), 0o644); err != nil {
		t.Error(err)
	}
	t.Logf("Oils spec tests: %d pass, %d skip, %d fail of %d cases (%.1f%% of the applicable; floor %d) in %s; per file in RESULTS.md",
		pass, skip, len(flat)-pass-skip, len(flat), 100*float64(pass)/float64(len(flat)-skip), passFloor, elapsed)
	if skip*20 >= len(flat) {
		t.Errorf("%d of %d cases skipped: 5%% or more", skip, len(flat))
	}
	if pass < passFloor {
		t.Errorf("%d cases pass, fewer than the floor %d", pass, passFloor)
	}
}

// tree is a set of files to import into a workspace, by path.
type tree map[string][]byte

// runFile runs the cases of one spec file in one fresh workspace, each in
// a directory of its own.
func runFile(t *testing.T, sh *shell.Backend, jsb *js.Backend, base tree, file string, cases []testCase, only *regexp.Regexp) []result {
	out := make([]result, 0, len(cases))
	ctx := context.Background()
	ws, err := nook.OpenMemory(ctx, nook.WithBackends(sh, jsb))
	if err != nil {
		t.Errorf("%s: %v", file, err)
		return nil
	}
	defer ws.Close()
	err = ws.FS().Batch(ctx, func(bt *vfs.Batch) error {
		for p, data := range base {
			opts := &vfs.WriteOptions{MkdirAll: true}
			if strings.HasPrefix(p, repoRoot+"/spec/bin/") {
				opts.Mode = 0o755
			}
			if err := bt.WriteFile(p, data, opts); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Errorf("%s: import: %v", file, err)
		return nil
	}
	for i, c := range cases {
		if only != nil && !only.MatchString(fmt.Sprintf("%s:%d", file, i)) {
			continue
		}
		out = append(out, runCase(ctx, ws, sh, file, i, c))
	}
	return out
}

func runCase(ctx context.Context, ws *nook.Workspace, sh *shell.Backend, file string, i int, c testCase) (res result) {
	res = result{file: file, name: c.name, line: c.line, status: "fail"}
	defer func() {
		if v := recover(); v != nil {
			res.status, res.reason, res.cause = "fail", clip(fmt.Sprintf("the host panicked: %v", v)), "the host panicked"
		}
	}()
	for _, r := range skipRules {
		if r.re.MatchString(c.code) {
			res.status, res.reason = "skip", r.reason
			return res
		}
	}
	dir := fmt.Sprintf("/workspace/tmp/%s-%d", file, i)
	mk := dir
	if c.legacyTmp {
		mk += "/_tmp" // the file's "## legacy_tmp_dir": cases assume _tmp exists
	}
	if err := ws.FS().MkdirAll(ctx, mk, 0o755); err != nil {
		res.reason = "mkdir: " + err.Error()
		return res
	}
	cctx, cancel := context.WithTimeout(ctx, perCase+10*time.Second)
	defer cancel()
	h, err := ws.Runtime().Exec(cctx, c.code, nookrt.ExecOptions{
		ID: fmt.Sprintf("case-%d", i), Backend: sh.Info().ID, Cwd: dir, Timeout: perCase,
		Env: map[string]string{
			"SH": "bash", "TMP": dir, "REPO_ROOT": repoRoot, "HOME": "/workspace",
			"PATH": repoRoot + "/spec/bin:/usr/local/bin:/usr/bin:/bin", "LC_ALL": "C.UTF-8",
		}})
	if err != nil {
		var re *nookrt.Error
		msg := err.Error()
		if errors.As(err, &re) {
			msg = re.Text
		}
		res.reason, res.cause = "prepare: "+firstLine(msg), causeOf(msg)
		// A script refused before it runs with an exit code (a syntax
		// error before any command: 2, as bash exits having run nothing)
		// counts as a run that printed nothing and exited with it.
		var ec interface{ ExitCode() int }
		if !errors.As(err, &ec) {
			return res
		}
		if (c.stdout == nil || *c.stdout == "") && ec.ExitCode() == c.status {
			res.status = "pass"
		}
		return res
	}
	r, err := h.Result(cctx)
	if err != nil {
		res.reason, res.cause = "result: "+err.Error(), "no result"
		return res
	}
	stdout, stderr := string(r.Stdout), string(r.Stderr)
	var why []string
	if c.stdout != nil && stdout != *c.stdout {
		why = append(why, fmt.Sprintf("stdout %q, want %q", clipN(stdout, 60), clipN(*c.stdout, 60)))
	}
	if r.ExitCode != c.status {
		why = append(why, fmt.Sprintf("status %d, want %d", r.ExitCode, c.status))
	}
	if len(why) == 0 {
		res.status = "pass"
		return res
	}
	res.reason = strings.Join(why, "; ")
	want := "(any)"
	if c.stdout != nil {
		want = *c.stdout
	}
	res.detail = fmt.Sprintf("--- code\n%s\n--- stdout\n%s--- want (status %d)\n%s--- stderr\n%s%s", c.code, stdout, c.status, want, stderr, r.Error)
	if r.Error != "" && !strings.Contains(stderr, r.Error) {
		stderr = r.Error + "\n" + stderr
	}
	res.cause = causeOf(stderr)
	if strings.Contains(stderr, "panicked") {
		res.reason += "; " + firstLine(stderr)
	}
	return res
}

var (
	lineCol  = regexp.MustCompile(`\b\d+:\d+:? ?`)
	quoted   = regexp.MustCompile(`"[^"]*"|'[^']*'|‘[^’]*’`)
	numbers  = regexp.MustCompile(`\b\d+\b`)
	namePfx  = regexp.MustCompile(`^(bash|gosh|-|[\w./-]+\.sh): `)
	spaceRun = regexp.MustCompile(`\s+`)
)

// causeOf names a failure by the first line of its stderr with positions,
// names and numbers taken out, so that alike failures count together;
// "no error" when the run printed nothing there.
func causeOf(stderr string) string {
	l := ""
	for _, s := range strings.Split(stderr, "\n") {
		if strings.TrimSpace(s) != "" {
			l = s
			break
		}
	}
	if l == "" {
		return "no error (output or status differ)"
	}
	l = namePfx.ReplaceAllString(l, "")
	l = lineCol.ReplaceAllString(l, "")
	l = quoted.ReplaceAllString(l, "…")
	l = numbers.ReplaceAllString(l, "N")
	l = spaceRun.ReplaceAllString(strings.TrimSpace(l), " ")
	return clipN(l, 90)
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return clip(l)
}

func clip(s string) string { return clipN(s, 160) }

func clipN(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n-3]) + "..."
	}
	return s
}

func md(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "|", `\|`), "\n", `\n`)
}

func render(results []result, elapsed time.Duration) string {
	type row struct{ cases, pass, fail, skip int }
	rows := map[string]*row{}
	var order []string
	var total row
	causes := map[string]int{}
	skips := map[string]int{}
	for _, r := range results {
		w := rows[r.file]
		if w == nil {
			w = &row{}
			rows[r.file] = w
			order = append(order, r.file)
		}
		for _, x := range []*row{w, &total} {
			x.cases++
			switch r.status {
			case "pass":
				x.pass++
			case "skip":
				x.skip++
			default:
				x.fail++
			}
		}
		switch r.status {
		case "fail":
			causes[r.cause]++
		case "skip":
			skips[r.reason]++
		}
	}
	pct := func(x *row) string {
		if x.cases == x.skip {
			return "-"
		}
		return fmt.Sprintf("%.1f%%", 100*float64(x.pass)/float64(x.cases-x.skip))
	}
	var b strings.Builder
	b.WriteString("# The Oils project's shell spec tests in nook's shell backend\n\n")
	fmt.Fprintf(&b, "Written by `go test -tags oilsconformance ./conformance/oils/` (oils-for-unix/oils at 15de8fd7, the %d spec files of oils-spec-tests.tar.xz; %s on this machine).\n", len(order), elapsed)
	b.WriteString("A case passes when its stdout (where the case states one) and its exit status are what bash is expected to give: bash's qualified expectation (`## OK bash`, `## BUG bash`, `## N-I bash`) where the case has one, else the default.\n\n")
	fmt.Fprintf(&b, "**%d cases: %d pass, %d fail, %d skipped; %s of the applicable cases pass.**\n\n", total.cases, total.pass, total.fail, total.skip, pct(&total))
	if len(skips) > 0 {
		b.WriteString("| skipped (cannot apply to a sandbox) | cases |\n| --- | --- |\n")
		for _, k := range sortedKeys(skips) {
			fmt.Fprintf(&b, "| %s | %d |\n", md(k), skips[k])
		}
		b.WriteString("\n")
	}
	b.WriteString("| file | cases | pass | fail | skipped | pass / applicable |\n| --- | --- | --- | --- | --- | --- |\n")
	for _, f := range order {
		w := rows[f]
		fmt.Fprintf(&b, "| %s | %d | %d | %d | %d | %s |\n", f, w.cases, w.pass, w.fail, w.skip, pct(w))
	}
	fmt.Fprintf(&b, "| **all** | %d | %d | %d | %d | %s |\n\n", total.cases, total.pass, total.fail, total.skip, pct(&total))
	b.WriteString("## Failures by the first line of their stderr\n\n| stderr (positions, names and numbers left out) | cases |\n| --- | --- |\n")
	for _, k := range sortedKeys(causes) {
		fmt.Fprintf(&b, "| %s | %d |\n", md(k), causes[k])
	}
	b.WriteString("\n## Cases that fail or are skipped\n\n| file | line | case | result | why |\n| --- | --- | --- | --- | --- |\n")
	for _, r := range results {
		if r.status == "pass" {
			continue
		}
		fmt.Fprintf(&b, "| %s | %d | %s | %s | %s |\n", r.file, r.line, md(r.name), r.status, md(r.reason))
	}
	return b.String()
}

// sortedKeys are m's keys, the largest count first.
func sortedKeys(m map[string]int) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if m[keys[i]] != m[keys[j]] {
			return m[keys[i]] > m[keys[j]]
		}
		return keys[i] < keys[j]
	})
	return keys
}
