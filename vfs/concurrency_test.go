package vfs

// Concurrency tests: many goroutines, in one process and in several
// processes sharing one workspace file, mix mutations and reads. Each
// goroutine owns a key space whose expected state it tracks exactly (no lost
// or phantom update, read-your-writes), and all of them also race on a
// shared key space where only ENOENT, from a path another worker just
// removed or moved, is an acceptable error.

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

const (
	cwOwnKeys     = 6 // files per goroutine: /own/p<p>/g<g>/k<k>
	cwSharedFiles = 8 // /shared/s<i>
	cwSharedDirs  = 4 // /shared/d<i>/x<j>
)

func cwOwnDir(p, g int) string        { return fmt.Sprintf("/own/p%d/g%d", p, g) }
func cwOwnPath(p, g, k int) string    { return fmt.Sprintf("%s/k%d", cwOwnDir(p, g), k) }
func cwSharedPath(i int) string       { return fmt.Sprintf("/shared/s%d", i) }
func cwSharedDirPath(i int) string    { return fmt.Sprintf("/shared/d%d", i) }
func cwSharedDirFile(i, j int) string { return fmt.Sprintf("%s/x%d", cwSharedDirPath(i), j) }
func cwWorkerID(p, g int) uint32      { return uint32(10_000 + p*100 + g) }

// cwContent is what worker id writes as its version ver: small mostly, and
// every 23rd version a multi-chunk file streamed with WriteFrom.
func cwContent(id uint32, ver uint64) testContent {
	r := splitmix(uint64(id)<<32 ^ ver)
	if ver%23 == 0 {
		return newContent(id, ver, 2*ChunkSize+int64(r%ChunkSize))
	}
	return newContent(id, ver, contentHeader+int64(r%3000))
}

// cwCheck verifies that data is some worker's whole write.
func cwCheck(data []byte) (id uint32, ver uint64, err error) {
	id, ver, err = parseHeader(data)
	if err != nil {
		return 0, 0, err
	}
	if id < 10_000 {
		return 0, 0, fmt.Errorf("content of unknown writer %d", id)
	}
	return id, ver, cwContent(id, ver).check(data)
}

// cwVersion identifies a write: the writer and its counter.
type cwVersion struct {
	ID  uint32
	Ver uint64
}

// cwSummary is what a worker leaves behind: the exact expected state of its
// own key space, its operation counts and the failures it saw.
type cwSummary struct {
	Proc, G int
	Files   map[string]cwVersion // own path → the write it must hold
	Ops     map[string]int
	Fails   []string
}

type cwWorker struct {
	f     *FS
	p, g  int
	rng   *rand.Rand
	ver   uint64
	files map[string]cwVersion
	ops   map[string]int
	fails []string
}

// fail records an unexpected outcome.
func (w *cwWorker) fail(format string, args ...any) {
	if len(w.fails) < 20 {
		w.fails = append(w.fails, fmt.Sprintf("p%d g%d: ", w.p, w.g)+fmt.Sprintf(format, args...))
	}
}

// check records err unless it is nil or, when enoentOK, ENOENT.
func (w *cwWorker) check(op, path string, err error, enoentOK bool) bool {
	w.ops[op]++
	if err == nil {
		return true
	}
	if enoentOK && Code(err) == ENOENT {
		w.ops[op+"/ENOENT"]++
		return false
	}
	w.fail("%s %s: %v (code %s)", op, path, err, Code(err))
	return false
}

