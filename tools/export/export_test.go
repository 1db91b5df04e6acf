package export_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nookdev/nook"
	"github.com/nookdev/nook/tools"
	"github.com/nookdev/nook/tools/export"
)

func newSet(t *testing.T, readOnly bool) *tools.Set {
	t.Helper()
	// A fixed clock: results that show times (ls shows mtimes) compare
	// equal across workspaces.
	fixed := func() time.Time { return time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC) }
	ws, err := nook.OpenMemory(context.Background(), nook.WithClock(fixed))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	// With a publisher, so that publish's schema is exported and checked
	// too (a read-only set has no publish tool).
	return tools.New(ws.FS(), tools.Options{ReadOnly: readOnly, Publisher: linkStub{}})
}

// linkStub is a Publisher whose links go nowhere: the export tests read
// schemas only.
type linkStub struct{}

func (linkStub) Share(ctx context.Context, path string, d time.Duration) (string, error) {
	return "https://example.com" + path, nil
}

func compact(t *testing.T, raw []byte) string {
	t.Helper()
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		t.Fatalf("%v: %s", err, raw)
	}
	return b.String()
}

func marshal(t *testing.T, v any) string {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// checkDoc checks that a document is valid, compact and deterministic.
func checkDoc(t *testing.T, what string, doc []byte, again []byte) {
	t.Helper()
	if !json.Valid(doc) {
		t.Fatalf("%s: invalid JSON: %s", what, doc)
	}
	if got := compact(t, doc); got != string(doc) {
		t.Errorf("%s: not compact", what)
	}
	if !bytes.Equal(doc, again) {
		t.Errorf("%s: differs between calls", what)
	}
}

func TestMCP(t *testing.T) {
	for _, readOnly := range []bool{false, true} {
		set := newSet(t, readOnly)
		doc := export.MCP(set)
		checkDoc(t, "MCP", doc, export.MCP(newSet(t, readOnly)))
		var got struct {
			Tools []struct {
				Name         string
				Description  string
				InputSchema  json.RawMessage
				OutputSchema json.RawMessage
				Annotations  map[string]bool
			}
		}
		if err := json.Unmarshal(doc, &got); err != nil {
			t.Fatal(err)
		}
		want := set.Tools()
		if len(got.Tools) != len(want) {
			t.Fatalf("MCP: %d tools, want %d", len(got.Tools), len(want))
		}
		for i, tt := range want {
			g := got.Tools[i]
			if g.Name != tt.Name || g.Description != tt.Description {
				t.Errorf("tool %d: %s %q, want %s %q", i, g.Name, g.Description, tt.Name, tt.Description)
			}
			// Byte for byte the hand-written schema, compacted.
			if string(g.InputSchema) != compact(t, tt.InputSchema) {
				t.Errorf("%s: inputSchema\n%s\nwant\n%s", tt.Name, g.InputSchema, compact(t, tt.InputSchema))
			}
			if len(tt.OutputSchema) > 0 && string(g.OutputSchema) != compact(t, tt.OutputSchema) {
				t.Errorf("%s: outputSchema\n%s\nwant\n%s", tt.Name, g.OutputSchema, compact(t, tt.OutputSchema))
			}
			if len(tt.OutputSchema) == 0 && g.OutputSchema != nil {
				t.Errorf("%s: outputSchema %s, want none", tt.Name, g.OutputSchema)
			}
			wantAnn := map[string]bool{
				"readOnlyHint":    tt.Annotations.ReadOnly,
				"destructiveHint": tt.Annotations.Destructive,
				"idempotentHint":  tt.Annotations.Idempotent,
				"openWorldHint":   false,
			}
			if !reflect.DeepEqual(g.Annotations, wantAnn) {
				t.Errorf("%s: annotations %v, want %v", tt.Name, g.Annotations, wantAnn)
			}
		}
	}
}

type openAITool struct {
	Type     string
	Function struct {
		Name        string
		Description string
		Parameters  json.RawMessage
		Strict      *bool
	}
}

func TestOpenAI(t *testing.T) {
	set := newSet(t, false)
	doc := export.OpenAI(set, false)
	checkDoc(t, "OpenAI", doc, export.OpenAI(newSet(t, false), false))
	var got []openAITool
	if err := json.Unmarshal(doc, &got); err != nil {
		t.Fatal(err)
	}
	want := set.Tools()
	if len(got) != len(want) {
		t.Fatalf("OpenAI: %d tools, want %d", len(got), len(want))
	}
	for i, tt := range want {
		g := got[i]
		if g.Type != "function" || g.Function.Name != tt.Name || g.Function.Description != tt.Description || g.Function.Strict != nil {
			t.Errorf("tool %d: %+v", i, g)
		}
		if string(g.Function.Parameters) != compact(t, tt.InputSchema) {
			t.Errorf("%s: parameters\n%s\nwant\n%s", tt.Name, g.Function.Parameters, compact(t, tt.InputSchema))
		}
	}
}

func TestOpenAIStrict(t *testing.T) {
	set := newSet(t, false)
	doc := export.OpenAI(set, true)
	checkDoc(t, "OpenAI strict", doc, export.OpenAI(newSet(t, false), true))
	var got []openAITool
	if err := json.Unmarshal(doc, &got); err != nil {
		t.Fatal(err)
	}
	want := set.Tools()
	if len(got) != len(want) {
		t.Fatalf("OpenAI strict: %d tools, want %d", len(got), len(want))
	}
	for i, tt := range want {
		g := got[i]
		if g.Type != "function" || g.Function.Name != tt.Name || g.Function.Strict == nil || !*g.Function.Strict {
			t.Errorf("tool %d: %+v", i, g)
		}
		// The hand-written schema with the documented transform applied,
		// and nothing else changed.
		var in any
		if err := json.Unmarshal(tt.InputSchema, &in); err != nil {
			t.Fatal(err)
		}
		var out any
		if err := json.Unmarshal(g.Function.Parameters, &out); err != nil {
			t.Fatal(err)
		}
		if w, g := marshal(t, sortRequired(strictRef(in))), marshal(t, sortRequired(out)); g != w {
			t.Errorf("%s: strict parameters\n%s\nwant\n%s", tt.Name, g, w)
		}
	}
}

// strictRef is the reference for the documented strict transform, over
// encoding/json's generic values.
func strictRef(v any) any {
	o, ok := v.(map[string]any)
	if !ok {
		return v
	}
	if s, ok := o["items"]; ok {
		o["items"] = strictRef(s)
	}
	for _, k := range []string{"prefixItems", "anyOf", "oneOf", "allOf"} {
		if a, ok := o[k].([]any); ok {
			for i := range a {
				a[i] = strictRef(a[i])
			}
		}
	}
	for _, k := range []string{"$defs", "definitions"} {
		if d, ok := o[k].(map[string]any); ok {
			for name := range d {
				d[name] = strictRef(d[name])
			}
		}
	}
	props, hasProps := o["properties"]
	isObject := o["type"] == "object"
	if a, ok := o["type"].([]any); ok && slices.Contains(a, any("object")) {
		isObject = true
	}
	if !hasProps && !isObject {
		return o
	}
	o["additionalProperties"] = false
	p, ok := props.(map[string]any)
	if !ok {
		return o
	}
	req, _ := o["required"].([]any)
	var names []any
	for name, s := range p {
		s = strictRef(s)
		if !slices.Contains(req, any(name)) {
			s = nullableRef(s)
		}
		p[name] = s
		names = append(names, name)
	}
	o["required"] = names // in map order: compared after sortRequired
	return o
}

// sortRequired sorts every "required" list in a schema: the order of
// "properties" (which export keeps, see TestStrict) does not survive
// encoding/json's maps.
func sortRequired(v any) any {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			if a, ok := e.([]any); ok && k == "required" {
				slices.SortFunc(a, func(x, y any) int { return strings.Compare(fmt.Sprint(x), fmt.Sprint(y)) })
			}
			sortRequired(e)
		}
	case []any:
		for _, e := range v {
			sortRequired(e)
		}
	}
	return v
}

