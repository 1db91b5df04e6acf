// Package mcp serves a nook tool set over the Model Context Protocol, on the
// official Go SDK (github.com/modelcontextprotocol/go-sdk). Callers that also
// import the SDK's mcp package usually name this one mcpadapter:
//
//	import mcpadapter "github.com/nookdev/nook/tools/mcp"
//
// The adapter holds no tool logic. Every tool of the set is registered with
// the SDK's low-level Server.AddTool, with the tool's hand-written input and
// output schemas (never inferred from Go types) and its annotations; a call
// goes to tools.Set.Call, the one call path where the set's hooks
// (blocks, approvals, redaction) run, and its Result is translated:
//
//	text          -> TextContent
//	image         -> ImageContent (the SDK base64-encodes the bytes)
//	document      -> EmbeddedResource whose contents carry the bytes as a blob
//	resource_link -> ResourceLink
//	Structured    -> CallToolResult.StructuredContent
//	IsError       -> CallToolResult.IsError (a tool failure is never a JSON-RPC error)
//
// Only the end of the request's context (cancellation) surfaces as a
// protocol error. When a request carries a progress token, the progress a
// tool reports (tools.WithProgress; exec does while its run goes on) is sent
// to the client as notifications/progress.
package mcp

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"log/slog"
	"net/http"
	"strings"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/nookdev/nook/tools"
)

// Server identity reported to clients in the initialize handshake.
// ServerVersion is the default of Options.Version.
const (
	ServerName    = "nook"
	ServerVersion = "0.1.0"
)

// Options configure NewServer. A nil *Options means the defaults.
type Options struct {
	// Instructions are sent to clients on initialization (optional).
	Instructions string
	// Logger receives the SDK's log of server activity (nil: none). Never
	// log to stdout when serving over stdio.
	Logger *slog.Logger
	// Version is the server version reported to clients (default
	// ServerVersion); the nook command reports its own, as "nook version"
	// prints it.
	Version string
}

// NewServer returns an MCP server named "nook" exposing every tool of set.
func NewServer(set *tools.Set, opts *Options) *sdk.Server {
	if opts == nil {
		opts = &Options{}
	}
	version := opts.Version
	if version == "" {
		version = ServerVersion
	}
	s := sdk.NewServer(&sdk.Implementation{Name: ServerName, Version: version}, &sdk.ServerOptions{
		Instructions: opts.Instructions,
		Logger:       opts.Logger,
		// A non-nil, empty Capabilities drops the default "logging"
		// capability (deprecated in the 2026-07-28 protocol); "tools" is
		// inferred from the tools added below.
		Capabilities: &sdk.ServerCapabilities{},
	})
	for _, t := range set.Tools() {
		s.AddTool(Tool(t), handler(set, t.Name))
	}
	return s
}

// Tool returns the MCP definition of t: its name, description, schemas
// (passed through as raw JSON) and annotations. openWorldHint is false
// unless the tool can reach beyond its workspace (exec, when the runtime
// has an outbound network policy).
func Tool(t *tools.Tool) *sdk.Tool {
	mt := &sdk.Tool{
		Name:        t.Name,
		Description: t.Description,
		InputSchema: t.InputSchema,
		Annotations: &sdk.ToolAnnotations{
			ReadOnlyHint:    t.Annotations.ReadOnly,
			DestructiveHint: ptr(t.Annotations.Destructive),
			IdempotentHint:  t.Annotations.Idempotent,
			OpenWorldHint:   ptr(t.Annotations.OpenWorld),
		},
	}
	// An unset OutputSchema must stay a nil interface, not a nil
	// json.RawMessage (which would be sent as "null").
	if len(t.OutputSchema) > 0 {
		mt.OutputSchema = t.OutputSchema
	}
	return mt
}

func ptr[T any](v T) *T { return &v }

// handler serves calls of the named tool through set.Call, so that the
// set's hooks apply over MCP exactly as to any other caller.
func handler(set *tools.Set, name string) sdk.ToolHandler {
	return func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		if tok := req.Params.GetProgressToken(); tok != nil && req.Session != nil {
			ctx = tools.WithProgress(ctx, func(p tools.Progress) {
				// Best effort: a lost notification only delays what the
				// client shows.
				req.Session.NotifyProgress(ctx, &sdk.ProgressNotificationParams{
					ProgressToken: tok, Message: p.Message, Progress: p.Current, Total: p.Total})
			})
		}
		res, err := set.Call(ctx, name, req.Params.Arguments)
		if err != nil {
			// Only the end of ctx: the request was cancelled or the
			// session closed; there is nobody to tell the model.
			return nil, err
		}
		return Result(res), nil
	}
}

