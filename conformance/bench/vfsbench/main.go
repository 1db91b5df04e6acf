// Command vfsbench measures the vfs package against host baselines taken in
// the same run: ripgrep for grep and find, cp -r for import, os.WriteFile for
// small writes. conformance/bench/vfs.sh builds and runs it. Each figure is
// one line, "NAME ratio=X key=value ...".
//
// Phases:
//
//	-phase write  imports the host tree into a new workspace (-db), then
//	              measures find and small writes
//	-phase grep   greps the imported tree (run in a process of its own, so
//	              that its peak RSS is the grep phase's alone)
package main

import (
	"bufio"
	"bytes"
	"context"
	"flag"
	"fmt"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/nookdev/nook/vfs"
)

var (
	phase      = flag.String("phase", "", "write or grep")
	dbPath     = flag.String("db", "", "workspace database `file`")
	srcDir     = flag.String("src", "", "host copy of the corpus (`dir`)")
	tmpDir     = flag.String("tmp", "", "scratch `dir` for the host baselines (default: next to -db)")
	rgPath     = flag.String("rg", "rg", "ripgrep `binary`")
	cpuProfile = flag.String("cpuprofile", "", "write a CPU profile of the measured nook calls to `file`")
	only       = flag.String("only", "", "run only the figures whose names contain this `substring`")
	maxPage    = flag.Int("maxpage", 0, "vfs Limits.MaxPage (0: the default, as the CLI pages)")
	runs       = flag.Int("runs", 3, "timed runs per grep/find figure (median)")
	smallFor   = flag.Duration("small-for", 2*time.Second, "how long the small-writes figure writes")
)

// root is where the corpus lives in the workspace.
const root = "/src"

// disagreements counts the figures whose results differ from the baseline
// tool's: the benchmark exits 1 if any did, since a fast wrong answer is no
// figure at all.
var disagreements []string

func main() {
	if code := benchMain(); code != 0 {
		os.Exit(code)
	}
}

func benchMain() int {
	log.SetFlags(0)
	log.SetPrefix("vfsbench: ")
	flag.Parse()
	if *dbPath == "" || *srcDir == "" {
		log.Fatal("-db and -src are required")
	}
	if *tmpDir == "" {
		*tmpDir = filepath.Dir(*dbPath)
	}
	ctx := context.Background()
	defer startProfile()()
	opts := &vfs.Options{Limits: vfs.Limits{MaxPage: *maxPage}}
	switch *phase {
	case "write":
		if _, err := os.Stat(*dbPath); err == nil && selected("import_mbps") {
			log.Fatalf("%s exists; import needs a new workspace", *dbPath)
		}
		f, err := vfs.Open(ctx, *dbPath, opts)
		if err != nil {
			log.Fatal(err)
		}
		defer f.Close()
		want("import_mbps", func() { benchImport(ctx, f) })
		want("find_test_files", func() { benchFind(ctx, f) })
		want("small_writes_per_sec", func() { benchSmallWrites(ctx, f) })
	case "grep":
		f, err := vfs.Open(ctx, *dbPath, opts)
		if err != nil {
			log.Fatal(err)
		}
		defer f.Close()
		for _, g := range greps {
			want(g.name, func() { benchGrep(ctx, f, g) })
		}
		// VmHWM cannot be reset: this process did nothing but open the
		// workspace and grep (rg runs in child processes).
		hwm, err := vmHWM()
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("grep_peak_rss_mib value=%.1f target_max=64\n", float64(hwm)/(1<<20))
	default:
		log.Fatalf("-phase must be write or grep, not %q", *phase)
	}
	if len(disagreements) > 0 {
		log.Printf("counts disagree with ripgrep in: %s", strings.Join(disagreements, ", "))
		return 1
	}
	return 0
}

func selected(name string) bool { return *only == "" || strings.Contains(name, *only) }

func want(name string, fn func()) {
	if selected(name) {
		fn()
	}
}

// ---------------------------------------------------------------------------
// Profiling covers the whole process; baselines run in child processes (but
// for the small-writes one), so the profile is nook's. Use -only to profile
// one figure.

func startProfile() (stop func()) {
	if *cpuProfile == "" {
		return func() {}
	}
	pf, err := os.Create(*cpuProfile)
	if err != nil {
		log.Fatal(err)
	}
	if err := pprof.StartCPUProfile(pf); err != nil {
		log.Fatal(err)
	}
	return func() {
		pprof.StopCPUProfile()
		pf.Close()
	}
}

// ---------------------------------------------------------------------------
// Timing helpers.

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

func ms(d time.Duration) string { return strconv.FormatFloat(float64(d)/1e6, 'f', 1, 64) }

