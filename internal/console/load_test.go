package console_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
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
		"/files?path=/workspace/big&offset=" + strconv.Itoa(nFiles-100), "/file?path=/workspace/big/f000001.txt"} {
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
