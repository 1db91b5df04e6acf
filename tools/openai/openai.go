// Package openai adapts a nook tool set to the official OpenAI Go SDK
// (github.com/openai/openai-go/v3): typed tool definitions for Chat
// Completions and the Responses API, and dispatch helpers that run the
// model's tool calls on the set and return the messages (or input items)
// that carry the results back. It is a nested Go module, so the core
// module does not depend on the SDK:
//
//	go get github.com/nookdev/nook/tools/openai
//
// The definitions are the tools' canonical ones (package tools/export):
// this package holds no tool logic of its own.
package openai

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"

	oai "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/responses"

	"github.com/nookdev/nook/tools"
	"github.com/nookdev/nook/tools/export"
)

// ChatTools returns set's tools as Chat Completions tools
// (ChatCompletionNewParams.Tools). With strict, every tool whose schema
// strict mode can express is strict and the others (exec) say
// "strict": false (see export.OpenAI).
func ChatTools(set *tools.Set, strict bool) []oai.ChatCompletionToolUnionParam {
	var defs []struct {
		Function struct {
			Name        string         `json:"name"`
			Description string         `json:"description"`
			Parameters  map[string]any `json:"parameters"`
			Strict      *bool          `json:"strict"`
		} `json:"function"`
	}
	mustDecode(export.OpenAI(set, strict), &defs)
	out := make([]oai.ChatCompletionToolUnionParam, len(defs))
	for i, d := range defs {
		f := oai.FunctionDefinitionParam{
			Name:        d.Function.Name,
			Description: oai.String(d.Function.Description),
			Parameters:  oai.FunctionParameters(d.Function.Parameters),
		}
		if d.Function.Strict != nil {
			f.Strict = oai.Bool(*d.Function.Strict)
		}
		out[i] = oai.ChatCompletionFunctionTool(f)
	}
	return out
}

// CallChat runs the tool calls of a Chat Completions message on set, in
// order, and returns one tool message per call, to append to the
// conversation after the message itself (msg.ToParam()). It returns none
// when the message calls no tool: the model is done. A tool's failure is a
// message the model reads, not an error; the error is only for the end of
// ctx.
func CallChat(ctx context.Context, set *tools.Set, msg oai.ChatCompletionMessage) ([]oai.ChatCompletionMessageParamUnion, error) {
	var out []oai.ChatCompletionMessageParamUnion
	for _, tc := range msg.ToolCalls {
		if tc.Type != "" && tc.Type != "function" {
			out = append(out, oai.ToolMessage(fmt.Sprintf("tool call type %q is not supported; call the function tools", tc.Type), tc.ID))
			continue
		}
		res, err := set.Call(ctx, tc.Function.Name, json.RawMessage(tc.Function.Arguments))
		if err != nil {
			return out, err
		}
		out = append(out, oai.ToolMessage(Text(res), tc.ID))
	}
	return out, nil
}

// ResponsesTools returns set's tools as Responses API function tools
// (responses.ResponseNewParams.Tools). The Responses API takes a tool as
// strict unless told otherwise, so each tool says which it is: without
// strict none is; with strict every tool but exec is (see
// export.Responses).
func ResponsesTools(set *tools.Set, strict bool) []responses.ToolUnionParam {
	var defs []struct {
		Name        string         `json:"name"`
		Description string         `json:"description"`
		Parameters  map[string]any `json:"parameters"`
		Strict      bool           `json:"strict"`
	}
	mustDecode(export.Responses(set, strict), &defs)
	out := make([]responses.ToolUnionParam, len(defs))
	for i, d := range defs {
		out[i] = responses.ToolUnionParam{OfFunction: &responses.FunctionToolParam{
			Name:        d.Name,
			Description: oai.String(d.Description),
			Parameters:  d.Parameters,
			Strict:      oai.Bool(d.Strict),
		}}
	}
	return out
}

// CallResponses runs the function calls of a response's output on set, in
// order, and returns a function_call_output item for each, to send as the
// next request's input (with PreviousResponseID set to resp.ID, or after
// the response's output items when the conversation is kept by the
// caller). It returns none when the response calls no function.
func CallResponses(ctx context.Context, set *tools.Set, resp *responses.Response) ([]responses.ResponseInputItemUnionParam, error) {
	var out []responses.ResponseInputItemUnionParam
	for _, item := range resp.Output {
		if item.Type != "function_call" {
			continue
		}
		fc := item.AsFunctionCall()
		res, err := set.Call(ctx, fc.Name, json.RawMessage(fc.Arguments))
		if err != nil {
			return out, err
		}
		out = append(out, FunctionCallOutput(fc.CallID, res))
	}
	return out, nil
}

// FunctionCallOutput is a tool's result as the function_call_output item
// answering the call callID: its text (see Text), or, when the result holds
// an image or a PDF, a list of input_text, input_image and input_file
// parts carrying them as data URLs.
func FunctionCallOutput(callID string, r *tools.Result) responses.ResponseInputItemUnionParam {
	o := responses.ResponseInputItemFunctionCallOutputParam{CallID: oai.String(callID)}
	media := false
	for _, c := range r.Content {
		media = media || c.Type == tools.ImageContent || c.Type == tools.DocumentContent
	}
	if !media {
		o.Output.OfString = oai.String(Text(r))
		return responses.ResponseInputItemUnionParam{OfFunctionCallOutput: &o}
	}
	var parts responses.ResponseFunctionCallOutputItemListParam
	for _, c := range r.Content {
		dataURL := "data:" + c.MIME + ";base64," + base64.StdEncoding.EncodeToString(c.Data)
		switch c.Type {
		case tools.ImageContent:
			parts = append(parts, responses.ResponseFunctionCallOutputItemUnionParam{
				OfInputImage: &responses.ResponseInputImageContentParam{ImageURL: oai.String(dataURL)}})
		case tools.DocumentContent:
			name := c.Name
			if name == "" {
				name = "document.pdf"
			}
			parts = append(parts, responses.ResponseFunctionCallOutputItemUnionParam{
				OfInputFile: &responses.ResponseInputFileContentParam{FileData: oai.String(dataURL), Filename: oai.String(name)}})
		default:
			parts = append(parts, responses.ResponseFunctionCallOutputItemUnionParam{
				OfInputText: &responses.ResponseInputTextContentParam{Text: Text(&tools.Result{Content: []tools.Content{c}})}})
		}
	}
	o.Output.OfResponseFunctionCallOutputItemArray = parts
	return responses.ResponseInputItemUnionParam{OfFunctionCallOutput: &o}
}

// Text is a tool result as the text of a tool message: its text parts,
// with a one-line note for each image or document (a tool message holds
// text only), and links as their URIs.
func Text(r *tools.Result) string {
	var parts []string
	for _, c := range r.Content {
		switch c.Type {
		case tools.TextContent:
			parts = append(parts, c.Text)
		case tools.ImageContent, tools.DocumentContent:
			parts = append(parts, fmt.Sprintf("[%s: %s, %d bytes; not shown in a tool message]", c.Type, c.MIME, len(c.Data)))
		case tools.LinkContent:
			parts = append(parts, strings.TrimSpace(c.Name+" "+c.URI))
		}
	}
	return strings.Join(parts, "\n")
}

func mustDecode(doc []byte, v any) {
	if err := json.Unmarshal(doc, v); err != nil {
		panic("tools/openai: cannot read the exported definitions: " + err.Error())
	}
}
