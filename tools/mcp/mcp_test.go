package mcp_test

import (
	"bytes"
	"context"
	"encoding/json"
	"image"
	"image/color"
	"image/png"
	"net/http"
	"net/http/httptest"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/nookdev/nook"
	"github.com/nookdev/nook/tools"
	"github.com/nookdev/nook/tools/export"
	mcpadapter "github.com/nookdev/nook/tools/mcp"
	"github.com/nookdev/nook/vfs"
)

// allTools is every tool the set should have once package tools is done.
var allTools = []string{"read", "ls", "find", "grep", "write", "edit", "patch", "move", "delete"}

// newSet returns a tool set over a fresh in-memory workspace holding a few
// files, among them a PNG at /img.png.
func newSet(t *testing.T, readOnly bool) *tools.Set {
	t.Helper()
	ctx := context.Background()
	ws, err := nook.OpenMemory(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	f := ws.FS()
	for p, data := range map[string][]byte{
		"/src/main.go":  []byte("package main\n\n// TODO: flags\nfunc main() {}\n"),
		"/notes.md":     []byte("# notes\nhello\n"),
		"/img.png":      pngBytes(t),
		"/old/gone.txt": []byte("bye\n"),
		"/doc/a.pdf":    []byte(tinyPDF),
	} {
		if err := f.WriteFile(ctx, p, data, &vfs.WriteOptions{MkdirAll: true}); err != nil {
			t.Fatal(err)
		}
	}
	return tools.New(f, tools.Options{ReadOnly: readOnly})
}

const tinyPDF = "%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n"

func pngBytes(t *testing.T) []byte {
	img := image.NewRGBA(image.Rect(0, 0, 4, 4))
	for i := range 4 {
		img.Set(i, i, color.RGBA{R: 200, A: 255})
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// connect serves set in-process and returns a client session to it, over
// the SDK's in-memory transports.
func connect(t *testing.T, set *tools.Set) *sdk.ClientSession {
	t.Helper()
	ctx := context.Background()
	server := mcpadapter.NewServer(set, nil)
	ct, st := sdk.NewInMemoryTransports()
	ss, err := server.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	client := sdk.NewClient(&sdk.Implementation{Name: "nook-test", Version: "1"}, nil)
	cs, err := client.Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cs.Close()
		ss.Wait()
	})
	return cs
}

// jsonValue decodes data into a generic JSON value.
func jsonValue(t *testing.T, data []byte) any {
	t.Helper()
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatalf("%v: %s", err, data)
	}
	return v
}

// remarshal turns any JSON-marshalable value into a generic JSON value.
func remarshal(t *testing.T, v any) any {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return jsonValue(t, data)
}

