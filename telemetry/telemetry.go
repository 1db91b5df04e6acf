// Package telemetry is what an operator watches nook by: OpenTelemetry
// traces and Prometheus metrics of MCP requests, tool calls, runs and their
// host calls.
//
// A *Telemetry implements runtime.Observer and tools.Observer, the small
// interfaces through which the core packages report their work (they do not
// import OpenTelemetry); give it to both, and add its MCP middleware to an
// MCP server:
//
//	tel := telemetry.New(telemetry.Options{TracerProvider: tp})
//	rt, _ := runtime.New(ctx, fsys, store, runtime.Options{Observer: tel, ...})
//	set := tools.New(fsys, tools.Options{Runtime: rt, Observer: tel})
//	server := mcpadapter.NewServer(set, nil)
//	server.AddReceivingMiddleware(tel.MCPMiddleware())
//	http.Handle("/metrics", tel.Metrics().Handler())
//
// The spans nest as the work does: an MCP request ("tools/call exec", kind
// server, its parent taken from the W3C traceparent in the request's
// params._meta or, failing that, its HTTP headers) holds the tool call
// ("execute_tool exec"), which holds the run ("run js"), which holds its
// host calls ("host module ws:tools/call", "host fs readFile", "host exec
// shell"); a nested run is a child of the host call that started it. In
// the process tier the run's span also holds "worker wait" (until a
// sandbox process is handed out; nook.worker.cold when one was started for
// it) and "worker round trip" (the program sent to its exit received),
// which holds the host calls the worker made.
// Attributes follow OpenTelemetry's MCP and GenAI semantic conventions where
// they exist (mcp.method.name, mcp.session.id, gen_ai.operation.name,
// gen_ai.tool.name, gen_ai.tool.call.id, error.type) and are nook's own
// otherwise (nook.run.*, nook.host.*); a host call answered from the
// journal of an earlier attempt is marked ws.replayed=true rather than
// reported as carried out again.
//
// No attribute or label holds a tool's input or result, a program's source
// or output, a URL's query, a header or a token: only names, ids, statuses,
// codes and counts.
package telemetry

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"
	"go.opentelemetry.io/otel/trace/noop"

	"github.com/nookdev/nook/runtime"
	"github.com/nookdev/nook/tools"
)

// ScopeName is the instrumentation scope of nook's spans.
const ScopeName = "github.com/nookdev/nook"

// Options configure New.
type Options struct {
	// TracerProvider makes the spans; nil: no spans (a no-op tracer).
	TracerProvider trace.TracerProvider
	// Propagator reads trace context from MCP requests (default W3C
	// traceparent and tracestate).
	Propagator propagation.TextMapPropagator
	// Registry receives the metrics (default a new one; see Metrics).
	Registry *Registry
}

// Telemetry traces and counts nook's work. It is safe for concurrent use.
type Telemetry struct {
	tracer  trace.Tracer
	tracing bool
	prop    propagation.TextMapPropagator
	reg     *Registry
	m       meters
	start   func() time.Time
}

// meters are the metrics Telemetry keeps itself.
type meters struct {
	runsStarted, runsFinished, limitTrips *Counter
	runDuration                           *Histogram
	toolCalls                             *Counter
	toolDuration                          *Histogram
	hostCalls                             *Counter
	mcpRequests                           *Counter
	httpRequests                          *Counter
	journalWrites                         *Histogram
	journalErrors                         *Counter
	approvalWaits                         *Histogram
}