// ownKeys returns the worker's existing own paths, sorted.
func (w *cwWorker) ownKeys() []string {
	ks := make([]string, 0, len(w.files))
	for k := range w.files {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

// verifyOwn reads path and compares it with the expected state.
func (w *cwWorker) verifyOwn(ctx context.Context, op, path string) {
	data, err := w.f.ReadFile(ctx, path)
	want, exists := w.files[path]
	switch {
	case !exists && Code(err) == ENOENT:
	case !exists:
		w.fail("%s: %s exists (%d bytes, %v) but was removed or moved away", op, path, len(data), err)
	case err != nil:
		w.fail("%s: read %s: %v", op, path, err)
	default:
		if err := cwContent(want.ID, want.Ver).check(data); err != nil {
			w.fail("%s: %s: %v", op, path, err)
		}
	}
}

// run performs random operations until the deadline or ops operations.
func (w *cwWorker) run(ctx context.Context, deadline time.Time, maxOps int) {
	f := w.f
	id := cwWorkerID(w.p, w.g)
	dir := cwOwnDir(w.p, w.g)
	if err := f.MkdirAll(ctx, dir, 0); err != nil {
		w.fail("mkdir %s: %v", dir, err)
		return
	}
	for n := 0; n < maxOps && time.Now().Before(deadline) && len(w.fails) == 0; n++ {
		r := w.rng.IntN(100)
		switch {
		case r < 30: // overwrite or create an own file
			p := cwOwnPath(w.p, w.g, w.rng.IntN(cwOwnKeys))
			w.ver++
			c := cwContent(id, w.ver)
			var err error
			op := "write"
			switch {
			case c.size > ChunkSize:
				op = "writefrom"
				_, err = f.WriteFrom(ctx, p, c.reader(), nil)
			case w.rng.IntN(8) == 0:
				op = "handle-write"
				err = writeThroughHandle(ctx, f, p, c.bytes())
			default:
				err = f.WriteFile(ctx, p, c.bytes(), nil)
			}
			if w.check(op, p, err, false) {
				w.files[p] = cwVersion{id, w.ver}
				w.verifyOwn(ctx, op, p) // read-your-writes
			}
		case r < 42: // rename an own file over another own name
			keys := w.ownKeys()
			if len(keys) == 0 {
				continue
			}
			from := keys[w.rng.IntN(len(keys))]
			to := cwOwnPath(w.p, w.g, w.rng.IntN(cwOwnKeys))
			if w.check("rename", from, f.Rename(ctx, from, to), false) && from != to {
				w.files[to] = w.files[from]
				delete(w.files, from)
				w.verifyOwn(ctx, "rename", from)
				w.verifyOwn(ctx, "rename", to)
			}
		case r < 48: // remove an own file
			keys := w.ownKeys()
			if len(keys) == 0 {
				continue
			}
			p := keys[w.rng.IntN(len(keys))]
			if w.check("remove", p, f.Remove(ctx, p, nil), false) {
				delete(w.files, p)
				w.verifyOwn(ctx, "remove", p)
			}
		case r < 56: // read an own file, existing or not
			w.ops["read"]++
			w.verifyOwn(ctx, "read", cwOwnPath(w.p, w.g, w.rng.IntN(cwOwnKeys)))
		case r < 60: // list the own directory: exactly the expected names
			l, err := f.ReadDir(ctx, dir, Page{})
			if w.check("readdir", dir, err, false) {
				var got []string
				for _, e := range l.Entries {
					got = append(got, e.Path)
				}
				if want := w.ownKeys(); !slices.Equal(got, want) {
					w.fail("readdir %s = %v, want %v", dir, got, want)
				}
			}
		case r < 70: // write a shared file (never fails: MkdirAll)
			p := cwSharedPath(w.rng.IntN(cwSharedFiles))
			if w.rng.IntN(3) == 0 {
				p = cwSharedDirFile(w.rng.IntN(cwSharedDirs), w.rng.IntN(4))
			}
			w.ver++
			c := cwContent(id, w.ver)
			var err error
			if c.size > ChunkSize {
				_, err = f.WriteFrom(ctx, p, c.reader(), &WriteOptions{MkdirAll: true})
			} else {
				err = f.WriteFile(ctx, p, c.bytes(), &WriteOptions{MkdirAll: true})
			}
			w.check("shared-write", p, err, false)
		case r < 76: // move a shared file over another: the source may be gone
			from, to := cwSharedPath(w.rng.IntN(cwSharedFiles)), cwSharedPath(w.rng.IntN(cwSharedFiles))
			w.check("shared-rename", from, f.Rename(ctx, from, to), true)
		case r < 80: // remove a shared file or a shared directory
			if w.rng.IntN(2) == 0 {
				p := cwSharedPath(w.rng.IntN(cwSharedFiles))
				w.check("shared-remove", p, f.Remove(ctx, p, nil), true)
			} else {
				p := cwSharedDirPath(w.rng.IntN(cwSharedDirs))
				w.check("shared-rmdir", p, f.Remove(ctx, p, &RemoveOptions{Recursive: true}), true)
			}
		case r < 90: // read a shared file: whole writes only
			p := cwSharedPath(w.rng.IntN(cwSharedFiles))
			if w.rng.IntN(3) == 0 {
				p = cwSharedDirFile(w.rng.IntN(cwSharedDirs), w.rng.IntN(4))
			}
			data, err := f.ReadFile(ctx, p)
			if w.check("shared-read", p, err, true) {
				if _, _, err := cwCheck(data); err != nil {
					w.fail("shared-read %s: %v", p, err)
				}
			}
		case r < 94: // walk the shared tree
			l, err := f.Find(ctx, "/shared", "", &FindOptions{Page: Page{Limit: 1000}})
			if w.check("shared-find", "/shared", err, false) {
				for _, e := range l.Entries {
					if e.Kind == TypeFile && (e.Size < contentHeader || e.Size > 3*ChunkSize) {
						w.fail("shared-find: %s has size %d", e.Path, e.Size)
					}
				}
			}
		case r < 96:
			_, err := f.Grep(ctx, "NOOK", "/shared", &GrepOptions{Mode: GrepCount, Page: Page{Limit: 1000}})
			w.check("shared-grep", "/shared", err, false)
		case r < 98:
			_, err := f.Usage(ctx)
			w.check("usage", "", err, false)
		default:
			_, err := f.Changes(ctx, 0, 50)
			w.check("changes", "", err, false)
		}
	}
}

// writeThroughHandle replaces path's content with data through a File.
func writeThroughHandle(ctx context.Context, f *FS, path string, data []byte) error {
	h, err := f.OpenFile(ctx, path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0)
	if err != nil {
		return err
	}
	half := len(data) / 2
	if _, err := h.Write(data[:half]); err != nil {
		h.Close()
		return err
	}
	if _, err := h.WriteAt(data[half:], int64(half)); err != nil {
		h.Close()
		return err
	}
	return h.Close()
}

// runWorkers runs n workers of process p and returns their summaries.
func runWorkers(ctx context.Context, f *FS, p, n int, seed uint64, d time.Duration, maxOps int) []cwSummary {
	deadline := time.Now().Add(d)
	out := make([]cwSummary, n)
	var wg sync.WaitGroup
	for g := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w := &cwWorker{f: f, p: p, g: g, rng: rand.New(rand.NewPCG(seed, uint64(p*1000+g))),
				files: map[string]cwVersion{}, ops: map[string]int{}}
			w.run(ctx, deadline, maxOps)
			out[g] = cwSummary{Proc: p, G: g, Files: w.files, Ops: w.ops, Fails: w.fails}
		}()
	}
	wg.Wait()
	return out
}