func nullableRef(v any) any {
	o, ok := v.(map[string]any)
	if !ok {
		return v
	}
	typ, ok := o["type"]
	if !ok {
		return map[string]any{"anyOf": []any{o, map[string]any{"type": "null"}}}
	}
	switch ty := typ.(type) {
	case string:
		if ty == "null" {
			return o
		}
		o["type"] = []any{ty, "null"}
	case []any:
		if slices.Contains(ty, any("null")) {
			return o
		}
		o["type"] = append(ty, "null")
	default:
		return o
	}
	if e, ok := o["enum"].([]any); ok && !slices.Contains(e, nil) {
		o["enum"] = append(e, nil)
	}
	return o
}

func TestAnthropic(t *testing.T) {
	set := newSet(t, true)
	doc := export.Anthropic(set)
	checkDoc(t, "Anthropic", doc, export.Anthropic(newSet(t, true)))
	var got []struct {
		Name        string
		Description string
		InputSchema json.RawMessage `json:"input_schema"`
	}
	if err := json.Unmarshal(doc, &got); err != nil {
		t.Fatal(err)
	}
	want := set.Tools()
	if len(got) != len(want) {
		t.Fatalf("Anthropic: %d tools, want %d", len(got), len(want))
	}
	for i, tt := range want {
		g := got[i]
		if g.Name != tt.Name || g.Description != tt.Description {
			t.Errorf("tool %d: %+v", i, g)
		}
		if string(g.InputSchema) != compact(t, tt.InputSchema) {
			t.Errorf("%s: input_schema\n%s\nwant\n%s", tt.Name, g.InputSchema, compact(t, tt.InputSchema))
		}
		if !tt.Annotations.ReadOnly {
			t.Errorf("read-only set exports %s", tt.Name)
		}
	}
}