// New returns a Telemetry.
func New(o Options) *Telemetry {
	t := &Telemetry{prop: o.Propagator, reg: o.Registry, start: time.Now}
	if o.TracerProvider != nil {
		t.tracer, t.tracing = o.TracerProvider.Tracer(ScopeName), true
	} else {
		t.tracer = noop.NewTracerProvider().Tracer(ScopeName)
	}
	if t.prop == nil {
		t.prop = propagation.TraceContext{}
	}
	if t.reg == nil {
		t.reg = NewRegistry()
	}
	r := t.reg
	t.m = meters{
		runsStarted:  r.NewCounter("nook_runs_started_total", "Run attempts started, by backend (a resumed attempt counts again).", "backend"),
		runsFinished: r.NewCounter("nook_runs_finished_total", "Runs ended, by backend and status (completed, failed, cancelled, timed_out).", "backend", "status"),
		limitTrips:   r.NewCounter("nook_run_limit_trips_total", "Runs stopped by a limit, by backend and the limit's name (Timeout, MaxOutputBytes, ...).", "backend", "limit"),
		runDuration:  r.NewHistogram("nook_run_duration_seconds", "Duration of run attempts, by backend and status.", DefaultDurationBuckets, "backend", "status"),
		toolCalls:    r.NewCounter("nook_tool_calls_total", "Tool calls, by tool and result (ok, error: the tool failed, cancelled: the caller went away).", "tool", "result"),
		toolDuration: r.NewHistogram("nook_tool_call_duration_seconds", "Duration of tool calls, by tool.", DefaultDurationBuckets, "tool"),
		hostCalls:    r.NewCounter("nook_host_calls_total", "Host calls of runs, by kind (fs, module, fetch, exec), operation and result (ok, error, replayed: answered from the journal).", "kind", "op", "result"),
		mcpRequests:  r.NewCounter("nook_mcp_requests_total", "MCP requests, by method and result (ok, error).", "method", "result"),
		httpRequests: r.NewCounter("nook_http_requests_total", "HTTP requests of nook serve, by route and status code.", "route", "code"),
		journalWrites: r.NewHistogram("nook_journal_write_seconds", "Durable journal writes of runs, by kind (call: a host call a replay-policy run records; events: a batch of output and progress).",
			journalBuckets, "kind"),
		journalErrors: r.NewCounter("nook_journal_write_errors_total", "Journal writes that failed, by kind.", "kind"),
		approvalWaits: r.NewHistogram("nook_approval_wait_seconds", "How long answered calls waited for their answer (approvals).", approvalBuckets),
	}
	return t
}

// journalBuckets are the bounds of journal write times: a write is one
// SQLite transaction, tens of microseconds to a few milliseconds.
var journalBuckets = []float64{.0001, .00025, .0005, .001, .0025, .005, .01, .025, .05, .1, .25, 1}

var (
	_ runtime.JournalObserver = (*Telemetry)(nil)
	_ runtime.WaitObserver    = (*Telemetry)(nil)
	_ runtime.StageObserver   = (*Telemetry)(nil)
)

// approvalBuckets are the bounds of approval waits: a person answers in
// seconds, hours or days.
var approvalBuckets = []float64{1, 10, 60, 300, 900, 3600, 4 * 3600, 24 * 3600, 7 * 24 * 3600}

// CallAnswered implements runtime.WaitObserver: the wait is counted and,
// with tracing, is an "approval wait" span from when the call began to
// wait to its answer, in the trace of whoever answered.
func (t *Telemetry) CallAnswered(ctx context.Context, c runtime.PendingCall, answered time.Time) {
	t.m.approvalWaits.Observe(max(0, answered.Sub(c.Since)).Seconds())
	if !t.tracing {
		return
	}
	_, span := t.tracer.Start(ctx, "approval wait", trace.WithSpanKind(trace.SpanKindInternal), trace.WithTimestamp(c.Since),
		trace.WithAttributes(attribute.String("nook.run.id", c.RunID), attribute.String("nook.call.id", c.CallID)))
	span.End(trace.WithTimestamp(answered))
}

// JournalWrite implements runtime.JournalObserver.
func (t *Telemetry) JournalWrite(kind string, d time.Duration, err error) {
	t.m.journalWrites.Observe(d.Seconds(), kind)
	if err != nil {
		t.m.journalErrors.Inc(kind)
	}
}

// Metrics is the registry of t's metrics; add gauges of your own to it.
func (t *Telemetry) Metrics() *Registry { return t.reg }

// Tracing reports whether t makes spans (it has a TracerProvider).
func (t *Telemetry) Tracing() bool { return t.tracing }

// ToolCall implements tools.Observer.
func (t *Telemetry) ToolCall(ctx context.Context, c tools.ToolCall) (context.Context, func(*tools.Result, error)) {
	began := t.start()
	var span trace.Span
	if t.tracing {
		attrs := []attribute.KeyValue{
			attribute.String("gen_ai.operation.name", "execute_tool"),
			attribute.String("gen_ai.tool.name", c.Tool),
			attribute.String("gen_ai.tool.type", "function"),
		}
		if c.CallID != "" {
			attrs = append(attrs, attribute.String("gen_ai.tool.call.id", c.CallID))
		}
		ctx, span = t.tracer.Start(ctx, "execute_tool "+c.Tool, trace.WithSpanKind(trace.SpanKindInternal), trace.WithAttributes(attrs...))
	}
	return ctx, func(res *tools.Result, err error) {
		result := "ok"
		switch {
		case err != nil:
			result = "cancelled"
			if !errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded) {
				result = "error"
			}
		case res != nil && res.IsError:
			result = "error"
		}
		t.m.toolCalls.Inc(c.Tool, result)
		t.m.toolDuration.Observe(time.Since(began).Seconds(), c.Tool)
		if span != nil {
			switch {
			case err != nil:
				span.SetAttributes(attribute.String("error.type", errorType(err)))
				span.SetStatus(codes.Error, result)
			case res != nil && res.IsError:
				span.SetAttributes(attribute.String("error.type", "tool_error"))
				span.SetStatus(codes.Error, "the tool failed")
			}
			span.End()
		}
	}
}

