package main

import (
	"context"
	"flag"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/nookdev/nook"
	"github.com/nookdev/nook/fleet"
	"github.com/nookdev/nook/runtime"
	mcpadapter "github.com/nookdev/nook/tools/mcp"
)

// The fleet node command: nook node.

var cmdNode = &command{
	name: "node", group: "Model tools",
	synopsis: "--name N --data DIR [--nats-listen HOST:PORT --nats-routes HOST:PORT,... | --nats-url URL] [--nats-client HOST:PORT] [--http HOST:PORT] [--token-file FILE] [--lease-ttl D] [--on-interrupt fail|restart|replay] [--log-format text|json] [--log-level LEVEL]",
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
the node listens on loopback addresses only. Runs are in process on the
owner. Every commit of a workspace is shipped to a replicated log before the
call returns; when a node dies, another takes its workspaces over within
about --lease-ttl (at once those with runs in flight, the others at their
next call), restores them from the log and resumes their runs by policy
(--on-interrupt, for runs of every backend: fail them, restart them, or
replay them from their journal; default fail).
"nook fleet status --nats-url URL" shows the fleet. What survives a failure:
see fleet/RATIONALE.md.`,
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
	fmt.Fprintf(a.stderr, "nook: node %s starting (waiting for the JetStream cluster)\n", *name)
	node, err := fleet.Start(a.ctx, fleet.Options{
		Name:          *name,
		DataDir:       *data,
		NATSURL:       *natsURL,
		ClientListen:  *natsClient,
		ClusterListen: *natsListen,
		Routes:        routes,
		LeaseTTL:      *ttl,
		Workspace: []nook.Option{
			nook.WithRuntime(runtime.Options{KeepJournal: true, OnInterrupt: policies}),
			nook.WithBackends(bes...),
		},
		Tools: toolOptions(nil, false),
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
	mux.HandleFunc("/healthz", func(w http.ResponseWriter, r *http.Request) { fmt.Fprintln(w, "ok") })
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
			h = mcpadapter.Handler(server, &mcpadapter.HTTPOptions{Token: token, SessionTimeout: 30 * time.Minute, Logger: log})
			handlers[ws] = h
		}
		mu.Unlock()
		h.ServeHTTP(w, r)
	})
	srv := newHTTPServer(withRequestLog(mux, log), defaultServeTimeouts, log)
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
