package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/nookdev/nook"
	"github.com/nookdev/nook/fleet"
	"github.com/nookdev/nook/internal/console"
	"github.com/nookdev/nook/runtime"
	mcpadapter "github.com/nookdev/nook/tools/mcp"
)

// The fleet node command: nook node.

var cmdNode = &command{
	name: "node", group: "Model tools",
	synopsis: "--name N --data DIR [--nats-listen HOST:PORT --nats-routes HOST:PORT,... | --nats-url URL] [--nats-client HOST:PORT] [--http HOST:PORT] [--token-file FILE] [--lease-ttl D] [--on-interrupt fail|restart|replay] [--metrics=false] [--console=false] [--log-format text|json] [--log-level LEVEL]",
	summary:  "run a fleet node: workspaces across machines on embedded NATS JetStream",
	help: `Runs one node of a fleet until interrupted. The node embeds a NATS server
with JetStream, clustered with its peers: --nats-listen is its route
address, --nats-routes the peers' route addresses (its own may be listed
too, so every node can be given the same list); with --nats-url it joins an
existing NATS cluster instead. --nats-client is the embedded server's client
address (default 127.0.0.1, any free port).

Every workspace is one database under --data DIR/workspaces, owned by one
node at a time through a lease in a replicated bucket (renewed every third
of --lease-ttl, default 10s); a workspace nobody owns is placed on a live
node by rendezvous hashing and created on first use. Any node serves MCP
(streamable HTTP) for any workspace at http://HOST:PORT/w/WORKSPACE/mcp
(--http, default 127.0.0.1:8766) and routes each call to the owner. A
workspace name is 1 to 64 of A-Z a-z 0-9 - _.

Authentication is that of "nook serve": with a token (--token-file or
$NOOK_TOKEN) every request needs "Authorization: Bearer TOKEN"; without one
the node listens on loopback addresses only. Runs run on the owner, in the
process tier by default as under "nook serve" (--isolation). Every commit of a workspace is shipped to a replicated log before the
call returns; when a node dies, another takes its workspaces over within
about --lease-ttl (at once those with runs in flight, the others at their
next call), restores them from the log and resumes their runs by policy
(--on-interrupt, for runs of every backend: fail them, restart them, or
replay them from their journal; default fail).
"nook fleet status --nats-url URL" shows the fleet. What survives a failure:
see fleet/RATIONALE.md.

As "nook serve" does, the node answers /healthz and /readyz without a token
(ready: connected to NATS, its heartbeat taken within the lease TTL, every
lease it holds still valid, a worker to be had), serves Prometheus metrics
of every workspace it owns at /metrics (behind the token; --metrics=false
drops it) and sends traces as the OTEL_* variables ask. The web console of a
workspace the node owns is at /w/WORKSPACE/ (log in with the token;
--console=false drops it); a node that does not own the workspace names the
node that does.`,
	run: runNode,
}