// timeRuns runs fn once to warm up, then *runs times, and returns the median.
func timeRuns(fn func()) time.Duration {
	fn()
	var ds []time.Duration
	for range max(*runs, 1) {
		t0 := time.Now()
		fn()
		ds = append(ds, time.Since(t0))
	}
	return median(ds)
}

// run executes a command and returns its stdout; a non-zero exit with
// okCodes (rg exits 1 for "no match") is not an error.
func run(name string, args []string, okCodes ...int) []byte {
	cmd := exec.Command(name, args...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		if ee, ok := err.(*exec.ExitError); !ok || !slices.Contains(okCodes, ee.ExitCode()) {
			log.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, errb.String())
		}
	}
	return out.Bytes()
}

// ---------------------------------------------------------------------------
// Import.

func benchImport(ctx context.Context, f *vfs.FS) {
	var files, dirs, skipped int
	var total int64
	syscall.Sync() // start from clean page cache writeback, as the baseline does
	t0 := time.Now()
	// vfs.Import is what `nook import` runs: several files in flight, so
	// their commits are shared.
	st, err := f.Import(ctx, root, os.DirFS(*srcDir), nil)
	if err != nil {
		log.Fatal(err)
	}
	files, dirs, skipped, total = int(st.Files), int(st.Dirs)+1, int(st.Skipped+st.Symlinks), st.Bytes
	nook := time.Since(t0)

	// Baseline: cp -r of the same tree into a fresh directory on the same
	// filesystem as the workspace.
	dst, err := os.MkdirTemp(*tmpDir, "cp-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dst)
	syscall.Sync()
	t0 = time.Now()
	run("cp", []string{"-r", *srcDir, filepath.Join(dst, "copy")})
	base := time.Since(t0)

	mb := float64(total) / 1e6
	nookMBps, baseMBps := mb/nook.Seconds(), mb/base.Seconds()
	fmt.Printf("import_mbps ratio=%.3f nook_mbps=%.1f base_mbps=%.1f nook_ms=%s base_ms=%s mb=%.1f files=%d dirs=%d skipped_nonregular=%d target_min_mbps=150\n",
		nookMBps/baseMBps, nookMBps, baseMBps, ms(nook), ms(base), mb, files, dirs, skipped)
}

// ---------------------------------------------------------------------------
// Find.

func benchFind(ctx context.Context, f *vfs.FS) {
	var count, pages int
	find := func() {
		count, pages = 0, 0
		opts := &vfs.FindOptions{Types: []vfs.Type{vfs.TypeFile}}
		opts.Limit = f.Limits().MaxPage
		for {
			l, err := f.Find(ctx, root, "**/*_test.go", opts)
			if err != nil {
				log.Fatal(err)
			}
			count += len(l.Entries)
			pages++
			if l.NextOffset == 0 {
				return
			}
			opts.Offset = l.NextOffset
		}
	}
	nook := timeRuns(find)
	var rgCount int
	rg := timeRuns(func() {
		out := run(*rgPath, []string{"--files", "--hidden", "--no-ignore", "-g", "*_test.go", *srcDir}, 1)
		rgCount = bytes.Count(out, []byte("\n"))
	})
	fmt.Printf("find_test_files ratio=%.3f nook_ms=%s base_ms=%s nook_count=%d rg_count=%d counts_agree=%t pages=%d target_max_ratio=0.1\n",
		float64(nook)/float64(rg), ms(nook), ms(rg), count, rgCount, count == rgCount, pages)
	if count != rgCount {
		disagreements = append(disagreements, "find_test_files")
	}
}

// ---------------------------------------------------------------------------
// Small writes.

func benchSmallWrites(ctx context.Context, f *vfs.FS) {
	data := make([]byte, 4<<10)
	for i := range data {
		data[i] = byte('a' + i%26)
	}
	const perDir = 1000
	fill := func(i int) {
		// Unique content, so that no write is deduplicated away.
		copy(data, fmt.Sprintf("write %09d\n", i))
	}
	// A new directory each run, so that every write creates a file.
	dir := fmt.Sprintf("/small-%d", time.Now().UnixNano())
	n := 0
	syscall.Sync()
	t0 := time.Now()
	for time.Since(t0) < *smallFor {
		fill(n)
		p := fmt.Sprintf("%s/d%03d/f%05d", dir, n/perDir, n)
		if err := f.WriteFile(ctx, p, data, &vfs.WriteOptions{MkdirAll: true}); err != nil {
			log.Fatal(err)
		}
		n++
	}
	nook := time.Since(t0)

	dst, err := os.MkdirTemp(*tmpDir, "small-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dst)
	syscall.Sync()
	t0 = time.Now()
	for i := range n {
		fill(i)
		dir := filepath.Join(dst, fmt.Sprintf("d%03d", i/perDir))
		if i%perDir == 0 {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				log.Fatal(err)
			}
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%05d", i)), data, 0o644); err != nil {
			log.Fatal(err)
		}
	}
	base := time.Since(t0)
	nookRate, baseRate := float64(n)/nook.Seconds(), float64(n)/base.Seconds()
	fmt.Printf("small_writes_per_sec ratio=%.3f nook_per_sec=%.0f base_per_sec=%.0f writes=%d nook_ms=%s base_ms=%s target_min_per_sec=10000\n",
		nookRate/baseRate, nookRate, baseRate, n, ms(nook), ms(base))
}

// ---------------------------------------------------------------------------
// Grep.

type grepFigure struct {
	name       string
	pattern    string
	regex      bool
	ignoreCase bool
	target     string
}

var greps = []grepFigure{
	{name: "grep_rare_literal", pattern: "ErrUnexpectedEOF", target: "0.5"},
	{name: "grep_common_literal", pattern: "return nil", target: "0.5"},
	{name: "grep_regex", pattern: `func \w+\(ctx context\.Context`, regex: true, target: "0.5"},
	{name: "grep_ignore_case", pattern: "content-length", ignoreCase: true, target: "1.0"},
}

func benchGrep(ctx context.Context, f *vfs.FS, g grepFigure) {
	var nookCounts map[string]int
	var pages, skipped int
	grep := func() {
		nookCounts = map[string]int{}
		pages, skipped = 0, 0
		opts := &vfs.GrepOptions{Mode: vfs.GrepCount, Regex: g.regex, IgnoreCase: g.ignoreCase}
		opts.Limit = f.Limits().MaxPage
		for {
			res, err := f.Grep(ctx, g.pattern, root, opts)
			if err != nil {
				log.Fatal(err)
			}
			for _, fc := range res.Files {
				nookCounts[strings.TrimPrefix(fc.Path, root+"/")] += fc.Count
			}
			pages++
			skipped += len(res.Skipped)
			if res.NextOffset == 0 {
				return
			}
			opts.Offset = res.NextOffset
		}
	}
	nook := timeRuns(grep)

	args := []string{"-c", "--hidden", "--no-ignore"}
	if !g.regex {
		args = append(args, "-F")
	}
	if g.ignoreCase {
		args = append(args, "-i")
	}
	args = append(args, "-e", g.pattern, *srcDir)
	var rgCounts map[string]int
	rg := timeRuns(func() { rgCounts = parseRgCount(run(*rgPath, args, 1)) })

	nookTotal, rgTotal := sum(nookCounts), sum(rgCounts)
	diff := 0
	var examples []string
	for p, n := range nookCounts {
		if rgCounts[p] != n {
			diff++
			examples = append(examples, fmt.Sprintf("%s nook=%d rg=%d", p, n, rgCounts[p]))
		}
	}
	for p, n := range rgCounts {
		if _, ok := nookCounts[p]; !ok {
			diff++
			examples = append(examples, fmt.Sprintf("%s nook=0 rg=%d", p, n))
		}
	}
	if diff > 0 {
		slices.Sort(examples)
		log.Printf("%s: %d files disagree, e.g. %s", g.name, diff, strings.Join(examples[:min(5, len(examples))], "; "))
	}
	fmt.Printf("%s ratio=%.3f nook_ms=%s base_ms=%s nook_count=%d rg_count=%d counts_agree=%t files=%d files_disagreeing=%d pages=%d nook_skipped=%d target_max_ratio=%s\n",
		g.name, float64(nook)/float64(rg), ms(nook), ms(rg), nookTotal, rgTotal, nookTotal == rgTotal && diff == 0,
		len(nookCounts), diff, pages, skipped, g.target)
	if nookTotal != rgTotal || diff != 0 {
		disagreements = append(disagreements, g.name)
	}
}

// parseRgCount parses rg -c output ("path:count" lines) into counts by path
// relative to the corpus.
func parseRgCount(out []byte) map[string]int {
	counts := map[string]int{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		i := strings.LastIndexByte(line, ':')
		if i < 0 {
			continue
		}
		n, err := strconv.Atoi(line[i+1:])
		if err != nil {
			continue
		}
		rel, err := filepath.Rel(*srcDir, line[:i])
		if err != nil {
			rel = line[:i]
		}
		counts[filepath.ToSlash(rel)] += n
	}
	return counts
}

func sum(m map[string]int) int {
	t := 0
	for _, n := range m {
		t += n
	}
	return t
}

// vmHWM returns this process's peak resident set size in bytes.
func vmHWM() (int64, error) {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0, err
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return kb << 10, err
		}
	}
	return 0, fmt.Errorf("no VmHWM in /proc/self/status")
}