// errorType is the error.type of err: a context's end by name, else
// "_OTHER" (an error's text may hold paths or arguments).
func errorType(err error) string {
	switch {
	case errors.Is(err, context.Canceled):
		return "cancelled"
	case errors.Is(err, context.DeadlineExceeded):
		return "timeout"
	}
	return "_OTHER"
}

// RunStarted implements runtime.Observer.
func (t *Telemetry) RunStarted(parent context.Context, r runtime.RunStart) (context.Context, func(runtime.RunEnd)) {
	began := t.start()
	t.m.runsStarted.Inc(r.Backend)
	ctx := context.Background()
	var span trace.Span
	if t.tracing {
		ctx, span = t.tracer.Start(trace.ContextWithSpanContext(ctx, trace.SpanContextFromContext(parent)), "run "+r.Backend,
			trace.WithSpanKind(trace.SpanKindInternal), trace.WithAttributes(
				attribute.String("nook.run.id", r.ID),
				attribute.String("nook.run.backend", r.Backend),
				attribute.String("nook.run.policy", string(r.Policy)),
				attribute.String("nook.run.isolation", isolation(r.Isolated)),
				attribute.Int("nook.run.attempt", r.Attempt),
				attribute.Int("nook.run.depth", r.Depth),
			))
	}
	return ctx, func(e runtime.RunEnd) {
		status := string(e.Status)
		switch {
		case e.Waiting:
			status = "waiting"
		case e.Interrupted:
			status = "interrupted"
		default:
			t.m.runsFinished.Inc(r.Backend, status)
		}
		if e.Limit != "" {
			t.m.limitTrips.Inc(r.Backend, e.Limit)
		}
		t.m.runDuration.Observe(time.Since(began).Seconds(), r.Backend, status)
		if span != nil {
			span.SetAttributes(attribute.String("nook.run.status", status), attribute.Int("nook.run.exit_code", e.ExitCode))
			if e.Limit != "" {
				span.SetAttributes(attribute.String("nook.run.limit", e.Limit))
			}
			if e.Status != runtime.StatusCompleted && !e.Waiting {
				span.SetAttributes(attribute.String("error.type", status))
				span.SetStatus(codes.Error, status)
			}
			span.End()
		}
	}
}

func isolation(isolated bool) string {
	if isolated {
		return "process"
	}
	return "in-process"
}

// HostCall implements runtime.Observer.
func (t *Telemetry) HostCall(ctx context.Context, c runtime.HostCallStart) (context.Context, func(error)) {
	var span trace.Span
	if t.tracing {
		attrs := []attribute.KeyValue{
			attribute.String("nook.host.kind", c.Kind),
			attribute.String("nook.host.op", c.Op),
			attribute.String("nook.run.id", c.RunID),
		}
		if c.Seq > 0 {
			attrs = append(attrs, attribute.Int64("nook.host.seq", c.Seq))
		}
		if c.Replayed {
			attrs = append(attrs, attribute.Bool("ws.replayed", true))
		}
		ctx, span = t.tracer.Start(ctx, "host "+c.Kind+" "+c.Op, trace.WithSpanKind(trace.SpanKindInternal), trace.WithAttributes(attrs...))
	}
	return ctx, func(err error) {
		result := "ok"
		switch {
		case c.Replayed:
			result = "replayed"
		case err != nil:
			result = "error"
		}
		t.m.hostCalls.Inc(c.Kind, c.Op, result)
		if span != nil {
			if err != nil {
				span.SetAttributes(attribute.String("error.type", callErrorType(err)))
				span.SetStatus(codes.Error, "the host call failed")
			}
			span.End()
		}
	}
}

// endNoStage ends a stage that makes no span (tracing off).
func endNoStage(error, ...runtime.StageAttr) {}

// Stage implements runtime.StageObserver: a span per stage of a run's work
// that is not a host call ("worker wait", "worker round trip"), a child of
// the run's span; the worker's host calls are children of its round trip.
func (t *Telemetry) Stage(ctx context.Context, runID, name string) (context.Context, func(error, ...runtime.StageAttr)) {
	if !t.tracing {
		return ctx, endNoStage
	}
	ctx, span := t.tracer.Start(ctx, name, trace.WithSpanKind(trace.SpanKindInternal),
		trace.WithAttributes(attribute.String("nook.run.id", runID)))
	return ctx, func(err error, attrs ...runtime.StageAttr) {
		for _, a := range attrs {
			switch v := a.Value.(type) {
			case string:
				span.SetAttributes(attribute.String(a.Key, v))
			case int:
				span.SetAttributes(attribute.Int(a.Key, v))
			case int64:
				span.SetAttributes(attribute.Int64(a.Key, v))
			case bool:
				span.SetAttributes(attribute.Bool(a.Key, v))
			}
		}
		if err != nil {
			span.SetAttributes(attribute.String("error.type", callErrorType(err)))
			span.SetStatus(codes.Error, name+" failed")
		}
		span.End()
	}
}

