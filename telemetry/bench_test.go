package telemetry_test

import (
	"context"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/nookdev/nook/runtime/worker"
)

// BenchmarkToolCall is one MCP tools/call of read over loopback HTTP with
// telemetry off (no observer), metrics only, and metrics and tracing on;
// "ratio" reports on/off, measured in the same run, interleaved so that
// the machine's load weighs on both alike. Not asserted: report it.
func BenchmarkToolCall(b *testing.B) {
	for _, mode := range []string{"off", "metrics", "tracing"} {
		b.Run(mode, func(b *testing.B) {
			f := newBenchFixture(b, mode)
			b.ResetTimer()
			for range b.N {
				f.read(b)
			}
		})
	}
	b.Run("ratio", func(b *testing.B) {
		off, on := newBenchFixture(b, "off"), newBenchFixture(b, "tracing")
		var tOff, tOn time.Duration
		b.ResetTimer()
		for range b.N {
			t0 := time.Now()
			off.read(b)
			t1 := time.Now()
			on.read(b)
			tOff += t1.Sub(t0)
			tOn += time.Since(t1)
		}
		b.ReportMetric(float64(tOn)/float64(tOff), "on/off")
	})
}

// BenchmarkExec is one MCP tools/call of exec (a trivial js program), off
// and with tracing on, reported as a ratio, in each isolation tier.
func BenchmarkExec(b *testing.B) {
	b.Run("in-process", func(b *testing.B) {
		benchExec(b, newBenchFixture(b, "off"), newBenchFixture(b, "tracing"))
	})
	b.Run("process", func(b *testing.B) {
		pools := make([]*worker.Pool, 2)
		for i := range pools {
			p, err := worker.New(worker.Options{Size: 1})
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { p.Close() })
			pools[i] = p
		}
		off, on := newTierFixture(b, false, true, pools[0]), newTierFixture(b, true, false, pools[1])
		for _, f := range []*fixture{off, on} {
			if err := f.ws.FS().WriteFile(context.Background(), "/a.txt", []byte("hello\n"), nil); err != nil {
				b.Fatal(err)
			}
		}
		benchExec(b, off, on)
	})
}

func benchExec(b *testing.B, off, on *fixture) {
	var tOff, tOn time.Duration
	b.ResetTimer()
	for range b.N {
		t0 := time.Now()
		off.exec(b)
		t1 := time.Now()
		on.exec(b)
		tOff += t1.Sub(t0)
		tOn += time.Since(t1)
	}
	b.ReportMetric(float64(tOff.Nanoseconds())/float64(b.N), "off-ns/op")
	b.ReportMetric(float64(tOn.Nanoseconds())/float64(b.N), "on-ns/op")
	b.ReportMetric(float64(tOn)/float64(tOff), "on/off")
}

func newBenchFixture(b *testing.B, mode string) *fixture {
	f := newFixture(b, mode == "tracing", mode == "off")
	if err := f.ws.FS().WriteFile(context.Background(), "/a.txt", []byte("hello\n"), nil); err != nil {
		b.Fatal(err)
	}
	return f
}

func (f *fixture) read(b *testing.B) {
	r, err := f.sess.CallTool(context.Background(), &sdk.CallToolParams{Name: "read", Arguments: map[string]any{"path": "/a.txt"}})
	if err != nil || r.IsError {
		b.Fatalf("read: %v %+v", err, r)
	}
	f.exp.Reset()
}

func (f *fixture) exec(b *testing.B) {
	r, err := f.sess.CallTool(context.Background(), &sdk.CallToolParams{Name: "exec", Arguments: map[string]any{"command": "export default () => 1", "backend": "js"}})
	if err != nil || r.IsError {
		b.Fatalf("exec: %v %+v", err, r)
	}
	f.exp.Reset()
}
