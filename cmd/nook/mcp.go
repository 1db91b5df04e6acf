package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"os"
	"strings"
	"time"

	"github.com/nookdev/nook/tools"
	"github.com/nookdev/nook/tools/export"
	mcpadapter "github.com/nookdev/nook/tools/mcp"
)

// The model tool commands: mcp, serve, tools, tool.

var cmdMCP = &command{
	name: "mcp", group: "Model tools", synopsis: "[--read-only] [--checkpoint-tool] [--log-format text|json] [--log-level LEVEL]",
	summary: "serve the workspace's tools over MCP on stdin/stdout",
	help: `Runs a Model Context Protocol server on stdin and stdout for one client
(Claude Desktop, an IDE, an agent) until the client disconnects. The tools
are read, ls, find, grep, write, edit, patch, move and delete over the
workspace; with --read-only only read, ls, find and grep. stdout carries the
protocol only; messages go to stderr, as text or JSON lines (--log-format),
warnings and errors unless --log-level says otherwise. Traces go to an
OpenTelemetry collector over OTLP/HTTP when OTEL_EXPORTER_OTLP_ENDPOINT (or
OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) is set, as for nook serve.`,
	run: runMCP,
}

func runMCP(a *app, fl *flag.FlagSet, args []string) error {
	readOnly := fl.Bool("read-only", false, "serve only the tools that do not change the workspace")
	ckTool := fl.Bool("checkpoint-tool", false, "add the checkpoint tool (create, list, diff, restore, undo) and make every file-changing call undoable")
	logFormat, logLevel := logFlags(fl, "warn")
	if err := a.parse(fl, args, 0, 0); err != nil {
		return err
	}
	log, err := a.newLogger(*logFormat, *logLevel)
	if err != nil {
		return err
	}
	a.reads = *readOnly // a read-only server of a workspace that is not there serves nothing
	a.checkpointTool = *ckTool
	// Traces as the OTEL_* environment asks (none by default): stdout is
	// the protocol's, so there is no /metrics here.
	flush, err := a.startTelemetry(false)
	if err != nil {
		return err
	}
	defer flush()
	set, err := a.toolSet(*readOnly)
	if err != nil {
		return err
	}
	a.warmWorkers()
	server := mcpadapter.NewServer(set, &mcpadapter.Options{Logger: log, Version: nookVersion()})
	if a.tel != nil {
		server.AddReceivingMiddleware(a.tel.MCPMiddleware())
	}
	return mcpadapter.RunStdio(a.ctx, server)
}

var cmdServe = &command{
	name: "serve", group: "Model tools", synopsis: "[--addr HOST:PORT] [--token-file FILE] [--read-only] [--checkpoint-tool] [--publish [--publish-url URL]] [--metrics=false] [--console=false] [--log-format text|json] [--log-level LEVEL]",
	summary: "serve the workspace's tools over MCP (streamable HTTP)",
	help: `Serves the workspace's tools over MCP's streamable HTTP transport at
http://HOST:PORT/mcp until interrupted, and prints that URL on stderr.

With a token (the first line of --token-file FILE, or $NOOK_TOKEN), every
request must carry "Authorization: Bearer TOKEN"; others get 401. Without a
token nook listens on loopback addresses only (127.0.0.1, ::1, localhost).
Requests that reach a loopback address with another Host header (DNS
rebinding) and cross-origin browser requests are refused.

With --publish the tools include publish, which shares a file through a
link served by this server at /p/...: signed (HMAC-SHA256, with a key made
at start, so links end with the process), needing no token, working until
its expiry (default 1h, at most 24h) and only while the file is as it was
published (else 410 Gone); files up to 64 MiB. --publish-url is the base
URL recipients reach the server at (default http://HOST:PORT). Not with
--read-only.

For the people who run it: /healthz answers 200 while the process serves,
and /readyz 200 when the workspace can take a write and (in the process
tier) a worker can be had, else 503, one line per check ("nook status" runs
the same checks); neither needs the token. Each request is logged at info
on stderr (--log-format text or json, --log-level debug, info, warn or
error): method, path, status, bytes, duration, client address and MCP
session, never bodies, query strings or headers. /metrics serves Prometheus
metrics (behind the token, if any; --metrics=false drops it), and traces go
to an OpenTelemetry collector over OTLP/HTTP when OTEL_EXPORTER_OTLP_ENDPOINT
(or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) is set: see README "Operating nook".

At / nook serves a web console (--console=false drops it): the runs with
their live output, values and journals, the calls waiting for a person's
answer (approve, deny or answer with JSON; who and when is recorded in
the workspace under /.nook/console), and the files. A person logs in once
with the token, for a session cookie; without a token it needs no login
and answers at loopback addresses only. See README "Console".`,
	run: runServe,
}