func TestServerInfo(t *testing.T) {
	cs := connect(t, newSet(t, false))
	info := cs.InitializeResult().ServerInfo
	if info.Name != "nook" || info.Version != mcpadapter.ServerVersion {
		t.Errorf("server info = %+v", info)
	}
	// An embedder (the nook command) reports its own version.
	server := mcpadapter.NewServer(newSet(t, true), &mcpadapter.Options{Version: "v1.2.3"})
	ct, st := sdk.NewInMemoryTransports()
	ctx := context.Background()
	ss, err := server.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	cs2, err := sdk.NewClient(&sdk.Implementation{Name: "t", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs2.Close()
	if v := cs2.InitializeResult().ServerInfo.Version; v != "v1.2.3" {
		t.Errorf("server version with Options.Version: %q", v)
	}
	if cs.InitializeResult().Capabilities.Tools == nil {
		t.Errorf("tools capability not advertised")
	}
}

func TestListTools(t *testing.T) {
	for _, readOnly := range []bool{false, true} {
		set := newSet(t, readOnly)
		cs := connect(t, set)
		res, err := cs.ListTools(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		var got, want []string
		for _, mt := range res.Tools {
			got = append(got, mt.Name)
		}
		for _, tt := range set.Tools() {
			want = append(want, tt.Name)
		}
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Fatalf("readOnly=%v: tools/list names %v, want %v", readOnly, got, want)
		}
		for _, mt := range res.Tools {
			tt := set.Tool(mt.Name)
			if readOnly && !tt.Annotations.ReadOnly {
				t.Errorf("read-only set serves %s", mt.Name)
			}
			if mt.Description != tt.Description {
				t.Errorf("%s: description %q, want %q", mt.Name, mt.Description, tt.Description)
			}
			// The schemas are ours, passed through, not inferred.
			if got, want := remarshal(t, mt.InputSchema), jsonValue(t, tt.InputSchema); !reflect.DeepEqual(got, want) {
				t.Errorf("%s: inputSchema\n%v\nwant\n%v", mt.Name, got, want)
			}
			if len(tt.OutputSchema) == 0 {
				if mt.OutputSchema != nil {
					t.Errorf("%s: outputSchema %v, want none", mt.Name, mt.OutputSchema)
				}
			} else if got, want := remarshal(t, mt.OutputSchema), jsonValue(t, tt.OutputSchema); !reflect.DeepEqual(got, want) {
				t.Errorf("%s: outputSchema\n%v\nwant\n%v", mt.Name, got, want)
			}
			a := mt.Annotations
			if a == nil || a.ReadOnlyHint != tt.Annotations.ReadOnly || a.IdempotentHint != tt.Annotations.Idempotent ||
				a.DestructiveHint == nil || *a.DestructiveHint != tt.Annotations.Destructive ||
				a.OpenWorldHint == nil || *a.OpenWorldHint {
				t.Errorf("%s: annotations %+v for %+v", mt.Name, a, tt.Annotations)
			}
		}

		// export.MCP writes exactly what tools/list returns.
		var exported struct{ Tools []any }
		if err := json.Unmarshal(export.MCP(set), &exported); err != nil {
			t.Fatal(err)
		}
		listed := remarshal(t, res.Tools).([]any)
		byName := func(a, b any) int {
			return strings.Compare(a.(map[string]any)["name"].(string), b.(map[string]any)["name"].(string))
		}
		slices.SortFunc(listed, byName)
		slices.SortFunc(exported.Tools, byName)
		if !reflect.DeepEqual(listed, exported.Tools) {
			t.Errorf("export.MCP differs from tools/list:\n%v\n%v", exported.Tools, listed)
		}
	}
}

func TestAllToolsBuilt(t *testing.T) {
	set := newSet(t, false)
	for _, name := range allTools {
		if set.Tool(name) == nil {
			t.Errorf("the tool set has no %s tool", name)
		}
	}
	ro := newSet(t, true)
	var names []string
	for _, tt := range ro.Tools() {
		names = append(names, tt.Name)
	}
	if want := []string{"read", "ls", "find", "grep"}; !slices.Equal(names, want) {
		t.Errorf("read-only tools %v, want %v", names, want)
	}
}

// call calls a tool over MCP; a protocol error fails the test.
func call(t *testing.T, cs *sdk.ClientSession, name, args string) *sdk.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: name, Arguments: json.RawMessage(args)})
	if err != nil {
		t.Fatalf("%s %s: protocol error %v", name, args, err)
	}
	return res
}

