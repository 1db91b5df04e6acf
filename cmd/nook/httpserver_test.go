package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/nookdev/nook/tools"
	mcpadapter "github.com/nookdev/nook/tools/mcp"
)

// testTimeouts are short enough for a test to outlast them.
var testTimeouts = serveTimeouts{Header: time.Second, Body: 300 * time.Millisecond, BodyRate: 1 << 20, MaxBody: 1 << 20,
	Write: 300 * time.Millisecond, Idle: time.Second}

// startServe starts the server "nook serve" runs, with t's timeouts and the
// tools of an in-memory workspace, on 127.0.0.1; it returns the /mcp URL.
func startServe(t *testing.T, to serveTimeouts) string {
	t.Helper()
	ctx := context.Background()
	ws, err := openWorkspace(ctx, "", nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	set := tools.New(ws.FS(), toolOptions(ws.Runtime(), false))
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	mux := http.NewServeMux()
	mux.Handle("/mcp", mcpadapter.Handler(mcpadapter.NewServer(set, nil), &mcpadapter.HTTPOptions{SessionTimeout: time.Minute}))
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := newHTTPServer(mux, to, log)
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return "http://" + ln.Addr().String() + "/mcp"
}

// A client that dribbles its request body is cut off once the read timeout
// has passed, long before it has sent the body.
func TestServeCutsSlowBody(t *testing.T) {
	t.Parallel()
	url := startServe(t, testTimeouts)
	addr := strings.TrimSuffix(strings.TrimPrefix(url, "http://"), "/mcp")
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	const bodyLen = 100
	fmt.Fprintf(conn, "POST /mcp HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\n"+
		"Accept: application/json, text/event-stream\r\nContent-Length: %d\r\n\r\n", addr, bodyLen)
	closed := make(chan struct{})
	go func() {
		io.Copy(io.Discard, conn) // whatever the server answers, until it closes
		close(closed)
	}()
	sent := 0
	for ; sent < bodyLen; sent++ {
		select {
		case <-closed:
		case <-time.After(50 * time.Millisecond):
			if _, err := conn.Write([]byte{' '}); err == nil {
				continue
			}
		}
		break
	}
	if sent == bodyLen {
		t.Fatalf("the server read a %d-byte body dribbled over %v; want it cut after %v", bodyLen, bodyLen*50*time.Millisecond, testTimeouts.Body)
	}
	select {
	case <-closed:
	case <-time.After(30 * time.Second):
		t.Fatal("the server kept the connection of a slow body open")
	}
}

// A tool call that takes longer than the read and write timeouts gets its
// whole answer, and the session's event stream (a GET that stays open)
// outlives them too.
func TestServeLongResponses(t *testing.T) {
	t.Parallel()
	url := startServe(t, testTimeouts)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	client := sdk.NewClient(&sdk.Implementation{Name: "nook-test", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &sdk.StreamableClientTransport{Endpoint: url, MaxRetries: -1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "exec",
		Arguments: map[string]any{"command": "sleep 1; echo slept", "backend": "shell"}})
	if err != nil || res.IsError {
		t.Fatalf("exec of 1s over HTTP with 300ms timeouts: %v %+v", err, res)
	}
	if txt := res.Content[0].(*sdk.TextContent).Text; !strings.Contains(txt, "slept") {
		t.Errorf("exec result: %s", txt)
	}

	// A session of its own (the SDK client above holds its session's
	// stream), then its standalone event stream.
	post := func(session, body string) *http.Response {
		req, _ := http.NewRequestWithContext(ctx, "POST", url, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if session != "" {
			req.Header.Set("Mcp-Session-Id", session)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp
	}
	init := post("", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
	session := init.Header.Get("Mcp-Session-Id")
	if init.StatusCode != 200 || session == "" {
		t.Fatalf("initialize: %s, session %q", init.Status, session)
	}
	post(session, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	req, _ := http.NewRequestWithContext(ctx, "GET", url, nil)
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Mcp-Session-Id", session)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("GET event stream: %s", resp.Status)
	}
	ended := make(chan error, 1)
	go func() {
		_, err := bufio.NewReader(resp.Body).ReadString(0)
		ended <- err
	}()
	select {
	case err := <-ended:
		t.Fatalf("the event stream ended after less than 1s: %v", err)
	case <-time.After(time.Second):
	}
}

// A body over MaxRequestBytes is refused whole when its length is
// declared, and cut off where it passes the limit when it is chunked; a
// body under the limit is read in full, however long the tool call.
func TestServeBodyLimit(t *testing.T) {
	t.Parallel()
	url := startServe(t, testTimeouts)
	post := func(body io.Reader, length int64) (int, string) {
		req, _ := http.NewRequest("POST", url, body)
		req.ContentLength = length
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	big := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"pad":"` + strings.Repeat("x", 1<<20) + `"}}`
	code, msg := post(strings.NewReader(big), int64(len(big)))
	if want := fmt.Sprintf("request body of %d bytes is over MaxRequestBytes (%d)\n", len(big), testTimeouts.MaxBody); code != http.StatusRequestEntityTooLarge || msg != want {
		t.Errorf("declared body over the limit: %d %q, want 413 %q", code, msg, want)
	}
	if code, msg := post(io.MultiReader(strings.NewReader(big)), -1); code < 400 {
		t.Errorf("chunked body over the limit: %d %q, want it refused", code, msg)
	}
	ok := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},` +
		`"clientInfo":{"name":"t","version":"1"},"pad":"` + strings.Repeat("x", 900<<10) + `"}}`
	if code, msg := post(strings.NewReader(ok), int64(len(ok))); code != http.StatusOK || !strings.Contains(msg, `"serverInfo"`) {
		t.Errorf("a 900 KiB body under the limit: %d %.200q", code, msg)
	}
}
