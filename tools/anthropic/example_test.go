package anthropic_test

import (
	"context"
	"fmt"
	"log"

	sdk "github.com/anthropics/anthropic-sdk-go"
	"github.com/anthropics/anthropic-sdk-go/option"

	nookclaude "github.com/nookdev/nook/tools/anthropic"
	"github.com/nookdev/nook/vfs"
)

// An agent loop over the Messages API: send the tools, run the tool_use
// blocks on the workspace, send the tool_result blocks back, until the
// model ends its turn. (The client talks to a local server replaying
// recorded API responses; drop the two options to talk to Anthropic.)
func Example() {
	api := newFakeAPI(replies...)
	defer api.Close()
	ctx := context.Background()
	ws, set := newWorkspace(nil)
	defer ws.Close()
	ws.FS().WriteFile(ctx, "/notes/chart.png", tinyPNG(), &vfs.WriteOptions{MkdirAll: true})

	client := sdk.NewClient(option.WithBaseURL(api.URL), option.WithAPIKey("test-key"))
	params := sdk.MessageNewParams{
		Model:     sdk.ModelClaudeSonnet4_5,
		MaxTokens: 1024,
		Messages:  []sdk.MessageParam{sdk.NewUserMessage(sdk.NewTextBlock("Add 'ship it' to /notes/todo.md"))},
		Tools:     nookclaude.Tools(set),
	}
	for {
		msg, err := client.Messages.New(ctx, params)
		if err != nil {
			log.Fatal(err)
		}
		results, err := nookclaude.Call(ctx, set, msg)
		if err != nil {
			log.Fatal(err)
		}
		if len(results) == 0 {
			fmt.Println(msg.Content[0].Text)
			break
		}
		params.Messages = append(params.Messages, msg.ToParam(), sdk.NewUserMessage(results...))
	}
	data, _ := ws.FS().ReadFile(ctx, "/notes/todo.md")
	fmt.Print(string(data))
	// Output:
	// Wrote /notes/todo.md.
	// - ship it
}
