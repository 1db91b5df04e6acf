package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/nookdev/nook/vfs"
)

// Tool is one model-facing tool.
type Tool struct {
	// Name is what the model calls the tool.
	Name string
	// Description is the model-facing description: short; guidance goes
	// into results and errors instead.
	Description string
	// InputSchema and OutputSchema are JSON Schema objects (draft 2020-12),
	// written by hand: they are data, not inferred from Go types.
	InputSchema  json.RawMessage
	OutputSchema json.RawMessage
	// Annotations are hints for clients about the tool's effects.
	Annotations Annotations

	run func(ctx context.Context, in json.RawMessage) (*Result, error)
	set *Set // the set the tool belongs to, whose hooks every call meets
	// required are the properties InputSchema requires: a call without
	// one is refused before the tool runs (the tools decode into structs,
	// where a missing string is just empty).
	required []string
	id       string // the name the set knows the tool by (Name may be changed in a copy)
}

// Annotations describe a tool's effects (MCP's tool annotations).
type Annotations struct {
	ReadOnly    bool // does not change the workspace
	Destructive bool // may delete or overwrite data
	Idempotent  bool // repeating a call with the same input changes nothing more
	OpenWorld   bool // may reach beyond the workspace (the network)
}

// Call runs the tool on the model's JSON arguments, through its set's
// hooks: it is the set's Set.Call of this tool. There is no way to call
// a tool of a set around the set's hooks (see RATIONALE.md, "One call
// path"). A failure the model can fix is a Result with IsError set; the
// error return is only for the end of ctx. Call never panics: a panic in a
// tool becomes an error Result. A Tool not made by New (a struct literal)
// has nothing to run and returns an error Result.
func (t *Tool) Call(ctx context.Context, in json.RawMessage) (*Result, error) {
	if t.set == nil {
		return Errorf("%s is not a tool of a tool set (tools.New makes them)", t.Name), nil
	}
	return t.set.Call(ctx, t.id, in)
}

// call runs the tool itself, without hooks: only the set's call path
// (Set.callModel and Set.invoke) calls it.
func (t *Tool) call(ctx context.Context, in json.RawMessage) (res *Result, err error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	defer func() {
		if p := recover(); p != nil {
			res, err = Errorf("internal error in %s: %v", t.Name, p), nil
		}
	}()
	if r := t.checkRequired(in); r != nil {
		return r, nil
	}
	var undoID string
	var bracketed func()
	if t.undoable(in) {
		if undoID, bracketed, err = t.set.opts.Runtime.Bracket(ctx, "call"); err != nil {
			return fromError(err), nil
		}
	}
	res, err = t.run(ctx, in)
	if bracketed != nil {
		bracketed()
	}
	if err != nil {
		if ctxErr := ctx.Err(); ctxErr != nil {
			return nil, ctxErr
		}
		return fromError(err), nil
	}
	if undoID != "" && !res.IsError {
		note := fmt.Sprintf(`Undo this call with checkpoint {"action":"undo","name":%q}.`, undoID)
		if n := len(res.Content); n > 0 && res.Content[n-1].Type == TextContent {
			res.Content[n-1].Text = strings.TrimSuffix(res.Content[n-1].Text, "\n") + "\n" + note
		} else {
			res.Content = append(res.Content, Content{Type: TextContent, Text: note})
		}
	}
	return res, nil
}

// undoable reports whether a call of t with input in is bracketed by
// checkpoints (CheckpointOptions.EachCall): a call that may change files,
// not a dry run, and not exec or checkpoint (a run has checkpoints of its
// own; checkpoint is the rewinding itself).
func (t *Tool) undoable(in json.RawMessage) bool {
	o := t.set.opts
	return o.Checkpoint.Enabled && o.Checkpoint.EachCall && o.Runtime != nil && !t.Annotations.ReadOnly &&
		t.id != "exec" && t.id != "checkpoint" && !(&Call{Tool: t.id, Input: in}).DryRun()
}

