package telemetry_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"go.opentelemetry.io/otel/attribute"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/nookdev/nook"
	"github.com/nookdev/nook/runtime"
	"github.com/nookdev/nook/runtime/js"
	"github.com/nookdev/nook/runtime/shell"
	"github.com/nookdev/nook/runtime/worker"
	"github.com/nookdev/nook/telemetry"
	"github.com/nookdev/nook/tools"
	mcpadapter "github.com/nookdev/nook/tools/mcp"
)

// secret is a token and a query string that must appear in no span or
// metric: the test sends them as the bearer token and in the URL.
const (
	secretToken = "tok-otel-secret-7f3a"
	secretQuery = "sig=query-secret-91bc"
)

// fixture is an MCP server over loopback HTTP with telemetry on, the way
// "nook serve" wires it: the runtime, the tool set (and ws:tools, the set
// code calls) and the MCP server all report to one Telemetry.
type fixture struct {
	tel  *telemetry.Telemetry
	exp  *tracetest.InMemoryExporter
	ws   *nook.Workspace
	url  string
	sess *sdk.ClientSession
}

// newFixture makes the fixture; with off, nothing observes (no Telemetry
// anywhere), as when telemetry is not configured.
func newFixture(t testing.TB, tracing bool, off ...bool) *fixture {
	t.Helper()
	return newTierFixture(t, tracing, len(off) > 0 && off[0], nil)
}

// newTierFixture is newFixture with runs in iso's sandbox processes (the
// process tier), or in process when iso is nil.
func newTierFixture(t testing.TB, tracing, off bool, iso runtime.Isolator) *fixture {
	t.Helper()
	ctx := context.Background()
	f := &fixture{exp: tracetest.NewInMemoryExporter()}
	o := telemetry.Options{}
	if tracing {
		o.TracerProvider = sdktrace.NewTracerProvider(sdktrace.WithSyncer(f.exp))
	}
	f.tel = telemetry.New(o)
	var robs runtime.Observer = f.tel
	var tobs tools.Observer = f.tel
	if off {
		robs, tobs = nil, nil
	}
	toolsMod, bind := tools.LateModule(tools.Options{})
	orders := runtime.Module{"get": func(ctx context.Context, cc *runtime.CallContext, args []any) (any, error) {
		return map[string]any{"id": args[0], "total": 42.0}, nil
	}}
	opts := []nook.Option{
		nook.WithRuntime(runtime.Options{Observer: robs}),
		nook.WithBackends(js.New(js.Options{}), shell.New(shell.Options{})),
		nook.WithModules(map[string]runtime.Module{"ws:orders": orders, tools.ModuleName: toolsMod}),
	}
	if iso != nil {
		opts = append(opts, nook.WithIsolation(iso))
	}
	ws, err := nook.OpenMemory(ctx, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	f.ws = ws
	topts := tools.Options{Runtime: ws.Runtime(), Observer: tobs}
	bind(tools.New(ws.FS(), topts))
	server := mcpadapter.NewServer(tools.New(ws.FS(), topts), nil)
	mux := http.NewServeMux()
	mux.Handle("/mcp", mcpadapter.Handler(server, &mcpadapter.HTTPOptions{Token: secretToken}))
	mux.Handle("/metrics", f.tel.Metrics().Handler())
	var h http.Handler = mux
	if tobs != nil {
		server.AddReceivingMiddleware(f.tel.MCPMiddleware())
		h = f.tel.HTTPMiddleware(mux, func(p string) string {
			if p == "/mcp" || p == "/metrics" {
				return p
			}
			return "other"
		})
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	f.url = srv.URL
	hc := &http.Client{Transport: headerTransport{}}
	client := sdk.NewClient(&sdk.Implementation{Name: "otel-test", Version: "1"}, nil)
	f.sess, err = client.Connect(ctx, &sdk.StreamableClientTransport{Endpoint: srv.URL + "/mcp?" + secretQuery, HTTPClient: hc, MaxRetries: -1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.sess.Close() })
	return f
}

// headerTransport adds the bearer token and a traceparent of its own to
// every request: the header's trace must lose to the one in _meta.
type headerTransport struct{}

const headerParent = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"

func (headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+secretToken)
	r.Header.Set("traceparent", headerParent)
	return http.DefaultTransport.RoundTrip(r)
}

// program runs on js: a host-module call, a nested shell run, and a tool
// call through ws:tools.
const program = `
import { get } from "ws:orders";
import { call } from "ws:tools";
import { execSync } from "node:child_process";
const o = await get("A-1");
const out = execSync("echo nested").toString();
const w = await call({ tool: "write", input: { path: "/workspace/o.txt", content: "x" } });
export default () => [o.total, out.trim(), w.isError];`

// One tools/call of exec over MCP yields the span tree: the MCP request
// (a child of the traceparent in params._meta) holds the tool call, which
// holds the run, which holds its host calls; the nested shell run is a
// child of the exec host call, and code's write is a tool span under its
// host call. No span carries the token or the query string.
//
// In the process tier the run's span holds its wait for a worker and the
// round trip to it, which holds the host calls the worker made.
func TestSpanTree(t *testing.T) {
	t.Run("in-process", func(t *testing.T) { testSpanTree(t, newFixture(t, true), "in-process") })
	t.Run("process", func(t *testing.T) {
		pool, err := worker.New(worker.Options{Size: 1})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { pool.Close() })
		if err := pool.Ready(context.Background()); err != nil { // a worker idle: the run's is warm
			t.Fatal(err)
		}
		testSpanTree(t, newTierFixture(t, true, false, pool), "process")
	})
}

