package vfs

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"
)

// BenchmarkIndex measures the trigram index in one run (use -benchtime=1x):
// a part of GOROOT/src (NOOK_INDEX_CORPUS: directories of it, separated by
// commas) imported into a workspace with the index on and into one with it
// off (a directory at a time, alternating; Import returns once the
// indexer has caught up), then greps with the index and by scanning the
// same workspace, and 4 KiB writes with the index on and off. It reports ratios, which hold up
// on a loaded machine better than times.
func BenchmarkIndex(b *testing.B) {
	src := filepath.Join(runtime.GOROOT(), "src")
	dirs := strings.Split(cmp.Or(os.Getenv("NOOK_INDEX_CORPUS"), "crypto,runtime,net,go"), ",")
	ctx := context.Background()
	// Each directory goes into the workspace without the index, then into
	// the one with it, so that a change in the machine's load falls on
	// both.
	imp := func(off, on *FS) (tOff, tOn time.Duration, bytes int64) {
		for _, d := range dirs {
			for _, f := range []*FS{off, on} {
				start := time.Now()
				st, err := f.Import(ctx, "/src/"+d, os.DirFS(filepath.Join(src, d)), nil)
				if err != nil {
					b.Fatal(err)
				}
				if f == on {
					tOn += time.Since(start)
				} else {
					tOff += time.Since(start)
					bytes += st.Bytes
				}
			}
		}
		return tOff, tOn, bytes
	}
	dbSize := func(f *FS) int64 {
		var n int64
		for _, suffix := range []string{"", "-wal"} {
			if fi, err := os.Stat(f.db.Path() + suffix); err == nil {
				n += fi.Size()
			}
		}
		return n
	}
	for range b.N {
		off, on := openTest(b), openTest(b)
		noErr(b, off.SetIndex(ctx, false))
		tOff, tOn, bytes := imp(off, on)
		st, err := on.IndexStatus(ctx)
		noErr(b, err)
		b.ReportMetric(float64(bytes)/1e6/tOn.Seconds(), "import-on-MB/s")
		b.ReportMetric(float64(bytes)/1e6/tOff.Seconds(), "import-off-MB/s")
		b.ReportMetric(tOff.Seconds()/tOn.Seconds(), "import-on/off")
		b.ReportMetric(float64(bytes)/1e6, "corpus-MB")
		b.ReportMetric(float64(st.Bytes)/1e6, "postings-MB")
		b.ReportMetric(float64(st.Rows), "posting-rows")
		b.ReportMetric(float64(dbSize(on))/1e6, "db-on-MB")
		b.ReportMetric(float64(dbSize(off))/1e6, "db-off-MB")
		b.Logf("index after import: %+v", st)

		for _, q := range []struct {
			name, pattern string
			o             GrepOptions
		}{
			{"rare", "CertificateInvalidError", GrepOptions{}},
			{"regex", `func \w+\(ctx context\.Context`, GrepOptions{Regex: true}},
			{"fold", "certificateinvaliderror", GrepOptions{IgnoreCase: true}},
			{"common", "return err", GrepOptions{Mode: GrepCount}},
			{"notrigram", `\d{2}`, GrepOptions{Regex: true, Mode: GrepFiles}},
		} {
			// Best of five each, alternating, so that a change in the
			// machine's load falls on both.
			var ti, ts time.Duration = 1 << 62, 1 << 62
			var ri, rs *GrepResult
			for range 5 {
				for _, scan := range []bool{false, true} {
					on.grepScan = scan
					start := time.Now()
					r, err := on.Grep(ctx, q.pattern, "/", &q.o)
					d := time.Since(start)
					noErr(b, err)
					if scan {
						ts, rs = min(ts, d), r
					} else {
						ti, ri = min(ti, d), r
					}
				}
			}
			on.grepScan = false
			ri.Skipped, rs.Skipped = nil, nil
			if !reflect.DeepEqual(ri, rs) {
				b.Errorf("%s: results differ with the index", q.name)
			}
			b.ReportMetric(ti.Seconds()*1e3, q.name+"-index-ms")
			b.ReportMetric(ts.Seconds()*1e3, q.name+"-scan-ms")
			b.ReportMetric(ti.Seconds()/ts.Seconds(), q.name+"-index/scan")
		}

		// Small writes: 4 KiB files, one goroutine, in rounds of 250
		// alternating between the workspaces.
		data := []byte(strings.Repeat("some source text, 4 KiB of it\n", 4<<10/30))
		var dOff, dOn time.Duration
		const rounds, n = 4, 250
		for r := range rounds {
			for _, f := range []*FS{off, on} {
				start := time.Now()
				for i := r * n; i < (r+1)*n; i++ {
					copy(data, fmt.Sprintf("%08d", i))
					noErr(b, f.WriteFile(ctx, fmt.Sprintf("/w/%d.txt", i), data, &WriteOptions{MkdirAll: true}))
				}
				if f == on {
					dOn += time.Since(start)
				} else {
					dOff += time.Since(start)
				}
			}
		}
		wOff, wOn := rounds*n/dOff.Seconds(), rounds*n/dOn.Seconds()
		b.ReportMetric(wOn, "writes-on/s")
		b.ReportMetric(wOff, "writes-off/s")
		b.ReportMetric(wOn/wOff, "writes-on/off")
	}
}