func runNode(a *app, fl *flag.FlagSet, args []string) error {
	name := fl.String("name", "", "the node's `NAME` in the fleet (unique, stable)")
	data := fl.String("data", "", "the node's data `DIR` (workspaces, JetStream store)")
	natsListen := fl.String("nats-listen", "", "listen for peers' routes on `HOST:PORT`")
	natsRoutes := fl.String("nats-routes", "", "the peers' route addresses, `HOST:PORT,...`")
	natsURL := fl.String("nats-url", "", "join the NATS cluster at `URL` instead of embedding a server")
	natsClient := fl.String("nats-client", "127.0.0.1:0", "the embedded server's client address `HOST:PORT`")
	httpAddr := fl.String("http", "127.0.0.1:8766", "serve MCP on `HOST:PORT`")
	tokenFile := fl.String("token-file", "", "require the bearer token in `FILE` (default $NOOK_TOKEN)")
	ttl := fl.Duration("lease-ttl", fleet.DefaultLeaseTTL, "lease and heartbeat lifetime `D`")
	onInterrupt := fl.String("on-interrupt", "fail", "what happens to runs whose node dies: `fail`, restart or replay (on the new owner)")
	metrics := fl.Bool("metrics", true, "serve Prometheus metrics at /metrics (behind the token, if any)")
	withConsole := fl.Bool("console", true, "serve the web console of each workspace this node owns at /w/WORKSPACE/ (log in with the token)")
	logFormat, logLevel := logFlags(fl, "info")
	if err := a.parse(fl, args, 0, 0); err != nil {
		return err
	}
	log, err := a.newLogger(*logFormat, *logLevel)
	if err != nil {
		return err
	}
	if *name == "" || *data == "" {
		return a.usagef("node: --name and --data are required")
	}
	if *natsURL != "" && (*natsListen != "" || *natsRoutes != "") {
		return a.usagef("node: --nats-url joins a cluster: not with --nats-listen or --nats-routes")
	}
	host, _, err := net.SplitHostPort(*httpAddr)
	if err != nil {
		return a.usagef("node: --http %q: want HOST:PORT, such as 127.0.0.1:8766", *httpAddr)
	}
	token, err := a.serveToken(*tokenFile)
	if err != nil {
		return err
	}
	if token == "" && !loopbackHost(host) {
		return a.usagef("node: refusing to listen on %q without a token: use a loopback address or set --token-file or $NOOK_TOKEN", *httpAddr)
	}
	policy := runtime.Policy(*onInterrupt)
	switch policy {
	case runtime.PolicyFail, runtime.PolicyRestart, runtime.PolicyReplay:
	default:
		return a.usagef("node: --on-interrupt %q: want fail, restart or replay", *onInterrupt)
	}
	bes := backends()
	policies := map[string]runtime.Policy{}
	for _, b := range bes {
		policies[b.Info().ID] = policy
	}
	var routes []string
	for _, r := range strings.Split(*natsRoutes, ",") {
		if r = strings.TrimSpace(r); r != "" {
			routes = append(routes, r)
		}
	}
	flush, err := a.startTelemetry(*metrics)
	if err != nil {
		return err
	}
	defer flush()
	ro := runtime.Options{KeepJournal: true, OnInterrupt: policies}
	if a.tel != nil {
		ro.Observer = a.tel
	}
	wsOpts := []nook.Option{nook.WithRuntime(ro), nook.WithBackends(bes...)}
	if iso := a.isolator(); iso != nil {
		wsOpts = append(wsOpts, nook.WithIsolation(iso))
	}
	fmt.Fprintf(a.stderr, "nook: node %s starting (waiting for the JetStream cluster)\n", *name)
	node, err := fleet.Start(a.ctx, fleet.Options{
		Name:          *name,
		DataDir:       *data,
		NATSURL:       *natsURL,
		ClientListen:  *natsClient,
		ClusterListen: *natsListen,
		Routes:        routes,
		LeaseTTL:      *ttl,
		Workspace:     wsOpts,
		Tools:         observed(toolOptions(nil, false), a.tel),
	})
	if err != nil {
		return err
	}
	defer node.Close()

	ln, err := (&net.ListenConfig{}).Listen(a.ctx, "tcp", *httpAddr)
	if err != nil {
		return err
	}
	defer ln.Close()
	var mu sync.Mutex
	handlers := map[string]http.Handler{}
	var fronts []*fleet.Front
	defer func() {
		for _, f := range fronts {
			f.Close()
		}
	}()
	mux := http.NewServeMux()
	a.warmWorkers()
	healthz, readyz := healthHandlers(func(ctx context.Context) []check {
		return nodeReadiness(ctx, a, node)
	})
	mux.Handle("/healthz", healthz) // no token, as under "nook serve"
	mux.Handle("/readyz", readyz)
	mux.HandleFunc("/w/{ws}/mcp", func(w http.ResponseWriter, r *http.Request) {
		ws := r.PathValue("ws")
		if err := fleet.CheckName("workspace", ws); err != nil {
			http.Error(w, err.Error(), http.StatusNotFound)
			return
		}
		mu.Lock()
		h := handlers[ws]
		if h == nil {
			f, err := node.Front(a.ctx, ws)
			if err != nil {
				mu.Unlock()
				http.Error(w, err.Error(), http.StatusInternalServerError)
				return
			}
			fronts = append(fronts, f)
			server := mcpadapter.NewServer(f.Set, &mcpadapter.Options{Logger: log, Version: nookVersion()})
			if a.tel != nil {
				server.AddReceivingMiddleware(a.tel.MCPMiddleware())
			}
			h = mcpadapter.Handler(server, &mcpadapter.HTTPOptions{Token: token, SessionTimeout: 30 * time.Minute, Logger: log})
			handlers[ws] = h
		}
		mu.Unlock()
		h.ServeHTTP(w, r)
	})
	var h http.Handler = mux
	if a.tel != nil {
		h = a.tel.HTTPMiddleware(mux, nodeRoute)
		if *metrics {
			nodeGauges(a, node)
			var m http.Handler = a.tel.Metrics().Handler()
			if token != "" {
				m = mcpadapter.RequireToken(token, m)
			}
			mux.Handle("/metrics", m)
		}
	}
	if *withConsole {
		mux.Handle("/w/{ws}/", nodeConsoles(node, token, log))
	}
	srv := newHTTPServer(withRequestLog(h, log), defaultServeTimeouts, log)
	auth := "no token"
	if token != "" {
		auth = "bearer token required"
	}
	fmt.Fprintf(a.stderr, "nook: node %s serving MCP at http://%s/w/WORKSPACE/mcp (%s; NATS client %s, routes %s)\n",
		*name, ln.Addr(), auth, node.ClientURL(), node.ClusterAddr())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		return err
	case <-a.ctx.Done():
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if err := srv.Shutdown(ctx); err != nil {
		srv.Close()
	}
	<-done
	return nil
}

