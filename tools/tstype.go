package tools

import (
	"encoding/json"
	"sort"
	"strconv"
	"strings"
)

// tsType renders a JSON Schema (the subset the hand-written tool schemas
// use: type, enum, const, properties, required, additionalProperties,
// items, anyOf/oneOf) as a TypeScript type. indent is the indentation of
// the line the type starts on; object members go one level deeper, each
// with its description as a doc comment.
func tsType(raw json.RawMessage, indent string) string {
	if len(raw) == 0 {
		return "any"
	}
	var s map[string]json.RawMessage
	if json.Unmarshal(raw, &s) != nil {
		return "any" // true, false or not a schema
	}
	if c, ok := s["const"]; ok {
		return string(c)
	}
	if e, ok := s["enum"]; ok {
		var vals []json.RawMessage
		if json.Unmarshal(e, &vals) == nil && len(vals) > 0 {
			parts := make([]string, len(vals))
			for i, v := range vals {
				parts[i] = string(v)
			}
			return strings.Join(parts, " | ")
		}
	}
	for _, k := range []string{"anyOf", "oneOf"} {
		if alts, ok := s[k]; ok {
			var list []json.RawMessage
			if json.Unmarshal(alts, &list) == nil && len(list) > 0 {
				parts := make([]string, len(list))
				for i, a := range list {
					parts[i] = tsType(a, indent)
				}
				return strings.Join(parts, " | ")
			}
		}
	}
	var types []string
	if t, ok := s["type"]; ok {
		var one string
		if json.Unmarshal(t, &one) == nil {
			types = []string{one}
		} else {
			json.Unmarshal(t, &types)
		}
	}
	if len(types) == 0 {
		if _, ok := s["properties"]; ok {
			types = []string{"object"}
		} else {
			return "any"
		}
	}
	parts := make([]string, 0, len(types))
	for _, t := range types {
		switch t {
		case "string":
			parts = append(parts, "string")
		case "integer", "number":
			parts = append(parts, "number")
		case "boolean":
			parts = append(parts, "boolean")
		case "null":
			parts = append(parts, "null")
		case "array":
			item := tsType(s["items"], indent)
			if strings.ContainsAny(item, "|&") && !strings.HasPrefix(item, "{") {
				item = "(" + item + ")"
			}
			parts = append(parts, item+"[]")
		case "object":
			parts = append(parts, tsObject(s, indent))
		default:
			parts = append(parts, "any")
		}
	}
	return strings.Join(parts, " | ")
}

// tsObject renders an object schema.
func tsObject(s map[string]json.RawMessage, indent string) string {
	var props map[string]json.RawMessage
	json.Unmarshal(s["properties"], &props)
	var required []string
	json.Unmarshal(s["required"], &required)
	req := map[string]bool{}
	for _, r := range required {
		req[r] = true
	}
	extra := ""
	if ap, ok := s["additionalProperties"]; ok && string(ap) != "false" && string(ap) != "true" {
		extra = tsType(ap, indent+"  ")
	} else if len(props) == 0 {
		if string(ap) == "false" {
			return "{}"
		}
		return "Record<string, any>"
	}
	if len(props) == 0 {
		return "Record<string, " + extra + ">"
	}
	// The schemas' property order is not kept by a map: sort for a stable
	// declaration.
	names := make([]string, 0, len(props))
	for n := range props {
		names = append(names, n)
	}
	sort.Strings(names)
	var b strings.Builder
	b.WriteString("{\n")
	inner := indent + "  "
	for _, n := range names {
		var p struct {
			Description string `json:"description"`
		}
		json.Unmarshal(props[n], &p)
		if d := strings.TrimSpace(p.Description); d != "" {
			b.WriteString(inner + "/** " + strings.ReplaceAll(strings.ReplaceAll(d, "*/", "* /"), "\n", " ") + " */\n")
		}
		key := n
		if !tsIdent(n) {
			key = strconv.Quote(n)
		}
		opt := "?"
		if req[n] {
			opt = ""
		}
		b.WriteString(inner + key + opt + ": " + tsType(props[n], inner) + ";\n")
	}
	if extra != "" {
		b.WriteString(inner + "[key: string]: " + extra + ";\n")
	}
	b.WriteString(indent + "}")
	return b.String()
}

// tsIdent reports whether s can be an unquoted property name.
func tsIdent(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		if !(r == '_' || r == '$' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}