func testSpanTree(t *testing.T, f *fixture, tier string) {
	ctx := context.Background()
	const metaParent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
	r, err := f.sess.CallTool(ctx, &sdk.CallToolParams{Name: "exec",
		Meta:      sdk.Meta{"traceparent": metaParent},
		Arguments: map[string]any{"command": program, "backend": "js"}})
	if err != nil {
		t.Fatal(err)
	}
	if r.IsError {
		t.Fatalf("exec failed: %+v", r.Content[0])
	}
	spans := f.exp.GetSpans()
	byName := map[string]tracetest.SpanStub{}
	for _, s := range spans {
		byName[s.Name] = s
		for _, kv := range s.Attributes {
			v := kv.Value.Emit()
			if strings.Contains(v, secretToken) || strings.Contains(v, "query-secret") {
				t.Errorf("span %s attribute %s = %q holds a secret", s.Name, kv.Key, v)
			}
		}
	}
	need := func(name string) tracetest.SpanStub {
		t.Helper()
		s, ok := byName[name]
		if !ok {
			t.Fatalf("no span %q; spans: %q", name, spanNames(spans))
		}
		return s
	}
	parentOf := func(child, parent tracetest.SpanStub) {
		t.Helper()
		if child.Parent.SpanID() != parent.SpanContext.SpanID() {
			t.Errorf("span %q's parent is %s, want %q (%s)", child.Name, child.Parent.SpanID(), parent.Name, parent.SpanContext.SpanID())
		}
	}
	attr := func(s tracetest.SpanStub, key, want string) {
		t.Helper()
		for _, kv := range s.Attributes {
			if string(kv.Key) == key {
				if got := kv.Value.Emit(); got != want {
					t.Errorf("span %q: %s = %q, want %q", s.Name, key, got, want)
				}
				return
			}
		}
		t.Errorf("span %q has no attribute %s (has %v)", s.Name, key, s.Attributes)
	}

	mcpSpan := need("tools/call exec")
	if got := mcpSpan.SpanContext.TraceID().String(); got != "4bf92f3577b34da6a3ce929d0e0e4736" {
		t.Errorf("trace id %s: want the one of params._meta's traceparent", got)
	}
	if got := mcpSpan.Parent.SpanID().String(); got != "00f067aa0ba902b7" || !mcpSpan.Parent.IsRemote() {
		t.Errorf("MCP span's parent = %s (remote %v), want the remote 00f067aa0ba902b7", got, mcpSpan.Parent.IsRemote())
	}
	if mcpSpan.SpanKind != trace.SpanKindServer {
		t.Errorf("MCP span kind %v, want server", mcpSpan.SpanKind)
	}
	attr(mcpSpan, "mcp.method.name", "tools/call")
	attr(mcpSpan, "gen_ai.tool.name", "exec")
	if id := attrValue(mcpSpan, "mcp.session.id"); id == "" || id != f.sess.ID() {
		t.Errorf("mcp.session.id = %q, want the session's %q", id, f.sess.ID())
	}

	tool := need("execute_tool exec")
	parentOf(tool, mcpSpan)
	attr(tool, "gen_ai.operation.name", "execute_tool")
	attr(tool, "gen_ai.tool.name", "exec")

	run := need("run js")
	parentOf(run, tool)
	attr(run, "nook.run.backend", "js")
	attr(run, "nook.run.policy", "fail")
	attr(run, "nook.run.isolation", tier)
	attr(run, "nook.run.attempt", "0")
	attr(run, "nook.run.depth", "0")
	attr(run, "nook.run.status", "completed")
	attr(run, "nook.run.exit_code", "0")

	calls := run // the host calls' parent
	if tier == "process" {
		// The top run's stages (the nested shell run has its own).
		var wait, trip tracetest.SpanStub
		for _, s := range spans {
			if s.Parent.SpanID() == run.SpanContext.SpanID() {
				switch s.Name {
				case "worker wait":
					wait = s
				case "worker round trip":
					trip = s
				}
			}
		}
		if wait.Name == "" || trip.Name == "" {
			t.Fatalf("the run's span has no worker wait and round trip children: %v", spanNames(spans))
		}
		attr(wait, "nook.run.id", attrValue(run, "nook.run.id"))
		attr(wait, "nook.worker.cold", "false")
		attr(trip, "nook.run.id", attrValue(run, "nook.run.id"))
		if pid := attrValue(trip, "nook.worker.pid"); pid == "" || pid != attrValue(wait, "nook.worker.pid") {
			t.Errorf("worker round trip's pid %q, wait's %q: want the same worker's", pid, attrValue(wait, "nook.worker.pid"))
		}
		if !wait.EndTime.After(wait.StartTime) || trip.StartTime.Before(wait.EndTime) || trip.EndTime.After(run.EndTime) {
			t.Errorf("stages out of order: wait %v-%v, round trip %v-%v, run ends %v",
				wait.StartTime, wait.EndTime, trip.StartTime, trip.EndTime, run.EndTime)
		}
		calls = trip
	}

	get := need("host module ws:orders/get")
	parentOf(get, calls)
	attr(get, "nook.host.kind", "module")
	attr(get, "nook.host.op", "ws:orders/get")
	if attrValue(get, "ws.replayed") != "" {
		t.Errorf("a call carried out is marked replayed")
	}

	execCall := need("host exec shell")
	parentOf(execCall, calls)
	nested := need("run shell")
	parentOf(nested, execCall)
	attr(nested, "nook.run.depth", "1")
	attr(nested, "nook.run.status", "completed")

	callHost := need("host module ws:tools/call")
	parentOf(callHost, calls)
	write := need("execute_tool write")
	parentOf(write, callHost)
	attr(write, "gen_ai.tool.call.id", attrValue(run, "nook.run.id")+"/"+attrValue(callHost, "nook.host.seq"))
	for _, s := range []tracetest.SpanStub{tool, run, get, execCall, nested, callHost, write} {
		if s.SpanContext.TraceID() != mcpSpan.SpanContext.TraceID() {
			t.Errorf("span %q is in trace %s, not the request's", s.Name, s.SpanContext.TraceID())
		}
	}

	// Without _meta, the HTTP request's traceparent header is the parent.
	f.exp.Reset()
	if _, err := f.sess.CallTool(ctx, &sdk.CallToolParams{Name: "ls", Arguments: map[string]any{"path": "/"}}); err != nil {
		t.Fatal(err)
	}
	ls := byNameOf(f.exp.GetSpans(), "tools/call ls")
	if ls == nil || ls.SpanContext.TraceID().String() != "0af7651916cd43dd8448eb211c80319c" || ls.Parent.SpanID().String() != "b7ad6b7169203331" {
		t.Errorf("tools/call ls without _meta: span %+v, want the header's trace", ls)
	}
}