func runServe(a *app, fl *flag.FlagSet, args []string) error {
	addr := fl.String("addr", "127.0.0.1:8765", "listen on `HOST:PORT` (port 0: any free port)")
	tokenFile := fl.String("token-file", "", "require the bearer token in `FILE` (default $NOOK_TOKEN)")
	readOnly := fl.Bool("read-only", false, "serve only the tools that do not change the workspace")
	ckTool := fl.Bool("checkpoint-tool", false, "add the checkpoint tool (create, list, diff, restore, undo) and make every file-changing call undoable")
	publish := fl.Bool("publish", false, "add the publish tool, sharing files through signed expiring links at /p/")
	publishURL := fl.String("publish-url", "", "the base `URL` of published links (default http://HOST:PORT)")
	metrics := fl.Bool("metrics", true, "serve Prometheus metrics at /metrics (behind the token, if any)")
	withConsole := fl.Bool("console", true, "serve the web console at / (log in with the token)")
	logFormat, logLevel := logFlags(fl, "info")
	if err := a.parse(fl, args, 0, 0); err != nil {
		return err
	}
	log, err := a.newLogger(*logFormat, *logLevel)
	if err != nil {
		return err
	}
	if *publish && *readOnly {
		return a.usagef("serve: --publish and --read-only: a read-only server has no publish tool")
	}
	if *publishURL != "" && !*publish {
		return a.usagef("serve: --publish-url needs --publish")
	}
	host, _, err := net.SplitHostPort(*addr)
	if err != nil {
		return a.usagef("serve: --addr %q: want HOST:PORT, such as 127.0.0.1:8765", *addr)
	}
	token, err := a.serveToken(*tokenFile)
	if err != nil {
		return err
	}
	if token == "" && !loopbackHost(host) {
		return a.usagef("serve: refusing to listen on %q without a token: use a loopback address or set --token-file or $NOOK_TOKEN", *addr)
	}
	a.reads = *readOnly // a read-only server of a workspace that is not there serves nothing
	flush, err := a.startTelemetry(*metrics)
	if err != nil {
		return err
	}
	defer flush()
	f, err := a.workspace()
	if err != nil {
		return err
	}
	ln, err := (&net.ListenConfig{}).Listen(a.ctx, "tcp", *addr)
	if err != nil {
		return err
	}
	defer ln.Close()
	opts := observed(toolOptions(a.ws.Runtime(), *readOnly), a.tel)
	opts.Checkpoint = checkpointToolOptions(*ckTool)
	mux := http.NewServeMux()
	if *publish {
		base := *publishURL
		if base == "" {
			base = "http://" + ln.Addr().String()
		}
		lp, err := tools.NewLinkPublisher(f, tools.LinkOptions{BaseURL: base})
		if err != nil {
			return err
		}
		opts.Publisher = lp
		mux.Handle(tools.LinkPrefix, lp) // no token: the signature is the authority
	}
	set := tools.New(f, opts)
	a.warmWorkers()
	healthz, readyz := healthHandlers(a.readiness)
	mux.Handle("/healthz", healthz) // no token: probes carry none, and these say nothing of the workspace's content
	mux.Handle("/readyz", readyz)
	server := mcpadapter.NewServer(set, &mcpadapter.Options{Logger: log, Version: nookVersion()})
	mux.Handle("/mcp", mcpadapter.Handler(server, &mcpadapter.HTTPOptions{
		Token:          token,
		SessionTimeout: 30 * time.Minute,
		Logger:         log,
	}))
	if *withConsole {
		if err := mountConsole(mux, a.ws, token, log); err != nil {
			return err
		}
	}
	var h http.Handler = mux
	if a.tel != nil {
		server.AddReceivingMiddleware(a.tel.MCPMiddleware())
		h = a.tel.HTTPMiddleware(mux, route)
		if *metrics {
			a.workspaceGauges(server)
			var m http.Handler = a.tel.Metrics().Handler()
			if token != "" {
				m = mcpadapter.RequireToken(token, m)
			}
			mux.Handle("/metrics", m)
		}
	}
	srv := newHTTPServer(withRequestLog(h, log), defaultServeTimeouts, log)
	auth := "no token"
	if token != "" {
		auth = "bearer token required"
	}
	fmt.Fprintf(a.stderr, "nook: serving MCP at http://%s/mcp (%s; workspace %s)\n", ln.Addr(), auth, a.ws.Path())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		return err
	case <-a.ctx.Done():
	}
	// Interrupted: stop accepting, give open requests a moment, then close
	// the long-lived event streams.
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if err := srv.Shutdown(ctx); err != nil {
		srv.Close()
	}
	<-done
	return nil
}

