package telemetry_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/nookdev/nook"
	"github.com/nookdev/nook/internal/childproc"
	"github.com/nookdev/nook/runtime"
	"github.com/nookdev/nook/runtime/js"
	"github.com/nookdev/nook/runtime/shell"
	"github.com/nookdev/nook/runtime/worker"
	"github.com/nookdev/nook/telemetry"
)

// TestMain lets the test binary be the process TestSpansReplayedAfterKill
// kills: with NOOK_TEL_CRASH_DB set it starts crashProgram in that
// workspace, says so once the program waits in ws:slow's hang, and waits
// to be killed.
//
// It is also the worker of the process-tier tests (worker.Main).
func TestMain(m *testing.M) {
	worker.Main(js.Builder, shell.Builder)
	if db := os.Getenv("NOOK_TEL_CRASH_DB"); db != "" {
		ws, err := openCrash(context.Background(), db, nil, func() { childproc.Ready(); select {} })
		if err != nil {
			panic(err)
		}
		if _, err := ws.Runtime().Exec(context.Background(), crashProgram,
			runtime.ExecOptions{ID: "k", Backend: "js", OnInterrupt: runtime.PolicyReplay}); err != nil {
			panic(err)
		}
		select {}
	}
	os.Exit(m.Run())
}

// crashProgram makes two calls, then waits in a third.
const crashProgram = `
import { get } from "ws:orders";
import { hang } from "ws:slow";
const a = await get("A-1");
const b = await get("B-2");
const c = await hang();
export default () => [a.total, b.total, c];`

// openCrash opens the workspace of the crash test with its modules:
// ws:orders answers at once; ws:slow's hang calls inHang and returns "ok".
func openCrash(ctx context.Context, db string, obs runtime.Observer, inHang func()) (*nook.Workspace, error) {
	mods := map[string]runtime.Module{
		"ws:orders": {"get": func(ctx context.Context, cc *runtime.CallContext, args []any) (any, error) {
			return map[string]any{"id": args[0], "total": 42.0}, nil
		}},
		"ws:slow": {"hang": func(ctx context.Context, cc *runtime.CallContext, args []any) (any, error) {
			inHang()
			return "ok", nil
		}},
	}
	return nook.Open(ctx, db, nook.WithRuntime(runtime.Options{Observer: obs}),
		nook.WithBackends(js.New(js.Options{})), nook.WithModules(mods))
}

// A run killed with its process (SIGKILL) and resumed by replay in
// another: the calls the dead process made are spans marked replayed and
// counted as replayed, the call it died in is carried out, under the
// resumed attempt's span.
func TestSpansReplayedAfterKill(t *testing.T) {
	db := filepath.Join(t.TempDir(), "w.db")
	cmd := childproc.Start(t, "NOOK_TEL_CRASH_DB="+db)
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()

	exp := tracetest.NewInMemoryExporter()
	tel := telemetry.New(telemetry.Options{TracerProvider: sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	ws, err := openCrash(ctx, db, tel, func() {})
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	h, err := ws.Runtime().GetExec(ctx, "k", runtime.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := h.Result(ctx)
	if err != nil || res.Status != runtime.StatusCompleted || string(res.Value) != `[42,42,"ok"]` {
		t.Fatalf("resumed run: %+v %v", res, err)
	}
	var run *tracetest.SpanStub
	var gets, hangs []tracetest.SpanStub
	spans := exp.GetSpans()
	for i, s := range spans {
		switch s.Name {
		case "run js":
			run = &spans[i]
		case "host module ws:orders/get":
			gets = append(gets, s)
		case "host module ws:slow/hang":
			hangs = append(hangs, s)
		}
	}
	if run == nil || attrValue(*run, "nook.run.attempt") == "0" || attrValue(*run, "nook.run.status") != "completed" {
		t.Fatalf("the resumed attempt's span: %+v", run)
	}
	if len(gets) != 2 || attrValue(gets[0], "ws.replayed") != "true" || attrValue(gets[1], "ws.replayed") != "true" {
		t.Errorf("the dead process's calls: %v", gets)
	}
	if len(hangs) != 1 || attrValue(hangs[0], "ws.replayed") != "" {
		t.Errorf("the call it died in: %v", hangs)
	}
	for _, s := range append(gets, hangs...) {
		if s.Parent.SpanID() != run.SpanContext.SpanID() {
			t.Errorf("%s is not a child of the resumed attempt", s.Name)
		}
	}
	var body strings.Builder
	tel.Metrics().WriteText(&body)
	for _, line := range []string{
		`nook_host_calls_total{kind="module",op="ws:orders/get",result="replayed"} 2`,
		`nook_host_calls_total{kind="module",op="ws:slow/hang",result="ok"} 1`,
	} {
		if !strings.Contains(body.String(), line+"\n") {
			t.Errorf("metrics lack %q:\n%s", line, body.String())
		}
	}
	if strings.Contains(body.String(), `op="ws:orders/get",result="ok"`) {
		t.Errorf("a replayed call was counted as carried out again:\n%s", body.String())
	}
}
