package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"strings"
	"sync"
	"time"

	"go.opentelemetry.io/otel/propagation"

	"github.com/nookdev/nook/telemetry"
	"github.com/nookdev/nook/tools"
)

// Health and readiness: what "nook serve" answers at /healthz and /readyz
// (unauthenticated, cheap) and "nook status" prints for a workspace.

// readyTimeout bounds one readiness check.
const readyTimeout = 2 * time.Second

// readyCache is how long /readyz answers from its last check: a probe
// storm takes the workspace's writer lock once a second at most.
const readyCache = time.Second

// check is one readiness check's outcome.
type check struct {
	Name   string `json:"name"`
	OK     bool   `json:"ok"`
	Detail string `json:"detail"`
}

// readiness checks that the workspace can take a write, that the runtime
// holds its lease on the workspace's runs and, in the process tier, that
// the worker pool can give a run a worker.
func (a *app) readiness(ctx context.Context) []check {
	ctx, cancel := context.WithTimeout(ctx, readyTimeout)
	defer cancel()
	db := check{Name: "database", OK: true, Detail: "writable"}
	if err := a.ws.FS().Ping(ctx); err != nil {
		db = check{Name: "database", Detail: err.Error()}
	}
	renewed, held := a.ws.Runtime().Lease()
	ago := time.Since(renewed).Round(time.Millisecond)
	lease := check{Name: "lease", OK: true, Detail: fmt.Sprintf("renewed %s ago", ago)}
	if !held {
		lease = check{Name: "lease", Detail: fmt.Sprintf("not renewed for %s: this process's runs are stopped and may be reaped by another", ago)}
	}
	return []check{db, lease, a.workersCheck(ctx)}
}

// workersCheck checks, in the process tier, that the worker pool can give
// a run a worker.
func (a *app) workersCheck(ctx context.Context) check {
	workers := check{Name: "workers", OK: true, Detail: "none: runs are in process"}
	if a.isolator() != nil {
		p, err := a.pool.start()
		if err == nil {
			err = p.Ready(ctx)
		}
		if err != nil {
			workers = check{Name: "workers", Detail: err.Error()}
		} else {
			workers.Detail = fmt.Sprintf("a worker can be had (%d idle, %d busy)", len(p.Idle()), len(p.Busy()))
		}
	}
	return workers
}

func ready(checks []check) bool {
	for _, c := range checks {
		if !c.OK {
			return false
		}
	}
	return true
}

func checkLines(checks []check) string {
	var b strings.Builder
	for _, c := range checks {
		word := "ok"
		if !c.OK {
			word = "fail"
		}
		fmt.Fprintf(&b, "%s %s: %s\n", word, c.Name, c.Detail)
	}
	return b.String()
}

// healthHandlers returns /healthz (the process serves) and /readyz (the
// checks of readiness; 503 when one fails).
func healthHandlers(readiness func(context.Context) []check) (healthz, readyz http.Handler) {
	healthz = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !getOrHead(w, r) {
			return
		}
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		fmt.Fprint(w, "ok\n")
	})
	var mu sync.Mutex
	var last []check
	var at time.Time
	readyz = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !getOrHead(w, r) {
			return
		}
		mu.Lock()
		if last == nil || time.Since(at) >= readyCache {
			last, at = readiness(r.Context()), time.Now()
		}
		checks := last
		mu.Unlock()
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		if !ready(checks) {
			w.WriteHeader(http.StatusServiceUnavailable)
		}
		fmt.Fprint(w, checkLines(checks))
	})
	return healthz, readyz
}

func getOrHead(w http.ResponseWriter, r *http.Request) bool {
	if r.Method == http.MethodGet || r.Method == http.MethodHead {
		return true
	}
	w.Header().Set("Allow", "GET, HEAD")
	http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
	return false
}

var cmdStatus = &command{
	name: "status", reads: true, group: "Workspace", synopsis: "",
	summary: "check that the workspace is ready, as nook serve's /readyz does",
	help: `Runs the readiness checks of "nook serve" (/readyz) on the workspace: the
database can take a write, the runtime holds its lease on the workspace's
runs, and in the process tier a worker can be had. It
prints one line per check, then the database's and its write-ahead log's
sizes on disk, and exits 1 when a check fails.`,
	run: runStatus,
}

