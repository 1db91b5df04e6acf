package host

import (
	"encoding/base64"
	"encoding/json"
)

// The journal stores requests and results as JSON. Binary data ([]byte in
// a call's arguments or result) is kept as {"$b": "<base64>"} so that it
// comes back as []byte; a map of the program's own that looks like that
// is escaped as {"$esc": map}. Map keys are sorted (encoding/json does), so
// equal values encode to equal bytes, which is how a replay compares a
// request with the recorded one.

// EncodeValue encodes a call's request or result v (JSON-compatible, with
// []byte for binary data) as the journal stores it.
func EncodeValue(v any) ([]byte, error) { return json.Marshal(wrapBytes(v)) }

func wrapBytes(v any) any {
	switch x := v.(type) {
	case []byte:
		return map[string]any{"$b": base64.StdEncoding.EncodeToString(x)}
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = wrapBytes(e)
		}
		if len(x) == 1 {
			if _, ok := x["$b"]; ok {
				return map[string]any{"$esc": out}
			}
			if _, ok := x["$esc"]; ok {
				return map[string]any{"$esc": out}
			}
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = wrapBytes(e)
		}
		return out
	case int:
		return float64(x)
	case int64:
		return float64(x)
	}
	return v
}

// DecodeValue decodes what EncodeValue encoded; empty input is nil.
func DecodeValue(b []byte) (any, error) {
	if len(b) == 0 {
		return nil, nil
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		return nil, err
	}
	return unwrapBytes(v), nil
}

func unwrapBytes(v any) any {
	switch x := v.(type) {
	case map[string]any:
		if len(x) == 1 {
			if s, ok := x["$b"].(string); ok {
				if b, err := base64.StdEncoding.DecodeString(s); err == nil {
					return b
				}
			}
			if m, ok := x["$esc"].(map[string]any); ok {
				out := make(map[string]any, len(m))
				for k, e := range m {
					out[k] = unwrapBytes(e)
				}
				return out
			}
		}
		for k, e := range x {
			x[k] = unwrapBytes(e)
		}
		return x
	case []any:
		for i, e := range x {
			x[i] = unwrapBytes(e)
		}
		return x
	}
	return v
}
