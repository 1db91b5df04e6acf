package console_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	goruntime "runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nookdev/nook"
	"github.com/nookdev/nook/internal/console"
	"github.com/nookdev/nook/runtime"
	"github.com/nookdev/nook/runtime/shell"
	"github.com/nookdev/nook/vfs"
)

// envInt reads a positive integer from the environment, else def.
func envInt(name string, def int) int {
	if n, err := strconv.Atoi(os.Getenv(name)); err == nil && n > 0 {
		return n
	}
	return def
}

// Page render times on a workspace with many runs and files (not in
// -short): $NOOK_CONSOLE_RUNS runs (default 1,000) and
// $NOOK_CONSOLE_FILES files in one directory (default 10,000); each page
// is loaded 20 times and its median and worst time logged. The bound
// checked is loose (a loaded machine); the numbers are the result.
func TestPageRenderTimes(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: creates many runs and files")
	}
	nRuns, nFiles := envInt("NOOK_CONSOLE_RUNS", 1000), envInt("NOOK_CONSOLE_FILES", 10000)
	ctx := context.Background()
	ws, err := nook.Open(ctx, filepath.Join(t.TempDir(), "w.db"),
		nook.WithRuntime(runtime.Options{MaxRetained: nRuns + 10, Retention: 24 * time.Hour, MaxConcurrent: 64}),
		nook.WithBackends(shell.New(shell.Options{})))
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	t0 := time.Now()
	for i := 0; i < nRuns; i++ {
		h, err := ws.Runtime().Exec(ctx, "echo run "+strconv.Itoa(i), runtime.ExecOptions{ID: fmt.Sprintf("r%05d", i), Backend: "shell"})
		if err != nil {
			t.Fatal(err)
		}
		if err := h.Wait(ctx); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("%d runs made in %s", nRuns, time.Since(t0).Round(time.Millisecond))
	t0 = time.Now()
	for start := 0; start < nFiles; start += 5000 {
		err := ws.FS().Batch(ctx, func(b *vfs.Batch) error {
			for i := start; i < min(start+5000, nFiles); i++ {
				if err := b.WriteFile(fmt.Sprintf("/workspace/big/f%06d.txt", i), []byte("line one\nline two\n"), &vfs.WriteOptions{MkdirAll: true}); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("%d files made in %s", nFiles, time.Since(t0).Round(time.Millisecond))
	c, err := console.New(console.Options{FS: ws.FS(), Runtime: ws.Runtime(), Token: ""})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(c)
	defer srv.Close()
	lastPage := (min(nRuns, console.MaxRunsListed) - 1) / console.RunsPerPage
	for _, path := range []string{"/runs", "/runs?page=" + strconv.Itoa(lastPage), "/run?id=r00000",
		fmt.Sprintf("/run?id=r%05d", nRuns-1), "/approvals", "/files?path=/workspace/big",
		"/files?path=/workspace/big&offset=" + strconv.Itoa(nFiles-100), "/file?path=/workspace/big/f000001.txt",
		"/changes", "/history?path=/workspace/big/f000001.txt"} {
		var times []time.Duration
		for range 20 {
			s := time.Now()
			res, err := http.Get(srv.URL + path)
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			if res.StatusCode != 200 {
				t.Fatalf("%s: %d", path, res.StatusCode)
			}
			times = append(times, time.Since(s))
		}
		slices.Sort(times)
		t.Logf("%-50s median %8s  max %8s", path, times[len(times)/2].Round(10*time.Microsecond), times[len(times)-1].Round(10*time.Microsecond))
		if times[len(times)/2] > time.Second {
			t.Errorf("%s: median %s", path, times[len(times)/2])
		}
	}
}

// Load (not in -short): 200 followers of one run's live output by
// server-sent events and 1,000 page loads, 20 at a time. Every follower
// gets the whole output and the exit, every load succeeds, and then the
// goroutines and the heap are back near where they were.
func TestLoadFollowersAndPages(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: 200 event streams and 1,000 page loads")
	}
	e := newEnv(t, "")
	tr := &http.Transport{MaxIdleConnsPerHost: 20}
	hc := &http.Client{Transport: tr}
	settle := func() (int, uint64, uint64) {
		tr.CloseIdleConnections()
		var ms goruntime.MemStats
		for range 20 {
			time.Sleep(50 * time.Millisecond)
			goruntime.GC()
		}
		debug.FreeOSMemory()
		goruntime.ReadMemStats(&ms)
		return goruntime.NumGoroutine(), ms.HeapInuse, rss()
	}
	g0, heap0, rss0 := settle()
	h, p := e.startAsk("load", "go?")

	const followers = 200
	var connected, finished sync.WaitGroup
	connected.Add(followers)
	finished.Add(followers)
	errs := make(chan error, followers)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	for i := range followers {
		go func() {
			defer finished.Done()
			first := true
			once := func() {
				if first {
					first = false
					connected.Done()
				}
			}
			defer once()
			req, _ := http.NewRequestWithContext(ctx, "GET", e.srv.URL+"/run/events?id=load", nil)
			res, err := hc.Do(req)
			if err != nil {
				errs <- fmt.Errorf("follower %d: %v", i, err)
				return
			}
			defer res.Body.Close()
			var data []string
			sc := bufio.NewScanner(res.Body)
			for sc.Scan() {
				line := sc.Text()
				if strings.HasPrefix(line, "data: ") {
					data = append(data, line[6:])
					once()
				}
				if line == "event: exit" {
					sc.Scan()
					data = append(data, sc.Text()[6:])
					break
				}
			}
			want := []string{`{"stream":"stdout","text":"asking go?\n"}`, `{"stream":"stdout","text":"answered\n"}`, `{"exitCode":0,"status":"completed"}`}
			if strings.Join(data, "|") != strings.Join(want, "|") {
				errs <- fmt.Errorf("follower %d got %q", i, data)
			}
		}()
	}
	connected.Wait()
	if err := e.ws.Runtime().Respond(ctx, p.RunID, p.CallID, "yes"); err != nil {
		t.Fatal(err)
	}
	waitResult(t, h)
	finished.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}

	pages := []string{"/runs", "/run?id=load", "/approvals", "/files?path=/", "/changes", "/usage"}
	var loads sync.WaitGroup
	var failed atomic.Int64
	sem := make(chan struct{}, 20)
	t0 := time.Now()
	for i := range 1000 {
		loads.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; loads.Done() }()
			res, err := hc.Get(e.srv.URL + pages[i%len(pages)])
			if err != nil {
				failed.Add(1)
				return
			}
			io.Copy(io.Discard, res.Body)
			res.Body.Close()
			if res.StatusCode != 200 {
				failed.Add(1)
			}
		}()
	}
	loads.Wait()
	t.Logf("1,000 page loads, 20 at a time, in %s", time.Since(t0).Round(time.Millisecond))
	if n := failed.Load(); n > 0 {
		t.Errorf("%d of 1,000 page loads failed", n)
	}
	g1, heap1, rss1 := settle()
	t.Logf("goroutines %d -> %d, heap in use %s -> %s, RSS %s -> %s", g0, g1, humanMiB(heap0), humanMiB(heap1), humanMiB(rss0), humanMiB(rss1))
	if g1 > g0+10 {
		t.Errorf("goroutines did not return to their baseline: %d, were %d", g1, g0)
	}
	if heap1 > heap0+32<<20 {
		t.Errorf("the heap did not return to its baseline: %s, was %s", humanMiB(heap1), humanMiB(heap0))
	}
	if rss0 > 0 && rss1 > rss0+64<<20 {
		t.Errorf("the resident memory did not return near its baseline: %s, was %s", humanMiB(rss1), humanMiB(rss0))
	}
}

func humanMiB(n uint64) string { return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20)) }

// rss is the process's resident memory (Linux; 0 elsewhere).
func rss() uint64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, _ := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return kb << 10
		}
	}
	return 0
}
