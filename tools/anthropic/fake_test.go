package anthropic_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/nookdev/nook"
	"github.com/nookdev/nook/tools"
)

// fakeAPI is a local stand-in for the Anthropic API: each POST /v1/messages
// gets the next recorded response; request bodies are kept.
type fakeAPI struct {
	*httptest.Server
	mu      sync.Mutex
	replies []string
	bodies  []map[string]any
}

func newFakeAPI(replies ...string) *fakeAPI {
	f := &fakeAPI{replies: replies}
	f.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.mu.Lock()
		defer f.mu.Unlock()
		b, _ := io.ReadAll(r.Body)
		var body map[string]any
		json.Unmarshal(b, &body)
		f.bodies = append(f.bodies, body)
		if r.Method != http.MethodPost || r.URL.Path != "/v1/messages" || r.Header.Get("X-Api-Key") != "test-key" ||
			r.Header.Get("Anthropic-Version") == "" || len(f.replies) == 0 {
			w.WriteHeader(http.StatusBadRequest)
			io.WriteString(w, `{"type":"error","error":{"type":"invalid_request_error","message":"unexpected request"}}`)
			return
		}
		reply := f.replies[0]
		f.replies = f.replies[1:]
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, reply)
	}))
	return f
}

func (f *fakeAPI) requests() []map[string]any {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.bodies
}

// Recorded Messages API responses: text and two tool uses, then the answer.
var replies = []string{
	`{"id":"msg_01","type":"message","role":"assistant","model":"claude-sonnet-4-5-20250929",
	  "content":[{"type":"text","text":"I'll add it and look at the chart."},
	             {"type":"tool_use","id":"toolu_w1","name":"write","input":{"path":"/notes/todo.md","content":"- ship it\n"}},
	             {"type":"tool_use","id":"toolu_r1","name":"read","input":{"path":"/notes/chart.png"}}],
	  "stop_reason":"tool_use","stop_sequence":null,"usage":{"input_tokens":900,"output_tokens":60}}`,
	`{"id":"msg_02","type":"message","role":"assistant","model":"claude-sonnet-4-5-20250929",
	  "content":[{"type":"text","text":"Wrote /notes/todo.md."}],
	  "stop_reason":"end_turn","stop_sequence":null,"usage":{"input_tokens":1200,"output_tokens":8}}`,
}

// newWorkspace is an in-memory workspace and its tool set.
func newWorkspace(t testing.TB) (*nook.Workspace, *tools.Set) {
	ws, err := nook.OpenMemory(context.Background())
	if err != nil {
		if t == nil {
			panic(err)
		}
		t.Fatal(err)
	}
	return ws, tools.New(ws.FS(), tools.Options{})
}