// serveToken reads the bearer token from file, or from $NOOK_TOKEN.
func (a *app) serveToken(file string) (string, error) {
	if file == "" {
		return strings.TrimSpace(os.Getenv("NOOK_TOKEN")), nil
	}
	if st, err := os.Stat(file); err == nil && st.Mode().Perm()&0o077 != 0 {
		a.warnf("serve: token file %s is readable by other users (chmod 600 it)", file)
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return "", err
	}
	token, _, _ := strings.Cut(string(data), "\n")
	token = strings.TrimSpace(token)
	if token == "" {
		return "", a.usagef("serve: token file %s is empty", file)
	}
	return token, nil
}

// loopbackHost reports whether a listen host is a loopback address. An
// empty host (":8765") listens on every interface.
func loopbackHost(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.IsLoopback()
}

var cmdTools = &command{
	name: "tools", group: "Model tools",
	synopsis: "[list] | schema [--format mcp|openai|openai-strict|responses|responses-strict|anthropic] [--read-only] | types",
	summary:  "list the model tools or print their JSON definitions",
	help: `"nook tools" (or "nook tools list") lists the tools with their descriptions.
"nook tools schema" prints the exact tool definitions as JSON, in the shape
one API takes:

  mcp            the MCP tools/list result (the default)
  openai         Chat Completions function tools
  openai-strict  the same in strict mode: every object closed
                 (additionalProperties false), every property required,
                 optional ones made nullable
  responses      OpenAI Responses API function tools ("strict": false)
  responses-strict  the same in strict mode ("strict": true but for exec)
  anthropic      Messages API tools (name, description, input_schema)

"nook tools types" prints a TypeScript declaration file (.d.ts) for the host
modules code can import (ws:tools, ws:git, ws:modules), for tsc to check a
TypeScript program before "nook exec" runs it.

Flags come after the subcommand: "nook tools schema --format openai".`,
	run: runTools,
}

func runTools(a *app, fl *flag.FlagSet, args []string) error {
	sub, rest := subcommand(args)
	if sub == "" {
		sub = "list"
	} else {
		args = rest
	}
	format := fl.String("format", "mcp", "schema: output `FORMAT`, one of mcp, openai, openai-strict, responses, responses-strict, anthropic")
	readOnly := fl.Bool("read-only", false, "only the tools that do not change the workspace")
	if err := a.parse(fl, args, 0, 0); err != nil {
		return err
	}
	// The definitions do not depend on the workspace: describe a scratch
	// one rather than create the --db file.
	ws, err := openWorkspace(a.ctx, "", nil, nil)
	if err != nil {
		return err
	}
	defer ws.Close()
	set := tools.New(ws.FS(), toolOptions(ws.Runtime(), *readOnly))
	switch sub {
	case "list":
		type entry struct {
			Name        string `json:"name"`
			Description string `json:"description"`
			ReadOnly    bool   `json:"readOnly"`
		}
		var list []entry
		for _, t := range set.Tools() {
			list = append(list, entry{t.Name, t.Description, t.Annotations.ReadOnly})
		}
		return a.emit(list, func() error {
			// The whole description: exec's lists its backends on
			// lines of their own, indented under the first.
			for _, e := range list {
				lines := strings.Split(strings.TrimRight(e.Description, "\n"), "\n")
				a.printf("%-8s %s\n", e.Name, lines[0])
				for _, l := range lines[1:] {
					a.printf("%-8s %s\n", "", l)
				}
			}
			return nil
		})
	case "types":
		return runToolTypes(a, ws.Runtime().Modules())
	case "schema":
		var doc []byte
		switch *format {
		case "mcp":
			doc = export.MCP(set)
		case "openai":
			doc = export.OpenAI(set, false)
		case "openai-strict":
			doc = export.OpenAI(set, true)
		case "anthropic":
			doc = export.Anthropic(set)
		case "responses":
			doc = export.Responses(set, false)
		case "responses-strict":
			doc = export.Responses(set, true)
		default:
			return a.usagef("tools: --format %q: want mcp, openai, openai-strict, responses, responses-strict or anthropic", *format)
		}
		var out bytes.Buffer
		if err := json.Indent(&out, doc, "", "  "); err != nil {
			return err
		}
		out.WriteByte('\n')
		_, err := a.stdout.Write(out.Bytes())
		return err
	}
	return a.usagef("tools: unknown subcommand %q: want list, schema or types", sub)
}