// callErrorType is the code of a host call's error (ENOENT,
// ERR_HOST_MODULE, the limit's name), never its message.
func callErrorType(err error) string {
	var ce *runtime.CallError
	var le *runtime.LimitError
	switch {
	case errors.As(err, &ce) && ce.Code != "":
		return ce.Code
	case errors.As(err, &le):
		return le.Limit
	}
	return errorType(err)
}

// MCPMiddleware returns middleware for an MCP server
// (Server.AddReceivingMiddleware) that makes a span of each request,
// "{method} {tool}" for tools/call, in the trace its params._meta (else
// its HTTP headers) carry, and counts requests by method.
func (t *Telemetry) MCPMiddleware() sdk.Middleware {
	return func(next sdk.MethodHandler) sdk.MethodHandler {
		return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
			var span trace.Span
			if t.tracing {
				ctx = t.extract(ctx, req)
				name := method
				attrs := []attribute.KeyValue{attribute.String("mcp.method.name", method)}
				if p, ok := req.GetParams().(*sdk.CallToolParamsRaw); ok && p != nil {
					name += " " + p.Name
					attrs = append(attrs, attribute.String("gen_ai.tool.name", p.Name))
				}
				if s, ok := req.GetSession().(*sdk.ServerSession); ok && s != nil && s.ID() != "" {
					attrs = append(attrs, attribute.String("mcp.session.id", s.ID()))
				}
				ctx, span = t.tracer.Start(ctx, name, trace.WithSpanKind(trace.SpanKindServer), trace.WithAttributes(attrs...))
			}
			res, err := next(ctx, method, req)
			result := "ok"
			if err != nil {
				result = "error"
			} else if ctr, ok := res.(*sdk.CallToolResult); ok && ctr != nil && ctr.IsError {
				result = "error"
			}
			t.m.mcpRequests.Inc(method, result)
			if span != nil {
				if result == "error" {
					et := "tool_error"
					if err != nil {
						et = errorType(err)
					}
					span.SetAttributes(attribute.String("error.type", et))
					span.SetStatus(codes.Error, result)
				}
				span.End()
			}
			return res, err
		}
	}
}

// extract returns ctx with the remote span context of req: from its
// params._meta (traceparent, tracestate), else from its HTTP headers.
func (t *Telemetry) extract(ctx context.Context, req sdk.Request) context.Context {
	if p := req.GetParams(); p != nil {
		if meta := p.GetMeta(); len(meta) > 0 {
			c := metaCarrier(meta)
			if c.Get("traceparent") != "" {
				return t.prop.Extract(ctx, c)
			}
		}
	}
	if ex := req.GetExtra(); ex != nil && ex.Header != nil {
		return t.prop.Extract(ctx, propagation.HeaderCarrier(ex.Header))
	}
	return ctx
}

// metaCarrier reads trace context from an MCP _meta object.
type metaCarrier map[string]any

func (m metaCarrier) Get(key string) string {
	s, _ := m[key].(string)
	return s
}

func (m metaCarrier) Set(key, value string) { m[key] = value }

func (m metaCarrier) Keys() []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	return keys
}

// HTTPMiddleware counts the requests h serves by route and status code.
// route names a request's route from its path alone (never its query): a
// fixed set of names, such as "/mcp" or "other", so that the metric's
// series stay few whatever clients send.
func (t *Telemetry) HTTPMiddleware(h http.Handler, route func(path string) string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sw := &statusWriter{ResponseWriter: w, code: http.StatusOK}
		h.ServeHTTP(sw, r)
		t.m.httpRequests.Inc(route(r.URL.Path), strconv.Itoa(sw.code))
	})
}

// statusWriter remembers a response's status code.
type statusWriter struct {
	http.ResponseWriter
	code  int
	wrote bool
}

func (w *statusWriter) WriteHeader(code int) {
	if !w.wrote {
		w.code, w.wrote = code, true
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(p []byte) (int, error) {
	w.wrote = true
	return w.ResponseWriter.Write(p)
}

// Flush makes the writer an http.Flusher, which event streams need.
func (w *statusWriter) Flush() { http.NewResponseController(w.ResponseWriter).Flush() }

// Unwrap lets http.ResponseController reach the underlying writer.
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