// nodeReadiness is a node's /readyz: the fleet's checks (fleet.Node.Ready)
// and the worker pool's.
func nodeReadiness(ctx context.Context, a *app, node *fleet.Node) []check {
	ctx, cancel := context.WithTimeout(ctx, readyTimeout)
	defer cancel()
	var out []check
	for _, c := range node.Ready(ctx) {
		out = append(out, check{Name: c.Name, OK: c.OK, Detail: c.Detail})
	}
	return append(out, a.workersCheck(ctx))
}

// nodeRoute names a node's routes for its metrics: a workspace's MCP
// endpoint is one route whatever the workspace.
func nodeRoute(path string) string {
	if strings.HasPrefix(path, "/w/") && strings.HasSuffix(path, "/mcp") {
		return "/w/{ws}/mcp"
	}
	return route(path)
}

// nodeConsoles serves /w/WORKSPACE/ on a node: the web console of each
// workspace the node owns, made on first use and remade when the node
// came to serve the workspace anew (after losing and taking it back). A
// workspace served elsewhere gets 421 and the owner's name: the console
// reads the workspace's database, so only its owner serves it.
func nodeConsoles(node *fleet.Node, token string, log *slog.Logger) http.Handler {
	type mounted struct {
		ws *nook.Workspace
		h  http.Handler
	}
	var mu sync.Mutex
	consoles := map[string]mounted{}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name := r.PathValue("ws")
		if err := fleet.CheckName("workspace", name); err != nil {
			http.Error(w, err.Error(), http.StatusNotFound)
			return
		}
		ws, ok := node.Local(name)
		if !ok {
			msg := fmt.Sprintf("workspace %s is not served by node %s", name, node.Name())
			if l, owned, err := node.Owner(r.Context(), name); err == nil && owned {
				msg = fmt.Sprintf("workspace %s is served by node %s: its console is there", name, l.Node)
			}
			http.Error(w, msg, http.StatusMisdirectedRequest)
			return
		}
		mu.Lock()
		m := consoles[name]
		if m.ws != ws {
			c, err := console.New(console.Options{FS: ws.FS(), Runtime: ws.Runtime(), Token: token, Logger: log, Prefix: "/w/" + name})
			if err != nil {
				mu.Unlock()
				http.Error(w, err.Error(), http.StatusInternalServerError)
				return
			}
			m = mounted{ws, c}
			consoles[name] = m
		}
		mu.Unlock()
		m.h.ServeHTTP(w, r)
	})
}