var cmdTool = &command{
	name: "tool", group: "Model tools", synopsis: "[--json] [--read-only] [--checkpoint-tool] NAME [ARGS|-]",
	summary: "call one model tool",
	help: `Calls the tool NAME with ARGS, a JSON object (default {}; - reads it from
stdin), exactly as a model would, and prints its text content. Images and
documents print as a one-line note. With --json (here or before the
command) it prints the whole result as one JSON document:
{"content":[...],"structured":...,"isError":false}, where images and
documents carry base64 "data".

A call the tool rejects (a missing file, an edit that does not match) exits
with status 1; its message goes to stderr (with --json, the result still
goes to stdout).

  nook tool ls '{"path":"/"}'
  nook tool read '{"path":"/notes.md","offset":10,"limit":20}'`,
	run: runTool,
}

func runTool(a *app, fl *flag.FlagSet, args []string) error {
	fl.BoolVar(&a.json, "json", a.json, "print the whole result as JSON")
	readOnly := fl.Bool("read-only", false, "allow only the tools that do not change the workspace")
	ckTool := fl.Bool("checkpoint-tool", false, "add the checkpoint tool (create, list, diff, restore, undo) and make every file-changing call undoable")
	if err := a.parse(fl, args, 1, 2); err != nil {
		return err
	}
	in := []byte("{}")
	switch arg := fl.Arg(1); arg {
	case "":
	case "-":
		data, err := io.ReadAll(a.stdin)
		if err != nil {
			return err
		}
		in = data
	default:
		in = []byte(arg)
	}
	a.reads = *readOnly || readOnlyTool(fl.Arg(0))
	a.checkpointTool = *ckTool
	set, err := a.toolSet(*readOnly)
	if err != nil {
		return err
	}
	res, err := set.Call(a.ctx, fl.Arg(0), json.RawMessage(in))
	if err != nil {
		return err
	}
	if a.json {
		if err := a.writeJSON(resultJSONOf(res)); err != nil {
			return err
		}
	} else if !res.IsError {
		for _, c := range res.Content {
			a.printf("%s", contentText(c))
		}
	}
	if res.IsError {
		var msg []string
		for _, c := range res.Content {
			if c.Type == tools.TextContent {
				msg = append(msg, strings.TrimSpace(c.Text))
			}
		}
		return errors.New(strings.Join(msg, "\n"))
	}
	return nil
}

// readOnlyTool reports whether the tool name changes nothing (read, ls,
// find, grep): a call of one needs a workspace that is there already.
func readOnlyTool(name string) bool {
	for _, t := range tools.New(nil, tools.Options{ReadOnly: true}).Tools() {
		if t.Name == name {
			return true
		}
	}
	return false
}

// contentText renders one content part for a terminal, ending in a newline.
func contentText(c tools.Content) string {
	switch c.Type {
	case tools.TextContent:
		if c.Text == "" || strings.HasSuffix(c.Text, "\n") {
			return c.Text
		}
		return c.Text + "\n"
	case tools.LinkContent:
		return fmt.Sprintf("[resource link: %s]\n", c.URI)
	default:
		return fmt.Sprintf("[%s: %s, %s]\n", c.Type, c.MIME, humanBytes(int64(len(c.Data))))
	}
}

type contentJSON struct {
	Type string `json:"type"`
	Text string `json:"text,omitempty"`
	MIME string `json:"mimeType,omitempty"`
	Data []byte `json:"data,omitempty"`
	URI  string `json:"uri,omitempty"`
	Name string `json:"name,omitempty"`
}

type resultJSON struct {
	Content    []contentJSON `json:"content"`
	Structured any           `json:"structured"`
	IsError    bool          `json:"isError"`
}

func resultJSONOf(r *tools.Result) resultJSON {
	out := resultJSON{Content: []contentJSON{}, Structured: r.Structured, IsError: r.IsError}
	for _, c := range r.Content {
		out.Content = append(out.Content, contentJSON{Type: string(c.Type), Text: c.Text, MIME: c.MIME, Data: c.Data, URI: c.URI, Name: c.Name})
	}
	return out
}

// toolSet opens the workspace and returns its tools.
func (a *app) toolSet(readOnly bool) (*tools.Set, error) {
	f, err := a.workspace()
	if err != nil {
		return nil, err
	}
	o := observed(toolOptions(a.ws.Runtime(), readOnly), a.tel)
	o.Checkpoint = checkpointToolOptions(a.checkpointTool)
	return tools.New(f, o), nil
}

// checkpointToolOptions are the checkpoint tool's options for
// --checkpoint-tool: the tool, and every file-changing call undoable.
func checkpointToolOptions(on bool) tools.CheckpointOptions {
	return tools.CheckpointOptions{Enabled: on, EachCall: on}
}
