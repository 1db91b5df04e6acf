package anthropic_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"image"
	"image/color"
	"image/png"
	"reflect"
	"strings"
	"testing"

	sdk "github.com/anthropics/anthropic-sdk-go"
	"github.com/anthropics/anthropic-sdk-go/option"

	nookclaude "github.com/nookdev/nook/tools/anthropic"
	"github.com/nookdev/nook/tools/export"
	"github.com/nookdev/nook/vfs"
)

func tinyPNG() []byte {
	img := image.NewRGBA(image.Rect(0, 0, 2, 2))
	img.Set(0, 0, color.RGBA{255, 0, 0, 255})
	var b bytes.Buffer
	png.Encode(&b, img)
	return b.Bytes()
}

func asJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// The real SDK client sends the canonical definitions; the model's
// tool_use blocks run on the workspace and go back as tool_result blocks
// in the API's format, an image as an image block.
func TestRoundTrip(t *testing.T) {
	api := newFakeAPI(replies...)
	defer api.Close()
	ctx := context.Background()
	ws, set := newWorkspace(t)
	defer ws.Close()
	pic := tinyPNG()
	ws.FS().WriteFile(ctx, "/notes/chart.png", pic, &vfs.WriteOptions{MkdirAll: true})
	client := sdk.NewClient(option.WithBaseURL(api.URL), option.WithAPIKey("test-key"), option.WithMaxRetries(0))
	params := sdk.MessageNewParams{Model: sdk.ModelClaudeSonnet4_5, MaxTokens: 1024,
		Messages: []sdk.MessageParam{sdk.NewUserMessage(sdk.NewTextBlock("go"))}, Tools: nookclaude.Tools(set)}
	msg, err := client.Messages.New(ctx, params)
	if err != nil {
		t.Fatal(err)
	}
	results, err := nookclaude.Call(ctx, set, msg)
	if err != nil || len(results) != 2 {
		t.Fatalf("%d results, %v", len(results), err)
	}
	params.Messages = append(params.Messages, msg.ToParam(), sdk.NewUserMessage(results...))
	msg2, err := client.Messages.New(ctx, params)
	if err != nil {
		t.Fatal(err)
	}
	if msg2.StopReason != sdk.StopReasonEndTurn || msg2.Content[0].Text != "Wrote /notes/todo.md." {
		t.Errorf("answer: %s %+v", msg2.StopReason, msg2.Content)
	}

	reqs := api.requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests", len(reqs))
	}
	var want any
	json.Unmarshal(export.Anthropic(set), &want)
	if got := reqs[0]["tools"]; !reflect.DeepEqual(got, want) {
		t.Errorf("tools sent:\n%s\nwant\n%s", asJSON(got), asJSON(want))
	}
	msgs := reqs[1]["messages"].([]any)
	if len(msgs) != 3 {
		t.Fatalf("messages: %s", asJSON(msgs))
	}
	if got := asJSON(msgs[1]); !strings.Contains(got, `"role":"assistant"`) || !strings.Contains(got, `{"id":"toolu_w1","input":{"content":"- ship it\n","path":"/notes/todo.md"},"name":"write","type":"tool_use"}`) {
		t.Errorf("assistant turn sent back: %s", got)
	}
	user := msgs[2].(map[string]any)
	blocks := user["content"].([]any)
	if user["role"] != "user" || len(blocks) != 2 {
		t.Fatalf("tool results turn: %s", asJSON(user))
	}
	if got, w := asJSON(blocks[0]), `{"content":[{"text":"Created /notes/todo.md (10 bytes)","type":"text"}],"is_error":false,"tool_use_id":"toolu_w1","type":"tool_result"}`; got != w {
		t.Errorf("write result:\n got %s\nwant %s", got, w)
	}
	img := blocks[1].(map[string]any)
	var sawImage bool
	for _, c := range img["content"].([]any) {
		c := c.(map[string]any)
		if c["type"] == "image" {
			src := c["source"].(map[string]any)
			sawImage = src["type"] == "base64" && src["media_type"] == "image/png" && src["data"] == base64.StdEncoding.EncodeToString(pic)
		}
	}
	if img["tool_use_id"] != "toolu_r1" || img["is_error"] != false || !sawImage {
		t.Errorf("image result: %s", asJSON(img))
	}
	if data, err := ws.FS().ReadFile(ctx, "/notes/todo.md"); err != nil || string(data) != "- ship it\n" {
		t.Errorf("todo.md = %q, %v", data, err)
	}
}

// A failed call is a tool_result with is_error set.
func TestErrorResult(t *testing.T) {
	ws, set := newWorkspace(t)
	defer ws.Close()
	res, _ := set.Call(context.Background(), "read", json.RawMessage(`{"path":"/nope"}`))
	tr := nookclaude.ToolResult("toolu_x", res)
	got := asJSON(tr)
	if !strings.Contains(got, `"is_error":true`) || !strings.Contains(got, `"tool_use_id":"toolu_x"`) || !strings.Contains(got, "/nope") {
		t.Errorf("error result: %s", got)
	}
}