// verifyWorkers checks the workspace against the workers' summaries: every
// own directory holds exactly the expected files with exactly the expected
// content, shared files hold whole writes, and the bookkeeping agrees.
func verifyWorkers(ctx context.Context, f *FS, sums []cwSummary) error {
	for _, s := range sums {
		dir := cwOwnDir(s.Proc, s.G)
		got, err := findAllEntries(ctx, f, dir, "")
		if err != nil {
			return err
		}
		var names []string
		for _, e := range got {
			names = append(names, e.Path)
		}
		var want []string
		for p := range s.Files {
			want = append(want, p)
		}
		slices.Sort(want)
		if !slices.Equal(names, want) {
			return fmt.Errorf("%s holds %v, want %v", dir, names, want)
		}
		for p, v := range s.Files {
			data, err := f.ReadFile(ctx, p)
			if err != nil {
				return err
			}
			if err := cwContent(v.ID, v.Ver).check(data); err != nil {
				return fmt.Errorf("%s (lost update?): %v", p, err)
			}
		}
	}
	shared, err := findAllEntries(ctx, f, "/shared", "", TypeFile)
	if err != nil && Code(err) != ENOENT {
		return err
	}
	for _, e := range shared {
		data, err := f.ReadFile(ctx, e.Path)
		if err != nil {
			return err
		}
		if _, _, err := cwCheck(data); err != nil {
			return fmt.Errorf("%s: %v", e.Path, err)
		}
	}
	if err := checkUsage(ctx, f); err != nil {
		return err
	}
	return checkStorage(ctx, f)
}