func textOf(res *sdk.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// checkStructured validates a result's structured content against the
// tool's output schema, as strict clients (the TypeScript SDK) do.
func checkStructured(t *testing.T, tt *tools.Tool, res *sdk.CallToolResult) {
	t.Helper()
	if res.StructuredContent == nil {
		t.Errorf("%s: no structured content", tt.Name)
		return
	}
	if len(tt.OutputSchema) == 0 {
		return
	}
	var s jsonschema.Schema
	if err := json.Unmarshal(tt.OutputSchema, &s); err != nil {
		t.Fatalf("%s: output schema: %v", tt.Name, err)
	}
	rs, err := s.Resolve(nil)
	if err != nil {
		t.Fatalf("%s: output schema: %v", tt.Name, err)
	}
	if err := rs.Validate(remarshal(t, res.StructuredContent)); err != nil {
		t.Errorf("%s: structured content does not match the output schema: %v", tt.Name, err)
	}
}

func TestCallTools(t *testing.T) {
	set := newSet(t, false)
	cs := connect(t, set)
	for _, c := range []struct {
		name, args string
		wantText   string // in the text content
	}{
		{"read", `{"path":"/notes.md"}`, "hello"},
		{"ls", `{"path":"/"}`, "notes.md"},
		{"find", `{"pattern":"**/*.go"}`, "/src/main.go"},
		{"grep", `{"query":"TODO"}`, "/src/main.go"},
		{"write", `{"path":"/out/new.txt","content":"fresh\n"}`, "/out/new.txt"},
		{"edit", `{"path":"/out/new.txt","edits":[{"oldText":"fresh","newText":"edited"}]}`, "+edited"},
		{"patch", `{"patch":"*** Begin Patch\n*** Add File: /out/p.txt\n+patched\n*** End Patch"}`, "A /out/p.txt"},
		{"move", `{"from":"/out/p.txt","to":"/out/q.txt"}`, "Moved /out/p.txt to /out/q.txt"},
		{"delete", `{"path":"/out/q.txt"}`, "Deleted file /out/q.txt"},
	} {
		t.Run(c.name, func(t *testing.T) {
			tt := set.Tool(c.name)
			if tt == nil {
				t.Fatalf("the tool set has no %s tool", c.name)
			}
			res := call(t, cs, c.name, c.args)
			if res.IsError {
				t.Fatalf("%s %s: error result %q", c.name, c.args, textOf(res))
			}
			if got := textOf(res); !strings.Contains(got, c.wantText) {
				t.Errorf("%s %s: text %q lacks %q", c.name, c.args, got, c.wantText)
			}
			checkStructured(t, tt, res)
		})
	}
	res := call(t, cs, "read", `{"path":"/out/new.txt"}`)
	if res.IsError || !strings.Contains(textOf(res), "edited") {
		t.Errorf("read after write: %q (isError %v)", textOf(res), res.IsError)
	}
}

func TestCallImage(t *testing.T) {
	set := newSet(t, true)
	if set.Tool("read") == nil {
		t.Fatal("the tool set has no read tool")
	}
	cs := connect(t, set)
	res := call(t, cs, "read", `{"path":"/img.png"}`)
	if res.IsError {
		t.Fatalf("read png: %q", textOf(res))
	}
	var img *sdk.ImageContent
	for _, c := range res.Content {
		if ic, ok := c.(*sdk.ImageContent); ok {
			img = ic
		}
	}
	if img == nil {
		t.Fatalf("read png: no image content in %v", remarshal(t, res.Content))
	}
	checkStructured(t, set.Tool("read"), res)
	if img.MIMEType != "image/png" || !bytes.Equal(img.Data, pngBytes(t)) {
		t.Errorf("image content: %s, %d bytes", img.MIMEType, len(img.Data))
	}
}

func TestCallPDF(t *testing.T) {
	set := newSet(t, true)
	if set.Tool("read") == nil {
		t.Fatal("the tool set has no read tool")
	}
	cs := connect(t, set)
	res := call(t, cs, "read", `{"path":"/doc/a.pdf"}`)
	if res.IsError {
		t.Fatalf("read pdf: %q", textOf(res))
	}
	var doc *sdk.EmbeddedResource
	for _, c := range res.Content {
		if er, ok := c.(*sdk.EmbeddedResource); ok {
			doc = er
		}
	}
	if doc == nil || doc.Resource == nil {
		t.Fatalf("read pdf: no embedded resource in %v", remarshal(t, res.Content))
	}
	if r := doc.Resource; r.MIMEType != "application/pdf" || string(r.Blob) != tinyPDF || !strings.HasPrefix(r.URI, "nook:///") {
		t.Errorf("embedded resource: %s %s, %d bytes", r.URI, r.MIMEType, len(r.Blob))
	}
	checkStructured(t, set.Tool("read"), res)
}

func TestCallError(t *testing.T) {
	set := newSet(t, false)
	cs := connect(t, set)
	for _, c := range []struct{ name, args string }{
		{"read", `{"path":"/no/such/file"}`},
		{"ls", `{"path":"/nope"}`},
		{"write", `{"path":"/x","content":1}`},
		{"read", `{"bogus":true}`},
	} {
		if set.Tool(c.name) == nil {
			t.Logf("tool %s is not built yet", c.name)
			continue
		}
		direct, err := set.Call(context.Background(), c.name, json.RawMessage(c.args))
		if err != nil {
			t.Fatal(err)
		}
		res := call(t, cs, c.name, c.args)
		if !res.IsError {
			t.Errorf("%s %s: isError false, text %q", c.name, c.args, textOf(res))
			continue
		}
		want := ""
		for _, p := range direct.Content {
			want += p.Text
		}
		if got := textOf(res); got != want || got == "" {
			t.Errorf("%s %s: error text %q, want %q", c.name, c.args, got, want)
		}
		if res.StructuredContent != nil {
			t.Errorf("%s: error result has structured content %v", c.name, res.StructuredContent)
		}
	}
	// A read-only server has no write tool: the SDK answers with a protocol
	// error (an unknown tool is not the model's tool failure).
	ro := connect(t, newSet(t, true))
	if _, err := ro.CallTool(context.Background(), &sdk.CallToolParams{Name: "write", Arguments: map[string]any{"path": "/x", "content": ""}}); err == nil {
		t.Errorf("write on a read-only server succeeded")
	}
}

func TestResultTranslation(t *testing.T) {
	pdf := []byte("%PDF-1.4 tiny")
	res := mcpadapter.Result(&tools.Result{
		Content: []tools.Content{
			{Type: tools.TextContent, Text: "page 1"},
			{Type: tools.ImageContent, MIME: "image/png", Data: []byte{1, 2}},
			{Type: tools.DocumentContent, MIME: "application/pdf", Data: pdf, Name: "/doc/a.pdf"},
			{Type: tools.LinkContent, URI: "nook:///big.log", Name: "big.log", MIME: "text/plain"},
		},
		Structured: map[string]any{"path": "/doc/a.pdf"},
	})
	if res.IsError || len(res.Content) != 4 {
		t.Fatalf("result %+v", res)
	}
	if c, ok := res.Content[0].(*sdk.TextContent); !ok || c.Text != "page 1" {
		t.Errorf("content 0 = %#v", res.Content[0])
	}
	if c, ok := res.Content[1].(*sdk.ImageContent); !ok || c.MIMEType != "image/png" || !bytes.Equal(c.Data, []byte{1, 2}) {
		t.Errorf("content 1 = %#v", res.Content[1])
	}
	if c, ok := res.Content[2].(*sdk.EmbeddedResource); !ok || c.Resource.MIMEType != "application/pdf" ||
		!bytes.Equal(c.Resource.Blob, pdf) || c.Resource.URI != "nook:///doc/a.pdf" {
		t.Errorf("content 2 = %#v", res.Content[2])
	}
	if c, ok := res.Content[3].(*sdk.ResourceLink); !ok || c.URI != "nook:///big.log" || c.Name != "big.log" || c.MIMEType != "text/plain" {
		t.Errorf("content 3 = %#v", res.Content[3])
	}
	if !reflect.DeepEqual(res.StructuredContent, map[string]any{"path": "/doc/a.pdf"}) {
		t.Errorf("structured = %v", res.StructuredContent)
	}
	// On the wire: the blob is base64, the image data too.
	wire, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"type":"resource"`, `"blob":"JVBERi0xLjQgdGlueQ=="`, `"type":"image","mimeType":"image/png","data":"AQI="`, `"type":"resource_link"`, `"structuredContent":{"path":"/doc/a.pdf"}`} {
		if !strings.Contains(string(wire), want) {
			t.Errorf("wire result lacks %s:\n%s", want, wire)
		}
	}
	// An error result: isError, no structured content, an empty content
	// list never null.
	e := mcpadapter.Result(tools.Errorf("no such file: /x"))
	if !e.IsError || e.StructuredContent != nil || textOf(e) != "no such file: /x" {
		t.Errorf("error result %+v", e)
	}
	if wire, _ := json.Marshal(mcpadapter.Result(&tools.Result{})); !strings.Contains(string(wire), `"content":[]`) {
		t.Errorf("empty result on the wire: %s", wire)
	}
}

// bearerTransport adds an Authorization header to every request.
type bearerTransport struct{ token string }

func (b bearerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

func TestHTTP(t *testing.T) {
	set := newSet(t, false)
	mux := http.NewServeMux()
	mux.Handle("/mcp", mcpadapter.Handler(mcpadapter.NewServer(set, nil), &mcpadapter.HTTPOptions{Token: "s3cret-token"}))
	srv := httptest.NewServer(mux) // listens on 127.0.0.1
	defer srv.Close()
	endpoint := srv.URL + "/mcp"
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()

	dial := func(token string) (*sdk.ClientSession, error) {
		hc := &http.Client{}
		if token != "" {
			hc.Transport = bearerTransport{token}
		}
		client := sdk.NewClient(&sdk.Implementation{Name: "nook-test", Version: "1"}, nil)
		return client.Connect(ctx, &sdk.StreamableClientTransport{Endpoint: endpoint, HTTPClient: hc, MaxRetries: -1}, nil)
	}

	cs, err := dial("s3cret-token")
	if err != nil {
		t.Fatalf("connect with token: %v", err)
	}
	res, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Tools) != len(set.Tools()) {
		t.Errorf("tools/list over HTTP: %d tools, want %d", len(res.Tools), len(set.Tools()))
	}
	if set.Tool("ls") != nil {
		r := call(t, cs, "ls", `{"path":"/src"}`)
		if r.IsError || !strings.Contains(textOf(r), "main.go") || r.StructuredContent == nil {
			t.Errorf("ls over HTTP: %q", textOf(r))
		}
	}
	if set.Tool("read") != nil {
		r := call(t, cs, "read", `{"path":"/missing"}`)
		if !r.IsError {
			t.Errorf("read of a missing file over HTTP: isError false")
		}
	}
	cs.Close()

	for _, token := range []string{"", "wrong", "s3cret-token-but-longer"} {
		if cs, err := dial(token); err == nil {
			cs.Close()
			t.Errorf("connect with token %q succeeded", token)
		}
	}

	// Raw requests: the status codes.
	initialize := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`
	post := func(host, auth string) int {
		req, _ := http.NewRequestWithContext(ctx, "POST", endpoint, strings.NewReader(initialize))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if auth != "" {
			req.Header.Set("Authorization", auth)
		}
		if host != "" {
			req.Host = host
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode == http.StatusUnauthorized && resp.Header.Get("WWW-Authenticate") == "" {
			t.Errorf("401 without WWW-Authenticate")
		}
		return resp.StatusCode
	}
	for _, c := range []struct {
		host, auth string
		want       int
	}{
		{"", "", http.StatusUnauthorized},
		{"", "Bearer nope", http.StatusUnauthorized},
		{"", "Basic czNjcmV0LXRva2Vu", http.StatusUnauthorized},
		{"", "Bearer s3cret-token", http.StatusOK},
		{"", "bearer s3cret-token", http.StatusOK},
		// DNS rebinding: a loopback connection naming another host.
		{"evil.example:80", "Bearer s3cret-token", http.StatusForbidden},
	} {
		if got := post(c.host, c.auth); got != c.want {
			t.Errorf("POST host %q auth %q: status %d, want %d", c.host, c.auth, got, c.want)
		}
	}
}

func TestHTTPNoToken(t *testing.T) {
	set := newSet(t, true)
	srv := httptest.NewServer(mcpadapter.Handler(mcpadapter.NewServer(set, nil), nil))
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	client := sdk.NewClient(&sdk.Implementation{Name: "nook-test", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &sdk.StreamableClientTransport{Endpoint: srv.URL, MaxRetries: -1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, mt := range res.Tools {
		if !mt.Annotations.ReadOnlyHint {
			t.Errorf("read-only server lists %s", mt.Name)
		}
	}
}
