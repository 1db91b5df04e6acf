//go:build nodeconformance

package node

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nookdev/nook/runtime/js"
)

// corePassFloor is the number of core test files that passed when this
// floor was last raised, less a small margin for timing-sensitive tests
// (timers, child processes) on a loaded machine; fewer fails the suite.
const corePassFloor = 341

// coreModules name the module row a test file counts in, by the first
// pattern its name matches.
var coreModules = []struct {
	re     *regexp.Regexp
	module string
}{
	{regexp.MustCompile(`^test-(webstreams?-|whatwg-(readablestream|transformstream|writablestream|webstreams))`), "web streams"},
	{regexp.MustCompile(`^test-stream`), "stream"},
	{regexp.MustCompile(`^test-(whatwg-url|url)`), "url, whatwg-url"},
	{regexp.MustCompile(`^test-(whatwg-encoding|global-encoder)`), "encoding"},
	{regexp.MustCompile(`^test-(event-|events-|eventtarget|whatwg-events)`), "events"},
	{regexp.MustCompile(`^test-timers`), "timers"},
	{regexp.MustCompile(`^test-(buffer|blob)`), "buffer"},
	{regexp.MustCompile(`^test-(promise|microtask|queue-microtask|next-tick)`), "promises, microtasks"},
	{regexp.MustCompile(`^test-process`), "process"},
	{regexp.MustCompile(`^test-zlib`), "zlib"},
	{regexp.MustCompile(`^test-child-process`), "child_process"},
	{regexp.MustCompile(`^test-(console|global-console)`), "console"},
	{regexp.MustCompile(`^test-path`), "path"},
	{regexp.MustCompile(`^test-readline`), "readline"},
	{regexp.MustCompile(`^test-assert`), "assert"},
	{regexp.MustCompile(`^test-(util|aborted-util)`), "util"},
	{regexp.MustCompile(`^test-string-decoder`), "string_decoder"},
	{regexp.MustCompile(`^test-querystring`), "querystring"},
	{regexp.MustCompile(`^test-os`), "os"},
	{regexp.MustCompile(`^test-crypto`), "crypto"},
	{regexp.MustCompile(`.`), "web globals (abort, DOMException, structuredClone, ...)"},
}

func coreModule(name string) string {
	for _, m := range coreModules {
		if m.re.MatchString(name) {
			return m.module
		}
	}
	return ""
}

// TestNodeCore runs the 613 test/parallel files of Node 25.8.1 for the
// core modules other than fs (../shared/conformance/node-core-tests.tar.xz),
// each in a fresh workspace with the helpers of its test/common that
// nook's replacement index.js does not stand for, GOMAXPROCS at a time.
// It writes RESULTS.md and fails below corePassFloor.
func TestNodeCore(t *testing.T) {
	base, files := unpack(t, findArchive(t, "node-core-tests.tar.xz", "NOOK_NODE_CORE_TESTS"), "node-core-tests", true)
	list, err := os.ReadFile(filepath.Join(filepath.Dir(base), "tests.txt"))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, n := range strings.Fields(string(list)) {
		names = append(names, filepath.Join(base, "parallel", n))
	}
	if len(names) == 0 {
		t.Fatal("tests.txt lists no files")
	}
	backend := js.New(js.Options{})
	// NOOK_NODE_CORE_ONLY=pattern runs the matching files only, showing
	// their output, and writes no RESULTS.md.
	if only := os.Getenv("NOOK_NODE_CORE_ONLY"); only != "" {
		re := regexp.MustCompile(only)
		for _, n := range names {
			if re.MatchString(filepath.Base(n)) {
				r := runOne(backend, files, n)
				t.Logf("%s: %s %s\n--- stdout\n%s--- stderr\n%s", r.name, r.status, r.reason, r.stdout, r.stderr)
			}
		}
		return
	}
	start := time.Now()
	results := make([]result, len(names))
	work := make(chan int)
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
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
	pass := 0
	for _, r := range results {
		if r.status == "pass" {
			pass++
		}
	}
	if err := writeSection("RESULTS.md", "core", renderCore(results)); err != nil {
		t.Error(err)
	}
	t.Logf("Node core tests: %d pass of %d (floor %d) in %s; per module and file in RESULTS.md",
		pass, len(results), corePassFloor, time.Since(start).Round(time.Second))
	if pass < corePassFloor {
		t.Errorf("%d core test files pass, fewer than the floor %d", pass, corePassFloor)
	}
}

