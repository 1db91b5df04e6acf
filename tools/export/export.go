// Package export writes a tool set's definitions in the shapes model APIs
// take: MCP's tools/list, OpenAI Chat Completions and Responses function
// tools (plain or strict) and Anthropic's tool parameters.
//
// Every function returns compact, deterministic JSON: tools in the set's
// order, wrapper keys in a fixed order, and each tool's hand-written
// InputSchema passed through byte for byte (compacted, key order kept).
// The one exception is the strict OpenAI variant, which applies the
// transform documented at OpenAI.
package export

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/nookdev/nook/tools"
)

// MCP returns the tools/list result for set:
//
//	{"tools":[{"name","description","inputSchema","outputSchema","annotations"}]}
//
// annotations holds readOnlyHint, destructiveHint, idempotentHint and
// openWorldHint (always false). outputSchema is left out for a tool
// without one.
func MCP(set *tools.Set) []byte {
	var b jsonBuf
	b.raw(`{"tools":[`)
	for i, t := range set.Tools() {
		if i > 0 {
			b.raw(",")
		}
		b.raw(`{"name":`)
		b.str(t.Name)
		b.raw(`,"description":`)
		b.str(t.Description)
		b.raw(`,"inputSchema":`)
		b.schema(t.Name, t.InputSchema)
		if len(t.OutputSchema) > 0 {
			b.raw(`,"outputSchema":`)
			b.schema(t.Name, t.OutputSchema)
		}
		a := t.Annotations
		fmt.Fprintf(&b.Buffer, `,"annotations":{"readOnlyHint":%t,"destructiveHint":%t,"idempotentHint":%t,"openWorldHint":false}}`,
			a.ReadOnly, a.Destructive, a.Idempotent)
	}
	b.raw("]}")
	return b.Bytes()
}

// OpenAI returns set as Chat Completions function tools:
//
//	[{"type":"function","function":{"name","description","parameters"[,"strict":true]}}]
//
// Without strict, parameters is the tool's InputSchema unchanged. With
// strict, parameters is Strict(InputSchema) and "strict":true is set, for
// every tool whose schema strict mode can express (see Strictable); a
// tool whose schema it cannot (exec's free-form input and env map) keeps
// its schema unchanged with an explicit "strict":false.
func OpenAI(set *tools.Set, strict bool) []byte {
	var b jsonBuf
	b.raw("[")
	for i, t := range set.Tools() {
		if i > 0 {
			b.raw(",")
		}
		b.raw(`{"type":"function","function":{"name":`)
		b.str(t.Name)
		b.raw(`,"description":`)
		b.str(t.Description)
		b.raw(`,"parameters":`)
		if strict && Strictable(t.InputSchema) {
			s, err := Strict(t.InputSchema)
			if err != nil {
				panic(fmt.Sprintf("export: input schema of %s: %v", t.Name, err))
			}
			b.Write(s)
			b.raw(`,"strict":true`)
		} else {
			b.schema(t.Name, t.InputSchema)
			if strict {
				// Said outright, so that a reader (and an API whose
				// default is strict) sees this tool is not.
				b.raw(`,"strict":false`)
			}
		}
		b.raw("}}")
	}
	b.raw("]")
	return b.Bytes()
}

// Anthropic returns set as Anthropic Messages API tool parameters:
//
//	[{"name","description","input_schema"}]
func Anthropic(set *tools.Set) []byte {
	var b jsonBuf
	b.raw("[")
	for i, t := range set.Tools() {
		if i > 0 {
			b.raw(",")
		}
		b.raw(`{"name":`)
		b.str(t.Name)
		b.raw(`,"description":`)
		b.str(t.Description)
		b.raw(`,"input_schema":`)
		b.schema(t.Name, t.InputSchema)
		b.raw("}")
	}
	b.raw("]")
	return b.Bytes()
}

type jsonBuf struct{ bytes.Buffer }

func (b *jsonBuf) raw(s string) { b.WriteString(s) }

// str writes s as a JSON string without HTML escaping.
func (b *jsonBuf) str(s string) {
	enc := json.NewEncoder(&b.Buffer)
	enc.SetEscapeHTML(false)
	enc.Encode(s) // a string always encodes
	b.Truncate(b.Len() - 1)
}

// schema writes a hand-written schema compacted, bytes otherwise unchanged.
func (b *jsonBuf) schema(tool string, s json.RawMessage) {
	if len(s) == 0 {
		b.raw(`{"type":"object"}`)
		return
	}
	if err := json.Compact(&b.Buffer, s); err != nil {
		panic(fmt.Sprintf("export: schema of %s is not valid JSON: %v", tool, err))
	}
}