func TestStrict(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		// Key order kept; optional made nullable; required lists every
		// property in the order of "properties".
		{`{"type":"object","properties":{"b":{"type":"string"},"a":{"type":"integer","minimum":1}},"required":["a"]}`,
			`{"type":"object","properties":{"b":{"type":["string","null"]},"a":{"type":"integer","minimum":1}},"required":["b","a"],"additionalProperties":false}`},
		// An existing additionalProperties is replaced in place.
		{`{"type":"object","additionalProperties":true,"properties":{"x":{"type":"boolean"}}}`,
			`{"type":"object","additionalProperties":false,"properties":{"x":{"type":["boolean","null"]}},"required":["x"]}`},
		// Enums get null; a type array gets null appended; null types stay.
		{`{"type":"object","properties":{"e":{"type":"string","enum":["a","b"]},"t":{"type":["string","integer"]},"n":{"type":["string","null"]}}}`,
			`{"type":"object","properties":{"e":{"type":["string","null"],"enum":["a","b",null]},"t":{"type":["string","integer","null"]},"n":{"type":["string","null"]}},"required":["e","t","n"],"additionalProperties":false}`},
		// A property without a type is wrapped in anyOf.
		{`{"type":"object","properties":{"v":{"description":"any value"}}}`,
			`{"type":"object","properties":{"v":{"anyOf":[{"description":"any value"},{"type":"null"}]}},"required":["v"],"additionalProperties":false}`},
		// Nested objects, arrays of objects, anyOf branches and $defs.
		{`{"type":"object","properties":{"edits":{"type":"array","items":{"type":"object","properties":{"old":{"type":"string"},"all":{"type":"boolean"}},"required":["old"]}},"opt":{"type":"object","properties":{"k":{"type":"string"}},"required":["k"]},"u":{"anyOf":[{"type":"object","properties":{"z":{"type":"number"}}},{"type":"string"}]},"r":{"$ref":"#/$defs/R"}},"required":["edits","u","r"],"$defs":{"R":{"type":"object","properties":{"q":{"type":"string"}}}}}`,
			`{"type":"object","properties":{"edits":{"type":"array","items":{"type":"object","properties":{"old":{"type":"string"},"all":{"type":["boolean","null"]}},"required":["old","all"],"additionalProperties":false}},"opt":{"type":["object","null"],"properties":{"k":{"type":"string"}},"required":["k"],"additionalProperties":false},"u":{"anyOf":[{"type":"object","properties":{"z":{"type":["number","null"]}},"required":["z"],"additionalProperties":false},{"type":"string"}]},"r":{"$ref":"#/$defs/R"}},"required":["edits","opt","u","r"],"$defs":{"R":{"type":"object","properties":{"q":{"type":["string","null"]}},"required":["q"],"additionalProperties":false}},"additionalProperties":false}`},
		// An object without properties is closed; strings keep <, > and &.
		{`{"type":"object","description":"a <b> & c"}`, `{"type":"object","description":"a <b> & c","additionalProperties":false}`},
		// Numbers keep their text.
		{`{"type":"object","properties":{"n":{"type":"number","maximum":1e3,"default":0.50}},"required":["n"]}`,
			`{"type":"object","properties":{"n":{"type":"number","maximum":1e3,"default":0.50}},"required":["n"],"additionalProperties":false}`},
	} {
		got, err := export.Strict(json.RawMessage(c.in))
		if err != nil {
			t.Errorf("Strict(%s): %v", c.in, err)
			continue
		}
		if string(got) != c.want {
			t.Errorf("Strict(%s)\n got %s\nwant %s", c.in, got, c.want)
		}
	}
	for _, bad := range []string{`{"type":`, `{"a":1,"a":2}`, `{} {}`} {
		if _, err := export.Strict(json.RawMessage(bad)); err == nil {
			t.Errorf("Strict(%s): no error", bad)
		}
	}
}