// reportWorkers fails t for every failure a worker saw and logs the totals.
func reportWorkers(t *testing.T, sums []cwSummary) {
	t.Helper()
	total := map[string]int{}
	all := 0
	for _, s := range sums {
		for _, msg := range s.Fails {
			t.Error(msg)
		}
		for k, v := range s.Ops {
			total[k] += v
			if !strings.Contains(k, "/") {
				all += v
			}
		}
	}
	keys := make([]string, 0, len(total))
	for k := range total {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var b strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&b, " %s=%d", k, total[k])
	}
	t.Logf("%d operations:%s", all, b.String())
}

func TestConcurrentMixedOps(t *testing.T) {
	ctx := context.Background()
	f := openTest(t)
	if err := f.MkdirAll(ctx, "/shared", 0); err != nil {
		t.Fatal(err)
	}
	d := 1500 * time.Millisecond
	if testing.Short() {
		d = 300 * time.Millisecond
	}
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	sums := runWorkers(ctx, f, 0, 16, seed, d, 1<<30)
	reportWorkers(t, sums)
	if t.Failed() {
		return
	}
	if err := verifyWorkers(ctx, f, sums); err != nil {
		t.Fatal(err)
	}
}

// TestConcurrencyChild is one process of TestMultiProcessConcurrency; it
// does nothing unless started by it.
func TestConcurrencyChild(t *testing.T) {
	if os.Getenv(envChildRole) != "concurrency" {
		t.Skip("only runs as a child of TestMultiProcessConcurrency")
	}
	p, _ := strconv.Atoi(os.Getenv(envChildProc))
	seed, _ := strconv.ParseUint(os.Getenv(envChildSeed), 10, 64)
	d, _ := time.ParseDuration(os.Getenv(envChildDur))
	ctx := context.Background()
	f, err := Open(ctx, os.Getenv(envChildDB), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	childSay("READY")
	// Start together: the parent writes a line once every child is ready.
	if _, err := bufio.NewReader(os.Stdin).ReadString('\n'); err != nil {
		t.Fatalf("waiting for the start signal: %v", err)
	}
	sums := runWorkers(ctx, f, p, 8, seed, d, 1<<30)
	out, err := json.Marshal(sums)
	if err != nil {
		t.Fatal(err)
	}
	childSay("SUMMARY %s", out)
	for _, s := range sums {
		for _, msg := range s.Fails {
			t.Error(msg)
		}
	}
}

func TestMultiProcessConcurrency(t *testing.T) {
	if testing.Short() {
		t.Skip("multi-process test skipped in -short mode")
	}
	if os.Getenv(envChildRole) != "" {
		t.Skip("child process")
	}
	const procs = 3
	ctx := context.Background()
	dbPath := filepath.Join(t.TempDir(), "ws.db")
	f, err := Open(ctx, dbPath, nil)
	if err != nil {
		t.Fatal(err)
	}
	err = f.MkdirAll(ctx, "/shared", 0)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)

	var children []*childProc
	for p := range procs {
		children = append(children, startChild(t, "TestConcurrencyChild", map[string]string{
			envChildRole: "concurrency", envChildDB: dbPath, envChildProc: strconv.Itoa(p),
			envChildSeed: strconv.FormatUint(seed, 10), envChildDur: "3s"}))
	}
	for _, c := range children {
		c.waitReady(t)
	}
	for _, c := range children {
		io.WriteString(c.stdin, "go\n")
		c.stdin.Close()
	}
	var sums []cwSummary
	for p, c := range children {
		timer := time.AfterFunc(2*time.Minute, func() { c.cmd.Process.Kill() })
		lines, err := c.wait()
		timer.Stop()
		var got []cwSummary
		for _, l := range lines {
			if js, ok := strings.CutPrefix(l, "SUMMARY "); ok {
				if err := json.Unmarshal([]byte(js), &got); err != nil {
					t.Fatalf("process %d: bad summary: %v", p, err)
				}
			}
		}
		if err != nil || got == nil {
			t.Errorf("process %d failed (%v):\n%s\nstderr:\n%s", p, err, c.output(), c.stderr.String())
		}
		sums = append(sums, got...)
	}
	reportWorkers(t, sums)
	if t.Failed() {
		return
	}
	if err := integrityCheck(dbPath); err != nil {
		t.Fatal(err)
	}
	f, err = Open(ctx, dbPath, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := verifyWorkers(ctx, f, sums); err != nil {
		t.Fatal(err)
	}
	if err := f.WriteFile(ctx, "/after", []byte("ok"), nil); err != nil {
		t.Fatal(err)
	}
}