func runStatus(a *app, fl *flag.FlagSet, args []string) error {
	if _, err := a.parseOpen(fl, args, 0, 0); err != nil {
		return err
	}
	checks := a.readiness(a.ctx)
	size := func(p string) int64 {
		st, err := os.Stat(p)
		if err != nil {
			return 0
		}
		return st.Size()
	}
	out := struct {
		Database string  `json:"database"`
		Ready    bool    `json:"ready"`
		Checks   []check `json:"checks"`
		DBBytes  int64   `json:"dbBytes"`
		WALBytes int64   `json:"walBytes"`
	}{a.ws.Path(), ready(checks), checks, size(a.ws.Path()), size(a.ws.Path() + "-wal")}
	err := a.emit(out, func() error {
		a.printf("%s", checkLines(checks))
		a.printf("database: %s, %s on disk, write-ahead log %s\n", a.ws.Path(), humanBytes(out.DBBytes), humanBytes(out.WALBytes))
		return nil
	})
	if err == nil && !out.Ready {
		return &exitStatus{code: 1}
	}
	return err
}

// Logging of the servers: --log-format and --log-level.

// logFlags adds --log-format and --log-level to a server command's flags.
func logFlags(fl *flag.FlagSet, level string) (format, lvl *string) {
	format = fl.String("log-format", "text", "log lines as `text` or json (on stderr)")
	lvl = fl.String("log-level", level, "the least `LEVEL` logged: debug, info, warn or error")
	return format, lvl
}

// newLogger returns the logger the flags ask for.
func (a *app) newLogger(format, level string) (*slog.Logger, error) {
	var l slog.Level
	if err := l.UnmarshalText([]byte(level)); err != nil {
		return nil, a.usagef("%s: --log-level %q: want debug, info, warn or error", a.cmd.name, level)
	}
	o := &slog.HandlerOptions{Level: l}
	var h slog.Handler
	switch format {
	case "text":
		h = slog.NewTextHandler(a.stderr, o)
	case "json":
		h = slog.NewJSONHandler(a.stderr, o)
	default:
		return nil, a.usagef("%s: --log-format %q: want text or json", a.cmd.name, format)
	}
	// A line logged in a span's context names its trace; and what the
	// workspace's runtime logs (slog's default: a run's end that could not
	// be recorded, a failed lease renewal) takes the server's format.
	log := slog.New(telemetry.LogHandler(h))
	slog.SetDefault(log)
	return log, nil
}

// withRequestLog logs one line per request at info: method, path, status,
// bytes written, duration, the client's address and the trace the request
// names (trace_id, span_id of its traceparent header). It logs no bodies
// (file contents, tool arguments), no query strings and no headers (the
// bearer token), and a published link's path without its signed token.
func withRequestLog(h http.Handler, log *slog.Logger) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !log.Enabled(r.Context(), slog.LevelInfo) {
			h.ServeHTTP(w, r)
			return
		}
		start := time.Now()
		lw := &loggedWriter{ResponseWriter: w, status: http.StatusOK}
		h.ServeHTTP(lw, r)
		p := r.URL.Path
		if strings.HasPrefix(p, tools.LinkPrefix) {
			p = tools.LinkPrefix + "…"
		}
		attrs := []any{"method", r.Method, "path", p, "status", lw.status, "bytes", lw.bytes,
			"duration", time.Since(start).Round(time.Microsecond), "remote", r.RemoteAddr}
		if id := r.Header.Get("Mcp-Session-Id"); id != "" {
			attrs = append(attrs, "mcp.session.id", id)
		}
		// The caller's trace, when its request names one (W3C
		// traceparent): the line carries its trace_id (LogHandler), as
		// the request's spans do.
		log.InfoContext(propagation.TraceContext{}.Extract(r.Context(), propagation.HeaderCarrier(r.Header)), "request", attrs...)
	})
}

// loggedWriter counts what a handler writes; Unwrap keeps
// http.ResponseController (deadlines, flushes of event streams) working.
type loggedWriter struct {
	http.ResponseWriter
	status int
	bytes  int64
	wrote  bool
}

func (w *loggedWriter) WriteHeader(code int) {
	if !w.wrote {
		w.status, w.wrote = code, true
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *loggedWriter) Write(p []byte) (int, error) {
	w.wrote = true
	n, err := w.ResponseWriter.Write(p)
	w.bytes += int64(n)
	return n, err
}

func (w *loggedWriter) Flush() { http.NewResponseController(w.ResponseWriter).Flush() }

func (w *loggedWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
