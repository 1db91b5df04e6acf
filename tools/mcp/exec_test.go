package mcp_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/nookdev/nook"
	"github.com/nookdev/nook/runtime"
	"github.com/nookdev/nook/tools"
	mcpadapter "github.com/nookdev/nook/tools/mcp"
	"github.com/nookdev/nook/vfs"
)

// echoBackend runs sources of lines "out TEXT" (print TEXT and a newline)
// and "sleep DUR".
type echoBackend struct{}

func (echoBackend) Info() runtime.BackendInfo {
	return runtime.BackendInfo{ID: "echo", Description: "prints lines", Root: "/workspace"}
}

func (echoBackend) Prepare(ctx context.Context, fsys *vfs.FS, req *runtime.Request) (runtime.Program, error) {
	return echoProgram(req.Source), nil
}

type echoProgram string

func (p echoProgram) Run(ctx context.Context, h runtime.Host) runtime.Exit {
	for _, line := range strings.Split(string(p), "\n") {
		cmd, arg, _ := strings.Cut(line, " ")
		switch cmd {
		case "out":
			if err := h.Write(runtime.Stdout, []byte(arg+"\n")); err != nil {
				return runtime.Exit{Code: 1, Err: err}
			}
		case "sleep":
			d, _ := time.ParseDuration(arg)
			select {
			case <-time.After(d):
			case <-ctx.Done():
				return runtime.Exit{Code: 1, Err: ctx.Err()}
			}
		}
	}
	return runtime.Exit{}
}

func TestExecProgressNotifications(t *testing.T) {
	ctx := context.Background()
	ws, err := nook.OpenMemory(ctx, nook.WithBackends(echoBackend{}))
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	set := tools.New(ws.FS(), tools.Options{Runtime: ws.Runtime(),
		Exec: tools.ExecOptions{ProgressInterval: 20 * time.Millisecond}})

	server := mcpadapter.NewServer(set, nil)
	ct, st := sdk.NewInMemoryTransports()
	ss, err := server.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var got []*sdk.ProgressNotificationParams
	client := sdk.NewClient(&sdk.Implementation{Name: "nook-test", Version: "1"}, &sdk.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, req *sdk.ProgressNotificationClientRequest) {
			mu.Lock()
			got = append(got, req.Params)
			mu.Unlock()
		},
	})
	cs, err := client.Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		cs.Close()
		ss.Wait()
	}()

	params := &sdk.CallToolParams{Name: "exec", Arguments: map[string]any{"command": "out one\nsleep 500ms\nout two\nsleep 500ms"}}
	params.SetProgressToken("tok-1")
	res, err := cs.CallTool(ctx, params)
	if err != nil {
		t.Fatal(err)
	}
	if res.IsError {
		t.Fatalf("exec failed: %+v", res.Content)
	}
	// Notifications may trail the response a little.
	deadline := time.Now().Add(2 * time.Second)
	for {
		mu.Lock()
		n := len(got)
		var last string
		if n > 0 {
			last = got[n-1].Message
		}
		mu.Unlock()
		if strings.Contains(last, "last line: two") || time.Now().After(deadline) {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	mu.Lock()
	defer mu.Unlock()
	var msgs []string
	for i, p := range got {
		msgs = append(msgs, p.Message)
		if p.ProgressToken != "tok-1" {
			t.Errorf("progress token %v, want tok-1", p.ProgressToken)
		}
		if i > 0 && p.Progress <= got[i-1].Progress {
			t.Errorf("progress %d: %v after %v", i, p.Progress, got[i-1].Progress)
		}
	}
	want := []string{"running: 4 B stdout, 0 B stderr, last line: one", "running: 8 B stdout, 0 B stderr, last line: two"}
	if strings.Join(msgs, "|") != strings.Join(want, "|") {
		t.Errorf("progress messages = %q, want %q", msgs, want)
	}

	// Without a token, no notifications.
	got = nil
	mu.Unlock()
	if _, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "exec", Arguments: map[string]any{"command": "out x\nsleep 100ms"}}); err != nil {
		t.Fatal(err)
	}
	time.Sleep(50 * time.Millisecond)
	mu.Lock()
	if len(got) != 0 {
		t.Errorf("%d notifications without a progress token", len(got))
	}
}
