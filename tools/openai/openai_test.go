package openai_test

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	oai "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/responses"

	"github.com/nookdev/nook/tools/export"
	nookai "github.com/nookdev/nook/tools/openai"
)

func decode(t *testing.T, doc []byte) any {
	t.Helper()
	var v any
	if err := json.Unmarshal(doc, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

func asJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// The real SDK client sends the canonical definitions, the model's calls
// run on the workspace, and the results go back as tool messages in the
// API's format.
func TestChatRoundTrip(t *testing.T) {
	api := newFakeAPI(map[string][]string{"/v1/chat/completions": chatReplies})
	defer api.Close()
	ctx := context.Background()
	ws, set := newWorkspace(t)
	defer ws.Close()
	client := oai.NewClient(option.WithBaseURL(api.URL+"/v1/"), option.WithAPIKey("test-key"), option.WithMaxRetries(0))
	params := oai.ChatCompletionNewParams{Model: oai.ChatModelGPT4_1,
		Messages: []oai.ChatCompletionMessageParamUnion{oai.UserMessage("go")}, Tools: nookai.ChatTools(set, true)}
	c, err := client.Chat.Completions.New(ctx, params)
	if err != nil {
		t.Fatal(err)
	}
	msg := c.Choices[0].Message
	results, err := nookai.CallChat(ctx, set, msg)
	if err != nil {
		t.Fatal(err)
	}
	params.Messages = append(append(params.Messages, msg.ToParam()), results...)
	if _, err := client.Chat.Completions.New(ctx, params); err != nil {
		t.Fatal(err)
	}

	reqs := api.requests("/v1/chat/completions")
	if len(reqs) != 2 {
		t.Fatalf("%d requests", len(reqs))
	}
	// The tools sent are exactly export.OpenAI's strict definitions, exec
	// with "strict": false.
	if got, want := reqs[0]["tools"], decode(t, export.OpenAI(set, true)); !reflect.DeepEqual(got, want) {
		t.Errorf("tools sent:\n%s\nwant\n%s", asJSON(got), asJSON(want))
	}
	var execStrict any = "missing"
	for _, tl := range reqs[0]["tools"].([]any) {
		f := tl.(map[string]any)["function"].(map[string]any)
		if f["name"] == "exec" {
			execStrict = f["strict"]
		}
	}
	if execStrict != false {
		t.Errorf("exec strict = %v, want false", execStrict)
	}
	msgs := reqs[1]["messages"].([]any)
	if len(msgs) != 4 {
		t.Fatalf("second request messages: %s", asJSON(msgs))
	}
	if got := asJSON(msgs[1]); !strings.Contains(got, `"role":"assistant"`) || !strings.Contains(got, `"id":"call_w1"`) || !strings.Contains(got, `"id":"call_r1"`) {
		t.Errorf("assistant message sent back: %s", got)
	}
	// The read fails: the model reads the tool's message.
	missing, _ := set.Call(ctx, "read", json.RawMessage(`{"path":"/notes/missing.md"}`))
	want := []string{
		`{"content":"Created /notes/todo.md (10 bytes)","role":"tool","tool_call_id":"call_w1"}`,
		asJSON(map[string]any{"content": nookai.Text(missing), "role": "tool", "tool_call_id": "call_r1"}),
	}
	for i, w := range want {
		if got := asJSON(msgs[2+i]); got != w {
			t.Errorf("tool message %d:\n got %s\nwant %s", i, got, w)
		}
	}
	if data, err := ws.FS().ReadFile(ctx, "/notes/todo.md"); err != nil || string(data) != "- ship it\n" {
		t.Errorf("todo.md = %q, %v", data, err)
	}
}

func TestResponsesRoundTrip(t *testing.T) {
	api := newFakeAPI(map[string][]string{"/v1/responses": responsesReplies})
	defer api.Close()
	ctx := context.Background()
	ws, set := newWorkspace(t)
	defer ws.Close()
	client := oai.NewClient(option.WithBaseURL(api.URL+"/v1/"), option.WithAPIKey("test-key"), option.WithMaxRetries(0))
	params := responses.ResponseNewParams{Model: oai.ChatModelGPT4_1,
		Input: responses.ResponseNewParamsInputUnion{OfString: oai.String("go")}, Tools: nookai.ResponsesTools(set, false)}
	resp, err := client.Responses.New(ctx, params)
	if err != nil {
		t.Fatal(err)
	}
	outs, err := nookai.CallResponses(ctx, set, resp)
	if err != nil || len(outs) != 1 {
		t.Fatalf("%d outputs, %v", len(outs), err)
	}
	params.PreviousResponseID = oai.String(resp.ID)
	params.Input = responses.ResponseNewParamsInputUnion{OfInputItemList: outs}
	resp2, err := client.Responses.New(ctx, params)
	if err != nil {
		t.Fatal(err)
	}
	if got := resp2.OutputText(); got != "Wrote /notes/todo.md." {
		t.Errorf("answer %q", got)
	}
	reqs := api.requests("/v1/responses")
	if got, want := reqs[0]["tools"], decode(t, export.Responses(set, false)); !reflect.DeepEqual(got, want) {
		t.Errorf("tools sent:\n%s\nwant\n%s", asJSON(got), asJSON(want))
	}
	for _, tl := range reqs[0]["tools"].([]any) {
		if s := tl.(map[string]any)["strict"]; s != false {
			t.Errorf("%v: strict %v, want an explicit false", tl.(map[string]any)["name"], s)
		}
	}
	if got, want := asJSON(reqs[0]["input"]), `"go"`; got != want {
		t.Errorf("first input %s", got)
	}
	if reqs[1]["previous_response_id"] != "resp_1" {
		t.Errorf("previous_response_id = %v", reqs[1]["previous_response_id"])
	}
	want := `[{"call_id":"call_w1","output":"Created /notes/todo.md (10 bytes)","type":"function_call_output"}]`
	if got := asJSON(reqs[1]["input"]); got != want {
		t.Errorf("function_call_output sent:\n got %s\nwant %s", got, want)
	}
}

// An image a tool returns goes to the Responses API as an input_image.
func TestFunctionCallOutputImage(t *testing.T) {
	ws, set := newWorkspace(t)
	defer ws.Close()
	png := []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89\x00\x00\x00\rIDATx\x9cc\xf8\xcf\xc0\xf0\x1f\x00\x05\x00\x01\xff\x89\x99=\x1d\x00\x00\x00\x00IEND\xaeB`\x82")
	ctx := context.Background()
	ws.FS().WriteFile(ctx, "/p.png", png, nil)
	res, err := set.Call(ctx, "read", json.RawMessage(`{"path":"/p.png"}`))
	if err != nil || res.IsError {
		t.Fatalf("%v %+v", err, res)
	}
	got := asJSON(nookai.FunctionCallOutput("call_9", res))
	if !strings.Contains(got, `"type":"input_image"`) || !strings.Contains(got, `"image_url":"data:image/png;base64,`) ||
		!strings.Contains(got, `"call_id":"call_9"`) || !strings.Contains(got, `"type":"function_call_output"`) {
		t.Errorf("output item: %s", got)
	}
}
