package export

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
)

// Strict returns the OpenAI strict-mode ("structured outputs") variant of
// a JSON schema, compact, with the original key order kept:
//
//   - Every object schema (one with "properties", or whose "type" is or
//     includes "object") gets "additionalProperties": false, replacing any
//     value it had; if it has "properties", "required" lists every property
//     in the order of "properties".
//   - A property that was not required before becomes nullable: "null" is
//     added to its "type" (a string type becomes ["T","null"], an array
//     type gets "null" appended) and, if it has an "enum", null is appended
//     to the enum. A property schema without "type" becomes
//     {"anyOf":[SCHEMA,{"type":"null"}]}. A type that already allows null
//     is left alone.
//   - The transform applies recursively to the schemas under "properties",
//     "items", "prefixItems", "anyOf", "oneOf", "allOf", "$defs" and
//     "definitions".
//
// Nothing else changes; keywords strict mode may not support (such as
// "default" or "minimum") are passed through.
func Strict(schema json.RawMessage) ([]byte, error) {
	v, err := parseOrdered(schema)
	if err != nil {
		return nil, err
	}
	v = strictSchema(v)
	var buf bytes.Buffer
	writeOrdered(&buf, v)
	return buf.Bytes(), nil
}

// Strictable reports whether strict mode can express schema: every
// subschema has a "type" (or is built of anyOf/oneOf/allOf, $ref, enum or
// const), and no object takes extra properties by a schema (a map such as
// {"additionalProperties":{"type":"string"}}), since strict mode requires
// closed objects and typed values.
func Strictable(schema json.RawMessage) bool {
	v, err := parseOrdered(schema)
	return err == nil && strictable(v)
}

func strictable(v any) bool {
	o, ok := v.(*object)
	if !ok {
		return true
	}
	typed := false
	for _, k := range []string{"type", "anyOf", "oneOf", "allOf", "$ref", "enum", "const"} {
		if _, ok := o.get(k); ok {
			typed = true
		}
	}
	if !typed {
		return false
	}
	if ap, ok := o.get("additionalProperties"); ok {
		if _, isSchema := ap.(*object); isSchema {
			return false
		}
	}
	var subs []any
	if s, ok := o.get("items"); ok {
		subs = append(subs, s)
	}
	for _, k := range []string{"prefixItems", "anyOf", "oneOf", "allOf"} {
		if arr, ok := o.get(k); ok {
			if a, ok := arr.([]any); ok {
				subs = append(subs, a...)
			}
		}
	}
	for _, k := range []string{"properties", "$defs", "definitions"} {
		if m, ok := o.get(k); ok {
			if d, ok := m.(*object); ok {
				for _, name := range d.keys {
					subs = append(subs, d.vals[name])
				}
			}
		}
	}
	for _, s := range subs {
		if !strictable(s) {
			return false
		}
	}
	return true
}

func strictSchema(v any) any {
	o, ok := v.(*object)
	if !ok {
		return v // true/false schemas
	}
	if s, ok := o.get("items"); ok {
		o.set("items", strictSchema(s))
	}
	for _, k := range []string{"prefixItems", "anyOf", "oneOf", "allOf"} {
		if arr, ok := o.get(k); ok {
			if a, ok := arr.([]any); ok {
				for i := range a {
					a[i] = strictSchema(a[i])
				}
			}
		}
	}
	for _, k := range []string{"$defs", "definitions"} {
		if defs, ok := o.get(k); ok {
			if d, ok := defs.(*object); ok {
				for _, name := range d.keys {
					d.vals[name] = strictSchema(d.vals[name])
				}
			}
		}
	}
	props, hasProps := o.get("properties")
	if !hasProps && !hasType(o, "object") {
		return o
	}
	p, ok := props.(*object)
	if !ok {
		o.set("additionalProperties", false)
		return o
	}
	wasRequired := map[string]bool{}
	if req, ok := o.get("required"); ok {
		if r, ok := req.([]any); ok {
			for _, name := range r {
				if s, ok := name.(string); ok {
					wasRequired[s] = true
				}
			}
		}
	}
	required := make([]any, 0, len(p.keys))
	for _, name := range p.keys {
		s := strictSchema(p.vals[name])
		if !wasRequired[name] {
			s = nullable(s)
		}
		p.vals[name] = s
		required = append(required, name)
	}
	o.set("required", required)
	o.set("additionalProperties", false)
	return o
}

