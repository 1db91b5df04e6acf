// Package anthropic adapts a nook tool set to the official Anthropic Go
// SDK (github.com/anthropics/anthropic-sdk-go): typed tool definitions for
// the Messages API and a dispatch helper that runs the model's tool_use
// blocks on the set and returns the tool_result blocks that carry the
// results back (images and PDFs included). It is a nested Go module, so
// the core module does not depend on the SDK:
//
//	go get github.com/nookdev/nook/tools/anthropic
//
// The definitions are the tools' canonical ones (package tools/export):
// this package holds no tool logic of its own.
package anthropic

import (
	"context"
	"encoding/base64"
	"encoding/json"

	sdk "github.com/anthropics/anthropic-sdk-go"

	"github.com/nookdev/nook/tools"
	"github.com/nookdev/nook/tools/export"
)

// Tools returns set's tools as Messages API tools
// (MessageNewParams.Tools), each tool's input schema as it is written
// (see export.Anthropic).
func Tools(set *tools.Set) []sdk.ToolUnionParam {
	var defs []struct {
		Name        string                     `json:"name"`
		Description string                     `json:"description"`
		InputSchema map[string]json.RawMessage `json:"input_schema"`
	}
	if err := json.Unmarshal(export.Anthropic(set), &defs); err != nil {
		panic("tools/anthropic: cannot read the exported definitions: " + err.Error())
	}
	out := make([]sdk.ToolUnionParam, len(defs))
	for i, d := range defs {
		schema := sdk.ToolInputSchemaParam{ExtraFields: map[string]any{}}
		for k, v := range d.InputSchema {
			switch k {
			case "type":
			case "properties":
				var p map[string]any
				json.Unmarshal(v, &p)
				schema.Properties = p
			case "required":
				json.Unmarshal(v, &schema.Required)
			default:
				var x any
				json.Unmarshal(v, &x)
				schema.ExtraFields[k] = x
			}
		}
		out[i] = sdk.ToolUnionParam{OfTool: &sdk.ToolParam{
			Name:        d.Name,
			Description: sdk.String(d.Description),
			InputSchema: schema,
		}}
	}
	return out
}

// Call runs the tool_use blocks of a message on set, in order, and
// returns a tool_result block for each, to send back in one user message
// (sdk.NewUserMessage(results...)) after the message itself
// (msg.ToParam()). It returns none when the message uses no tool: the
// model is done. A tool's failure is a result with is_error set, which the
// model reads; the error is only for the end of ctx.
func Call(ctx context.Context, set *tools.Set, msg *sdk.Message) ([]sdk.ContentBlockParamUnion, error) {
	var out []sdk.ContentBlockParamUnion
	for _, b := range msg.Content {
		if b.Type != "tool_use" {
			continue
		}
		tu := b.AsToolUse()
		res, err := set.Call(ctx, tu.Name, tu.Input)
		if err != nil {
			return out, err
		}
		out = append(out, sdk.ContentBlockParamUnion{OfToolResult: ToolResult(tu.ID, res)})
	}
	return out, nil
}

// ToolResult is a tool's result as the tool_result block answering the
// tool_use block id: text parts as text, images as base64 images, PDFs as
// documents, links as text.
func ToolResult(id string, r *tools.Result) *sdk.ToolResultBlockParam {
	tr := &sdk.ToolResultBlockParam{ToolUseID: id, IsError: sdk.Bool(r.IsError)}
	for _, c := range r.Content {
		var part sdk.ToolResultBlockParamContentUnion
		switch c.Type {
		case tools.TextContent:
			part.OfText = &sdk.TextBlockParam{Text: c.Text}
		case tools.ImageContent:
			part.OfImage = &sdk.ImageBlockParam{Source: sdk.ImageBlockParamSourceUnion{OfBase64: &sdk.Base64ImageSourceParam{
				Data: base64.StdEncoding.EncodeToString(c.Data), MediaType: sdk.Base64ImageSourceMediaType(c.MIME)}}}
		case tools.DocumentContent:
			part.OfDocument = &sdk.DocumentBlockParam{Source: sdk.DocumentBlockParamSourceUnion{OfBase64: &sdk.Base64PDFSourceParam{
				Data: base64.StdEncoding.EncodeToString(c.Data)}}}
		case tools.LinkContent:
			text := c.URI
			if c.Name != "" {
				text = c.Name + " " + c.URI
			}
			part.OfText = &sdk.TextBlockParam{Text: text}
		default:
			continue
		}
		tr.Content = append(tr.Content, part)
	}
	if len(tr.Content) == 0 {
		tr.Content = []sdk.ToolResultBlockParamContentUnion{{OfText: &sdk.TextBlockParam{Text: "(no output)"}}}
	}
	return tr
}