// outOfReach says whether a failure's group is out of reach by design.
func outOfReach(r result) bool {
	return r.status == "fail" && (r.group == groupInternals || r.group == groupDesign)
}

func renderCore(results []result) string {
	sort.Slice(results, func(i, j int) bool { return results[i].name < results[j].name })
	type row struct{ files, pass, skip, fail, design int }
	rows := map[string]*row{}
	reasons := map[string]map[string]int{} // module -> out-of-reach reason -> files
	var total row
	for _, r := range results {
		m := coreModule(r.name)
		if rows[m] == nil {
			rows[m] = &row{}
			reasons[m] = map[string]int{}
		}
		for _, w := range []*row{rows[m], &total} {
			w.files++
			switch {
			case r.status == "pass":
				w.pass++
			case r.status == "skip":
				w.skip++
			case outOfReach(r):
				w.design++
			default:
				w.fail++
			}
		}
		if outOfReach(r) {
			label, _, _ := strings.Cut(r.reason, " — ")
			reasons[m][label]++
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "## Node.js core-module tests in nook's JavaScript backend\n\n")
	fmt.Fprintf(&b, "Written by `go test -tags nodeconformance -run TestNodeCore ./conformance/node/` (Node 25.8.1, the %d test/parallel files of node-core-tests.tar.xz).\n", len(results))
	fmt.Fprintf(&b, "A file passes when it exits with status 0 and every mustCall was satisfied. Out of reach by design (Node internals, sockets, V8-only APIs, worker threads, paths outside the workspace) counts as a failure; its column says how many of the failures are such, and why.\n\n")
	b.WriteString("| module | files | pass | skip | fail | out of reach by design | pass / applicable |\n| --- | --- | --- | --- | --- | --- | --- |\n")
	mods := make([]string, 0, len(rows))
	for m := range rows {
		mods = append(mods, m)
	}
	sort.Slice(mods, func(i, j int) bool { return rows[mods[i]].files > rows[mods[j]].files })
	pct := func(w *row) string {
		app := w.files - w.design - w.skip
		if app == 0 {
			return "-"
		}
		return fmt.Sprintf("%d/%d (%d%%)", w.pass, app, 100*w.pass/app)
	}
	for _, m := range mods {
		w := rows[m]
		var why []string
		for l, n := range reasons[m] {
			why = append(why, fmt.Sprintf("%d %s", n, l))
		}
		sort.Strings(why)
		design := fmt.Sprint(w.design)
		if len(why) > 0 {
			design += ": " + strings.ReplaceAll(strings.Join(why, "; "), "|", `\|`)
		}
		fmt.Fprintf(&b, "| %s | %d | %d | %d | %d | %s | %s |\n", m, w.files, w.pass, w.skip, w.fail, design, pct(w))
	}
	fmt.Fprintf(&b, "| **all** | %d | %d | %d | %d | %d | %s |\n\n", total.files, total.pass, total.skip, total.fail, total.design, pct(&total))
	b.WriteString("| file | module | result | reason |\n| --- | --- | --- | --- |\n")
	for _, r := range results {
		why := r.reason
		if r.status == "fail" {
			why = r.group + ": " + why
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", r.name, coreModule(r.name), r.status, strings.ReplaceAll(why, "|", `\|`))
	}
	return b.String()
}