// spanNames are the names of spans, sorted.
func spanNames(spans tracetest.SpanStubs) []string {
	names := make([]string, len(spans))
	for i, s := range spans {
		names[i] = s.Name
	}
	slices.Sort(names)
	return names
}

func attrValue(s tracetest.SpanStub, key string) string {
	for _, kv := range s.Attributes {
		if string(kv.Key) == key {
			return kv.Value.Emit()
		}
	}
	return ""
}

func byNameOf(spans tracetest.SpanStubs, name string) *tracetest.SpanStub {
	for i := range spans {
		if spans[i].Name == name {
			return &spans[i]
		}
	}
	return nil
}

// A tool that fails is an error span with error.type tool_error; a run
// that times out carries its limit.
func TestSpanErrors(t *testing.T) {
	f := newFixture(t, true)
	ctx := context.Background()
	if _, err := f.sess.CallTool(ctx, &sdk.CallToolParams{Name: "read", Arguments: map[string]any{"path": "/missing.txt"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.sess.CallTool(ctx, &sdk.CallToolParams{Name: "exec",
		Arguments: map[string]any{"command": "while (true) {}", "backend": "js", "timeoutMs": 100}}); err != nil {
		t.Fatal(err)
	}
	spans := f.exp.GetSpans()
	read := byNameOf(spans, "execute_tool read")
	if read == nil || attrValue(*read, "error.type") != "tool_error" || read.Status.Code.String() != "Error" {
		t.Errorf("failed read: span %+v, want error.type tool_error and status Error", read)
	}
	run := byNameOf(spans, "run js")
	if run == nil || attrValue(*run, "nook.run.status") != "timed_out" || attrValue(*run, "nook.run.limit") != "Timeout" {
		t.Errorf("timed-out run: span %+v", run)
	}
	_ = attribute.Key("")
	_ = time.Second
}

// A replay-policy run that waits for approval resumes in a second
// attempt once answered: the host call the first attempt carried out is
// answered from the journal, and its span in the second attempt is
// marked ws.replayed (the metrics count it as replayed, not as ok).
func TestSpansReplayed(t *testing.T) {
	f := newFixture(t, true)
	ctx := context.Background()
	rt := f.ws.Runtime()
	h, err := rt.Exec(ctx, `
import { get } from "ws:orders";
import { call } from "ws:tools";
const o = await get("A-1");
const w = await call({ tool: "write", input: { path: "/workspace/o.txt", content: "x" }, approve: "may I?" });
export default () => [o.total, Boolean(w.isError)];`, runtime.ExecOptions{Backend: "js", OnInterrupt: runtime.PolicyReplay})
	if err != nil {
		t.Fatal(err)
	}
	var pending []runtime.PendingCall
	for deadline := time.Now().Add(10 * time.Second); len(pending) == 0 && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
		if pending, err = rt.Pending(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if len(pending) != 1 {
		t.Fatalf("pending: %v", pending)
	}
	if err := rt.Respond(ctx, pending[0].RunID, pending[0].CallID, tools.Approval{Approved: true}); err != nil {
		t.Fatal(err)
	}
	res, err := h.Result(ctx)
	if err != nil || res.Status != runtime.StatusCompleted || string(res.Value) != "[42,false]" {
		t.Fatalf("result %+v, %v", res, err)
	}
	var runs, gets, waits []tracetest.SpanStub
	for _, s := range f.exp.GetSpans() {
		switch s.Name {
		case "run js":
			runs = append(runs, s)
		case "host module ws:orders/get":
			gets = append(gets, s)
		case "approval wait":
			waits = append(waits, s)
		}
	}
	if len(waits) != 1 || attrValue(waits[0], "nook.call.id") != pending[0].CallID || !waits[0].StartTime.Equal(pending[0].Since) ||
		waits[0].EndTime.Before(waits[0].StartTime) {
		t.Errorf("approval wait spans: %v (the call waited since %v)", waits, pending[0].Since)
	}
	if len(runs) != 2 || attrValue(runs[0], "nook.run.status") != "waiting" || attrValue(runs[1], "nook.run.attempt") == "0" ||
		attrValue(runs[1], "nook.run.status") != "completed" {
		t.Fatalf("run spans: %v", runs)
	}
	if len(gets) != 2 || attrValue(gets[0], "ws.replayed") != "" || attrValue(gets[1], "ws.replayed") != "true" {
		t.Fatalf("get spans: %v", gets)
	}
	if gets[1].Parent.SpanID() != runs[1].SpanContext.SpanID() {
		t.Errorf("the replayed call is not a child of the second attempt")
	}
	var body strings.Builder
	f.tel.Metrics().WriteText(&body)
	for _, line := range []string{
		`nook_host_calls_total{kind="module",op="ws:orders/get",result="ok"} 1`,
		`nook_host_calls_total{kind="module",op="ws:orders/get",result="replayed"} 1`,
		`nook_runs_started_total{backend="js"} 2`,
		`nook_runs_finished_total{backend="js",status="completed"} 1`,
		`nook_approval_wait_seconds_count 1`,
	} {
		if !strings.Contains(body.String(), line+"\n") {
			t.Errorf("metrics lack %q:\n%s", line, body.String())
		}
	}
	// The journal writes were timed: the calls the run recorded (the get
	// and the write, once each) and its output and progress.
	for kind, least := range map[string]int{"call": 2, "events": 1} {
		m := regexp.MustCompile(`nook_journal_write_seconds_count\{kind="` + kind + `"\} (\d+)\n`).FindStringSubmatch(body.String())
		n := 0
		if m != nil {
			n, _ = strconv.Atoi(m[1])
		}
		if n < least {
			t.Errorf("journal writes of kind %s: %d, want at least %d:\n%s", kind, n, least, body.String())
		}
	}
	if strings.Contains(body.String(), "nook_journal_write_errors_total{") {
		t.Errorf("journal write errors counted:\n%s", body.String())
	}
}