// TestStrictNulls checks that the tools accept what a strict-mode model
// sends: every optional argument present, as null, with the same result as
// leaving it out.
func TestStrictNulls(t *testing.T) {
	ctx := context.Background()
	calls := map[string]string{
		"read":    `{"path":"/src/a.txt"}`,
		"ls":      `{"path":"/src"}`,
		"find":    `{"pattern":"**/*.txt"}`,
		"grep":    `{"query":"TODO"}`,
		"write":   `{"path":"/src/b.txt","content":"new\n"}`,
		"edit":    `{"path":"/src/a.txt","edits":[{"oldText":"TODO","newText":"DONE"}]}`,
		"patch":   "{\"patch\":\"*** Begin Patch\\n*** Add File: /c.txt\\n+hi\\n*** End Patch\"}",
		"move":    `{"from":"/src/a.txt","to":"/a.txt"}`,
		"delete":  `{"path":"/src","recursive":true}`,
		"publish": `{"path":"/src/a.txt"}`,
	}
	fresh := func() *tools.Set {
		set := newSet(t, false)
		if res, err := set.Call(ctx, "write", json.RawMessage(`{"path":"/src/a.txt","content":"hello TODO\n"}`)); err != nil || res.IsError {
			t.Fatalf("setup write: %v %+v", err, res)
		}
		return set
	}
	text := func(r *tools.Result) string {
		var b strings.Builder
		for _, c := range r.Content {
			b.WriteString(c.Text)
		}
		return b.String()
	}
	for _, tt := range newSet(t, false).Tools() {
		args, ok := calls[tt.Name]
		if !ok {
			t.Errorf("no test call for tool %s: add one to TestStrictNulls", tt.Name)
			continue
		}
		var schema struct {
			Properties map[string]json.RawMessage
			Required   []string
		}
		if err := json.Unmarshal(tt.InputSchema, &schema); err != nil {
			t.Fatal(err)
		}
		var withNulls map[string]any
		if err := json.Unmarshal([]byte(args), &withNulls); err != nil {
			t.Fatal(err)
		}
		for name := range schema.Properties {
			if _, set := withNulls[name]; !set && !slices.Contains(schema.Required, name) {
				withNulls[name] = nil
			}
		}
		plain, err := fresh().Call(ctx, tt.Name, json.RawMessage(args))
		if err != nil {
			t.Fatal(err)
		}
		if plain.IsError {
			t.Errorf("%s %s: %s (update the calls of TestStrictNulls?)", tt.Name, args, text(plain))
			continue
		}
		nulls, err := fresh().Call(ctx, tt.Name, json.RawMessage(marshal(t, withNulls)))
		if err != nil {
			t.Fatal(err)
		}
		if nulls.IsError || text(nulls) != text(plain) {
			t.Errorf("%s with nulls %s:\n%s\nwant\n%s", tt.Name, marshal(t, withNulls), text(nulls), text(plain))
		}
	}
}

func TestStrictable(t *testing.T) {
	for _, c := range []struct {
		schema string
		want   bool
	}{
		{`{"type":"object","properties":{"a":{"type":"string"}}}`, true},
		{`{"type":"object","properties":{"env":{"type":"object","additionalProperties":{"type":"string"}}}}`, false},
		{`{"type":"object","properties":{"input":{"description":"any JSON value"}}}`, false},
		{`{"type":"object","properties":{"u":{"anyOf":[{"type":"string"},{"type":"integer"}]}}}`, true},
		{`{"type":"object","properties":{"l":{"type":"array","items":{}}}}`, false},
	} {
		if got := export.Strictable(json.RawMessage(c.schema)); got != c.want {
			t.Errorf("Strictable(%s) = %v", c.schema, got)
		}
	}
}