// Result translates a tool result into an MCP CallToolResult.
func Result(r *tools.Result) *sdk.CallToolResult {
	out := &sdk.CallToolResult{Content: []sdk.Content{}, IsError: r.IsError}
	for _, c := range r.Content {
		out.Content = append(out.Content, content(c))
	}
	if r.Structured != nil {
		out.StructuredContent = r.Structured
	}
	return out
}

func content(c tools.Content) sdk.Content {
	switch c.Type {
	case tools.ImageContent:
		return &sdk.ImageContent{MIMEType: c.MIME, Data: c.Data}
	case tools.DocumentContent:
		// MCP has no document content type; an embedded resource with a
		// base64 blob is how the protocol carries a PDF. The resource
		// needs a URI: the part's own, else one made from its name.
		uri := c.URI
		if uri == "" {
			uri = "nook:///" + strings.TrimPrefix(c.Name, "/")
			if c.Name == "" {
				uri = "nook:///document"
			}
		}
		return &sdk.EmbeddedResource{Resource: &sdk.ResourceContents{URI: uri, MIMEType: c.MIME, Blob: c.Data}}
	case tools.LinkContent:
		name := c.Name
		if name == "" {
			name = c.URI
		}
		return &sdk.ResourceLink{URI: c.URI, Name: name, MIMEType: c.MIME}
	default:
		return &sdk.TextContent{Text: c.Text}
	}
}

// RunStdio serves server over stdin and stdout until the client disconnects
// or ctx ends. Nothing else may write to stdout meanwhile.
func RunStdio(ctx context.Context, server *sdk.Server) error {
	ss, err := server.Connect(ctx, &sdk.StdioTransport{}, nil)
	if err != nil {
		return err
	}
	ended := make(chan error, 1)
	go func() { ended <- ss.Wait() }()
	select {
	case err := <-ended:
		return err
	case <-ctx.Done():
		// Stopped by the caller: a normal end.
		ss.Close()
		<-ended
		return nil
	}
}

// HTTPOptions configure Handler. A nil *HTTPOptions means the defaults.
type HTTPOptions struct {
	// Token, when not empty, is the bearer token every request must carry
	// ("Authorization: Bearer TOKEN"); others get 401. It is compared in
	// constant time.
	Token string
	// Stateless serves without protocol sessions (for load-balanced
	// deployments); server-to-client requests are then unavailable.
	Stateless bool
	// SessionTimeout closes sessions idle this long (0: never).
	SessionTimeout time.Duration
	// MaxRequestBodyBytes caps a request body (0: the SDK's 4 MiB default).
	MaxRequestBodyBytes int64
	// Logger receives the transport's log (nil: none).
	Logger *slog.Logger
}

// Handler returns the streamable HTTP handler for server. The SDK's
// DNS-rebinding protection stays on (a request that reaches a loopback
// address with a non-loopback Host header gets 403), cross-origin browser
// requests are refused, and with opts.Token set every request must carry
// the bearer token. Mount it at a path of your choosing, e.g. "/mcp".
func Handler(server *sdk.Server, opts *HTTPOptions) http.Handler {
	if opts == nil {
		opts = &HTTPOptions{}
	}
	var h http.Handler = sdk.NewStreamableHTTPHandler(
		func(*http.Request) *sdk.Server { return server },
		&sdk.StreamableHTTPOptions{
			Stateless:           opts.Stateless,
			SessionTimeout:      opts.SessionTimeout,
			MaxRequestBodyBytes: opts.MaxRequestBodyBytes,
			Logger:              opts.Logger,
		})
	h = http.NewCrossOriginProtection().Handler(h)
	if opts.Token != "" {
		h = RequireToken(opts.Token, h)
	}
	return h
}

// RequireToken wraps h so that only requests carrying "Authorization:
// Bearer TOKEN" reach it; the others get 401 with a WWW-Authenticate
// challenge. The comparison takes the same time whatever the token sent.
func RequireToken(token string, h http.Handler) http.Handler {
	want := sha256.Sum256([]byte(token))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got, ok := bearer(r.Header.Get("Authorization"))
		sum := sha256.Sum256([]byte(got))
		if !ok || subtle.ConstantTimeCompare(sum[:], want[:]) != 1 {
			w.Header().Set("WWW-Authenticate", `Bearer realm="nook"`)
			http.Error(w, "unauthorized: a valid bearer token is required", http.StatusUnauthorized)
			return
		}
		h.ServeHTTP(w, r)
	})
}

// bearer extracts the token of an "Authorization: Bearer TOKEN" header
// (the scheme is case-insensitive).
func bearer(header string) (string, bool) {
	scheme, token, ok := strings.Cut(strings.TrimSpace(header), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return "", false
	}
	token = strings.TrimSpace(token)
	return token, token != ""
}