// checkRequired refuses arguments that lack a property the input schema
// requires, naming the first one missing. Arguments that are not a JSON
// object are left to the tool's own decoding, which says what is wrong.
func (t *Tool) checkRequired(in json.RawMessage) *Result {
	if len(t.required) == 0 {
		return nil
	}
	var args map[string]json.RawMessage
	if len(bytes.TrimSpace(in)) == 0 {
		args = map[string]json.RawMessage{}
	} else if json.Unmarshal(in, &args) != nil {
		return nil
	}
	for _, k := range t.required {
		if _, ok := args[k]; !ok {
			return Errorf("invalid arguments for %s: %s is required", t.Name, k)
		}
	}
	return nil
}

// Result is what a tool returns to the model.
type Result struct {
	// Content is what the model reads: text, images, links.
	Content []Content
	// Structured is the result as a JSON value matching the tool's output
	// schema (nil for most errors; exec sets it for a run that failed).
	Structured any
	// IsError marks a failed call; Content then explains what to do.
	IsError bool
}

// ContentType is the kind of a Content part.
type ContentType string

// Content part kinds.
const (
	TextContent     ContentType = "text"
	ImageContent    ContentType = "image"    // Data holds the bytes, MIME the type
	DocumentContent ContentType = "document" // a PDF: Data and MIME
	LinkContent     ContentType = "resource_link"
)

// Content is one part of a Result.
type Content struct {
	Type ContentType
	Text string // TextContent
	MIME string // ImageContent, DocumentContent, LinkContent
	Data []byte // ImageContent, DocumentContent
	URI  string // LinkContent
	Name string // LinkContent: a title
}

// Text returns a successful result whose content is text and whose
// structured value is v.
func Text(text string, v any) *Result {
	return &Result{Content: []Content{{Type: TextContent, Text: text}}, Structured: v}
}

// JSON returns a successful result whose structured value is v, with v's
// compact JSON as the text content (for clients that only read text).
func JSON(v any) *Result {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return Errorf("internal error: cannot encode result: %v", err)
	}
	return Text(strings.TrimSuffix(buf.String(), "\n"), v)
}

// Errorf returns an error result with a formatted message.
func Errorf(format string, args ...any) *Result {
	msg := fmt.Sprintf(format, args...)
	return &Result{Content: []Content{{Type: TextContent, Text: msg}}, IsError: true}
}

// failure is a model-facing failure raised inside a workspace transaction:
// returning it rolls the transaction back, and Call turns it into an error
// result with its message.
type failure struct{ msg string }

func (e *failure) Error() string { return e.msg }

// fail returns a failure with a formatted message.
func fail(format string, args ...any) error { return &failure{fmt.Sprintf(format, args...)} }

// fromError turns an error into an error result; vfs errors already read as
// "<what>: <path>".
func fromError(err error) *Result {
	var f *failure
	if errors.As(err, &f) {
		return Errorf("%s", f.msg)
	}
	var pe *vfs.PathError
	if errors.As(err, &pe) {
		return Errorf("%s", pe.Error())
	}
	return Errorf("%v", err)
}

// decode reads the model's arguments into v strictly: unknown fields and
// trailing data are errors that name the problem.
func decode(toolName string, in json.RawMessage, v any) *Result {
	if len(bytes.TrimSpace(in)) == 0 {
		in = json.RawMessage("{}")
	}
	dec := json.NewDecoder(bytes.NewReader(in))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return Errorf("invalid arguments for %s: %s", toolName, jsonErrorText(err))
	}
	if dec.More() {
		return Errorf("invalid arguments for %s: trailing data after the JSON object", toolName)
	}
	return nil
}

func jsonErrorText(err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		if te.Field != "" {
			return fmt.Sprintf("%s must be %s, not %s", te.Field, jsonKind(te.Type.Kind().String()), te.Value)
		}
		return fmt.Sprintf("expected a JSON object, got %s", te.Value)
	}
	msg := err.Error()
	msg = strings.TrimPrefix(msg, "json: ")
	return msg
}

func jsonKind(k string) string {
	switch k {
	case "int", "int64", "int32", "uint", "float64":
		return "a number"
	case "string":
		return "a string"
	case "bool":
		return "a boolean"
	case "slice":
		return "an array"
	case "struct", "map", "ptr":
		return "an object"
	}
	return k
}
