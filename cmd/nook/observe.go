package main

import (
	"context"
	"os"
	"strings"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/nookdev/nook/fleet"
	"github.com/nookdev/nook/runtime"
	"github.com/nookdev/nook/runtime/worker"
	"github.com/nookdev/nook/telemetry"
	"github.com/nookdev/nook/tools"
	"github.com/nookdev/nook/vfs"
)

// Tracing and metrics of "nook serve": see README's "Operating nook".

// gaugeTimeout bounds what one scrape of /metrics spends reading the
// workspace (its usage, its pending approvals).
const gaugeTimeout = 2 * time.Second

// startTelemetry sets a.tel up for a server: spans exported as the
// OTEL_* environment asks (none by default) and, with metrics, the
// counters /metrics serves. It returns the function that flushes the
// spans still buffered, to call as the server stops.
func (a *app) startTelemetry(metrics bool) (flush func(), err error) {
	tp, shutdown, err := telemetry.TracingFromEnv(a.ctx)
	if err != nil {
		return nil, a.usagef("%s: %v", a.cmd.name, err)
	}
	flush = func() {}
	if tp == nil && !metrics {
		return flush, nil
	}
	o := telemetry.Options{}
	if tp != nil {
		o.TracerProvider = tp
		flush = func() {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			if err := shutdown(ctx); err != nil {
				a.warnf("%s: flushing the traces: %v", a.cmd.name, err)
			}
		}
	}
	a.tel = telemetry.New(o)
	return flush, nil
}

// workspaceGauges adds the gauges read at each scrape: the approvals
// waiting and the oldest one's age, the workspace's size, its database's
// and write-ahead log's bytes on disk, the worker pool and the MCP
// sessions open.
func (a *app) workspaceGauges(server *sdk.Server) {
	reg := a.tel.Metrics()
	rt := a.ws.Runtime()
	pending := func() ([]runtime.PendingCall, error) {
		ctx, cancel := context.WithTimeout(a.ctx, gaugeTimeout)
		defer cancel()
		return rt.Pending(ctx)
	}
	usage := func() (vfs.Usage, error) {
		ctx, cancel := context.WithTimeout(a.ctx, gaugeTimeout)
		defer cancel()
		return a.ws.FS().Usage(ctx)
	}
	reg.NewGauge("nook_approvals_waiting", "Host calls waiting for a person's answer (approvals).", func() []telemetry.Sample {
		ps, err := pending()
		if err != nil {
			return nil
		}
		return []telemetry.Sample{{Value: float64(len(ps))}}
	})
	reg.NewGauge("nook_approval_oldest_age_seconds", "How long the oldest waiting approval has waited (0: none waits).", func() []telemetry.Sample {
		ps, err := pending()
		if err != nil {
			return nil
		}
		age := 0.0
		if len(ps) > 0 {
			age = time.Since(ps[0].Since).Seconds()
		}
		return []telemetry.Sample{{Value: age}}
	})
	reg.NewGauge("nook_vfs_bytes", "Bytes of the workspace's files (a file with several names once).", func() []telemetry.Sample {
		u, err := usage()
		if err != nil {
			return nil
		}
		return []telemetry.Sample{{Value: float64(u.Bytes)}}
	})
	reg.NewGauge("nook_vfs_entries", "Names in the workspace: files, directories and symlinks, the root included.", func() []telemetry.Sample {
		u, err := usage()
		if err != nil {
			return nil
		}
		return []telemetry.Sample{{Value: float64(u.Entries)}}
	})
	reg.NewGauge("nook_vfs_changes", "Change-feed entries kept (GC prunes the oldest past MaxChanges).", func() []telemetry.Sample {
		ctx, cancel := context.WithTimeout(a.ctx, gaugeTimeout)
		defer cancel()
		f := a.ws.FS()
		newest, err := f.RecentChanges(ctx, 0, 1)
		if err != nil {
			return nil
		}
		if len(newest) == 0 {
			return []telemetry.Sample{{Value: 0}}
		}
		oldest, err := f.ChangesAfter(ctx, 0, 1)
		if err != nil || len(oldest) == 0 {
			return nil
		}
		// Seqs are dense: the feed is pruned from its oldest end only.
		return []telemetry.Sample{{Value: float64(newest[0].Seq - oldest[0].Seq + 1)}}
	})
	reg.NewGauge("nook_db_file_bytes", "Bytes on disk of the workspace's database, by file (db, wal).", func() []telemetry.Sample {
		p := a.ws.Path()
		if p == "" || p == ":memory:" {
			return nil
		}
		var out []telemetry.Sample
		for _, f := range []struct{ name, path string }{{"db", p}, {"wal", p + "-wal"}} {
			if st, err := os.Stat(f.path); err == nil {
				out = append(out, telemetry.Sample{Labels: []string{f.name}, Value: float64(st.Size())})
			}
		}
		return out
	}, "file")
	a.poolGauges()
	reg.NewGauge("nook_mcp_sessions", "MCP sessions open.", func() []telemetry.Sample {
		n := 0
		for range server.Sessions() {
			n++
		}
		return []telemetry.Sample{{Value: float64(n)}}
	})
}

