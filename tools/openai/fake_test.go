package openai_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/nookdev/nook"
	"github.com/nookdev/nook/runtime"
	"github.com/nookdev/nook/tools"
	"github.com/nookdev/nook/vfs"
)

// fakeAPI is a local stand-in for the OpenAI API: it answers each request
// to a path with the next recorded response for that path and keeps the
// request bodies.
type fakeAPI struct {
	*httptest.Server
	mu      sync.Mutex
	replies map[string][]string
	bodies  map[string][]map[string]any
}

func newFakeAPI(replies map[string][]string) *fakeAPI {
	f := &fakeAPI{replies: replies, bodies: map[string][]map[string]any{}}
	f.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.mu.Lock()
		defer f.mu.Unlock()
		b, _ := io.ReadAll(r.Body)
		var body map[string]any
		json.Unmarshal(b, &body)
		f.bodies[r.URL.Path] = append(f.bodies[r.URL.Path], body)
		q := f.replies[r.URL.Path]
		if r.Method != http.MethodPost || r.Header.Get("Authorization") != "Bearer test-key" || len(q) == 0 {
			w.WriteHeader(http.StatusBadRequest)
			io.WriteString(w, `{"error":{"message":"unexpected request","type":"invalid_request_error"}}`)
			return
		}
		f.replies[r.URL.Path] = q[1:]
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, q[0])
	}))
	return f
}

func (f *fakeAPI) requests(path string) []map[string]any {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.bodies[path]
}

// Recorded Chat Completions responses: a call of write, then the answer.
var chatReplies = []string{
	`{"id":"chatcmpl-1","object":"chat.completion","created":1760000000,"model":"gpt-4.1-2025-04-14",
	  "choices":[{"index":0,"finish_reason":"tool_calls","logprobs":null,"message":{"role":"assistant","content":null,"refusal":null,
	    "tool_calls":[{"id":"call_w1","type":"function","function":{"name":"write","arguments":"{\"path\":\"/notes/todo.md\",\"content\":\"- ship it\\n\"}"}},
	                  {"id":"call_r1","type":"function","function":{"name":"read","arguments":"{\"path\":\"/notes/missing.md\"}"}}]}}],
	  "usage":{"prompt_tokens":900,"completion_tokens":40,"total_tokens":940}}`,
	`{"id":"chatcmpl-2","object":"chat.completion","created":1760000001,"model":"gpt-4.1-2025-04-14",
	  "choices":[{"index":0,"finish_reason":"stop","logprobs":null,"message":{"role":"assistant","content":"Wrote /notes/todo.md.","refusal":null}}],
	  "usage":{"prompt_tokens":990,"completion_tokens":8,"total_tokens":998}}`,
}

// Recorded Responses API responses: a function call, then the answer.
var responsesReplies = []string{
	`{"id":"resp_1","object":"response","created_at":1760000000,"status":"completed","model":"gpt-4.1-2025-04-14",
	  "output":[{"type":"function_call","id":"fc_1","call_id":"call_w1","name":"write","arguments":"{\"path\":\"/notes/todo.md\",\"content\":\"- ship it\\n\"}","status":"completed"}],
	  "parallel_tool_calls":true,"tool_choice":"auto","tools":[],"usage":{"input_tokens":900,"output_tokens":40,"total_tokens":940}}`,
	`{"id":"resp_2","object":"response","created_at":1760000001,"status":"completed","model":"gpt-4.1-2025-04-14",
	  "output":[{"type":"message","id":"msg_2","role":"assistant","status":"completed","content":[{"type":"output_text","text":"Wrote /notes/todo.md.","annotations":[]}]}],
	  "parallel_tool_calls":true,"tool_choice":"auto","tools":[],"usage":{"input_tokens":990,"output_tokens":8,"total_tokens":998}}`,
}

// nopBackend gives the set an exec tool (whose schema cannot be strict).
type nopBackend struct{}

func (nopBackend) Info() runtime.BackendInfo {
	return runtime.BackendInfo{ID: "nop", Description: "runs nothing"}
}
func (nopBackend) Prepare(context.Context, *vfs.FS, *runtime.Request) (runtime.Program, error) {
	return nil, nil
}

// newWorkspace is an in-memory workspace and its tool set, with exec.
func newWorkspace(t testing.TB) (*nook.Workspace, *tools.Set) {
	ws, err := nook.OpenMemory(context.Background(), nook.WithBackends(nopBackend{}))
	if err != nil {
		if t == nil {
			panic(err)
		}
		t.Fatal(err)
	}
	return ws, tools.New(ws.FS(), tools.Options{Runtime: ws.Runtime()})
}
