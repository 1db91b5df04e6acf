package tools

import (
	"bytes"
	"encoding/json"
)

// Redact returns a copy of r with replace applied to every string it
// carries: the text of each text part, the name and URI of each part, and
// every string and object key of the structured value. An After hook that
// hides a secret must change both the text and the structured value, since
// MCP sends the structured value to the client as structuredContent beside
// the text, and ws:tools returns it to code; Redact does both:
//
//	hide := strings.NewReplacer("hunter2", "[redacted]").Replace
//	tools.Hook{After: func(ctx context.Context, c *tools.Call, r *tools.Result) *tools.Result {
//		return tools.Redact(r, hide)
//	}}
//
// The structured value is redacted as JSON (it goes through a JSON round
// trip, numbers kept exact); a value that is not JSON is dropped, since
// it could not be sent anyway. Image and document bytes are left as they
// are.
func Redact(r *Result, replace func(string) string) *Result {
	if r == nil {
		return nil
	}
	out := &Result{IsError: r.IsError, Content: make([]Content, len(r.Content))}
	for i, c := range r.Content {
		c.Text = replace(c.Text)
		c.Name = replace(c.Name)
		c.URI = replace(c.URI)
		out.Content[i] = c
	}
	if r.Structured == nil {
		return out
	}
	b, err := json.Marshal(r.Structured)
	if err != nil {
		return out
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return out
	}
	out.Structured = redactValue(v, replace)
	return out
}

// redactValue applies replace to every string and key of a decoded JSON
// value.
func redactValue(v any, replace func(string) string) any {
	switch x := v.(type) {
	case string:
		return replace(x)
	case []any:
		for i := range x {
			x[i] = redactValue(x[i], replace)
		}
		return x
	case map[string]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[replace(k)] = redactValue(e, replace)
		}
		return m
	}
	return v
}