// hasType reports whether schema o's "type" is or includes t.
func hasType(o *object, t string) bool {
	typ, _ := o.get("type")
	switch typ := typ.(type) {
	case string:
		return typ == t
	case []any:
		return slices.Contains(typ, any(t))
	}
	return false
}

// nullable makes a property schema accept null too.
func nullable(v any) any {
	o, ok := v.(*object)
	if !ok {
		return v // true accepts null already; false stays false
	}
	typ, ok := o.get("type")
	if !ok {
		return &object{keys: []string{"anyOf"}, vals: map[string]any{
			"anyOf": []any{o, &object{keys: []string{"type"}, vals: map[string]any{"type": "null"}}},
		}}
	}
	switch t := typ.(type) {
	case string:
		if t == "null" {
			return o
		}
		o.set("type", []any{t, "null"})
	case []any:
		if slices.Contains(t, any("null")) {
			return o
		}
		o.set("type", append(t, "null"))
	default:
		return o
	}
	if enum, ok := o.get("enum"); ok {
		if e, ok := enum.([]any); ok && !slices.Contains(e, nil) {
			o.set("enum", append(e, nil))
		}
	}
	return o
}

// object is a JSON object that keeps its key order.
type object struct {
	keys []string
	vals map[string]any
}

func (o *object) get(k string) (any, bool) {
	v, ok := o.vals[k]
	return v, ok
}

// set replaces k's value in place, or appends k.
func (o *object) set(k string, v any) {
	if _, ok := o.vals[k]; !ok {
		o.keys = append(o.keys, k)
	}
	o.vals[k] = v
}

// parseOrdered decodes JSON into *object, []any, json.Number, string, bool
// and nil values.
func parseOrdered(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := decodeValue(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("trailing data after the schema")
	}
	return v, nil
}

func decodeValue(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch tok {
	case json.Delim('{'):
		o := &object{vals: map[string]any{}}
		for dec.More() {
			kt, err := dec.Token()
			if err != nil {
				return nil, err
			}
			k := kt.(string)
			v, err := decodeValue(dec)
			if err != nil {
				return nil, err
			}
			if _, dup := o.vals[k]; dup {
				return nil, fmt.Errorf("duplicate key %q", k)
			}
			o.keys = append(o.keys, k)
			o.vals[k] = v
		}
		_, err := dec.Token() // '}'
		return o, err
	case json.Delim('['):
		a := []any{}
		for dec.More() {
			v, err := decodeValue(dec)
			if err != nil {
				return nil, err
			}
			a = append(a, v)
		}
		_, err := dec.Token() // ']'
		return a, err
	}
	return tok, nil
}

func writeOrdered(buf *bytes.Buffer, v any) {
	switch v := v.(type) {
	case *object:
		buf.WriteByte('{')
		for i, k := range v.keys {
			if i > 0 {
				buf.WriteByte(',')
			}
			writeString(buf, k)
			buf.WriteByte(':')
			writeOrdered(buf, v.vals[k])
		}
		buf.WriteByte('}')
	case []any:
		buf.WriteByte('[')
		for i, e := range v {
			if i > 0 {
				buf.WriteByte(',')
			}
			writeOrdered(buf, e)
		}
		buf.WriteByte(']')
	case string:
		writeString(buf, v)
	case json.Number:
		buf.WriteString(v.String())
	case bool:
		if v {
			buf.WriteString("true")
		} else {
			buf.WriteString("false")
		}
	case nil:
		buf.WriteString("null")
	default:
		panic(fmt.Sprintf("export: unexpected JSON value %T", v))
	}
}

func writeString(buf *bytes.Buffer, s string) {
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	enc.Encode(s)
	buf.Truncate(buf.Len() - 1)
}
