package openai_test

import (
	"context"
	"fmt"
	"log"

	oai "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/responses"

	nookai "github.com/nookdev/nook/tools/openai"
)

// An agent loop over Chat Completions: send the tools, run the calls the
// model makes on the workspace, send the results back, until the model
// answers. (The client talks to a local server replaying recorded API
// responses; drop the two options to talk to OpenAI.)
func Example_chatCompletions() {
	api := newFakeAPI(map[string][]string{"/v1/chat/completions": chatReplies})
	defer api.Close()
	ctx := context.Background()
	ws, set := newWorkspace(nil)
	defer ws.Close()

	client := oai.NewClient(option.WithBaseURL(api.URL+"/v1/"), option.WithAPIKey("test-key"))
	params := oai.ChatCompletionNewParams{
		Model:    oai.ChatModelGPT4_1,
		Messages: []oai.ChatCompletionMessageParamUnion{oai.UserMessage("Add 'ship it' to /notes/todo.md")},
		Tools:    nookai.ChatTools(set, true),
	}
	for {
		c, err := client.Chat.Completions.New(ctx, params)
		if err != nil {
			log.Fatal(err)
		}
		msg := c.Choices[0].Message
		results, err := nookai.CallChat(ctx, set, msg)
		if err != nil {
			log.Fatal(err)
		}
		if len(results) == 0 {
			fmt.Println(msg.Content)
			break
		}
		params.Messages = append(append(params.Messages, msg.ToParam()), results...)
	}
	data, _ := ws.FS().ReadFile(ctx, "/notes/todo.md")
	fmt.Print(string(data))
	// Output:
	// Wrote /notes/todo.md.
	// - ship it
}

// The same loop over the Responses API, the conversation kept by the
// server (previous_response_id).
func Example_responses() {
	api := newFakeAPI(map[string][]string{"/v1/responses": responsesReplies})
	defer api.Close()
	ctx := context.Background()
	ws, set := newWorkspace(nil)
	defer ws.Close()

	client := oai.NewClient(option.WithBaseURL(api.URL+"/v1/"), option.WithAPIKey("test-key"))
	params := responses.ResponseNewParams{
		Model: oai.ChatModelGPT4_1,
		Input: responses.ResponseNewParamsInputUnion{OfString: oai.String("Add 'ship it' to /notes/todo.md")},
		Tools: nookai.ResponsesTools(set, true),
	}
	for {
		resp, err := client.Responses.New(ctx, params)
		if err != nil {
			log.Fatal(err)
		}
		outputs, err := nookai.CallResponses(ctx, set, resp)
		if err != nil {
			log.Fatal(err)
		}
		if len(outputs) == 0 {
			fmt.Println(resp.OutputText())
			break
		}
		params.PreviousResponseID = oai.String(resp.ID)
		params.Input = responses.ResponseNewParamsInputUnion{OfInputItemList: outputs}
	}
	data, _ := ws.FS().ReadFile(ctx, "/notes/todo.md")
	fmt.Print(string(data))
	// Output:
	// Wrote /notes/todo.md.
	// - ship it
}