// poolGauges adds the gauges and counters of the process tier's worker
// pool (none while it has not started).
func (a *app) poolGauges() {
	reg := a.tel.Metrics()
	reg.NewGauge("nook_workers", "Workers of the process tier, by state (idle, busy); none in process.", func() []telemetry.Sample {
		if a.pool == nil || a.pool.started.Load() == nil {
			return nil
		}
		p := a.pool.started.Load()
		return []telemetry.Sample{{Labels: []string{"idle"}, Value: float64(len(p.Idle()))},
			{Labels: []string{"busy"}, Value: float64(len(p.Busy()))}}
	}, "state")
	// The worker pool's totals: none until the process tier started one.
	poolStats := func() (worker.Stats, bool) {
		if a.pool == nil || a.pool.started.Load() == nil {
			return worker.Stats{}, false
		}
		return a.pool.started.Load().Stats(), true
	}
	poolCounter := func(name, help string, fn func(worker.Stats) []telemetry.Sample, labels ...string) {
		reg.NewCounterFunc(name, help, func() []telemetry.Sample {
			if s, ok := poolStats(); ok {
				return fn(s)
			}
			return nil
		}, labels...)
	}
	poolCounter("nook_worker_starts_total", "Workers of the process tier started, by result (ok, failed).", func(s worker.Stats) []telemetry.Sample {
		return []telemetry.Sample{{Labels: []string{"ok"}, Value: float64(s.Started)}, {Labels: []string{"failed"}, Value: float64(s.StartFailures)}}
	}, "result")
	poolCounter("nook_worker_runs_total", "Runs given a worker of the process tier.", func(s worker.Stats) []telemetry.Sample {
		return []telemetry.Sample{{Value: float64(s.Runs)}}
	})
	poolCounter("nook_worker_cold_starts_total", "Runs that found no idle worker and waited for one to start.", func(s worker.Stats) []telemetry.Sample {
		return []telemetry.Sample{{Value: float64(s.ColdStarts)}}
	})
	poolCounter("nook_worker_wait_seconds_total", "Time runs waited for a worker, all told.", func(s worker.Stats) []telemetry.Sample {
		return []telemetry.Sample{{Value: s.Waited.Seconds()}}
	})
	poolCounter("nook_worker_kills_total", "Workers lost under a run, by reason (limit: killed for a limit the pool enforces, such as MaxMemoryBytes or MaxCPUTime; crash: died of its own accord).", func(s worker.Stats) []telemetry.Sample {
		return []telemetry.Sample{{Labels: []string{"limit"}, Value: float64(s.LimitKills)}, {Labels: []string{"crash"}, Value: float64(s.Crashes)}}
	}, "reason")
}

// nodeGauges adds a fleet node's gauges to its metrics: the workspaces it
// serves, the nodes it sees live, and its worker pool's.
func nodeGauges(a *app, node *fleet.Node) {
	reg := a.tel.Metrics()
	reg.NewGauge("nook_fleet_workspaces_served", "Workspaces this node owns and serves now.", func() []telemetry.Sample {
		return []telemetry.Sample{{Value: float64(len(node.Served()))}}
	})
	reg.NewGauge("nook_fleet_nodes_live", "Nodes of the fleet whose heartbeat has not expired, as this node sees them.", func() []telemetry.Sample {
		ctx, cancel := context.WithTimeout(a.ctx, gaugeTimeout)
		defer cancel()
		live, err := node.LiveNodes(ctx)
		if err != nil {
			return nil
		}
		return []telemetry.Sample{{Value: float64(len(live))}}
	})
	a.poolGauges()
}

// route names the route of a request to "nook serve" for its metrics:
// one of a fixed set, from the path alone.
func route(path string) string {
	switch {
	case path == "/mcp", path == "/healthz", path == "/readyz", path == "/metrics":
		return path
	case strings.HasPrefix(path, tools.LinkPrefix):
		return tools.LinkPrefix
	}
	return "other"
}
